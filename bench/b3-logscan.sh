#!/bin/sh
# B3, the kernel-log scan: rdmadoctor reads a generated 1 GiB kernel log
# (bench/loggen: noise of other drivers and daemons in five log formats,
# RDMA lines, signature hits) with the whole signature table of kb/, and
# ripgrep and GNU grep count the lines that the same patterns match.
#
#   rdmadoctor facts dmesg=kern.log        log_event facts, counts per signature
#   rg -c -f patterns.pcre kern.log        ripgrep's own engine (Rust regex)
#   grep -E -c -f patterns.ere kern.log    LC_ALL=C, the patterns in ERE
#   rg --pcre2 -c -f patterns.pcre head.log
#   grep -P -c -f patterns.alt head.log    LC_ALL=C, one "(?:p1)|(?:p2)|..."
#
# The two PCRE2 peers scan at well under 1 MB/s with 116 patterns, so
# they read the first 2 MiB of the log (head.log), and rdmadoctor is
# measured on that file too.  Every count is checked against the generator's:
# rdmadoctor's count per signature (it matches the message after the
# line's time, host and program), and the peers' count of matching lines
# (they match the whole line, so a pattern anchored with ^ finds no line
# with a prefix).  Prints medians of RUNS runs after a warm-up, all tools in turn
# (wall and CPU seconds, MB/s, peak RSS), the ratios and the targets.
# --smoke writes a 2 MiB log with more hits and checks the counts only.
# The log is removed afterwards, unless KEEP=1 (then it is kept, and used
# again while its inputs are unchanged).
#
#   bench/b3-logscan.sh [--smoke]     (RUNS=3 SEED=1 by default)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require rg "the benchmark compares with ripgrep (apt-get install ripgrep)"
require grep "the benchmark compares with GNU grep"

SIZE_KIB=1048576 HEAD_KIB=2048 HITS=50
if [ $SMOKE = 1 ]; then
	SIZE_KIB=2048 HEAD_KIB=128 HITS=2000
fi
dir=$BENCH_DIR/b3-logscan
[ $SMOKE = 1 ] && dir=$dir-smoke
# Signatures of tool output (libibverbs, perftest, health checks), not of
# the kernel, get no built messages in a kernel log.
params="$SIZE_KIB $HEAD_KIB $HITS $SEED $(cat kb/*.yaml \
	tests/fixtures/samples/dmesg/* "$LOGGEN" | cksum)"
if [ ! -f "$dir/kern.log" ] || [ "$(cat "$dir/params" 2>/dev/null)" != "$params" ]; then
	rm -f "$dir/params"
	"$LOGGEN" -r $HITS $SIZE_KIB $HEAD_KIB "$SEED" kb \
		tests/fixtures/samples/dmesg "$dir" VERBS- PERFTEST- NHC- AZ-
	echo "$params" >"$dir/params"
fi

# tools LOG SUFFIX PEER...: the benchrun commands, rdmadoctor first.
rd() {
	echo -x 4 -o "$dir/rd-$2.out" -e "RDMADOCTOR_DATADIR=$(pwd)" \
		-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" facts -q "dmesg=$dir/$1"
}

runs=$RUNS
[ $SMOKE = 1 ] && runs=1
# The words of rd are split on purpose; no path here holds a space.
# shellcheck disable=SC2046
big=$("$BENCHRUN" "$runs" $(rd kern.log big) :: \
	-x 1 -o "$dir/rg-big.out" rg -c -f "$dir/patterns.pcre" "$dir/kern.log" :: \
	-x 1 -o "$dir/grepE-big.out" -e LC_ALL=C \
	grep -E -c -f "$dir/patterns.ere" "$dir/kern.log" </dev/null) ||
	die "a run failed (see above)"
# shellcheck disable=SC2046
head=$("$BENCHRUN" "$runs" $(rd head.log head) :: \
	-x 1 -o "$dir/rgP-head.out" rg --pcre2 -c -f "$dir/patterns.pcre" \
	"$dir/head.log" :: \
	-x 1 -o "$dir/grepP-head.out" -e LC_ALL=C \
	grep -P -c -f "$dir/patterns.alt" "$dir/head.log" </dev/null) ||
	die "a run failed (see above)"

