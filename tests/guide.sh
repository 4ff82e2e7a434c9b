#!/bin/sh
# The guided session: the questions' rules on the command line, --answers
# and --save, and full sessions on a real terminal (tmux, 80x24) on the
# guide's case: questions answered, the firmware diagnosis on screen, its
# evidence, a re-check after the firmware is fixed, and Ctrl-C.  The
# interactive session, the same answers from a file and the saved snapshot
# must give the same diagnoses.
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1 RDMADOCTOR_DATADIR="$(pwd)"
T=$(mktemp -d)
SOCK=$T/tmux.sock
FIX=tests/fixtures/cx5-fw-mismatch/root
HEALTHY=tests/fixtures/healthy-cx5/root
EX=examples/cx5-fw-mismatch
# tenths of a second to wait for a screen
WAIT=${GUIDE_WAIT:-300}
pass=0 fail=0

tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
cleanup() {
	[ -S "$SOCK" ] && tm kill-server 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL guide: $*"; fail=$((fail + 1)); }

# expect NAME WANT_RC GREP_PATTERN -- command...
expect() {
	name=$1 want=$2 pattern=$3
	shift 4
	"$@" > "$T/out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		bad "$name: exit $rc, want $want"
		sed 's/^/    /' "$T/out" | head -15
	elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$T/out"; then
		bad "$name: output lacks '$pattern'"
		sed 's/^/    /' "$T/out" | head -15
	else
		ok
	fi
}

# The diagnoses array of a JSON report.
diagnoses() { sed -n '/^  "diagnoses": \[/,/^  \],*$/p' "$1"; }

# same NAME FILE1 FILE2: the files have the same diagnoses
same() {
	diagnoses "$2" > "$T/d1"
	diagnoses "$3" > "$T/d2"
	if [ -s "$T/d1" ] && diff -u "$T/d1" "$T/d2" > "$T/d.diff"; then ok; else
		bad "$1: the diagnoses differ"
		head -30 "$T/d.diff" | sed 's/^/    /'
	fi
}

# ---- the rules that use the answers
expect no-answer-no-question 1 "bandwidth-low-reported: needs answer to question 'symptom'" -- \
	"$BIN" check --explain --root $FIX
expect symptom 1 '"id": "bandwidth-low-reported"' -- \
	"$BIN" check --json --root $FIX --answer symptom=low_bandwidth
"$BIN" check --json --root $FIX --answer symptom=none > "$T/none.json"
grep -q '"bandwidth-low-reported"' "$T/none.json" && bad "symptom=none still reports low bandwidth" || ok
expect rate-below-expected 1 'mlx5_0 port 1 runs at 100 Gb/s (4X), below the 200 Gb/s it should' -- \
	"$BIN" check --root $FIX --answer symptom=low_bandwidth --answer expected_rate=200
"$BIN" check --json --root $FIX --answer symptom=low_bandwidth --answer expected_rate=100 > "$T/r.json"
grep -q '"port-rate-below-expected"' "$T/r.json" && bad "a port at its expected rate is diagnosed" || ok
"$BIN" check --json --root $FIX --answer symptom=low_bandwidth --answer expected_rate=unknown > "$T/r.json"
grep -q '"port-rate-below-expected"' "$T/r.json" && bad "an unknown expected rate is diagnosed" || ok
# a change of kernel strengthens the firmware diagnosis (0.9 -> 0.96)
expect fw-after-change 1 '"confidence": 0.96' -- \
	"$BIN" check --json --root $FIX --answer recent_change=kernel
expect fw-no-change 1 '"confidence": 0.9,' -- \
	"$BIN" check --json --root $FIX --answer recent_change=none
expect container 1 'the bandwidth was measured in a container' -- \
	"$BIN" check --root $FIX --answer symptom=low_bandwidth --answer environment=container
"$BIN" check --json --root $FIX --answer symptom=low_bandwidth --answer environment=bare_metal > "$T/e.json"
grep -q '"bw-test-in-container-or-vm"' "$T/e.json" && bad "bare metal blamed on the environment" || ok
expect measured-in-vm 1 'ib_write_bw averaged 40.* measured in a vm' -- \
	"$BIN" analyze $EX/sosreport-cx5-node07-2024-03-18-kqzwpvb $EX/ib_write_bw.txt --answer environment=vm
# a driver release the knowledge base has no firmware minimum for
"$BIN" facts --json --root $HEALTHY | sed 's/5\.7-1\.0\.2/5.6-2.0.9/g' > "$T/newdrv.json"
expect unknown-pair 1 'rdmadoctor knows no firmware minimum for this driver' -- \
	"$BIN" analyze "$T/newdrv.json" --answer recent_change=driver
expect unknown-pair-no-change 0 'No diagnosis' -- \
	"$BIN" analyze "$T/newdrv.json" --answer recent_change=none
expect healthy-not-asked 0 'No diagnosis' -- "$BIN" check --root $HEALTHY --answer recent_change=kernel

# ---- --answers files, their errors, and --save
cat > "$T/answers.yaml" <<'YAML'
# the guide's case, as the engineer answers it
symptom: low_bandwidth
expected_rate: 100
recent_change: kernel
environment: bare_metal
YAML
printf '{"symptom": "low_bandwidth", "expected_rate": "100",\n "recent_change": "kernel", "environment": "bare_metal"}\n' > "$T/answers.json"
"$BIN" check --json --root $FIX --answers "$T/answers.yaml" > "$T/yaml.json"
"$BIN" check --json --root $FIX --answers "$T/answers.json" > "$T/json.json"
same "answers from YAML and JSON" "$T/yaml.json" "$T/json.json"
"$BIN" check --json --root $FIX --answer symptom=low_bandwidth --answer expected_rate=100 \
	--answer recent_change=kernel --answer environment=bare_metal > "$T/words.json"
same "--answers and --answer" "$T/yaml.json" "$T/words.json"
# --answer after --answers wins
"$BIN" check --json --root $FIX --answers "$T/answers.yaml" --answer symptom=none > "$T/o.json"
grep -q '"bandwidth-low-reported"' "$T/o.json" && bad "--answer does not override --answers" || ok
printf 'symptom: low_bandwidth\nsymptm: none\n' > "$T/typo.yaml"
expect answers-unknown-question 2 "typo.yaml:2:1: error: unknown question 'symptm'" -- \
	"$BIN" check --root $FIX --answers "$T/typo.yaml"
printf 'symptom: fast\n' > "$T/badvalue.yaml"
expect answers-bad-value 2 "badvalue.yaml:1:1: error: 'fast' is not an answer to question 'symptom' (choices: low_bandwidth," -- \
	"$BIN" check --root $FIX --answers "$T/badvalue.yaml"
printf -- '- symptom\n' > "$T/list.yaml"
expect answers-not-a-map 2 "list.yaml:1:1: error: an answers file maps questions to answers" -- \
	"$BIN" check --root $FIX --answers "$T/list.yaml"
expect answers-missing-file 2 "nope.yaml" -- "$BIN" check --root $FIX --answers "$T/nope.yaml"
expect answer-word 2 "--answer takes question=value, not 'symptom'" -- \
	"$BIN" check --root $FIX --answer symptom
# --save writes the snapshot and the answers; analyze of it gives the same
expect save-check 1 "" -- "$BIN" check --root $FIX --answers "$T/answers.yaml" --save "$T/saved.json"
grep -q '"kind": "answer"' "$T/saved.json" && ok || bad "--save: no answer facts in the snapshot"
grep -q '"kind": "fw_requirement"' "$T/saved.json" && bad "--save: the snapshot holds the knowledge base" || ok
ls -a "$T" | grep -q '^\.saved\.json\.\|saved\.json\.tmp' && bad "--save left a temporary file" || ok
"$BIN" analyze --json "$T/saved.json" > "$T/saved-analyze.json"
same "--save then analyze" "$T/yaml.json" "$T/saved-analyze.json"
# a saved snapshot also serves as an answers file
"$BIN" check --json --root $FIX --answers "$T/saved.json" > "$T/from-saved.json"
same "--answers from a snapshot" "$T/yaml.json" "$T/from-saved.json"
expect save-unwritable 2 "cannot write" -- "$BIN" check --root $FIX --save "$T/no/such/dir/x.json"

# ---- without a terminal, guide and no command behave as check
"$BIN" check --root $FIX > "$T/check.txt" 2>&1 < /dev/null
check_rc=$?
"$BIN" guide --root $FIX > "$T/guide.txt" 2>&1 < /dev/null
guide_rc=$?
if [ $check_rc = $guide_rc ] && cmp -s "$T/check.txt" "$T/guide.txt"; then ok; else
	bad "guide without a terminal differs from check (exit $guide_rc, check $check_rc)"
fi
"$BIN" --root $FIX > "$T/default.txt" 2>&1 < /dev/null
cmp -s "$T/check.txt" "$T/default.txt" && ok || bad "no command without a terminal is not check"
expect guide-json 1 '"diagnoses"' -- "$BIN" guide --json --root $FIX
expect guide-help 0 "usage: rdmadoctor guide" -- "$BIN" guide --help

# ---- sessions on a terminal
if ! command -v tmux > /dev/null 2>&1; then
	bad "tmux is missing (tools/deps.sh installs it); the terminal sessions did not run"
	echo "guide: $pass passed, $fail failed"
	exit 1
fi
export LC_ALL=C.UTF-8

screen() { tm capture-pane -p -t "$1"; }
history() { tm capture-pane -p -J -S - -t "$1"; }

# prompt SESSION PATTERN: waits until the session waits for input with
# PATTERN on the screen, paging through "more" prompts on the way.
prompt() {
	i=0
	while [ $i -lt $WAIT ]; do
		s=$(screen "$1")
		last=$(printf '%s\n' "$s" | grep -v '^ *$' | tail -1)
		case $last in
		*"-- more: Enter"*)
			tm send-keys -t "$1" Enter
			sleep 0.2
			;;
		*"Choice ["*"]:"|">"|*"Save to ["*"]:")
			printf '%s\n' "$s" | grep -q -- "$2" && return 0
			;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	bad "$1: no prompt with '$2' on the screen"
	screen "$1" | sed 's/^/    | /'
	return 1
}
# shown SESSION PATTERN: the visible screen holds PATTERN
shown() {
	if screen "$1" | grep -q -- "$2"; then ok; else
		bad "$1: the screen does not show '$2'"
		screen "$1" | sed 's/^/    | /'
	fi
}
# seen SESSION PATTERN: like shown, in the scrollback too (a layer with many
# checks scrolls its header off an 80x24 screen).
seen() {
	if history "$1" | grep -q -- "$2"; then ok; else
		bad "$1: the session never showed '$2'"
		screen "$1" | sed 's/^/    | /'
	fi
}
key() { tm send-keys -t "$1" -- "$2" Enter; }
wait_exit() {
	i=0
	while [ $i -lt $WAIT ]; do
		history "$1" | grep -q '^exit [0-9]' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	bad "$1: the session did not end"
	screen "$1" | sed 's/^/    | /'
}
# The last diagnosis summary of a session, as plain text.
summary_of() {
	history "$1" | awk '/^Diagnosis of /{buf=""; on=1} on && /^(\[|Saved the evidence|Not checked)/{on=0} on{buf=buf $0 "\n"} END{printf "%s", buf}' |
		grep -v '^$'
}

