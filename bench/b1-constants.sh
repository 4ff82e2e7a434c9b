#!/bin/sh
# B1, constant tests: N rules "item value == constant" (N = 1 .. 1000)
# over many item facts, few of which match any rule, so the run measures
# matching rather than firing.  Two variants: "collected", where the items
# come from the fact file, and "derived", where a rule asserts each item
# from a reading fact, so that items meet the rules one at a time as they
# arrive (as every fact does in CLIPS).  Both engines must give the
# generator's (item, rule) set; the target is rdmadoctor's time at
# N = 1000 within 1.5 times its time at N = 1.  All sizes of a variant run
# in turn (RUNS runs after a warm-up), so that the ratio holds on a shared
# machine.  --smoke runs one small size per variant and checks the sets
# only.
#
#   bench/b1-constants.sh [--smoke]     (RUNS=3 SEED=1 by default)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require "$CLIPS" "the benchmark compares with CLIPS 6.30 (apt-get install clips)"

RULES="1 10 100 1000"
[ $SMOKE = 1 ] && RULES=100

[ $SMOKE = 1 ] || printf '%-9s %5s %7s %5s | %7s %8s %6s | %7s %8s %6s\n' \
	variant rules facts diags rd_wall rd_rss rd_cpu clips_w clips_rss \
	cl_cpu
for variant in collected derived; do
	# The derived variant asserts one item per reading; the engine's
	# firing cap (100000 firings that assert) bounds it.
	facts=200000
	[ $variant = derived ] && facts=50000
	[ $SMOKE = 1 ] && facts=2000
	dirs=
	for n in $RULES; do
		dir=$BENCH_DIR/b1-$variant-r$n
		"$BENCHGEN" b1 "$variant" "$n" "$facts" "$SEED" "$dir"
		dirs="$dirs $dir"
	done
	# $dirs is split into its directories on purpose.
	if [ $SMOKE = 1 ]; then
		measure 1 $dirs >/dev/null
	else
		out=$(measure "$RUNS" $dirs)
	fi
	k=0
	for n in $RULES; do
		dir=$BENCH_DIR/b1-$variant-r$n
		d=$(check_sets "$dir")
		if [ $SMOKE = 1 ]; then
			echo "b1 smoke: $variant, rules $n, facts $facts: rdmadoctor, CLIPS and the generator agree on $d diagnoses"
			continue
		fi
		RD=$(line $((2 * k + 1)) "$out")
		CL=$(line $((2 * k + 2)) "$out")
		k=$((k + 1))
		printf '%-9s %5s %7s %5s | %7s %8s %6s | %7s %8s %6s\n' \
			"$variant" "$n" "$facts" "$d" \
			"$(field 1 "$RD")" "$(field 2 "$RD")" "$(field 3 "$RD")" \
			"$(field 1 "$CL")" "$(field 2 "$CL")" "$(field 3 "$CL")"
		[ "$n" = 1 ] && first=$RD
		last=$RD
	done
	[ $SMOKE = 1 ] ||
		TARGETS="${TARGETS:-}$(target "B1 $variant time N=1000 / N=1" \
			"$(ratio "$(field 1 "$last")" "$(field 1 "$first")")" 1.5)
  (CPU time N=1000 / N=1: $(ratio "$(field 3 "$last")" "$(field 3 "$first")"))
"
done
[ $SMOKE = 1 ] || printf '\n%s' "${TARGETS:-}"
