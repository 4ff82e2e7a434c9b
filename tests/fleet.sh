#!/bin/sh
# Fleets: batch over 204 generated bundles (root trees, their tarballs,
# sosreports extracted and as tarballs, and four that cannot be read) with
# the summary's counts checked exactly; input forms (directories of
# bundles, list files, stdin); --jobs 1 and 2 giving the same output; the
# progress bar on a terminal; an interrupt; and check --nhc on a healthy
# and a faulty host.
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
# Under valgrind (make valgrind) the batches of the whole fleet run the
# plain binary (ASan runs them instrumented); a small mixed batch runs
# under valgrind below.
FLEET_BIN=$BIN
[ -n "${RD_VALGRIND:-}" ] && FLEET_BIN=${RD_REAL_BIN:?}
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL fleet: $*"; fail=$((fail + 1)); }

# check NAME WANT GOT
check() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', want '$2'"; fi
}

. tests/fleetgen.sh
# The fleet (tests/fleetgen.sh): 200 bundles of four kinds, and four that
# cannot be read (plus, in the list below, a missing path).
F=$T/fleet
make_fleet "$F" "$T/stage"

start=$(date +%s)
"$FLEET_BIN" batch --json --jobs 2 "$F" "$T/missing-bundle" > "$T/fleet.jsonl" 2> "$T/fleet.err"
rc=$?
end=$(date +%s)
check "batch exit code with unreadable bundles" 2 $rc
check "JSON lines: 204 hosts and the summary" 205 "$(wc -l < "$T/fleet.jsonl")"
S=$(tail -n 1 "$T/fleet.jsonl")
check "counts" "204 200 4 80 0 120 2" \
	"$(echo "$S" | jq -r '.fleet | "\(.bundles) \(.analysed) \(.failed) \(.fault) \(.warning) \(.ok) \(.exit)"')"
check "diagnoses across the fleet" "fw-below-driver-minimum 80 node[081-140,181-200]" \
	"$(echo "$S" | jq -r '.fleet.diagnoses | map("\(.id) \(.count) \(.hostlist)") | join(";")')"
check "the diagnosis lists its hosts" 80 \
	"$(echo "$S" | jq '.fleet.diagnoses[0].hosts | unique | length')"
check "mixed firmware" "ConnectX-5 true 16.28.1002:40:node[141-180] 16.27.4000:80:node[001-080] 16.26.1040:80:node[081-140,181-200]" \
	"$(echo "$S" | jq -r '.fleet.firmware[] | "\(.family) \(.mixed) " + (.versions | map("\(.fw_ver):\(.count):\(.hostlist)") | join(" "))')"
check "failures and reasons" \
"$F/README.txt: not a bundle: neither a bundle directory nor a tar archive
$F/node990-truncated.tar.gz: cannot decompress (cut short or damaged?): truncated gzip input
$F/node991-empty: not a bundle: a directory without a sosreport, snapshot, sysinfo-snapshot or sys/ and proc/ layout
$T/missing-bundle: cannot read: No such file or directory" \
	"$(echo "$S" | jq -r '.fleet.failures[] | "\(.path): \(.reason)"')"
# A site's profile of the expected state (tests/fixtures/site-profile: the
# class node001-node149 runs MLNX_OFED 5.8 or later on mlx5_0 and mlx5_1;
# the fleet runs 5.7 on mlx5_0 alone): each deviation is counted across the
# fleet, on the class's hosts only, beside the shipped rules' findings.
"$FLEET_BIN" batch --json --jobs 2 --rules tests/fixtures/site-profile "$F" > "$T/site.jsonl" 2> /dev/null
check "site profile deviations across the fleet" \
	"site-adapter-missing 149 node[001-149];site-ofed-driver-below-minimum 149 node[001-149];fw-below-driver-minimum 80 node[081-140,181-200]" \
	"$(tail -n 1 "$T/site.jsonl" | jq -r '.fleet.diagnoses | map("\(.id) \(.count) \(.hostlist)") | join(";")')"