cp -a $FIX "$T/root"
FW=$(readlink -f "$T/root/sys/class/infiniband/mlx5_0")/fw_ver
tm new-session -d -s a -x 80 -y 24 \
	"cd '$T' && env -u NO_COLOR TERM=xterm-256color '$BIN' guide --root '$T/root' --save '$T/a.json'; echo \"exit \$?\"; sleep 3600"

# the symptom comes first, before any layer it steers
prompt a "Question 1:" && shown a "What problem do you see?"
history a | grep -q "\[1/5\]" && bad "session: a layer was shown before the symptom question" || ok
key a "?"
prompt a "The symptom says which checks can explain it"
key a 1
# then the walk goes bottom-up
prompt a "Question 2, for the check" && shown a "What link rate should the RDMA ports run at" &&
	seen a "\[1/5\] hardware" && seen a "Found: mlx5_0/1 ACTIVE 100 Gb/s"
key a 6
prompt a "Question 3, for the check" && shown a "kernel, driver or firmware change"
key a 1
prompt a "Question 4, for the check" && shown a "container"
key a ""
prompt a "\[r\] re-check after a fix"
seen a "FAULT  Firmware older than the driver requires"
seen a "upgrade FW to ≥16.27.2000"
seen a "Explained by #1"
# the passing checks fold into one line per layer; checks without evidence
# read n/a; a check line with the old "no" (checked and fine, or nothing to
# check) is gone
seen a "^  [0-9]* checks* passed \.\.*\. ok$"
seen a "^  [0-9]* checks* without evidence \.\.*\. n/a$"
seen a "^    need [a-z_, ]*log_event[a-z_, ]* facts$"
history a | grep -q "\.\.\. no$" && bad "session: a check still reads 'no'" || ok
n=$(history a | grep -c "^  [0-9]* checks* passed ")
[ "$n" = 5 ] && ok || bad "session: $n folded pass lines, want one per layer (5)"
# known values fill the command it suggests
seen a "mstflint -d 0000:3b:00.0 -i <image>"
history a | grep -q "mstflint -d <PCI address>" && bad "session: a suggested command keeps <PCI address>" || ok
# it ends with what it could not check and how to get it
seen a "^Not checked, for lack of evidence from modinfo, ibstat,"
seen a "'rdmadoctor collect' on the host records it all"
# the exact commands, with the values it knows
seen a " ibv_devinfo -v;"
seen a "mstflint or flint -d 0000:3b:00.0 q;"
# '?' works at the final prompt too
key a "?"
prompt a "re-check: collect again after a fix"
[ -f "$T/a.json" ] && cp "$T/a.json" "$T/first.json" && ok || bad "session: --save wrote nothing"
history a | grep -q "Question 5" && bad "session: a fifth question was asked" || ok
for q in symptom expected_rate recent_change environment; do
	n=$(grep -c "\"question\": \"$q\"" "$T/first.json")
	[ "$n" = 1 ] && ok || bad "session: answer to $q saved $n times"
