#!/bin/sh
# The corpus of real outputs (tests/fixtures/corpus, each NAME.txt with its
# source and expected facts in NAME.yaml): every item is run through the
# binary as a user would run it, and scored by tools/corpus-score.  An item
# that passed when tests/fixtures/corpus/OUTCOMES was recorded and fails
# now is a regression.  After an improvement, record the new outcomes:
#   tools/corpus-score --record tests/fixtures/corpus/OUTCOMES
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
export RDMADOCTOR_DATADIR="${RDMADOCTOR_DATADIR:-$(pwd)}" RDMADOCTOR_NO_SITE_RULES=1 NO_PROGRESS=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Under valgrind (make valgrind) every twentieth item: each run takes seconds.
every=1
[ -n "${RD_VALGRIND:-}" ] && every=20
tools/corpus-score --bin "$BIN" --every $every --expect tests/fixtures/corpus/OUTCOMES > "$out" 2>&1
rc=$?
sed 's/^/corpus: /' "$out"
if [ "$rc" = 0 ]; then
	echo "corpus: 1 passed, 0 failed"
	exit 0
fi
echo "corpus: 0 passed, 1 failed"
exit 1
