#!/bin/sh
# The HTML reports as a browser sees them: headless Chromium loads the
# page of a faulty host (whose host name is markup) and of a small fleet,
# and the test reads the stack picture, the diagnoses and the fleet tables
# from the DOM Chromium built, then saves screenshots under build/html-test/.
# Skipped, with a note, when Chromium is missing or cannot start.
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
OUT=build/html-test
mkdir -p "$OUT"
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL html: $*"; fail=$((fail + 1)); }
# has NAME FILE PATTERN: the file holds the (fixed) string
has() {
	if grep -qF -- "$3" "$2"; then ok; else bad "$1: no '$3' in $2"; fi
}
count() {
	n=$(grep -oF -- "$3" "$2" | wc -l)
	if [ "$n" -eq "$4" ]; then ok; else bad "$1: '$3' $n times, want $4"; fi
}

# A faulty host whose name is markup: it must show as text.
cp -a tests/fixtures/cx5-fw-mismatch/root "$T/evil"
printf '%s\n' "<script>alert(1)</script><b>node&7</b>" > "$T/evil/proc/sys/kernel/hostname"
"$BIN" check --root "$T/evil" --html "$T/host.html" > /dev/null 2>&1
[ $? -eq 1 ] && ok || bad "check --html: exit code"
[ -s "$T/host.html" ] || { bad "check --html wrote nothing"; exit 1; }

# A small fleet: three faulty hosts, two healthy ones, one unreadable.
mkdir "$T/fleet"
for i in 1 2 3; do
	cp -a tests/fixtures/cx5-fw-mismatch/root "$T/fleet/bad$i"
	echo "bad$i" > "$T/fleet/bad$i/proc/sys/kernel/hostname"
done
for i in 1 2; do
	cp -a tests/fixtures/healthy-cx5/root "$T/fleet/good$i"
	echo "good$i" > "$T/fleet/good$i/proc/sys/kernel/hostname"
done
echo "not a bundle" > "$T/fleet/notes.txt"
"$BIN" batch --html "$T/fleet.html" "$T/fleet" > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "batch --html: exit code"

# analyze writes the same page for a sosreport; a page that cannot be
# written is an error, and the report still goes to stdout.
"$BIN" analyze --html "$T/sos.html" \
	examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb > "$T/sos.txt" 2>&1
[ $? -eq 1 ] && ok || bad "analyze --html: exit code"
has "analyze --html" "$T/sos.html" 'data-layer="firmware" data-status="fault"'
"$BIN" analyze --html "$T/no/such/dir/x.html" \
	examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb > "$T/out" 2>&1
[ $? -eq 2 ] && ok || bad "--html into a missing directory: exit code"
has "--html into a missing directory" "$T/out" "x.html: cannot write: No such file or directory"
has "the report still printed" "$T/out" "Firmware older than the driver requires"

# Self-contained: nothing to fetch.
for f in "$T/host.html" "$T/fleet.html"; do
	if grep -qiE "(src|href)=\"(https?:)?//|url\\(['\"]?(https?:)?//|<link|<script|@import" "$f"; then
		bad "$f loads something from elsewhere"
	else
		ok
	fi
done

BROWSER=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" > /dev/null 2>&1 && BROWSER=$b && break
done
if [ -z "$BROWSER" ]; then
	echo "html: SKIP the browser checks: Chromium is not installed (tools/deps.sh installs Debian's chromium)"
	echo "html: $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi
browse() { # browse ARGS... URL: headless Chromium with a profile of its own
	timeout 90 "$BROWSER" --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$T/profile" --hide-scrollbars "$@" \
		2>> "$T/browser.log"
}
browse --dump-dom "file://$T/host.html" > "$T/host.dom"
if ! grep -q '</html>' "$T/host.dom"; then
	echo "html: SKIP the browser checks: $BROWSER cannot start here:"
	tail -5 "$T/browser.log" | sed 's/^/    /'
	echo "html: $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi

# The stack picture: five layers, each coloured by its status.
D=$T/host.dom
has "stack picture" "$D" '<svg id="stack"'
count "five layers" "$D" '<g class="layer ' 5
has "hardware ok" "$D" 'data-layer="hardware" data-status="ok"'
has "firmware fault" "$D" 'data-layer="firmware" data-status="fault"'
has "driver ok" "$D" 'data-layer="driver" data-status="ok"'
has "kernel modules ok" "$D" 'data-layer="kernel_module" data-status="ok"'
has "verbs unknown" "$D" 'data-layer="verbs" data-status="unknown"'
has "firmware box drawn in the fault colour" "$D" '<g class="layer fault" id="layer-firmware"'
# The ranked diagnoses with remediation and evidence.
has "first diagnosis" "$D" '<article class="diag error" id="d-fw-below-driver-minimum" data-id="fw-below-driver-minimum" data-rank="1">'
has "remediation" "$D" '<li>upgrade FW to ≥16.27.2000'
has "evidence" "$D" '<code>16.26.1040</code>'
# The host name stays text: no script element, the markup escaped.
count "no script element" "$D" '<script' 0
has "host name escaped" "$D" '&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;node&amp;7&lt;/b&gt;'

browse --dump-dom "file://$T/fleet.html" > "$T/fleet.dom"
D=$T/fleet.dom
has "fleet stack" "$D" '<svg id="stack"'
has "firmware layer across the fleet" "$D" 'data-layer="firmware" data-status="fault" data-fault="3" data-warning="0" data-ok="2" data-unknown="0"'
has "chart of diagnoses" "$D" '<svg id="chart"'
has "bar by host count" "$D" '<g class="bar error" data-id="fw-below-driver-minimum" data-count="3">'
has "hosts of the diagnosis" "$D" 'bad[1-3]'
has "mixed firmware" "$D" '<tr class="mixed"><td>ConnectX-5 <span class="badge warning">mixed</span>'
has "unreadable bundle" "$D" 'notes.txt</td><td>not a bundle: neither a bundle directory nor a tar archive'
count "a row per input" "$D" '<td class="cells">' 6
count "cards" "$D" '<div class="card ' 6

# Screenshots, for a person to look at.
browse --screenshot="$(pwd)/$OUT/host.png" --window-size=1200,1500 \
	"file://$T/host.html" > /dev/null
browse --screenshot="$(pwd)/$OUT/fleet.png" --window-size=1200,2000 \
	"file://$T/fleet.html" > /dev/null
cp "$T/host.html" "$T/fleet.html" "$OUT/"
for p in host fleet; do
	if [ "$(head -c 8 "$OUT/$p.png" 2> /dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(wc -c < "$OUT/$p.png")" -gt 20000 ]; then
		ok
	else
		bad "no screenshot of the $p page in $OUT/$p.png"
	fi
done
echo "html: screenshots in $OUT/host.png and $OUT/fleet.png"
echo "html: $pass passed, $fail failed"
[ $fail -eq 0 ]