done
# colour on a terminal, and every row fits 80 columns
tm capture-pane -p -e -S - -t a | grep -q "$(printf '\033')\[" && ok || bad "session: no colour on a terminal"
width=$(history a | wc -L)
[ "$width" -le 80 ] && ok || bad "session: a row is $width columns wide"
summary_of a > "$T/screen-a.txt"

# the evidence and the chain of reasoning of the first cause
# (longer than a screen: the pager stops on the first page)
key a 1
i=0
while [ $i -lt $WAIT ] && ! screen a | grep -q -- "-- more: Enter"; do
	sleep 0.1
	i=$((i + 1))
done
shown a "Evidence:"
shown a "sys/class/infiniband/mlx5_0/fw_ver:1  16.26.1040"
shown a "rule fw-below-driver-minimum (rules/firmware.yaml:"
shown a "confidence 0.96, score"
key a ""
sleep 0.3
shown a "fw_min 16.27.2000 > 16.26.1040"
key a q
prompt a "\[r\] re-check after a fix"

# the engineer upgrades the firmware, then re-checks
echo 16.27.4000 > "$FW"
key a r
prompt a "\[r\] re-check after a fix"
history a | sed -n '/^Re-checking/,$p' > "$T/recheck.txt"
for want in "What changed since the last check" \
	"hca mlx5_0: fw_ver 16.26.1040 -> 16.27.4000" \
	"firmware       FAULT -> ok" \
	"fixed  Firmware older than the driver requires"; do
	grep -q -- "$want" "$T/recheck.txt" && ok || bad "re-check: no '$want'"
