#!/bin/sh
# Every test that runs the binary: golden outputs, command-line behaviour,
# the guided session on a terminal, hostile input, fleets (batch, check
# --nhc) and the HTML reports in a browser.  (Unit tests run from
# 'make unit'.)  Each suite says how long it took.
#
# Under valgrind (make valgrind, RD_VALGRIND set) the guided session, the
# fleets and the browser are left out: they run the code the other suites
# run, under a terminal, a pool of workers or a browser that only slow
# memcheck down, and ASan runs them in full (make asan).  The goldens and
# schemas run every command under memcheck; the command-line and hostile
# suites one command line in three (tests/valgrind-rd), to keep CI within
# its hour; the corpus every twentieth item (tests/corpus.sh).
set -u
cd "$(dirname "$0")/.."
export RDMADOCTOR_DATADIR="$(pwd)"
suites="run-golden cli guide hostile fleet html schema corpus"
if [ -n "${RD_VALGRIND:-}" ]; then
	suites="run-golden cli hostile schema corpus"
	echo "note: under valgrind: guide, fleet and html left out (make asan runs them)"
fi
status=0
for s in $suites; do
	start=$(date +%s)
	every=1
	case $s in cli | hostile) [ -n "${RD_VALGRIND:-}" ] && every=3 ;; esac
	RD_VALGRIND_EVERY=$every tests/$s.sh || status=1
	echo "time: $s took $(($(date +%s) - start)) s"
done
exit $status
