#!/bin/sh
# Hostile input: archives that try to escape or explode, text that is
# binary, enormous or full of terminal escapes, trees with the wrong
# things in them, rules that try to hang the engine, and a host that is
# already broken (hung, missing or forbidden tools, files that vanish
# while they are read).  Each case names its exit code and a message; on
# top, no output may carry a byte that could drive a terminal, nothing
# may take more than HOSTILE_TIMEOUT seconds, and a check --root may not
# change the tree it reads.  Small fixtures are in tests/fixtures/hostile/;
# the big ones are made here, in a temporary directory, and streamed.
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1 RDMADOCTOR_DATADIR="$(pwd)"
H=tests/fixtures/hostile
HEALTHY=tests/fixtures/healthy-cx5/root
LIMIT=${HOSTILE_TIMEOUT:-120}
# Under valgrind (make valgrind) the cases that stream gigabytes are left
# out: they would take an hour there, and ASan runs them.
HEAVY=1
[ -n "${RD_VALGRIND:-}" ] && HEAVY=
T=$(mktemp -d)
MNT=
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
pass=0 fail=0 skipped=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL hostile: $*"; fail=$((fail + 1)); }
skip() { echo "note: hostile: $*"; skipped=$((skipped + 1)); }
esc=$(printf '\033')

# What no output may hold: ESC, a C1 control (raw or as UTF-8), bytes that
# are not UTF-8, or a sanitizer's report.
clean_output() {
	if LC_ALL=C grep -q "$esc" "$1"; then
		echo "raw ESC"
	elif LC_ALL=C grep -qP '\xc2[\x80-\x9f]' "$1"; then
		echo "a C1 control"
	elif ! iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1; then
		echo "bytes that are not UTF-8"
	elif grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$1"; then
		echo "a sanitizer report"
	fi
}

# hcase NAME WANT_RC PATTERN -- command...: runs the command (within the
# time limit), checks its exit code (or one of "0|1"), that stdout+stderr
# match PATTERN
# (grep -E) and that the output is clean.  The output stays in $T/out.
hcase() {
	name=$1 want=$2 pattern=$3
	shift 4
	timeout "$LIMIT" "$@" > "$T/out" 2>&1
	rc=$?
	dirt=$(clean_output "$T/out")
	if [ $rc = 124 ]; then
		bad "$name: still running after ${LIMIT}s"
	elif ! case "|$want|" in *"|$rc|"*) true ;; *) false ;; esac; then
		bad "$name: exit $rc, want $want"
		sed 's/^/    /' "$T/out" | head -15
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$T/out"; then
		bad "$name: output lacks '$pattern'"
		sed 's/^/    /' "$T/out" | head -15
	elif [ -n "$dirt" ]; then
		bad "$name: output holds $dirt"
		LC_ALL=C grep -nE "$esc|AddressSanitizer|runtime error" "$T/out" | cat -v | head -5
	else
		ok
	fi
}

# lacks NAME STRING: the last case's output does not hold STRING.
lacks() {
	if grep -qF -- "$2" "$T/out"; then
		bad "$1: output holds '$2'"
	else
		ok
	fi
}

# Peak memory of a command in MiB into $T/rss (GNU time), when there is
# GNU time; the command's output goes to $T/out.
measured() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$T/rss.kb" "$@" > "$T/out" 2>&1
		rc=$?
		echo $(($(tail -1 "$T/rss.kb") / 1024)) > "$T/rss"
		echo "note: hostile: peak memory $(cat "$T/rss") MiB: $*" | cut -c1-150
	else
		"$@" > "$T/out" 2>&1
		rc=$?
		echo 0 > "$T/rss"
	fi
	return $rc
}

# A healthy tree to spoil, and a secret outside it that links aim at.
fresh_tree() {
	rm -rf "$T/$1"
	cp -a "$HEALTHY" "$T/$1"
}
echo "SECRET-OUTSIDE-THE-BUNDLE" > "$T/secret"
DEV=sys/class/infiniband/mlx5_0