done
summary_of a | grep -q "Firmware older than the driver requires" &&
	bad "re-check: the fixed firmware is still diagnosed" || ok
key a q
wait_exit a
history a | grep -q '^exit 1$' && ok || bad "session: exit code is not 1"

# the same answers from a file, on a terminal: no question, same diagnoses
"$BIN" guide --root $FIX --answers "$T/answers.yaml" --json > "$T/scripted.json" < /dev/null
tm new-session -d -s b -x 80 -y 24 \
	"'$BIN' guide --root '$FIX' --answers '$T/answers.yaml'; echo \"exit \$?\"; sleep 3600"
prompt b "\[r\] re-check after a fix"
history b | grep -q "Question 1" && bad "scripted session: a question was asked" || ok
summary_of b > "$T/screen-b.txt"
# '?' at the save prompt explains it, and the prompt comes back
key b s
prompt b "Save to \["
key b "?"
prompt b "A file name for the evidence and your answers"
key b "$T/b.json"
prompt b "Saved the evidence and your answers to"
[ -s "$T/b.json" ] && ok || bad "save prompt: nothing written after '?'"
if [ -s "$T/screen-a.txt" ] && diff -u "$T/screen-a.txt" "$T/screen-b.txt" > "$T/ab.diff"; then ok; else
	bad "interactive and --answers sessions show different diagnoses"
	head -20 "$T/ab.diff" | sed 's/^/    /'
