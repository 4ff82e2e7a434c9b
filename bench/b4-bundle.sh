#!/bin/sh
# B4, a large sosreport: the real Debian sos report of
# tests/fixtures/sos-debian-vm padded with bulk as large reports carry it
# (bench/loggen text, one host in syslog form; sizes as sos caps them):
# this boot's journal (96 MiB), which rdmadoctor scans for signatures;
# /var/log/messages and a rotation (25 MiB each), which it would read
# without the journal; and 400 MiB it has no use for (secure, cron and
# audit logs, container logs, lsof).  Packed with tar and then xz as sos
# packs its reports, `xz -2 -T4`: a multi-block file that a threaded xz
# can decompress in parallel.
#
#   xz -T0 -dc bundle.tar.xz >/dev/null      the floor, on every processor
#   xz -dc bundle.tar.xz >/dev/null          the floor on one thread
#   rdmadoctor analyze --json bundle.tar.xz  read in place, one pass
#   rdmadoctor analyze --json DIR            the same report unpacked
#
# Both analyses must print the same JSON (but the source path).  Prints
# medians of RUNS runs after a warm-up, the four in turn (wall and CPU
# seconds, peak RSS), the ratios and the targets: analysing the tarball
# at most 1.1 times xz -T0 -dc and 1.3 times xz -dc.  --smoke pads with a few MiB and checks the
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
require jq "the benchmark compares the two reports with jq (apt-get install jq)"

FIXTURE=tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd
# Where the padding goes, and KiB of it.
PADDING="sos_commands/logs/journalctl_--no-pager_--catalog_--boot 98304
var/log/messages 25600
var/log/messages-20261122 25600
var/log/secure 25600
var/log/cron 25600
var/log/audit/audit.log 25600
var/log/audit/audit.log.1 25600
var/log/containers/app-0.log 65536
var/log/containers/app-1.log 65536
var/log/containers/app-2.log 65536
var/log/containers/app-3.log 65536
sos_commands/process/lsof_M_-n_-l_-c 40960"
SCALE=1
[ $SMOKE = 1 ] && SCALE=16
dir=$BENCH_DIR/b4-bundle
[ $SMOKE = 1 ] && dir=$dir-smoke
report=$dir/sosreport-node01-2026-11-29-bench
tarball=$dir/bundle.tar.xz

params="xz-2-T4 $SCALE $SEED $(cat kb/*.yaml tests/fixtures/samples/dmesg/* "$LOGGEN" | cksum) $(tar -C "$FIXTURE" -cf - . | cksum) $(echo "$PADDING" | cksum)"
if [ ! -f "$tarball" ] || [ "$(cat "$dir/params" 2>/dev/null)" != "$params" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -R "$FIXTURE" "$report"
	seed=$SEED
	echo "$PADDING" | while read -r path kib; do
		"$LOGGEN" -f syslog $((kib / SCALE)) 0 "$seed" kb \
			tests/fixtures/samples/dmesg "$dir/gen" \
			VERBS- PERFTEST- NHC- AZ-
		mkdir -p "$(dirname "$report/$path")"
		mv "$dir/gen/kern.log" "$report/$path"
		seed=$((seed + 1))
	done
	rm -rf "$dir/gen"
	tar -C "$dir" -cf - "$(basename "$report")" | xz -2 -T4 >"$tarball"
	echo "$params" >"$dir/params"
fi

runs=$RUNS
[ $SMOKE = 1 ] && runs=1
out=$("$BENCHRUN" "$runs" xz -T0 -dc "$tarball" :: xz -dc "$tarball" :: \
	-x 4 -o "$dir/tar.json" -e "RDMADOCTOR_DATADIR=$(pwd)" \
	-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" analyze -q --json "$tarball" :: \
	-x 4 -o "$dir/dir.json" -e "RDMADOCTOR_DATADIR=$(pwd)" \
	-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" analyze -q --json "$report" \
	</dev/null) || die "a run failed (see above)"

jq 'del(.source.path, .source.paths)' "$dir/tar.json" >"$dir/tar.cmp"
jq 'del(.source.path, .source.paths)' "$dir/dir.json" >"$dir/dir.cmp"
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
blocks=$(xz -l "$tarball" | awk 'NR == 2 { print $2 }')
row "xz -T0 -dc" "$(line 1 "$out")"
row "xz -dc" "$(line 2 "$out")"
row "rdmadoctor analyze bundle.tar.xz" "$(line 3 "$out")"
row "rdmadoctor analyze DIR" "$(line 4 "$out")"
rd=$(line 3 "$out")
t_mt=$(ratio "$(field 1 "$rd")" "$(field 1 "$(line 1 "$out")")")
t_xz=$(ratio "$(field 1 "$rd")" "$(field 1 "$(line 2 "$out")")")
t_dir=$(ratio "$(field 1 "$rd")" "$(field 1 "$(line 4 "$out")")")
echo
echo "$blocks xz blocks; ratios (wall): tarball / xz -T0 -dc $t_mt, tarball / xz -dc $t_xz (CPU" \
	"$(ratio "$(field 3 "$rd")" "$(field 3 "$(line 2 "$out")")")), tarball / directory $t_dir"
target "B4 analyze .tar.xz / xz -T0 -dc" "$t_mt" 1.1
target "B4 analyze .tar.xz / xz -dc" "$t_xz" 1.3
[ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