# ---------------------------------------------------------------- archives
fresh_tree tarroot
echo evil > "$T/evil"
tar -C "$T/tarroot" -cf "$T/escape.tar" .
tar -C "$T" -rPf "$T/escape.tar" --transform="s,^evil,sys/../../${esc}[2Jevil," evil
tar -C "$T" -rPf "$T/escape.tar" --transform='s,^evil,../../../tmp/rdmadoctor-evil,' evil
gzip -k "$T/escape.tar"
hcase tar-dotdot 0 "2 members with names that leave the archive were skipped \(the first: 'sys/\.\./\.\./\\\\x1b\[2Jevil'\)" -- \
	"$BIN" analyze "$T/escape.tar.gz"
[ -e /tmp/rdmadoctor-evil ] && bad "tar-dotdot: a file was written outside" || ok

# An absolute member is read inside the bundle, as tar itself would.
fresh_tree absroot
rm "$T/absroot/proc/sys/kernel/hostname"
echo absolute-member > "$T/hostname"
tar -C "$T/absroot" -cf "$T/abs.tar" .
tar -C "$T" -rPf "$T/abs.tar" --transform="s,^hostname,/proc/sys/kernel/hostname," hostname
hcase tar-absolute 0 "\(root, host absolute-member\)" -- "$BIN" analyze "$T/abs.tar"

# Links: a loop, a link to itself, a directory linking to its parent, and
# links that aim outside the bundle (absolute, and by climbing with ..).
fresh_tree links
ln -sfn fw_ver2 "$T/links/$DEV/fw_ver"
ln -sfn fw_ver "$T/links/$DEV/fw_ver2"
ln -sfn board_id "$T/links/$DEV/board_id"
ln -sfn .. "$T/links/$DEV/ports/1/up"
ln -sfn "$T/secret" "$T/links/$DEV/hw_rev"
ln -sfn ../../../../../../../../../../../../../../..$T/secret "$T/links/$DEV/node_guid"
ln -sfn "$T/secret" "$T/links/proc/modules"
tar -C "$T/links" -czf "$T/links.tar.gz" .
hcase tar-symlink-loop 0 "sysfs_infiniband +ok +/sys/class/infiniband: 1 device, 1 port; 2 files unreadable \\(the first: sys/class/infiniband/mlx5_0/fw_ver: Too many levels of symbolic links\\)" -- \
	"$BIN" analyze "$T/links.tar.gz"
lacks tar-link-outside SECRET-OUTSIDE
hcase dir-symlink-loop 0 "sysfs_infiniband +ok +/sys/class/infiniband: 1 device, 1 port; 2 files unreadable \\(the first: sys/class/infiniband/mlx5_0/fw_ver: Too many levels of symbolic links\\)" -- \
	"$BIN" check --root "$T/links"
lacks dir-link-outside SECRET-OUTSIDE
hcase dir-link-outside-facts 0 "hca name=mlx5_0" -- "$BIN" facts --root "$T/links"
lacks dir-link-outside-facts SECRET-OUTSIDE

# A decompression bomb: a tar header declaring 5 GiB, then gzip members of
# zeros concatenated (80 x 64 MiB; the file is about 5 MiB).  The cap on
# bytes read in all (4 GiB) must stop it, with memory bounded by the
# member cap.
if [ -n "$HEAVY" ]; then
	truncate -s 5G "$T/zeros"
	tar -C "$T" -cf - zeros 2> /dev/null | head -c 512 | gzip -1 > "$T/bomb.tar.gz"
	head -c 64M /dev/zero | gzip -1 > "$T/z64.gz"
	for i in $(seq 80); do cat "$T/z64.gz"; done >> "$T/bomb.tar.gz"
	rm -f "$T/zeros" "$T/z64.gz"
	measured timeout "$LIMIT" "$BIN" analyze "$T/bomb.tar.gz"
	rc=$?
	if [ $rc != 2 ] || ! grep -q "refusing the archive: more than 4096 MiB once decompressed (a decompression bomb?)" "$T/out"; then
		bad "decompression-bomb: exit $rc"
		head -5 "$T/out" | sed 's/^/    /'
	elif [ "$(cat "$T/rss")" -gt 1536 ]; then
		bad "decompression-bomb: peak memory $(cat "$T/rss") MiB"
	else
		ok
	fi
	rm -f "$T/bomb.tar.gz"