fi
key b q
wait_exit b
# the screen's ranking is the JSON's
grep '"title"' "$T/scripted.json" | sed 's/.*"title": "\(.*\)",/\1/' > "$T/titles-json"
grep -E '^ ?[0-9]+  (FAULT|CRITICAL|warning|info)  ' "$T/screen-a.txt" |
	sed -E 's/^ ?[0-9]+  [A-Za-z]+  (.*)  \[[a-z_]+\]$/\1/' > "$T/titles-screen"
if [ -s "$T/titles-json" ] && cmp -s "$T/titles-json" "$T/titles-screen"; then ok; else
	bad "the screen ranks other diagnoses than --answers --json"
	paste "$T/titles-json" "$T/titles-screen" | sed 's/^/    /'
fi
# the snapshot saved by the session reproduces its diagnoses
"$BIN" analyze --json "$T/first.json" > "$T/first-analyze.json"
same "session --save then analyze" "$T/scripted.json" "$T/first-analyze.json"
"$BIN" guide --root "$T/root" --answers "$T/answers.yaml" --json > "$T/fixed.json" < /dev/null
"$BIN" analyze --json "$T/a.json" > "$T/a-analyze.json"
same "re-checked session --save then analyze" "$T/fixed.json" "$T/a-analyze.json"

# a session on a fact file (analyze's input); a host name that carries
# escape sequences is shown, not obeyed
"$BIN" facts --json --root $FIX |
	sed 's/"hostname": "cx5-node07"/"hostname": "evil\\u001b]0;pwned\\u0007"/' > "$T/evil.json"
grep -q 'u001b' "$T/evil.json" || bad "the evil fact file lacks its escape"
tm new-session -d -s e -x 80 -y 24 \
	"'$BIN' guide '$T/evil.json' --answers '$T/answers.yaml'; echo \"exit \$?\"; sleep 3600"
prompt e "\[r\] re-check after a fix"
seen e 'Diagnosis of evil\\x1b\]0;pwned\\x07'
seen e "upgrade FW to ≥16.27.2000"
tm kill-session -t e

# --redact: the terminal, the saved file and the file's default name show
# tokens, never the host name or a GUID; the map only with --redact-map
mkdir -p "$T/red"
tm new-session -d -s r -x 80 -y 24 \
	"cd '$T/red' && '$BIN' guide --root '$(pwd)/$FIX' --answers '$T/answers.yaml' --redact --redact-map '$T/red/map.tsv'; echo \"exit \$?\"; sleep 3600"
