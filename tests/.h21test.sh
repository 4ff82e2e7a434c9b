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

# Peak memory of a command in MiB into $T/rss (GNU time); the command's
# output goes to $T/out.  Without /usr/bin/time the check cannot be made,
# and that is a failure, not a pass (tools/deps.sh installs it).
measured() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$T/rss.kb" "$@" > "$T/out" 2>&1
		rc=$?
		echo $(($(tail -1 "$T/rss.kb") / 1024)) > "$T/rss"
		echo "note: hostile: peak memory $(cat "$T/rss") MiB: $*" | cut -c1-150
	else
		bad "no /usr/bin/time: peak memory of '$*' not measured"
		"$@" > "$T/out" 2>&1
		rc=$?
		echo 0 > "$T/rss"
	fi
	return $rc
}

# bounded NAME WANT_RC PATTERN -- command...: as hcase, and under
# /usr/bin/time -v the command may take at most BOUND_MIB (512) MiB and
# BOUND_S (10) seconds.  Each hostile bundle of issue 21 is checked so.
BOUND_MIB=${BOUND_MIB:-512}
BOUND_S=${BOUND_S:-10}
bounded() {
	name=$1 want=$2 pattern=$3
	shift 4
	if [ ! -x /usr/bin/time ]; then
		bad "$name: no /usr/bin/time to measure it (tools/deps.sh installs it)"
		return
	fi
	timeout "$LIMIT" /usr/bin/time -v -o "$T/timev" "$@" > "$T/out" 2>&1
	rc=$?
	kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$T/timev")
	el=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/timev")
	secs=$(echo "$el" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%d", s + 0.999 }')
	echo "note: hostile: $name: $((${kb:-0} / 1024)) MiB, $el"
	if [ $rc = 124 ]; then
		bad "$name: still running after ${LIMIT}s"
	elif [ -z "$kb" ]; then
		bad "$name: /usr/bin/time -v gave no figures"
	elif [ $((kb / 1024)) -gt "$BOUND_MIB" ]; then
		bad "$name: peak memory $((kb / 1024)) MiB, more than $BOUND_MIB"
	elif [ "$secs" -gt "$BOUND_S" ]; then
		bad "$name: took $el, more than ${BOUND_S}s"
	elif ! case "|$want|" in *"|$rc|"*) true ;; *) false ;; esac; then
		bad "$name: exit $rc, want $want"
		sed 's/^/    /' "$T/out" | head -15
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$T/out"; then
		bad "$name: output lacks '$pattern'"
		sed 's/^/    /' "$T/out" | head -15
	else
		ok
	fi
}

# A healthy tree to spoil, and a secret outside it that links aim at.
fresh_tree() {
	rm -rf "$T/$1"
	cp -a "$HEALTHY" "$T/$1"
}
echo "SECRET-OUTSIDE-THE-BUNDLE" > "$T/secret"
DEV=sys/class/infiniband/mlx5_0
# ------------------------------------------- issue 21: hostile bundles and hosts
# Each case is one of the reproducers of issue 21, asserting the bound or
# the message; the bundles are made here.
SOS=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb
SOSB=$(basename $SOS)
W=$T/i21
mkdir -p "$W"

# Writes: nothing but a regular file is replaced; temporaries are not
# predictable; snapshots and fact files are private.
mkfifo "$W/fifo"
ln -s "$W/elsewhere" "$W/link"
hcase save-onto-fifo 2 "fifo: refusing to replace it: it is a FIFO, not a regular file" -- \
	"$BIN" analyze --save "$W/fifo" $SOS
[ -p "$W/fifo" ] && ok || bad "save-onto-fifo: the FIFO was replaced"
hcase html-onto-symlink 2 "link: refusing to replace it: it is a symbolic link" -- \
	"$BIN" analyze --html "$W/link" $SOS
[ -L "$W/link" ] && [ ! -e "$W/elsewhere" ] && ok || bad "html-onto-symlink: the link was replaced or followed"
if [ "$(id -u)" = 0 ] && mknod "$W/null" c 1 3 2> /dev/null; then
	hcase save-onto-device 2 "null: refusing to replace it: it is a character device" -- \
		"$BIN" analyze --save "$W/null" $SOS
	[ -c "$W/null" ] && ok || bad "save-onto-device: the device node was replaced"
else
	skip "save-onto-device: mknod needs root"
fi
hcase save-mode 1 "" -- "$BIN" analyze --save "$W/facts.json" $SOS
[ "$(stat -c %a "$W/facts.json")" = 600 ] && ok || bad "save-mode: $(stat -c %a "$W/facts.json"), want 600"
ls -a "$W" | grep -q '\.tmp\|XXXXXX\|^\.facts' && bad "save: a temporary was left behind" || ok
echo precious > "$W/victim"
chmod 600 "$W/victim"
hcase collect-planted-symlink 0 "wrote " -- sh -c \
	"ln -s '$W/victim' '$W/out.tar.gz.tmp.'\$\$; exec '$BIN' collect -q --root $HEALTHY -o '$W/out.tar.gz'"
