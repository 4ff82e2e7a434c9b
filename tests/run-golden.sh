#!/bin/sh
# Golden tests: each directory under tests/golden/ holds 'args' (the
# command line, one word per line, paths relative to the top of the tree),
# 'exit' (the expected exit code) and 'expected' (the expected stdout).
# The real binary runs each one.  With --update, outputs are rewritten
# instead of compared (review the diff before committing).
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
update=0
[ "${1:-}" = --update ] && update=1
export NO_COLOR=1 NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1
pass=0 fail=0
for dir in tests/golden/*/; do
	name=$(basename "$dir")
	set --
	while IFS= read -r word || [ -n "$word" ]; do
		set -- "$@" "$word"
	done < "$dir/args"
	out=$("$BIN" "$@" 2>/tmp/rd-golden-err.$$)
	rc=$?
	if [ $update = 1 ]; then
		printf '%s\n' "$out" > "$dir/expected"
		echo "$rc" > "$dir/exit"
		continue
	fi
	want_rc=$(cat "$dir/exit")
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL golden/$name: exit $rc, want $want_rc"
		sed 's/^/    /' /tmp/rd-golden-err.$$ | head -20
		fail=$((fail + 1))
	elif ! printf '%s\n' "$out" | diff -u "$dir/expected" - > /tmp/rd-golden-diff.$$; then
		echo "FAIL golden/$name: output differs"
		head -40 /tmp/rd-golden-diff.$$ | sed 's/^/    /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
rm -f /tmp/rd-golden-err.$$ /tmp/rd-golden-diff.$$
[ $update = 1 ] && { echo "golden: expectations rewritten"; exit 0; }
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ]