check "host lines: one per input, failures with their reason" "200 4" \
	"$(head -n 204 "$T/fleet.jsonl" | jq -s '"\(map(select(.diagnoses)) | length) \(map(select(.error)) | length)"' -r)"
check "host lines are analyze --json objects" "schema_version,version,verdict,source,layers,diagnoses,skipped,collectors" \
	"$(jq -r 'select(.layers) | keys_unsorted | join(",")' "$T/fleet.jsonl" | sort -u)"
check "host lines in input order" "node001 node200" \
	"$(jq -r 'select(.source.hostname != "") | .source.hostname' "$T/fleet.jsonl" | sed -n '1p;200p' | tr '\n' ' ' | sed 's/ $//')"
check "no host named twice" 0 "$(echo "$S" | jq '.fleet.duplicates | length')"
[ -s "$T/fleet.err" ] && bad "batch wrote to stderr: $(head -3 "$T/fleet.err")" || ok
echo "fleet: 204 bundles analysed in $((end - start)) s"

# The text summary says the same.
"$FLEET_BIN" batch --jobs 1 "$F" "$T/missing-bundle" > "$T/fleet.txt" 2>&1
grep -q '^Fleet: 204 bundles; 200 analysed (80 FAULT, 0 warning, 120 ok), 4 could not be read.$' "$T/fleet.txt" && ok ||
	bad "text summary: $(grep '^Fleet' "$T/fleet.txt")"
grep -q '^     80  error    fw-below-driver-minimum  \[firmware\]' "$T/fleet.txt" && ok || bad "text diagnosis count"
grep -q '^  ConnectX-5: 3 versions (mixed)$' "$T/fleet.txt" && ok || bad "text firmware view"
check "text: a line per input" 204 "$(grep -c '^\(FAULT\|ok\|warning\|failed\)  *' "$T/fleet.txt")"

# --jobs 1 and --jobs 2 write the same.
"$FLEET_BIN" batch --json --jobs 1 "$F" "$T/missing-bundle" > "$T/j1.jsonl" 2>/dev/null
cmp -s "$T/j1.jsonl" "$T/fleet.jsonl" && ok || bad "--jobs 1 and --jobs 2 differ"

printf 'hello\nworld\n' > "$T/prose.txt"

