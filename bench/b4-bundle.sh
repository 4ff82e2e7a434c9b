#!/bin/sh
# B4, a large sosreport: the real Debian sos report of
# tests/fixtures/sos-debian-vm padded with bulk as large reports carry it
# (bench/loggen, one host in syslog form): this boot's journal, which
# rdmadoctor scans for signatures, and the logs it has no use for once it
# has the journal (the journal of all boots, /var/log/messages and two
# rotations).  Packed with tar and xz -1 (one stream, as sos writes it).
#
#   xz -dc bundle.tar.xz >/dev/null          the decompression floor
#   rdmadoctor analyze --json bundle.tar.xz  read in place, one pass
#   rdmadoctor analyze --json DIR            the same report unpacked
#
# Both analyses must print the same JSON (but the source path).  Prints
# medians of RUNS runs after a warm-up, the three in turn (wall and CPU
# seconds, peak RSS), the ratios and the target: analysing the tarball at
# most 1.3 times the floor.  --smoke pads with a few MiB and checks the
# JSON only.  The bundle is removed afterwards, unless KEEP=1 (then it is
# kept, and used again while its inputs are unchanged).
#
#   bench/b4-bundle.sh [--smoke]     (RUNS=3 SEED=1 by default)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require xz "the benchmark compares with xz -dc (apt-get install xz-utils)"
require tar "the benchmark packs the report with tar"

FIXTURE=tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd
PAD_KIB=131072 # each of the five padding logs
[ $SMOKE = 1 ] && PAD_KIB=1024
dir=$BENCH_DIR/b4-bundle
[ $SMOKE = 1 ] && dir=$dir-smoke
report=$dir/sosreport-node01-2026-11-29-bench
tarball=$dir/bundle.tar.xz

# pad SEED PATH: a padding log, PAD_KIB KiB of syslog, at PATH in the report.
pad() {
	"$LOGGEN" -f syslog "$PAD_KIB" 0 "$1" kb tests/fixtures/samples/dmesg \
		"$dir/gen" VERBS- PERFTEST- NHC- AZ-
	mkdir -p "$(dirname "$report/$2")"
	mv "$dir/gen/kern.log" "$report/$2"
}

params="$PAD_KIB $SEED $(cat kb/*.yaml tests/fixtures/samples/dmesg/* "$LOGGEN" | cksum) $(tar -C "$FIXTURE" -cf - . | cksum)"
if [ ! -f "$tarball" ] || [ "$(cat "$dir/params" 2>/dev/null)" != "$params" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -R "$FIXTURE" "$report"
	pad "$SEED" "sos_commands/logs/journalctl_--no-pager_--catalog_--boot"
	pad $((SEED + 1)) "sos_commands/logs/journalctl_--no-pager"
	pad $((SEED + 2)) var/log/messages
	pad $((SEED + 3)) var/log/messages-20261122
	pad $((SEED + 4)) var/log/messages-20261115
	rm -rf "$dir/gen"
	tar -C "$dir" -cf - "$(basename "$report")" | xz -1 -T1 >"$tarball"
	echo "$params" >"$dir/params"
fi

runs=$RUNS
[ $SMOKE = 1 ] && runs=1
out=$("$BENCHRUN" "$runs" xz -dc "$tarball" :: \
	-x 1 -o "$dir/tar.json" -e "RDMADOCTOR_DATADIR=$(pwd)" \
	-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" analyze -q --json "$tarball" :: \
	-x 1 -o "$dir/dir.json" -e "RDMADOCTOR_DATADIR=$(pwd)" \
	-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" analyze -q --json "$report" \
	</dev/null) || die "a run failed (see above)"

grep -v '"path":' "$dir/tar.json" >"$dir/tar.cmp"
grep -v '"path":' "$dir/dir.json" >"$dir/dir.cmp"
if ! cmp -s "$dir/tar.cmp" "$dir/dir.cmp"; then
	echo "bench: THE TARBALL AND THE DIRECTORY GIVE DIFFERENT JSON:" >&2
	diff -u "$dir/dir.cmp" "$dir/tar.cmp" | head -20 >&2
	exit 1
fi
unpacked=$(du -sk "$report" | cut -f1)
packed=$(wc -c <"$tarball" | tr -d ' ')
if [ $SMOKE = 1 ]; then
	echo "b4 smoke: a $((unpacked >> 10)) MiB report: its tarball and its directory give the same JSON"
	exit 0
fi

echo "report: $((unpacked >> 10)) MiB unpacked, $((packed >> 20)) MiB as .tar.xz"
printf '%-34s | %7s %7s | %6s | %7s\n' command wall cpu 'MB/s' 'RSS MiB'
# row NAME MEASURE: MB/s of the unpacked report.
row() {
	printf '%-34s | %7s %7s | %6s | %7s\n' "$1" "$(field 1 "$2")" \
		"$(field 3 "$2")" "$(mbps $((unpacked * 1024)) "$(field 1 "$2")")" \
		"$(awk -v k="$(field 2 "$2")" 'BEGIN { printf "%.1f", k / 1024 }')"
}
row "xz -dc (the floor)" "$(line 1 "$out")"
row "rdmadoctor analyze bundle.tar.xz" "$(line 2 "$out")"
row "rdmadoctor analyze DIR" "$(line 3 "$out")"
t_xz=$(ratio "$(field 1 "$(line 2 "$out")")" "$(field 1 "$(line 1 "$out")")")
t_dir=$(ratio "$(field 1 "$(line 2 "$out")")" "$(field 1 "$(line 3 "$out")")")
echo
echo "ratios (wall): tarball / xz -dc $t_xz (CPU" \
	"$(ratio "$(field 3 "$(line 2 "$out")")" "$(field 3 "$(line 1 "$out")")")), tarball / directory $t_dir"
target "B4 analyze .tar.xz / xz -dc" "$t_xz" 1.3
[ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
