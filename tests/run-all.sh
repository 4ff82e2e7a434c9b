#!/bin/sh
# Every test that runs the binary: golden outputs, command-line behaviour,
# the guided session on a terminal, hostile input, fleets (batch, check
# --nhc) and the HTML reports in a browser.  (Unit tests run from
# 'make unit'.)
set -u
cd "$(dirname "$0")/.."
export RDMADOCTOR_DATADIR="$(pwd)"
status=0
tests/run-golden.sh || status=1
tests/cli.sh || status=1
tests/guide.sh || status=1
tests/hostile.sh || status=1
tests/fleet.sh || status=1
tests/html.sh || status=1
tests/schema.sh || status=1
tests/corpus.sh || status=1
exit $status