[ "$(cat "$W/victim")" = precious ] && ok || bad "collect-planted-symlink: the victim was overwritten"
[ -f "$W/out.tar.gz" ] && [ ! -L "$W/out.tar.gz" ] && [ "$(stat -c %a "$W/out.tar.gz")" = 600 ] && ok ||
	bad "collect-planted-symlink: out.tar.gz is not a private regular file"
hcase collect-onto-symlink 2 "refusing to replace it: it is a symbolic link" -- \
	"$BIN" collect -q --root $HEALTHY -o "$W/link"

# Children: SIGTERM, SIGINT and a tool's timeout leave no tool behind.
mkdir -p "$W/bin"
tag=$((42000 + $$ % 1000))
printf '#!/bin/sh\n(sleep %s1 &)\nexec sleep %s2\n' $tag $tag > "$W/bin/ibstat"
chmod +x "$W/bin/ibstat"
for sig in TERM INT; do
	PATH=$W/bin:$PATH timeout -s $sig 2 "$BIN" check --timeout 30 > /dev/null 2>&1
	sleep 0.5
	if pgrep -f "sleep $tag" > /dev/null; then
		bad "orphan-on-SIG$sig: a tool outlived rdmadoctor"
		pkill -f "sleep $tag[12]"
	else
		ok
	fi
done
PATH=$W/bin:$PATH timeout 20 "$BIN" check --nhc --timeout 1 > /dev/null 2>&1
sleep 0.5
if pgrep -f "sleep $tag" > /dev/null; then
	bad "orphan-after-timeout: a hung tool's helper outlived its timeout"
	pkill -f "sleep $tag[12]"
else
	ok
fi

# Loaders: a FIFO as a rule file is refused at once; a cross product
# stops at the cap, and lint names it.
mkdir -p "$W/r.d"
mkfifo "$W/r.d/site.yaml"
hcase rules-fifo 3 "site.yaml: error: not a regular file \(a FIFO\)" -- \
	"$BIN" analyze --rules "$W/r.d" $H/ibstat-lf.txt
mkdir -p "$W/x"
{ printf 'language: 1\nrules:\n  - id: cross\n    title: t\n    layer: hardware\n    severity: warning\n    confidence: 0.5\n    sources: [x]\n    when:\n'
	for i in 1 2 3 4 5; do echo "      - adapter: {model: \$m$i}"; done
	printf '    diagnose:\n      message: "{m1}{m2}{m3}{m4}{m5}"\n'; } > "$W/x/r.yaml"
hcase lint-cross-product 0 "share no variable, so the rule matches every pair" -- "$BIN" rules lint "$W/x"
bounded cross-product 3 "rule 'cross' \(.*r.yaml:3\) matched more than 100000 times" -- \
	"$BIN" analyze --rules "$W/x" $SOS

# Verdicts: duplicates (the last copy wins, and it is said), a report
# beside other top-level members, a member cut short, a dangling hard link,
# a sparse member.
cp -a $SOS "$W/s"
tar -C "$W" -cf "$W/dup.tar" s
sed -i 's/16.26.1040/16.35.2000/' "$W/s/sos_commands/infiniband/ibstat"
tar -C "$W" -rf "$W/dup.tar" s/sos_commands/infiniband/ibstat
bounded dup-member 0 "1 members are named twice or more; the last copy of each is read, as tar extraction keeps it \(the first: 's/sos_commands/infiniband/ibstat'\)" -- \
	"$BIN" analyze "$W/dup.tar"
rm -rf "$W/s"
cp -a $SOS "$W/$SOSB"
echo hi > "$W/README.txt"
tar -C "$W" -cf "$W/extra.tar" $SOSB README.txt
bounded extra-top 1 "the report is '$SOSB/'; 1 members beside it were left out \(the first: 'README.txt'\)" -- \
	"$BIN" analyze "$W/extra.tar"
grep -q "fw-below-driver-minimum\|Firmware older than the driver" "$T/out" && ok || bad "extra-top: the firmware fault is missed"
rm -rf "$W/$SOSB" "$W/README.txt"
cp -a $SOS "$W/s"
f=s/sos_commands/infiniband/ibstat
{ cat "$W/$f"; head -c 600000 /dev/urandom | base64; } > "$W/ib" && mv "$W/ib" "$W/$f"
tar -C "$W" -cf "$W/t.tar" --exclude=ibstat s && tar -C "$W" -rf "$W/t.tar" $f
head -c -200000 "$W/t.tar" > "$W/cut.tar"
rm -rf "$W/s" "$W/t.tar"
bounded cut-member 1 "ibstat +truncated .*the member is cut short" -- "$BIN" analyze "$W/cut.tar"
python3 - "$W" "$SOS" << 'PY'
import io, sys, tarfile
w, sos = sys.argv[1], sys.argv[2]
with tarfile.open(w + '/h.tar', 'w') as t:
    i = tarfile.TarInfo('sosreport-h/proc/modules'); i.type = tarfile.LNKTYPE
    i.linkname = 'sosreport-h/nowhere'; t.addfile(i)
    d = open(sos + '/sos_commands/infiniband/ibstat', 'rb').read()
    i = tarfile.TarInfo('sosreport-h/sos_commands/infiniband/ibstat'); i.size = len(d)
    t.addfile(i, io.BytesIO(d))