else
	skip "decompression-bomb left out under valgrind"
fi

# A tarball cut short: what was read before the damage is used.  (Noise
# at its end, so that the cut falls past the first blocks libarchive
# decodes; a cut inside them fails as the early case below.)
head -c 300000 /dev/urandom > "$T/noise"
tar -C "$HEALTHY" -cf "$T/whole.tar" .
tar -C "$T" -rf "$T/whole.tar" noise
xz -T1 "$T/whole.tar"
size=$(wc -c < "$T/whole.tar.xz")
head -c $((size * 2 / 3)) "$T/whole.tar.xz" > "$T/cut.tar.xz"
hcase truncated-xz 0 "archive is damaged \(.*\); using the [0-9]+ members read before the damage" -- \
	"$BIN" analyze "$T/cut.tar.xz"
head -c 100 "$T/whole.tar.xz" > "$T/stub.tar.xz"
hcase truncated-xz-early 2 "stub.tar.xz: error: cannot decompress \(cut short or damaged\?\)" -- "$BIN" analyze "$T/stub.tar.xz"
gzip -c "$H/ibstat-lf.txt" | head -c 40 > "$T/cut.txt.gz"
hcase truncated-gzip-loose 2 "cut.txt.gz: error: cannot decompress \(cut short or damaged\?\)" -- "$BIN" analyze "$T/cut.txt.gz"

# /proc/config.gz that inflates past the kernel-config cap.
fresh_tree kbomb
rm -f "$T/kbomb"/boot/config-*
head -c 64M /dev/zero | gzip -1 > "$T/kbomb/proc/config.gz"
hcase kconfig-bomb 0 "kernel_config +error +.*more than 16777216 bytes once decompressed" -- \
	"$BIN" check --root "$T/kbomb"

# ---------------------------------------------------------------- text
# A 2 GiB line (no newline in it), streamed to disk: the loose-file reader
# keeps the first 256 MiB, and memory stays bounded.
if [ -n "$HEAVY" ]; then
	{
		printf "CA 'mlx5_0'\n\tCA type: MT4119\n\tFirmware version: 16.26.1040\n\tNode GUID: "
		head -c 2147483648 /dev/zero | tr '\0' 'A'
		printf "\n\tPort 1:\n\t\tState: Active\n"
	} > "$T/line.txt"
	measured timeout "$LIMIT" "$BIN" analyze --json "$T/line.txt"
	rc=$?
	if [ $rc != 0 ] || ! grep -q "1 fact (file cut at the size cap)" "$T/out"; then
		bad "2gib-line: exit $rc"
		head -5 "$T/out" | cut -c1-200 | sed 's/^/    /'
	elif [ "$(cat "$T/rss")" -gt 1536 ]; then
		bad "2gib-line: peak memory $(cat "$T/rss") MiB"
	else
		ok
	fi
	# The same file as a --root tree's fw_ver and /proc/modules.
	fresh_tree bigroot
	ln -f "$T/line.txt" "$T/bigroot/$DEV/fw_ver"
	ln -f "$T/line.txt" "$T/bigroot/proc/modules"
	measured timeout "$LIMIT" "$BIN" check --root "$T/bigroot"
	rc=$?
	if [ $rc = 124 ] || [ $rc -gt 1 ] || ! grep -q "mlx5_0" "$T/out"; then
		bad "2gib-sysfs-file: exit $rc"
		head -5 "$T/out" | cut -c1-200 | sed 's/^/    /'
	elif [ "$(cat "$T/rss")" -gt 1536 ]; then
		bad "2gib-sysfs-file: peak memory $(cat "$T/rss") MiB"
	else
		ok
	fi
	rm -rf "$T/line.txt" "$T/bigroot"
else
	skip "2 GiB lines left out under valgrind"
fi