# check SUFFIX EXPECTED PEER...: rdmadoctor's count per signature and
# each peer's count of lines against the generator's.
check() {
	sfx=$1 exp=$2
	shift 2
	awk '$2 == "log_event" {
		sig = ""; n = 0
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^signature=/) sig = substr($i, 11)
			if ($i ~ /^count=[0-9]+$/ && !n) n = substr($i, 7)
		}
		count[sig] += n
	} END { for (s in count) print "sig", s, count[s] }' \
		"$dir/rd-$sfx.out" | sort >"$dir/rd-$sfx.sigs"
	grep '^sig ' "$exp" | sort >"$dir/expected-$sfx.sigs"
	if ! cmp -s "$dir/expected-$sfx.sigs" "$dir/rd-$sfx.sigs"; then
		echo "bench: SIGNATURE COUNTS DIFFER ($sfx): generator vs rdmadoctor" >&2
		diff "$dir/expected-$sfx.sigs" "$dir/rd-$sfx.sigs" | head -10 >&2
		exit 1
	fi
	want=$(awk '$1 == "lines" { print $2 }' "$exp")
	for peer in "$@"; do
		got=$(cat "$dir/$peer-$sfx.out")
		[ "$got" = "$want" ] ||
			die "LINE COUNTS DIFFER ($sfx): generator $want, $peer $got"
	done
	echo "$want $(wc -l <"$dir/expected-$sfx.sigs" | tr -d ' ')"
}

cb=$(check big "$dir/expected.txt" rg grepE)
ch=$(check head "$dir/expected-head.txt" rgP grepP)
size=$(wc -c <"$dir/kern.log" | tr -d ' ')
hsize=$(wc -c <"$dir/head.log" | tr -d ' ')
if [ $SMOKE = 1 ]; then
	echo "b3 smoke: $((size >> 10)) KiB log: rdmadoctor's counts for $(field 2 "$cb") signatures, rg and grep -E agree with the generator ($(field 1 "$cb") lines)"
	echo "b3 smoke: $((hsize >> 10)) KiB head: rdmadoctor, rg --pcre2 and grep -P agree with the generator ($(field 1 "$ch") lines)"
	exit 0
fi

echo "kern.log: $((size >> 20)) MiB, $(awk '$1 == "written" { print $2 }' \
	"$dir/expected.txt") lines, $(field 1 "$cb") matching, $(field 2 "$cb") signatures hit"
printf '%-32s %10s | %7s %7s | %6s %6s | %7s\n' tool input wall cpu \
	'MB/s' 'cpu' 'RSS MiB'
# row NAME SIZE MEASURE
row() {
	printf '%-32s %6s MiB | %7s %7s | %6s %6s | %7s\n' "$1" \
		"$(awk -v b="$2" 'BEGIN { printf "%.1f", b / 1048576 }')" \
		"$(field 1 "$3")" "$(field 3 "$3")" \
		"$(mbps "$2" "$(field 1 "$3")")" "$(mbps "$2" "$(field 3 "$3")")" \
		"$(awk -v k="$(field 2 "$3")" 'BEGIN { printf "%.1f", k / 1024 }')"
}
row "rdmadoctor facts" "$size" "$(line 1 "$big")"
row "rg -c -f" "$size" "$(line 2 "$big")"
row "grep -E -c -f (LC_ALL=C)" "$size" "$(line 3 "$big")"
row "rdmadoctor facts" "$hsize" "$(line 1 "$head")"
row "rg --pcre2 -c -f" "$hsize" "$(line 2 "$head")"
row "grep -P -c (alternation, C)" "$hsize" "$(line 3 "$head")"
t_rg=$(ratio "$(field 1 "$(line 1 "$big")")" "$(field 1 "$(line 2 "$big")")")
t_ge=$(ratio "$(field 1 "$(line 1 "$big")")" "$(field 1 "$(line 3 "$big")")")
t_rp=$(ratio "$(field 1 "$(line 1 "$head")")" "$(field 1 "$(line 2 "$head")")")
t_gp=$(ratio "$(field 1 "$(line 1 "$head")")" "$(field 1 "$(line 3 "$head")")")
echo
echo "ratios (wall, rdmadoctor / peer): rg $t_rg, grep -E $t_ge;" \
	"on the head: rg --pcre2 $t_rp, grep -P $t_gp"
echo "  (CPU: rg $(ratio "$(field 3 "$(line 1 "$big")")" "$(field 3 "$(line 2 "$big")")")," \
	"grep -E $(ratio "$(field 3 "$(line 1 "$big")")" "$(field 3 "$(line 3 "$big")")"))"
target "B3 log scan time rd / rg --pcre2 (2 MiB)" "$t_rp" 1.5
target "B3 log scan time rd / rg (1 GiB)" "$t_rg" 1.5
[ "${KEEP:-0}" = 1 ] || rm -f "$dir/kern.log" "$dir"/*.run
