#!/bin/sh
# Every kind of JSON document rdmadoctor prints is checked against its
# schema in schema/ (JSON Schema draft 2020-12): the golden JSON outputs,
# and documents made here from the fixtures (analyses, batch lines and the
# fleet summary, facts, rules list).
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
export NO_COLOR=1 NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

# A python3 with jsonschema and yaml (Debian's python3-jsonschema).
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' > /dev/null 2>&1; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	echo "schema: 0 passed, 1 failed (no python3 with jsonschema: make deps installs python3-jsonschema)"
	exit 1
fi

# check NAME SCHEMA FILE [--lines]
check() {
	if "$PY" tools/schema-check "$2" "$3" ${4:-} > "$T/err" 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL schema: $1 does not match schema/$2.schema.json:"
		head -10 "$T/err" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
}

# The golden outputs that are JSON: their arguments say which schema.
for dir in tests/golden/*/; do
	grep -qx -- --json "$dir/args" || continue
	case "$(head -1 "$dir/args")" in
	facts) schema=facts ;;
	check | analyze) schema=analysis ;;
	*) continue ;;
	esac
	check "golden/$(basename "$dir")" "$schema" "$dir/expected"
done

EX=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb
for root in tests/fixtures/cx5-no-mlx5-ib/root tests/fixtures/cx5-x8-slot-bad-cable/root; do
	"$BIN" check --json --explain --root "$root" > "$T/a.json" 2>/dev/null
	check "check --json --explain --root $root" analysis "$T/a.json"
done
"$BIN" check --json --why-not --root tests/fixtures/healthy-cx5/root > "$T/wn.json" 2>/dev/null
check "check --json --why-not" analysis "$T/wn.json"
"$BIN" analyze --json --why-not=fw-below-driver-minimum,ib-umad-not-loaded "$EX" > "$T/wn2.json" 2>/dev/null
check "analyze --json --why-not=ID,ID" analysis "$T/wn2.json"
mkdir -p "$T/empty"
"$BIN" check --json --root "$T/empty" > "$T/empty.json" 2>/dev/null
check "an analysis with insufficient evidence" analysis "$T/empty.json"
"$BIN" analyze --json tests/fixtures/samples/ibstat/*.txt > "$T/files.json" 2>/dev/null
check "analyze --json of loose files" analysis "$T/files.json"
"$BIN" facts --json tests/fixtures/snapshot-cx6-tools > "$T/facts.json" 2>/dev/null
check "facts --json of a snapshot" facts "$T/facts.json"
echo garbage > "$T/garbage.tar.gz"
"$BIN" batch --json "$EX" tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd \
	"$T/garbage.tar.gz" > "$T/batch.jsonl" 2>/dev/null
head -n -1 "$T/batch.jsonl" > "$T/lines.jsonl"
tail -n 1 "$T/batch.jsonl" > "$T/fleet.json"
check "batch --json host lines" batch-line "$T/lines.jsonl" --lines
check "batch --json fleet summary" fleet "$T/fleet.json"
"$BIN" rules list --json > "$T/rules.json" 2>/dev/null
check "rules list --json" rules-list "$T/rules.json"
"$BIN" explain --json fw-below-driver-minimum > "$T/explain.json" 2>/dev/null
check "explain --json" explain "$T/explain.json"
"$BIN" explain --json --rules tests/fixtures/site-overlay bw-below-line-rate > "$T/explain-override.json" 2>/dev/null
check "explain --json of an overlay's override" explain "$T/explain-override.json"
"$BIN" explain --json --rules tests/fixtures/site-overlay no-rdma-device-verbs > "$T/explain-disabled.json" 2>/dev/null
check "explain --json of a rule an overlay disabled" explain "$T/explain-disabled.json"
"$BIN" rules lint --json > "$T/lint.json" 2>/dev/null
check "rules lint --json" rules-lint "$T/lint.json"
mkdir -p "$T/badkb"
cp -r rules kb "$T/badkb/"
sed -i "0,/pattern: '(/s//pattern: '((/" "$T/badkb/kb/signatures.yaml"
RDMADOCTOR_DATADIR="$T/badkb" "$BIN" rules lint --json > "$T/lint-bad.json" 2>/dev/null
check "rules lint --json of a broken kb" rules-lint "$T/lint-bad.json"

# The checker itself must reject what the schema forbids.
sed 's/"verdict": "[a-z_]*"/"verdict": "green"/' tests/golden/guide-case-json/expected > "$T/bad.json"
if "$PY" tools/schema-check analysis "$T/bad.json" > /dev/null 2>&1; then
	echo "FAIL schema: a verdict outside the schema passed"
	fail=$((fail + 1))
else
	pass=$((pass + 1))
fi

echo "schema: $pass passed, $fail failed"
[ $fail = 0 ]