PY
bounded dangling-hardlink "0|1|4" "modules +error +proc/modules: a hard link to 'sosreport-h/nowhere', which is not in the archive" -- \
	"$BIN" analyze "$W/h.tar"
cp -a $SOS "$W/sosreport-s"
truncate -s 6G "$W/sosreport-s/var/log/lastlog" && echo x >> "$W/sosreport-s/var/log/lastlog"
tar -C "$W" --sparse -cJf "$W/sp.tar.xz" sosreport-s && rm -rf "$W/sosreport-s"
bounded sparse-member 1 "Firmware older than the driver" -- "$BIN" analyze "$W/sp.tar.xz"
lacks sparse-member "refusing the archive"
rm -f "$W/sp.tar.xz" "$W/cut.tar" "$W/dup.tar" "$W/extra.tar"

# Memory and time: members kept on a budget, a deep name, the manifest,
# links to members read past, a merge shard.
if [ -n "$HEAVY" ]; then
	mkdir -p "$W/sosreport-k/sos_commands" && echo k > "$W/sosreport-k/sos_commands/hostname"
	for i in $(seq 700); do truncate -s 1M "$W/sosreport-k/z$i"; done
	tar -C "$W" -cf - sosreport-k | xz -1 -T1 > "$W/k.tar.xz"
	rm -rf "$W/sosreport-k"
	bounded keep-budget 4 "" -- "$BIN" analyze "$W/k.tar.xz"
	rm -f "$W/k.tar.xz"
	mkdir -p "$W/r/sos_commands/networking" "$W/r/big" && echo rf > "$W/r/sos_commands/hostname"
	truncate -s 300M "$W/r/filler"
	for i in $(seq 20); do
		{ printf 'driver: mlx5_core\nversion: 5.7\n'; head -c 1500000 /dev/zero; } > "$W/r/big/$i"
		ln -s ../../big/$i "$W/r/sos_commands/networking/ethtool_-i_eth$i"
	done
	tar -C "$W" -cf - r/big r/filler r/sos_commands | xz -1 -T1 > "$W/r.tar.xz"
	rm -rf "$W/r"
	bounded links-read-past 4 "" -- "$BIN" analyze "$W/r.tar.xz"
	rm -f "$W/r.tar.xz"
else
	skip "keep-budget and links-read-past left out under valgrind"
fi
python3 -c "
import tarfile,io
with tarfile.open('$W/deep.tar.xz','w:xz',format=tarfile.PAX_FORMAT) as t:
    i=tarfile.TarInfo('sosreport-d/'+'a/'*40000+'x'); i.size=1; t.addfile(i,io.BytesIO(b'x'))"
bounded deep-path 4 "1 members with names longer than 4096 bytes or deeper than 128 components were skipped" -- \
	"$BIN" analyze "$W/deep.tar.xz"
cp -a $SOS "$W/sosreport-m"
python3 -c "import sys; n=(16<<20)//3; sys.stdout.write('['+'{},'*(n-1)+'{}]')" > "$W/sosreport-m/sos_reports/manifest.json"
tar -C "$W" -cJf "$W/m.tar.xz" sosreport-m && rm -rf "$W/sosreport-m"
bounded manifest-shape 1 "Firmware older than the driver" -- "$BIN" analyze "$W/m.tar.xz"
rm -f "$W/m.tar.xz"
python3 -c "import sys; n=(4<<20)//3; sys.stdout.write('{\"fleet\": {\"bundles\": 1, \"hosts\": ['+'{},'*(n-1)+'{}]}}\n')" > "$W/shard.jsonl"
bounded merge-shard 2 "shard.jsonl:1: error: not a fleet summary: byte 35: a hosts item without a 'path'" -- \
	"$BIN" batch --merge "$W/shard.jsonl"
python3 -c "import sys; sys.stdout.write('{\"fleet\": {\"bundles\": 1, \"hosts\": [{\"path\": \"' + 'x' * (2 << 20) + '\"}]}}\n')" > "$W/shard2.jsonl"
bounded merge-shard-item 2 "an item of more than 1048576 bytes" -- "$BIN" batch --merge "$W/shard2.jsonl"
rm -f "$W/shard.jsonl" "$W/shard2.jsonl"

echo "hostile: $pass passed, $fail failed, $skipped skipped"
[ $fail = 0 ]
