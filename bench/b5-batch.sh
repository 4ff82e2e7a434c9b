#!/bin/sh
# B5: 'rdmadoctor batch' over 500 bundles with --jobs 1 and with --jobs 2,
# measured in turn (benchrun).  The two runs must print the same JSON
# lines, one per host, and the summary must count every bundle.
#   bench/b5-batch.sh [--smoke]     (--smoke: 20 bundles, correctness only)
# Target: --jobs 2 at least 1.7 times as fast as --jobs 1.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require jq "the benchmark reads the batch summary with jq (apt-get install jq)"

N=500
[ $SMOKE = 1 ] && N=20
DIR=$BENCH_DIR/b5-batch-$N
HEALTHY=tests/fixtures/healthy-cx5/root
FAULTY=tests/fixtures/cx5-fw-mismatch/root
SOS=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb

# The fleet, made once per size: of every ten bundles, six healthy root
# trees and three faulty ones as .tar.gz, and one sosreport as .tar.xz.
if [ ! -f "$DIR/.made" ]; then
	rm -rf "$DIR"
	mkdir -p "$DIR/bundles" "$DIR/stage"
	i=1
	while [ $i -le $N ]; do
		h=$(printf 'node%04d' $i)
		case $((i % 10)) in
		0)
			s=sosreport-$h-2024-03-18-abcdefg
			cp -a "$SOS" "$DIR/stage/$s"
			echo "$h" >"$DIR/stage/$s/sos_commands/host/hostname"
			tar -C "$DIR/stage" -cJf "$DIR/bundles/$s.tar.xz" "$s"
			;;
		[1-3])
			cp -a "$FAULTY" "$DIR/stage/$h"
			echo "$h" >"$DIR/stage/$h/proc/sys/kernel/hostname"
			tar -C "$DIR/stage" -czf "$DIR/bundles/$h.tar.gz" "$h"
			;;
		*)
			cp -a "$HEALTHY" "$DIR/stage/$h"
			echo "$h" >"$DIR/stage/$h/proc/sys/kernel/hostname"
			tar -C "$DIR/stage" -czf "$DIR/bundles/$h.tar.gz" "$h"
			;;
		esac
		rm -rf "$DIR/stage"/*
		i=$((i + 1))
	done
	rmdir "$DIR/stage"
	touch "$DIR/.made"
fi

runs=$RUNS
[ $SMOKE = 1 ] && runs=1
# Exit code 1: some hosts have diagnoses.
out=$(NO_PROGRESS=1 "$BENCHRUN" "$runs" \
	-e "RDMADOCTOR_DATADIR=$(pwd)" -e RDMADOCTOR_NO_SITE_RULES=1 \
	-x 4 -o "$DIR/j1.jsonl" \
	"$RD_BIN" batch --json --jobs 1 "$DIR/bundles" :: \
	-e "RDMADOCTOR_DATADIR=$(pwd)" -e RDMADOCTOR_NO_SITE_RULES=1 \
	-x 4 -o "$DIR/j2.jsonl" \
	"$RD_BIN" batch --json --jobs 2 "$DIR/bundles" :: </dev/null) ||
	die "a run failed (see above)"

cmp -s "$DIR/j1.jsonl" "$DIR/j2.jsonl" ||
	die "--jobs 1 and --jobs 2 printed different results ($DIR/j1.jsonl, $DIR/j2.jsonl)"
got=$(tail -n 1 "$DIR/j1.jsonl" |
	jq -r '.fleet | "\(.bundles) \(.analysed) \(.failed)"')
[ "$got" = "$N $N 0" ] ||
	die "the summary counts '$got' (bundles analysed failed), want '$N $N 0'"
faults=$(tail -n 1 "$DIR/j1.jsonl" | jq -r '.fleet.fault')
[ "$faults" = $((N * 4 / 10)) ] ||
	die "$faults hosts with a fault, want $((N * 4 / 10))"

if [ $SMOKE = 1 ]; then
	echo "b5 smoke: $N bundles: --jobs 1 and --jobs 2 agree; $faults hosts with a fault"
	exit 0
fi
J1=$(line 1 "$out")
J2=$(line 2 "$out")
printf '%-8s %8s %9s %8s %10s\n' jobs "wall s" "bundles/s" "RSS KiB" "CPU s"
for j in 1 2; do
	M=$J1
	[ $j = 2 ] && M=$J2
	printf '%-8s %8s %9s %8s %10s\n' "$j" "$(field 1 "$M")" \
		"$(awk -v n=$N -v t="$(field 1 "$M")" 'BEGIN { printf "%.0f", n / t }')" \
		"$(field 2 "$M")" "$(field 3 "$M")"
done
speedup=$(ratio "$(field 1 "$J1")" "$(field 1 "$J2")")
verdict=$(awk -v v="$speedup" 'BEGIN { print (v >= 1.7 ? "holds" : "MISSED") }')
printf '\ntarget %-46s %5s >= %-4s %s\n' "B5 batch --jobs 2 speed-up" "$speedup" 1.7 "$verdict"
echo "  ($(nproc) processors; the speed-up cannot pass their number)"
