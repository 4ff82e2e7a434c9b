#!/bin/sh
# judge.sh OUT RD T0: the host's side of make vmtest.  Reads what the guest
# left in OUT (one NAME.json per `check`, bundles, NAME.setup when the
# guest could not set a scenario up), analyses the bundles with RD (collect
# and sosreport are held to healthy's check: they run in its state), and
# prints one line per scenario of OUT/scenarios.txt, then the time since
# T0 and "N passed, N failed" (", N skipped" when the guest skipped one
# that no longer fitted in its time budget).  Exits 1 when a scenario
# failed.
set -u
OUT=$1
RD=$2
T0=$3
pass=0
failn=0
skipn=0
export RDMADOCTOR_NO_COLOR=1

# The severities that make check exit 1.
WARN='select(.severity == "warning" or .severity == "error" or .severity == "critical")'

top() { # JSON: "id layer" of the #1 diagnosis, or "none"
	jq -r '(.diagnoses[0] // {id: "none", layer: "-"}) | "\(.id) \(.layer)"' "$1" 2>/dev/null
}
warnings() { # JSON: the ids at warning or above, sorted, one line
	jq -r "[.diagnoses[] | $WARN | .id] | sort | join(\",\")" "$1" 2>/dev/null
}
ids() { # JSON: every diagnosis id, sorted, one line
	jq -r '[.diagnoses[].id] | sort | join(",")' "$1" 2>/dev/null
}
valid() { jq -e .diagnoses "$1" >/dev/null 2>&1; }

# The special scenarios: each prints why it fails, nothing when it passes.
judge_healthy() {
	j=$OUT/healthy.json
	w=$(warnings "$j")
	[ -z "$w" ] || echo "warnings: $w"
	jq -e '.collectors[] | select(.name == "verbs") | .detail |
		test("smoke test passed")' "$j" >/dev/null ||
		echo "smoke test not shown as passed: $(jq -r '.collectors[] | select(.name == "verbs") | .detail' "$j")"
	jq -e '.collectors[] | select(.name == "loopback_bw") |
		.status == "ok" and (.detail | test("exited") | not)' "$j" >/dev/null ||
		echo "loopback ib_write_bw: $(jq -r '.collectors[] | select(.name == "loopback_bw") | .detail' "$j")"
	jq -e '.diagnoses[] | select(.id == "bw-software-device" or .id == "bw-below-line-rate")' \
		"$j" >/dev/null || echo "the loopback result is not judged against the port rate"
}

judge_collect() {
	"$RD" analyze --json -q "$OUT/collect.tar.gz" >"$OUT/collect.json" 2>"$OUT/collect.analyze.err"
	valid "$OUT/collect.json" || {
		echo "analyze failed: $(head -c 200 "$OUT/collect.analyze.err")"
		return
	}
	a=$(ids "$OUT/collect.json")
	c=$(ids "$OUT/healthy.json")
	[ "$a" = "$c" ] || echo "analyze gives [$a], healthy's check gave [$c]"
	w=$(warnings "$OUT/collect.json")
	[ -z "$w" ] || echo "warnings: $w"
}

judge_sosreport() {
	tb=$(ls "$OUT"/sosreport-*.tar.* 2>/dev/null | grep -v '\.sha256$' | head -n 1)
	[ -n "$tb" ] || {
		echo "no sosreport tarball"
		return
	}
	"$RD" analyze --json -q "$tb" >"$OUT/sosreport.json" 2>"$OUT/sosreport.analyze.err"
	valid "$OUT/sosreport.json" || {
		echo "analyze failed: $(head -c 200 "$OUT/sosreport.analyze.err")"
		return
	}
	"$RD" facts --json -q "$tb" 2>/dev/null |
		jq -e '[.facts[] | select(.kind == "hca" and .fields.name == "rxe0")] | length > 0' \
			>/dev/null || echo "rxe0 not found in the sosreport"
	a=$(warnings "$OUT/sosreport.json")
	c=$(warnings "$OUT/healthy.json")
	[ "$a" = "$c" ] || echo "sosreport's verdict [$a], healthy's check's [$c]"
}

# a bundle and the perftest client's output, analysed together
prepare_connect() {
	"$RD" analyze --json -q "$OUT/connect.tar.gz" "$OUT/connect.client" \
		>"$OUT/connect.json" 2>"$OUT/connect.analyze.err"
}

# VM_ONLY: only the scenarios asked for, with their expectations
list=$OUT/scenarios.txt
if [ -f "$OUT/only" ]; then
	list=$OUT/expect
	awk 'NR == FNR { only[$1] = 1; next } $1 in only' "$OUT/only" \
		"$OUT/scenarios.txt" >"$list"
fi
while read -r name want layer text; do
	case "$name" in '' | '#'*) continue ;; esac
	t=$(cat "$OUT/$name.time" 2>/dev/null || echo "?")
	why=""
	if [ -f "$OUT/$name.skip" ]; then
		skipn=$((skipn + 1))
		printf 'skip %-12s not run: %s\n' "$name" "$(cat "$OUT/$name.skip")"
		continue
	elif [ -f "$OUT/$name.setup" ]; then
		why="setup: $(tr '\n' ' ' <"$OUT/$name.setup")"
	elif [ ! -f "$OUT/$name.time" ]; then
		why="did not run (the guest stopped before it)"
	else
		case "$name" in
		healthy | collect | sosreport)
			valid "$OUT/healthy.json" ||
				why="no check output of healthy: $(head -c 200 "$OUT/healthy.err" 2>/dev/null)"
			[ -n "$why" ] || why=$("judge_$name" | tr '\n' ';')
			got="as expected"
			;;
		*)
			[ "$name" = connect ] && prepare_connect
			if ! valid "$OUT/$name.json"; then
				why="no check output: $(head -c 200 "$OUT/$name.err" 2>/dev/null)"
			else
				got=$(top "$OUT/$name.json")
				[ "$got" = "$want $layer" ] || why="#1 is $got"
				if [ -z "$why" ] && [ -n "$text" ] &&
					! jq -e --arg re "$text" '.diagnoses[0] |
						(.message + " " + (.remediation | join(" "))) | test($re)' \
						"$OUT/$name.json" >/dev/null; then
					why="#1 does not say /$text/"
				fi
			fi
			;;
		esac
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		case "$name" in
		healthy | collect | sosreport) printf 'ok   %-12s %s (%ss)\n' "$name" "$got" "$t" ;;
		*) printf 'ok   %-12s #1 %s (%ss)\n' "$name" "$got" "$t" ;;
		esac
	else
		failn=$((failn + 1))
		printf 'FAIL %-12s expected %s %s: %s (%ss)\n' "$name" "$want" "$layer" "$why" "$t"
	fi
done <"$list"
echo "vmtest: whole run $(($(date +%s) - T0)) s"
if [ "$skipn" -gt 0 ]; then
	echo "$pass passed, $failn failed, $skipn skipped"
else
	echo "$pass passed, $failn failed"
fi
[ "$failn" -eq 0 ]