# Shards of a job array merge into the fleet of one run.
ls -d "$F"/node0* > "$T/shard1.list"
{ ls -d "$F"/* | grep -v -e '/node0' -e sha256; echo "$T/missing-bundle"; } > "$T/shard2.list"
"$FLEET_BIN" batch --json "$T/shard1.list" > "$T/shard1.jsonl" 2>/dev/null
"$FLEET_BIN" batch --json - < "$T/shard2.list" > "$T/shard2.jsonl" 2>/dev/null
"$FLEET_BIN" batch --merge --json "$T/shard1.jsonl" "$T/shard2.jsonl" > "$T/merged.json"
check "merged exit code" 2 $?
check "merged shards equal one run" \
	"$(tail -n 1 "$T/fleet.jsonl" | jq -S '.fleet | del(.hosts, .failures)')" \
	"$(jq -S '.fleet | del(.hosts, .failures)' "$T/merged.json")"
check "merged hosts" "$(tail -n 1 "$T/fleet.jsonl" | jq -c '[.fleet.hosts[].name] | sort')" \
	"$(jq -c '[.fleet.hosts[].name] | sort' "$T/merged.json")"
"$FLEET_BIN" batch --merge "$T/prose.txt" > "$T/out" 2>&1
check "merge of a file without a summary" 2 $?

# Lists: a file of paths, and standard input; exit 1 for faults, 0 for a
# healthy fleet.
ls -d "$F"/node0[0-7][0-9] "$F"/node080 | grep -v node000 > "$T/healthy.list"
"$FLEET_BIN" batch "$T/healthy.list" > "$T/out" 2>&1
check "a healthy fleet from a list" "0 Fleet: 80 bundles; 80 analysed (0 FAULT, 0 warning, 80 ok), 0 could not be read." \
	"$? $(grep '^Fleet' "$T/out")"
ls -d "$F"/node08* "$F"/node14* | "$FLEET_BIN" batch --json - > "$T/out" 2>&1
check "a fleet with faults from stdin" "1 20 10 10" \
	"$? $(tail -n 1 "$T/out" | jq -r '.fleet | "\(.analysed) \(.fault) \(.ok)"')"
"$FLEET_BIN" batch "$T/prose.txt" > "$T/out" 2>&1
check "a file that is neither bundle nor list" 2 $?
grep -q 'prose.txt: not a bundle: neither a tar archive nor a list of bundle paths' "$T/out" && ok ||
	bad "prose as a list: $(cat "$T/out")"
"$FLEET_BIN" batch > "$T/out" 2>&1
check "batch without paths" "2 rdmadoctor: error: batch needs at least one path (bundles, a directory of bundles, a list, or '-')" \
	"$? $(cat "$T/out")"
"$FLEET_BIN" batch --jobs 0 "$F" > "$T/out" 2>&1
check "--jobs 0" 2 $?

# Rules that fail to load stop the batch before any bundle.
mkdir -p "$T/badrules"
printf 'language: 1\nrules:\n  - id: x\n    titel: T\n' > "$T/badrules/bad.yaml"
"$FLEET_BIN" batch --rules "$T/badrules" "$F/node001" > "$T/out" 2>&1
check "rules that fail to load" 3 $?

# The progress bar on a terminal, and an interrupt: on a terminal, batch
# shows done/total, rate and ETA; Ctrl-C stops it and the summary still
# accounts for every bundle.
if command -v tmux > /dev/null 2>&1; then
	tm() { tmux -S "$T/tmux.sock" -f /dev/null "$@"; }
	tm new-session -d -x 100 -y 30 \
		"env -u NO_PROGRESS $FLEET_BIN batch --jobs 1 $F > $T/tty.out; echo rc=\$? >> $T/tty.out; sleep 30"
	seen=""
	for _ in $(seq 1 100); do
		pane=$(tm capture-pane -p 2> /dev/null)
		if echo "$pane" | grep -q '\[#* *\] [0-9][0-9]*/203  [0-9.]*/s  ETA [0-9]*:[0-9][0-9]'; then
			seen=yes
			break
		fi
		sleep 0.05
	done
	[ -n "$seen" ] && ok || bad "no progress bar on the terminal: $pane"
	tm send-keys C-c
	for _ in $(seq 1 100); do
		grep -q '^rc=' "$T/tty.out" 2> /dev/null && break
		sleep 0.1
	done
	check "interrupted batch exit code" "rc=130" "$(grep '^rc=' "$T/tty.out")"
	grep -q 'not analysed: the batch was interrupted' "$T/tty.out" && ok ||
		bad "interrupt: no 'interrupted' hosts in: $(tail -5 "$T/tty.out")"
	grep -q '^Fleet: 203 bundles;' "$T/tty.out" && ok || bad "interrupt: no summary"
	tm kill-server 2> /dev/null
else
	echo "fleet: SKIP the progress bar and interrupt tests: tmux is not installed"
fi

# A small batch of every kind of bundle, under valgrind in make valgrind:
# worker processes, the summary and the failures.
"$BIN" batch --json --jobs 2 "$F/node001" "$F/node081" "$F/node141.tar.gz" \
	"$F/sosreport-node181-2024-03-18-abcdefg" \
	"$F/sosreport-node191-2024-03-18-abcdefg.tar.xz" \
	"$F/node990-truncated.tar.gz" > "$T/small.jsonl" 2> "$T/small.err"
check "a small mixed batch" "2 6 5 1 3" \
	"$? $(tail -n 1 "$T/small.jsonl" | jq -r '.fleet | "\(.bundles) \(.analysed) \(.failed) \(.fault)"')"
[ -s "$T/small.err" ] && bad "small batch wrote to stderr: $(head -20 "$T/small.err")" || ok

# --- check --nhc
out=$("$BIN" check --nhc --root "$HEALTHY" 2>&1)
check "nhc, healthy host" "0 " "$? $out"
out=$("$BIN" check --nhc --root "$FAULTY" 2> /dev/null)
check "nhc, faulty host" "1 ERROR:  nhc:  Health check failed:  rdmadoctor:  firmware layer: mlx5_0 (ConnectX-5) runs firmware 16.26.1040, but MLNX_OFED 5.7-1.0.2 needs firmware 16.27.2000 or newer (fw-below-driver-minimum)" \
	"$? $out"
out=$("$BIN" check --nhc --root "$T/missing-bundle" 2> /dev/null)
check "nhc, a host that cannot be checked" "2 ERROR:  nhc:  Health check failed:  rdmadoctor:  cannot check this host: $T/missing-bundle: cannot read: No such file or directory" \
	"$? $out"
"$BIN" check --nhc --json --root "$HEALTHY" > /dev/null 2>&1
check "nhc with json" 2 $?
# The NHC check file works as NHC runs it: die() on the failure line.
if command -v bash > /dev/null 2>&1; then
	out=$(PATH="$(dirname "$BIN"):$PATH" RDMADOCTOR="$BIN" bash -c '
		die() { echo "die $1: $2"; return 1; }
		nhc_cmd_with_timeout() { shift; "$@"; }
		. contrib/nhc/rdmadoctor.nhc
		check_rdmadoctor --root "$1" && echo passed
		check_rdmadoctor --root "$2"' _ "$HEALTHY" "$FAULTY")
	check "the NHC check" "passed
die 1: rdmadoctor:  firmware layer: mlx5_0 (ConnectX-5) runs firmware 16.26.1040, but MLNX_OFED 5.7-1.0.2 needs firmware 16.27.2000 or newer (fw-below-driver-minimum)" "$out"
fi

# batch --redact: one redactor for the fleet, so each host keeps one token
# in its line, the summary and the map; no host name or GUID survives;
# merging redacted shards would make two hosts share a token, so --merge
# refuses it
VM=tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd
CX=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb
"$BIN" batch --json --jobs 2 --redact --redact-map "$T/red.map" $VM $CX > "$T/red.jsonl" 2> "$T/red.err"
check "batch --redact exit code" 1 $?
if grep -q -e cx5-node07 -e 0c42:a103:00d9:e4a0 -e '"hostname":"vm"' "$T/red.jsonl"; then
	bad "batch --redact: a host name or GUID is left"
else ok; fi
check "batch --redact: host tokens in input order" "redacted-host-1 redacted-host-2" \
	"$(head -n 2 "$T/red.jsonl" | jq -r '.source.hostname' | tr '\n' ' ' | sed 's/ $//')"
check "batch --redact: the summary names the same token" "redacted-host-2" \
	"$(tail -n 1 "$T/red.jsonl" | jq -r '.fleet.diagnoses[] | select(.id == "fw-below-driver-minimum") | .hosts[0]')"
check "batch --redact-map" "redacted-host-1	vm|redacted-host-2	cx5-node07" \
	"$(grep '^redacted-host-' "$T/red.map" | tr '\n' '|' | sed 's/|$//')"
# a name is known only when its host's report arrives: a bundle that
# names the host and fails before it is masked all the same
mkdir -p "$T/red2" && printf 'not a tarball\n' > "$T/red2/sosreport-cx5-node07-old.tar.xz"
for form in --json ""; do
	"$BIN" batch $form --jobs 1 --redact "$T/red2/sosreport-cx5-node07-old.tar.xz" $CX > "$T/red2/out" 2> /dev/null
	grep -q cx5-node07 "$T/red2/out" && bad "batch --redact $form: a line before the host's report names it" || ok
done
"$BIN" batch --merge --redact "$T/red.jsonl" > /dev/null 2> "$T/red.err"
check "batch --merge --redact is refused" 2 $?
grep -q "does not take --redact" "$T/red.err" && ok || bad "batch --merge --redact: no reason given"

echo "fleet: $pass passed, $fail failed"
[ $fail -eq 0 ]
