#!/bin/sh
# Rewrites the generated reference of rules/README.md (between the
# reference:begin and reference:end marks) from 'rdmadoctor rules
# reference'.  tests/cli.sh fails when the two differ.
set -eu
cd "$(dirname "$0")/.."
ref=$(mktemp)
trap 'rm -f "$ref" "$ref.md"' EXIT
RDMADOCTOR_DATADIR=$(pwd) ./rdmadoctor rules reference > "$ref"
awk -v ref="$ref" '
	/<!-- reference:end -->/ { skip = 0 }
	!skip { print }
	/<!-- reference:begin -->/ { while ((getline l < ref) > 0) print l; skip = 1 }
' rules/README.md > "$ref.md"
cat "$ref.md" > rules/README.md