hcase nul-bytes 0 "hca name=mlx5_0 model=MT4119\\\\x00" -- "$BIN" facts "$H/ibstat-nul.txt"
hcase invalid-utf8 0 "hca name=mlx5_\\\\xff\\\\xfe\\\\xc0\\\\x810" -- "$BIN" facts "$H/ibstat-bad-utf8.txt"
# CRLF line ends give the same facts as LF ones.
"$BIN" facts "$H/ibstat-lf.txt" 2>&1 | grep -E '^#[0-9]+ (hca|port) ' |
	sed 's/ \[.*//' > "$T/lf"
hcase crlf 0 "fw_ver=16\.26\.1040" -- "$BIN" facts "$H/ibstat-crlf.txt"
grep -E '^#[0-9]+ (hca|port) ' "$T/out" | sed 's/ \[.*//' > "$T/crlf"
if [ -s "$T/lf" ] && cmp -s "$T/lf" "$T/crlf"; then ok; else
	bad "crlf: facts differ from the LF file"
	diff "$T/lf" "$T/crlf" | head -6
fi

# Terminal escapes in a device name and in log lines: shown as \xNN in
# the report, the explanation, the JSON and on a terminal.
hcase ansi-device-name 0 "\\\\x1b\]0;pwned\\\\x07\\\\x1b\[2Jmlx5_0/1 ACTIVE" -- \
	"$BIN" analyze --explain "$H/ibstat-ansi-name.txt"
hcase ansi-device-json 0 '\\\\x1b\]0;pwned' -- "$BIN" analyze --json "$H/ibstat-ansi-name.txt"
hcase ansi-log-lines 0 'firmware \\xc2\\x9b alert.*|\\x9b\[1;1H' -- "$BIN" facts "$H/dmesg-ansi.txt"
if command -v script > /dev/null 2>&1; then
	hcase ansi-on-a-terminal 0 "pwned" -- script -qec \
		"$BIN analyze --no-color $H/ibstat-ansi-name.txt $H/dmesg-ansi.txt" /dev/null
else
	skip "no script(1): the terminal case is left out"
fi
fresh_tree ansiroot
mv "$T/ansiroot/sys/class/infiniband/mlx5_0" "$T/ansiroot/sys/class/infiniband/${esc}[31mmlx5_0"
hcase ansi-sysfs-name 0 "\\\\x1b\[31mmlx5_0" -- "$BIN" check --root "$T/ansiroot"
# A tar member's name with an escape, in an error message.
printf 'x' > "$T/m"
tar -C "$T" -cPf "$T/ansi.tar" --transform="s,^m,../${esc}]2;owned${esc}\\\\," m
hcase ansi-member-name 4 "'\.\./\\\\x1b\]2;owned\\\\x1b" -- "$BIN" analyze "$T/ansi.tar"

head -c 65536 /dev/urandom > "$T/random.bin"
hcase binary-noise 2 "cannot tell what this file holds" -- "$BIN" analyze "$T/random.bin"
: > "$T/empty.txt"
hcase empty-file 2 "cannot tell what this file holds" -- "$BIN" analyze "$T/empty.txt"

# ---------------------------------------------------------------- filesystem
fresh_tree dirs
rm "$T/dirs/$DEV/fw_ver" "$T/dirs/proc/modules"
mkdir "$T/dirs/$DEV/fw_ver" "$T/dirs/proc/modules"
hcase directory-for-file 0 "modules +error +proc/modules: is a directory, not a file" -- \
	"$BIN" check --root "$T/dirs"
mkdir "$T/plain-dir"
hcase directory-as-loose-file 2 "is a directory, but not a sosreport, snapshot or --root tree" -- \
	"$BIN" analyze "ibstat=$T/plain-dir"
mkfifo "$T/fifo"
hcase fifo-as-loose-file 2 "fifo: error: is not a regular file" -- "$BIN" analyze "ibstat=$T/fifo"
hcase device-as-loose-file 2 "is not a regular file" -- "$BIN" analyze "ibstat=/dev/zero"
fresh_tree fifos
rm "$T/fifos/proc/modules"
mkfifo "$T/fifos/proc/modules" "$T/fifos/$DEV/fw_ver.tmp"
hcase fifo-in-tree 0 "modules +error +proc/modules: is not a regular file" -- "$BIN" check --root "$T/fifos"

