#!/bin/sh
# B2, the diagnostic workload, in rdmadoctor and in CLIPS 6.30: H hosts,
# each with 200 kmod facts and 4 link facts (10 % down); R rules, each
# "a kmod named mK with ver < K mod 7, on a host with a link down =>
# diagnosis (host, rule)".  Checks that both engines give the generator's
# (host, rule) set, then prints medians of RUNS runs after a warm-up (wall
# seconds, peak RSS in KiB, CPU seconds; the two engines run in turn), the
# rdmadoctor/CLIPS ratios, and the targets at R = 1000.  CLIPS runs twice:
# parsing bench.clp (load*) and loading its binary image (bload of what
# bsave wrote before the runs), its fastest start; both must give the
# same set.  --smoke runs the smallest size and checks the sets only.
#
#   bench/b2-diagnostic.sh [--smoke]     (RUNS=3 SEED=1 by default)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require "$CLIPS" "the benchmark compares with CLIPS 6.30 (apt-get install clips)"
BLOAD=1

KMODS=200
RULES="10 100 1000"
HOSTS="10 100 1000"
if [ $SMOKE = 1 ]; then
	RULES=10 HOSTS=10
fi

[ $SMOKE = 1 ] || printf '%5s %7s %8s | %7s %8s %6s | %7s %8s %6s | %7s %8s %6s | %5s %5s | %5s %5s\n' \
	rules facts diagnoses rd_wall rd_rss rd_cpu clips_w clips_rss cl_cpu \
	bload_w bl_rss bl_cpu wall mem bl_w bl_m
for h in $HOSTS; do
	for r in $RULES; do
		dir=$BENCH_DIR/b2-r$r-h$h
		facts=$((h * (KMODS + 4)))
		"$BENCHGEN" b2 "$r" "$h" "$KMODS" "$SEED" "$dir"
		if [ $SMOKE = 1 ]; then
			measure 1 "$dir" >/dev/null
			n=$(check_sets "$dir")
			echo "b2 smoke: rules $r, facts $facts: rdmadoctor, CLIPS and the generator agree on $n diagnoses"
			continue
		fi
		out=$(measure "$RUNS" "$dir")
		RD=$(line 1 "$out")
		CL=$(line 2 "$out")
		BL=$(line 3 "$out")
		n=$(check_sets "$dir")
		tw=$(ratio "$(field 1 "$RD")" "$(field 1 "$CL")")
		tm=$(ratio "$(field 2 "$RD")" "$(field 2 "$CL")")
		bw=$(ratio "$(field 1 "$RD")" "$(field 1 "$BL")")
		bm=$(ratio "$(field 2 "$RD")" "$(field 2 "$BL")")
		printf '%5s %7s %8s | %7s %8s %6s | %7s %8s %6s | %7s %8s %6s | %5s %5s | %5s %5s\n' \
			"$r" "$facts" "$n" \
			"$(field 1 "$RD")" "$(field 2 "$RD")" "$(field 3 "$RD")" \
			"$(field 1 "$CL")" "$(field 2 "$CL")" "$(field 3 "$CL")" \
			"$(field 1 "$BL")" "$(field 2 "$BL")" "$(field 3 "$BL")" \
			"$tw" "$tm" "$bw" "$bm"
		if [ "$r" = 1000 ] && [ "$h" -ge 100 ]; then
			TARGETS="${TARGETS:-}$(target "B2 R=$r facts=$facts time rd/CLIPS" "$tw" 0.5)
$(target "B2 R=$r facts=$facts peak RSS rd/CLIPS" "$tm" 0.5)
$(target "B2 R=$r facts=$facts time rd/CLIPS bload" "$bw" 0.5)
$(target "B2 R=$r facts=$facts peak RSS rd/CLIPS bload" "$bm" 0.5)
"
		fi
	done
done
[ $SMOKE = 1 ] || printf '\n%s' "${TARGETS:-}"
