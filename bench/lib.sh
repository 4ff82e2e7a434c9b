# Shared by the benchmark commands (sourced, POSIX sh): setup, running
# both engines on a generated directory, comparing their diagnosis sets
# with the generator's, measuring, and printing ratios and targets.  The
# caller sets -eu and runs from the top of the tree.

: "${RD_BIN:=./rdmadoctor}"
: "${BENCHGEN:=build/bench/benchgen}"
: "${BENCHRUN:=build/bench/benchrun}"
: "${LOGGEN:=build/bench/loggen}"
: "${BENCH_DIR:=build/bench/work}"
: "${CLIPS:=clips}"
: "${RUNS:=3}"
: "${SEED:=1}"

die() {
	echo "bench: $*" >&2
	exit 1
}

bench_setup() {
	[ -x "$RD_BIN" ] || die "no rdmadoctor binary at '$RD_BIN' (run make)"
	case $RD_BIN in
	/*) ;;
	*) RD_BIN=$(pwd)/$RD_BIN ;;
	esac
	[ -x "$BENCHGEN" ] && [ -x "$BENCHRUN" ] && [ -x "$LOGGEN" ] ||
		die "no $BENCHGEN, $BENCHRUN or $LOGGEN (run make bench)"
	mkdir -p "$BENCH_DIR"
	SMOKE=0
	[ "${1:-}" = --smoke ] && SMOKE=1
	return 0
}

# require PROGRAM WHY: fails with WHY when PROGRAM is not installed.
require() {
	command -v "$1" >/dev/null 2>&1 || die "'$1' not found: $2"
}

# measure RUNS DIR...: rdmadoctor and CLIPS on each generated directory,
# all in turn (benchrun), RUNS runs each after a warm-up whose output is
# kept in DIR/rd.out and DIR/clips.out.  Prints two lines per directory,
# rdmadoctor's then CLIPS's: "wall rss cpu min max".  rdmadoctor's exit
# codes 1 and 4 only say that there are diagnoses, or that the synthetic
# facts let no layer be judged (-x 4 accepts both); CLIPS reads run.clp from the
# directory and prints one line per diag fact.
measure() {
	runs=$1
	shift
	n=$#
	for d in "$@"; do
		set -- "$@" -e "RDMADOCTOR_DATADIR=$d" \
			-e RDMADOCTOR_NO_SITE_RULES=1 -x 4 -o "$d/rd.out" \
			"$RD_BIN" analyze "facts=$d/facts.json" --no-color :: \
			-C "$d" -o "$d/clips.out" "$CLIPS" -f2 run.clp ::
	done
	shift "$n"
	"$BENCHRUN" "$runs" "$@" </dev/null || die "a run failed (see above)"
}

# line N TEXT: the Nth line.
line() {
	echo "$2" | sed -n "$1p"
}

# check_sets DIR: the (host or item, rule) sets of rdmadoctor, CLIPS and
# the generator must be identical; prints their size.
check_sets() {
	awk '$1 == "info:" && ($2 == "host" || $2 == "item") { print $3, $5 }' \
		"$1/rd.out" | sort >"$1/rd.set"
	awk 'NF == 2 && $2 ~ /^r[0-9]+$/' "$1/clips.out" | sort >"$1/clips.set"
	sort "$1/expected.txt" >"$1/expected.set"
	if ! cmp -s "$1/expected.set" "$1/rd.set" ||
		! cmp -s "$1/expected.set" "$1/clips.set"; then
		{
			echo "bench: DIAGNOSES DIFFER in $1:" \
				"generator $(wc -l <"$1/expected.set")," \
				"rdmadoctor $(wc -l <"$1/rd.set")," \
				"CLIPS $(wc -l <"$1/clips.set")"
			echo "--- generator vs rdmadoctor"
			diff "$1/expected.set" "$1/rd.set" | head -10
			echo "--- generator vs CLIPS"
			diff "$1/expected.set" "$1/clips.set" | head -10
		} >&2
		exit 1
	fi
	wc -l <"$1/expected.set" | tr -d ' '
}

# field N "a b c ...": the Nth word.
field() {
	echo "$2" | awk -v n="$1" '{ print $n }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

# mbps BYTES SECONDS: MB/s (10^6 bytes a second).
mbps() {
	awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? b / s / 1e6 : 0) }'
}

# target NAME VALUE LIMIT: prints whether VALUE <= LIMIT.
target() {
	verdict=$(awk -v v="$2" -v l="$3" \
		'BEGIN { print (v <= l ? "holds" : "MISSED") }')
	printf 'target %-46s %5s <= %-4s %s\n' "$1" "$2" "$3" "$verdict"
}