# Unreadable files.  chmod 000 does not stop root, so as root the check
# runs as nobody (setpriv), and the tree is made readable to nobody.
fresh_tree noperm
chmod 000 "$T/noperm/proc/modules"
if [ "$(id -u)" != 0 ]; then
	hcase unreadable-file 0 "modules +error +.*Permission denied" -- "$BIN" check --root "$T/noperm"
elif command -v setpriv > /dev/null 2>&1 &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$BIN" 2> /dev/null; then
	chmod 755 "$T"
	hcase unreadable-file 0 "modules +error +.*Permission denied" -- \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$BIN" check --root "$T/noperm"
	chmod 700 "$T"
else
	skip "running as root without a way to drop privileges: unreadable-file left out"
fi

# ---------------------------------------------------------------- size
if [ -n "$HEAVY" ]; then
	awk 'BEGIN { for (i = 0; i < 1000000; i++)
		printf "mod_%d 16384 0 - Live 0x0000000000000000\n", i }' > "$T/modules"
	# (about 10 s of CPU here; far more under ASan)
	measured timeout $((LIMIT * 3)) "$BIN" analyze "proc_modules=$T/modules"
	rc=$?
	if [ $rc = 124 ] || { [ $rc -gt 1 ] && [ $rc != 4 ]; } || ! grep -q "1000000 facts" "$T/out"; then
		bad "million-modules: exit $rc"
		head -5 "$T/out" | sed 's/^/    /'
	elif [ "$(cat "$T/rss")" -gt 4096 ]; then
		bad "million-modules: peak memory $(cat "$T/rss") MiB"
	else
		ok
	fi
else
	skip "a million modules left out under valgrind"
fi
# The same adapter twice: one hca fact, the first block's values kept.
hcase duplicate-devices 0 "ibstat-duplicate-ca.txt: 4 facts" -- "$BIN" facts "$H/ibstat-duplicate-ca.txt"
[ "$(grep -c '^#[0-9]* hca name=mlx5_0 ' "$T/out")" = 1 ] && ok ||
	bad "duplicate-devices: not one hca fact"

# ---------------------------------------------------------------- rules
hcase yaml-alias-bomb 3 "rules-alias-bomb.yaml:3:4: error: YAML anchors \('&name'\) are not supported" -- \
	"$BIN" check --root "$HEALTHY" --rules "$H/rules-alias-bomb.yaml"
# 10000 levels: flow style (libyaml's own limit on a key's length stops
# it) and block style (ours).
{
	printf 'language: 1\nrules: '
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]"; print "" }'
} > "$T/deep.yaml"
hcase yaml-deep-flow 3 "deep.yaml:2:[0-9]+: error: (invalid YAML|nesting deeper than 64 levels)" -- \
	"$BIN" rules lint "$T/deep.yaml"
{
	printf 'language: 1\nrules:\n'
	awk 'BEGIN { for (i = 1; i < 2000; i++) printf "%*sk:\n", i, "" }'
} > "$T/deepb.yaml"
hcase yaml-deep-nesting 3 "deepb.yaml:[0-9]+:[0-9]+: error: nesting deeper than 64 levels" -- \
	"$BIN" rules lint "$T/deepb.yaml"
hcase regex-backtracking 3 "rule 'backtrack': a regex hit its match limit" -- \
	"$BIN" analyze --rules "$H/rules-backtracking.yaml" "$H/dmesg-long-a.txt"
hcase rule-chain-loop 3 "rule 'pong' \(.*rules-ping-pong.yaml:12\) built a value of more than 4096 bytes" -- \
	"$BIN" analyze --rules "$H/rules-ping-pong.yaml" "$H/ibstat-lf.txt"
# A sos manifest nested past json-c's depth: the bundle is still read by
# file names.
mkdir -p "$T/sos/sos_reports" "$T/sos/sos_commands/infiniband"
cp "$H/ibstat-lf.txt" "$T/sos/sos_commands/infiniband/ibstat"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' > "$T/sos/sos_reports/manifest.json"
hcase json-deep-manifest 0 "cannot parse sos manifest .*; finding outputs by file name" -- \
	"$BIN" analyze "$T/sos"

