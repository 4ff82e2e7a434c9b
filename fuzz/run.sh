#!/bin/sh
# Runs one fuzz target: fuzz/run.sh BUILDDIR TARGET SECONDS.  New inputs
# go to BUILDDIR/corpus/TARGET (kept between runs), crashes to
# BUILDDIR/crashes/; the log is BUILDDIR/logs/TARGET.log.  Exits non-zero
# when the target crashed, leaked, hung or ran out of memory.
set -u
cd "$(dirname "$0")/.."
B=$1 t=$2 secs=$3
leaks=1
case $t in
version) max=256 ;;
archive) max=262144 ;;
kb) max=131072 ;;
# The log target keeps its fact base (and the kb in it) across inputs, so
# every input would trigger a full leak scan; the parse target checks the
# same parser for leaks.
log) max=65536 leaks=0 ;;
*) max=65536 ;;
esac
mkdir -p "$B/corpus/$t" "$B/crashes" "$B/logs"
log=$B/logs/$t.log
"$B/fuzz_$t" "$B/corpus/$t" "$B/seeds/$t" -max_total_time="$secs" \
	-max_len=$max -detect_leaks=$leaks -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$B/crashes/$t-" > "$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ $rc != 0 ]; then
	echo "fuzz $t: FAILED (exit $rc) after ${runs:-?} runs; see $log"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|[^ ]*: runtime error)' "$log" | head -5
	exit 1
fi
echo "fuzz $t: ${runs:-?} runs in ${secs}s, no crash"