prompt r "\[r\] re-check after a fix"
seen r "^redacted-host-1\.$"
key r s
prompt r "Save to \[rdmadoctor-redacted-host-1.json\]:"
key r ""
prompt r "\[r\] re-check after a fix"
key r q
i=0
while [ $i -lt $WAIT ] && ! history r | grep -q 'exit [0-9]*$'; do
	sleep 0.1
	i=$((i + 1))
done
if history r | grep -q -e cx5-node07 -e 0c42:a103:00d9:e4a0; then
	bad "guide --redact: the screen shows the host name or the node GUID"
else ok; fi
if [ -f "$T/red/rdmadoctor-redacted-host-1.json" ] &&
	! grep -q -e cx5-node07 -e 0c42:a103:00d9:e4a0 "$T/red/rdmadoctor-redacted-host-1.json"; then
	ok
else
	bad "guide --redact: no masked save file"
fi
grep -q "^redacted-host-1	cx5-node07$" "$T/red/map.tsv" 2>/dev/null && ok ||
	bad "guide --redact-map: no host line in the map"
tm kill-session -t r

# 'q' at the pager skips output, never a question: on a short window the
# pager stops before the second question; 'q' there still shows it
tm new-session -d -s f -x 80 -y 16 \
	"'$BIN' guide --root '$FIX'; echo \"exit \$?\"; sleep 3600"
prompt f "Question 1:"
key f 1
i=0
while [ $i -lt $WAIT ] && ! screen f | grep -q -- "-- more: Enter"; do
	sleep 0.1
	i=$((i + 1))
done
key f q
# (no Enter for a "more" prompt here: the screen may still show the old one)
i=0
while [ $i -lt $WAIT ] && ! screen f | grep -q "Choice \[1-9"; do
	sleep 0.1
	i=$((i + 1))
done
shown f "Question 2, for the check"
shown f "What link rate should the RDMA ports run at"
shown f "9  I do not know"
tm kill-session -t f

# a slow step gets a spinner and its seconds: an ibstat that takes 3 s
mkdir -p "$T/bin"
printf '#!/bin/sh\nsleep 3\necho "CA type: none"\n' > "$T/bin/ibstat"
chmod +x "$T/bin/ibstat"
tm new-session -d -s d -x 80 -y 24 \
	"PATH='$T/bin':\$PATH '$BIN' guide; echo \"exit \$?\"; sleep 3600"
i=0
while [ $i -lt $WAIT ] && ! screen d | grep -q 'running ibstat ([0-9]* s)'; do
	sleep 0.1
	i=$((i + 1))
done
screen d | grep -q '^  [|/\\-] running ibstat ([0-9]* s)$' && ok ||
	bad "no progress line with a spinner while a slow ibstat runs"
tm kill-session -t d

# no command on a terminal is the guide; NO_COLOR; Ctrl-C at a question
# leaves the terminal clean and no file behind
tm new-session -d -s c -x 80 -y 24 "env PS1='$ ' NO_COLOR=1 sh"
key c "cd '$T' && '$BIN' --root '$(pwd)/$FIX' --save '$T/c.json'"
prompt c "Question 1:"
tm capture-pane -p -e -t c | grep -q "$(printf '\033')\[[0-9;]*m" && bad "NO_COLOR: colour on the screen" || ok
tm send-keys -t c C-c
sleep 0.3
key c 'echo "after $?"'
i=0
while [ $i -lt $WAIT ] && ! screen c | grep -q '^after '; do
	sleep 0.1
	i=$((i + 1))
done
screen c | grep -q '^after 130$' && ok || bad "Ctrl-C: not ended by SIGINT, or output left mid-line"
screen c | grep -q '^\$ echo "after' && ok || bad "Ctrl-C: the shell prompt does not start a line"
ls "$T"/c.json* > /dev/null 2>&1 && bad "Ctrl-C left a file behind" || ok

echo "guide: $pass passed, $fail failed"
[ $fail = 0 ]