# ---------------------------------------------------------------- live faults
# (The hung tool is tests/cli.sh's.)  Tools that are not installed, and
# tools that cannot be run, are recorded as such.
mkdir -p "$T/nobin" "$T/noexec"
hcase missing-commands "0|1" "ibstat +missing +live: ibstat: 'ibstat' is not installed \(not in PATH\)" -- \
	env PATH="$T/nobin" "$BIN" check --no-color
printf '#!/bin/sh\necho should not run\n' > "$T/noexec/ibstat"
chmod 644 "$T/noexec/ibstat"
hcase permission-denied "0|1" "ibstat +error +live: ibstat: could not run: Permission denied" -- \
	env PATH="$T/noexec" "$BIN" check --no-color

# A sysfs file that vanishes: an adapter whose directory is listed but
# whose link dangles (the device was unplugged), and files removed and put
# back while check reads the tree.
fresh_tree vanish
ln -s ../../devices/pci0000:00/0000:00:03.0/infiniband/mlx5_1 "$T/vanish/sys/class/infiniband/mlx5_1"
hcase dangling-device 0 "hca name=mlx5_0" -- "$BIN" facts --root "$T/vanish"
if [ -n "$HEAVY" ]; then
	(
		i=0
		while [ $i -lt 4000 ] && [ -d "$T/vanish" ]; do
			mv "$T/vanish/$DEV/fw_ver" "$T/vanish/$DEV/.fw" 2> /dev/null
			mv "$T/vanish/$DEV/.fw" "$T/vanish/$DEV/fw_ver" 2> /dev/null
			mv "$T/vanish/$DEV/ports/1/state" "$T/vanish/.st" 2> /dev/null
			mv "$T/vanish/.st" "$T/vanish/$DEV/ports/1/state" 2> /dev/null
			i=$((i + 1))
		done
	) &
	churn=$!
	runs=0 crashed=0
	while [ $runs -lt 20 ]; do
		timeout "$LIMIT" "$BIN" check --root "$T/vanish" > "$T/out" 2>&1
		rc=$?
		[ $rc -gt 1 ] && crashed=$((crashed + 1)) && cp "$T/out" "$T/out.bad"
		runs=$((runs + 1))
	done
	kill $churn 2> /dev/null
	wait $churn 2> /dev/null
	[ $crashed = 0 ] && ok || {
		bad "vanishing-files: $crashed of $runs runs failed"
		head -5 "$T/out.bad" | sed 's/^/    /'
	}
else
	skip "vanishing files left out under valgrind"
fi

# check --root only reads: a copy of a fixture tree, read-only (a
# read-only bind mount when this runs as root and may mount), has the same
# names, sizes, modes, times and contents afterwards.
cp -a tests/fixtures/cx5-fw-mismatch/root "$T/ro"
snapshot_tree() {
	(cd "$1" && find . -printf '%p %y %s %m %T@ %l\n' | sort &&
		find . -type f -exec sha256sum {} + | sort -k2)
}
snapshot_tree "$T/ro" > "$T/before"
target=$T/ro
if [ "$(id -u)" = 0 ] && mkdir -p "$T/romnt" && mount --bind "$T/ro" "$T/romnt" 2> /dev/null; then
	MNT=$T/romnt
	if mount -o remount,bind,ro "$MNT" 2> /dev/null; then
		target=$MNT
	else
		umount "$MNT"
		MNT=
	fi
fi
if [ "$target" = "$T/ro" ]; then
	echo "note: hostile: no read-only bind mount here; the tree is made read-only with chmod"
	chmod -R a-w "$T/ro"
fi
hcase read-only-root 1 "fw-below-driver-minimum" -- "$BIN" check --root "$target"
hcase read-only-root-json 1 '"diagnoses"' -- "$BIN" check --json --explain --root "$target"
[ -n "$MNT" ] && umount "$MNT" && MNT=
chmod -R u+w "$T/ro"
snapshot_tree "$T/ro" > "$T/after"
if cmp -s "$T/before" "$T/after"; then ok; else
	bad "read-only-root: the tree changed"
	diff "$T/before" "$T/after" | head -10
fi

echo "hostile: $pass passed, $fail failed, $skipped skipped"
[ $fail = 0 ]
