#!/bin/sh
# Command-line behaviour a user sees: exit codes, error messages, colour,
# the live check of this machine, and installation.
set -u
cd "$(dirname "$0")/.."
BIN=${RD_BIN:-./rdmadoctor}
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL cli: $*"; fail=$((fail + 1)); }

# expect NAME WANT_RC GREP_PATTERN -- command...: runs the command, checks
# its exit code and that stdout+stderr match the pattern.
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

EX=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb

# --- exit codes and usage errors
expect help 0 "Exit codes:" -- "$BIN" --help
expect command-help 0 "usage: rdmadoctor analyze" -- "$BIN" analyze --help
expect version 0 "^rdmadoctor [0-9]" -- "$BIN" --version
expect unknown-command 2 "unknown command 'frobnicate'" -- "$BIN" frobnicate
expect unknown-option 2 "unknown option '--bogus'" -- "$BIN" check --bogus
expect analyze-no-path 2 "analyze needs at least one path" -- "$BIN" analyze
expect missing-path 2 "nope.txt: error: cannot read: No such file or directory" -- \
	"$BIN" analyze "$T/nope.txt"
printf 'hello\nworld\n' > "$T/prose.txt"
expect undetectable 2 "cannot tell what this file holds; name its kind as KIND=" -- \
	"$BIN" analyze "$T/prose.txt"
expect unknown-kind 2 "unknown kind 'ibstatt'.*known kinds: .*ibstat," -- \
	"$BIN" analyze "ibstatt=$T/prose.txt"
expect bad-timeout 2 "--timeout takes seconds" -- "$BIN" check --timeout 0
expect explain-unknown 2 "no rule 'nope'" -- "$BIN" explain nope

# --- rules that fail to load, or run away, exit 3
mkdir -p "$T/badrules"
printf 'language: 1\nrules:\n  - id: x\n    titel: T\n' > "$T/badrules/bad.yaml"
expect rules-fail-to-load 3 "bad.yaml:4:5: error: unknown key 'titel' in rule; did you mean 'title'?" -- \
	"$BIN" check --root tests/fixtures/healthy-cx5/root --rules "$T/badrules"
expect lint-exit 3 "unknown key 'titel'" -- "$BIN" rules lint "$T/badrules"
# a kb signature whose pattern does not compile fails the kb load at its
# position (it used to crash the log scan of any kernel log, exit 139)
mkdir -p "$T/badkb"
cp -r rules kb "$T/badkb/"
sed -i "0,/pattern: '(/s//pattern: '((/" "$T/badkb/kb/signatures.yaml"
line=$(grep -n "pattern: '((" "$T/badkb/kb/signatures.yaml" | head -1 | cut -d: -f1)
expect kb-regex-lint 3 "kb/signatures.yaml:$line:[0-9]*: error: field 'pattern' of 'signature' is not a valid PCRE2 pattern" -- \
	env RDMADOCTOR_DATADIR="$T/badkb" "$BIN" rules lint
expect kb-regex-log 3 "kb/signatures.yaml:$line:[0-9]*: error: field 'pattern'" -- \
	env RDMADOCTOR_DATADIR="$T/badkb" "$BIN" analyze tests/fixtures/kernel-log/module-bad-cable.txt
expect kb-regex-sos 3 "kb/signatures.yaml:$line:[0-9]*: error: field 'pattern'" -- \
	env RDMADOCTOR_DATADIR="$T/badkb" "$BIN" analyze "$EX"
cat > "$T/loop.yaml" <<'YAML'
language: 1
rules:
  - id: grow
    title: Grows forever
    layer: verbs
    severity: info
    confidence: 1
    when: [hca: {name: $n}]
    assert: [token: {v: "{n}"}]
  - id: grow-more
    title: Grows forever
    layer: verbs
    severity: info
    confidence: 1
    when: [token: {v: $v}]
    assert: [token: {v: "{v}+"}]
YAML
expect runaway-chain 3 "rule 'grow-more' (.*loop.yaml:10) built a value of more than 4096 bytes" -- \
	"$BIN" check --root tests/fixtures/healthy-cx5/root --rules "$T/loop.yaml"

# --- the guide's case and the healthy host
expect guide-case 1 "upgrade FW to ≥16.27.2000" -- \
	"$BIN" analyze $EX examples/cx5-fw-mismatch/ib_write_bw.txt
expect healthy 0 "No diagnosis" -- "$BIN" check --root tests/fixtures/healthy-cx5/root

# --- no false green: evidence that lets no layer be judged exits 4
mkdir -p "$T/empty"
expect empty-root 4 "Insufficient evidence: no layer could be judged" -- \
	"$BIN" check --root "$T/empty"
expect empty-root-json 4 '"verdict": "insufficient_evidence"' -- \
	"$BIN" check --json --root "$T/empty"
mkdir -p "$T/loose"
cp tests/fixtures/samples/ibstat/cx3-vpi-eth-mode-two-ports-40g-active.txt "$T/loose/ibstat.txt"
expect loose-folder-as-root 4 "Insufficient evidence" -- "$BIN" check --root "$T/loose"
expect no-rdma-sosreport 1 "uverbs-abi-missing, kernel_module layer" -- \
	"$BIN" analyze tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd
# A real sos report of this machine, whose kernel has no RDMA support: sos
# comes from Debian's package (make deps installs it).
if command -v sos > /dev/null 2>&1; then
	mkdir -p "$T/sos"
	if timeout 300 sos report --batch --quiet --tmp-dir "$T/sos" \
		-o infiniband,kernel,host,pci,networking > "$T/sos.log" 2>&1; then
		sosfile=$(ls "$T"/sos/sosreport-*.tar.* | grep -v '\.\(md5\|sha256\)$' | head -1)
		expect real-sos-no-rdma 1 "kernel_module  FAULT" -- "$BIN" analyze "$sosfile"
		expect real-sos-no-rdma-not-green 1 "no RDMA support" -- "$BIN" analyze "$sosfile"
	else
		bad "sos report failed:"
		tail -5 "$T/sos.log" | sed 's/^/    /'
	fi
else
	bad "no sos command: make deps installs Debian's sosreport package"
fi
# A real sysinfo-snapshot of this kind of machine (no adapter, a kernel
# without CONFIG_INFINIBAND), as NVIDIA's tool wrote it: never green.
SI=tests/fixtures/sysinfo-vm-no-rdma/sysinfo-snapshot-v3.7.9.9-vm-20261201-205031
expect sysinfo-real-no-rdma 1 "kernel-without-infiniband, kernel_module layer" -- \
	"$BIN" analyze "$SI"
expect sysinfo-real-no-device 1 "ibstat lists no CA" -- "$BIN" analyze "$SI"
expect sysinfo-real-internal-file 1 "section '/proc/cpuinfo'" -- "$BIN" analyze "$SI"
# A report whose section never ends: read up to there, with a warning that
# names the file and line, and the rest of the bundle still read.
mkdir -p "$T/si-bad/commands_txt_output"
cp "$SI/commands_txt_output/ibstat.txt" "$T/si-bad/commands_txt_output/"
printf '<html><pre>\n<a name="sec3001"></a><h2>/proc/modules</h2><p>mlx5_core 1 0 - Live 0x0<br/>\n<a name="sec3002"></a><h2>/etc/hostname' > "$T/si-bad/host-1.html"
expect sysinfo-unterminated-body 1 "host-1.html:2: warning: section 'sec3001': unterminated <p>" -- \
	"$BIN" analyze "$T/si-bad"
expect sysinfo-unterminated-still-reads 1 "/proc/modules" -- "$BIN" analyze "$T/si-bad"
# The same layout holding a ConnectX-3 host's real outputs: the facts come
# from the sysfs tree of other_system_files (the PCI address through the
# device link the tool does not list), the ethtool -i cut out of
# ethtool_all_interfaces, and the report's section for ibv_devinfo -v.
CX3=tests/fixtures/sysinfo-cx3-eth/sysinfo-snapshot-v3.7.9.9-cx3node-20240301-101500
"$BIN" facts "$CX3" > "$T/cx3.facts" 2>&1
for want in \
	'hca name=mlx4_0 fw_ver=2.40.7000 model=MT4099 psid=MT_1090120019 .*pci=0000:0b:00.0 .*\[sys/class/infiniband/mlx4_0' \
	'port hca=mlx4_0 port=2 state=ACTIVE phys_state=LINKUP rate_gbps=40 .*link_layer=Ethernet .*\[sys/class/infiniband/mlx4_0/ports/2\]' \
	'driver name=mlx4_en evidence=ethtool version=4.2-1.2.0 origin=mlnx_ofed  \[commands_txt_output/ethtool_all_interfaces.txt' \
	"netdev name=eth2 driver=mlx4_en fw_ver=2.40.7000 pci=0000:0b:00.0  \\[commands_txt_output/ethtool_all_interfaces.txt, 'ethtool -i eth2' at line 4:2\\]" \
	"listing tool=ibv_devinfo of=hca filter= count=1  \\[cx3node-20240301-101500.html: section 'ibv_devinfo -v'\\]"; do
	if grep -q -- "$want" "$T/cx3.facts"; then ok; else
		bad "sysinfo-cx3-facts: no fact matching '$want'"
	fi
done
expect kind-override 1 "bw-below-line-rate" -- \
	"$BIN" analyze $EX perftest=examples/cx5-fw-mismatch/ib_write_bw.txt

# --- a sosreport tarball, read in place, gives the same JSON as its
# directory (but for the path); every compression sos uses
for bundle in $EX tests/fixtures/sos-debian-vm/sosreport-vm-fixture-2026-11-29-lpigkjd \
	"$SI" tests/fixtures/sysinfo-cx3-eth/sysinfo-snapshot-v3.7.9.9-cx3node-20240301-101500; do
	"$BIN" analyze --json "$bundle" | jq 'del(.source.path, .source.paths)' > "$T/dir.json"
	for z in J z j; do
		tar -C "$(dirname "$bundle")" -c${z}f "$T/bundle.tar" "$(basename "$bundle")"
		"$BIN" analyze --json "$T/bundle.tar" | jq 'del(.source.path, .source.paths)' > "$T/tar.json"
		if diff -u "$T/dir.json" "$T/tar.json" > "$T/tar.diff"; then ok; else
			bad "tar -$z of $(basename "$bundle") differs from the directory:"
			head -20 "$T/tar.diff" | sed 's/^/    /'
		fi
	done
done

# --- a fact file written by 'facts --json' gives the same diagnoses, with
# the same evidence lines, as the bundle it came from
"$BIN" facts --json $EX examples/cx5-fw-mismatch/ib_write_bw.txt > "$T/facts.json"
"$BIN" analyze $EX examples/cx5-fw-mismatch/ib_write_bw.txt |
	sed -n '/^Diagnoses/,/could not be checked/p' > "$T/d1"
"$BIN" analyze "$T/facts.json" | sed -n '/^Diagnoses/,/could not be checked/p' > "$T/d2"
if [ -s "$T/d1" ] && diff -u "$T/d1" "$T/d2" > "$T/d.diff"; then ok; else
	bad "facts round trip changes the diagnoses:"
	head -20 "$T/d.diff" | sed 's/^/    /'
fi

# --- rules test: the shipped corpus and the example site overlay pass; a
# failing case shows the difference and what fired; malformed test files
# and untested rules are caught
expect rules-lint-shipped 0 "no problems found" -- "$BIN" rules lint
expect rules-test-shipped 0 " 0 failed" -- "$BIN" rules test
expect rules-test-overlay 0 "^10 passed, 0 failed" -- "$BIN" rules test tests/fixtures/site-overlay
# the README's second tutorial shows the overlay's own files, byte for byte
n=0
for f in $(sed -n 's/^<!-- site-overlay: \(.*\) -->$/\1/p' rules/README.md); do
	awk -v f="$f" '$0 == "<!-- site-overlay: " f " -->" { on = 1; next }
		on && /^```yaml$/ { body = 1; next }
		body && /^```$/ { exit }
		body { print }' rules/README.md > "$T/tut"
	cmp -s "$T/tut" "tests/fixtures/site-overlay/$f" && ok ||
		bad "rules/README.md: the tutorial's $f is not tests/fixtures/site-overlay/$f"
	n=$((n + 1))
done
[ $n = 4 ] && ok || bad "rules/README.md: the tutorial shows $n overlay files, not 4"
expect rules-lint-overlay 0 "1 parser: no problems found" -- "$BIN" rules lint tests/fixtures/site-overlay
mkdir -p "$T/rt"
cat > "$T/rt/t.test.yaml" <<'YAML'
language: 1
tests:
  - name: wrong rank
    facts:
      - {kind: port, hca: mlx5_0, port: 1, state: ACTIVE, rate_gbps: 100}
      - {kind: perftest, hca: mlx5_0, test: ib_write_bw, bw_avg_gbps: 40.12}
    expect:
      diagnoses:
        - {id: bw-below-line-rate, rank: 2}
YAML
expect rules-test-fails 1 "expected bw-below-line-rate at rank 2, but it is at rank 1" -- \
	"$BIN" rules test "$T/rt/t.test.yaml"
grep -q "what fired:" "$T/out" && grep -q "bw_avg_gbps 40.12 < 90 (\$rate)" "$T/out" &&
	grep -q "^0 passed, 1 failed" "$T/out" && ok || bad "rules test: a failure lacks the explanation or the tally"
sed -i 's/prot: 1/port: 1/; s/ port: 1,/ prot: 1,/' "$T/rt/t.test.yaml"
expect rules-test-malformed 3 "t.test.yaml:5:35: error: kind 'port' has no field 'prot'; did you mean 'port'?" -- \
	"$BIN" rules test "$T/rt/t.test.yaml"
printf 'language: 2\ntests: []\n' > "$T/rt/t.test.yaml"
expect rules-test-language 3 "t.test.yaml:1:11: error: this file needs rule language 2" -- \
	"$BIN" rules test "$T/rt/t.test.yaml"
rm "$T/rt/t.test.yaml"
cat > "$T/rt/r.yaml" <<'YAML'
language: 1
rules:
  - id: untested
    title: T
    layer: verbs
    severity: info
    confidence: 0.5
    when:
      - hca: {name: $d}
    diagnose:
      message: "{d}"
YAML
expect rules-test-coverage 1 "rule untested has no test case that sees it fire" -- \
	"$BIN" rules test "$T/rt"

# An expected diagnosis that did not fire: the first condition no fact
# matched, and the nearest facts with the test each fails.
mkdir -p "$T/rtm"
cat > "$T/rtm/t.test.yaml" <<'YAML'
language: 1
tests:
  - name: the polling port is on Ethernet
    facts:
      - {kind: port, hca: mlx4_0, port: 1, state: DOWN, phys_state: POLLING, link_layer: Ethernet}
      - {kind: port, hca: mlx4_0, port: 2, state: ACTIVE, phys_state: LINKUP, link_layer: InfiniBand}
    expect:
      diagnoses: [site-port-polling]
YAML
expect rules-test-why-not 1 "rule site-port-polling: no fact matched its condition at tests/fixtures/site-overlay/site.yaml:22, port with hca eq \$dev, port eq \$port, phys_state eq POLLING, link_layer eq InfiniBand; the nearest of the 2 port facts:" -- \
	"$BIN" rules test --rules tests/fixtures/site-overlay "$T/rtm/t.test.yaml"
grep -q "port mlx4_0 1 (3 of 4 tests hold; fails link_layer eq InfiniBand): .*link_layer=Ethernet  \[.*t.test.yaml:5\]" "$T/out" &&
	grep -q "port mlx4_0 2 (3 of 4 tests hold; fails phys_state eq POLLING)" "$T/out" &&
	ok || bad "rules test: a diagnosis that did not fire lacks the nearest facts"
# --why-not: the rules nearest to firing, the condition each lacks, and the
# nearest facts tested under the variables the conditions before it bound
# (the healthy host's firmware 16.27.4000 is what keeps the guide's rule
# from firing: its kb entry asks for 16.27.2000).
H=tests/fixtures/healthy-cx5/root
expect why-not-healthy 0 "^  fw-below-driver-minimum (firmware, error; rules/firmware.yaml:[0-9]*): 2 of 3 conditions hold" -- \
	"$BIN" check --root $H --why-not
grep -q "fw_requirement family=ConnectX-5 driver=MLNX_OFED driver_min=5.7-1.0.2 (6 of 7 tests hold; fails fw_min gt \$fw (= 16.27.4000))  \[kb/fw_requirements.yaml:[0-9]*\]" "$T/out" &&
	ok || bad "why-not: the nearest kb entry lacks the failed test with its bound value"
# the unnamed list holds only rules that did not fire, at warning or above
grep -q "^  [a-z0-9-]* ([a-z_]*, info;" "$T/out" && bad "why-not lists an info rule" || ok
expect why-not-named-fired 1 "^  fw-below-driver-minimum (firmware, error; rules/firmware.yaml:[0-9]*): fired" -- \
	"$BIN" analyze --why-not=fw-below-driver-minimum,bw-below-line-rate "$EX"
grep -q "^  bw-below-line-rate (verbs, warning; rules/verbs.yaml:[0-9]*): " "$T/out" &&
	ok || bad "why-not=A,B lacks the second rule named"
expect why-not-unknown 2 "--why-not: no rule or diagnosis 'nope'" -- \
	"$BIN" check --root $H --why-not=fw-below-driver-minimum,nope
expect why-not-not-explain 2 "explain does not take --why-not" -- \
	"$BIN" explain --why-not fw-below-driver-minimum
"$BIN" check --root $H > "$T/plain" 2>&1
grep -q "nearest to firing" "$T/plain" && bad "the report lists near misses without --why-not" || ok
"$BIN" check --json --root $H --why-not=ib-umad-not-loaded > "$T/wn.json" 2>/dev/null
python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["near_misses"]
assert n[0]["id"] == "ib-umad-not-loaded", n
assert n[0]["status"] == "blocked", n[0]
assert n[0]["condition"]["nearest"][0]["fact"] == "module ib_umad", n[0]
' "$T/wn.json" && ok || bad "why-not --json: a contradicted not-condition lacks its blocking fact"
# Inline facts of a kind no rule file declares, or of a declared kind with
# a field it does not declare, are errors at their line.
mkdir -p "$T/rtd" && cat > "$T/rtd/t.test.yaml" <<'YAML'
language: 1
tests:
  - name: a kind nobody declares
    facts:
      - {kind: site_smm, guid: "0x1"}
    expect: none
  - name: a field site_sm does not declare
    facts:
      - {kind: site_sm, guid: "0x1", rack: r7}
    expect: none
YAML
expect rules-test-undeclared-kind 3 "t.test.yaml:5:16: error: 'site_smm' is not a fact kind of the vocabulary (rdmadoctor rules reference lists them) nor one a rule file declares" -- \
	"$BIN" rules test --rules tests/fixtures/site-overlay "$T/rtd/t.test.yaml"
grep -q "t.test.yaml:9:[0-9]*: error: kind 'site_sm' is declared without a 'rack' field" "$T/out" && ok ||
	bad "rules test: an undeclared field of a declared kind is not named"
# A rule the overlay disabled is not asked for; the overlay's override is
# its own suite's to test, cited at the overlay.
"$BIN" rules test --rules tests/fixtures/site-overlay > "$T/out" 2>&1
if grep -q "no-rdma-device-verbs has no test case" "$T/out" || grep -q "rules/verbs.yaml:[0-9]*: rule bw-below-line-rate has no test" "$T/out"; then
	bad "rules test --rules OVERLAY asks coverage of a rule the overlay disabled or overrode"
else
	ok
fi
mkdir -p "$T/ovc" && cp tests/fixtures/site-overlay/site.yaml "$T/ovc/"
expect rules-test-override-cited 1 "ovc/site.yaml:30: rule bw-below-line-rate has no test case" -- \
	"$BIN" rules test "$T/ovc"
expect explain-disabled 0 "no-rdma-device-verbs: disabled at tests/fixtures/site-overlay/site.yaml:46" -- \
	"$BIN" explain --rules tests/fixtures/site-overlay no-rdma-device-verbs
expect explain-override 0 "overrides the rule at rules/verbs.yaml:" -- \
	"$BIN" explain --rules tests/fixtures/site-overlay bw-below-line-rate
expect explain-regex 0 "no devnode with name match /^uverbs\\\\d/" -- "$BIN" explain container-without-uverbs

# --- collect: a snapshot of a --root tree analyses to the same report as
# checking the tree; one of this machine to the same diagnoses as check
for fx in cx5-fw-mismatch healthy-cx5; do
	"$BIN" collect -q --root tests/fixtures/$fx/root -o "$T/$fx.tar.gz" > /dev/null 2>&1 ||
		bad "collect --root $fx failed"
	"$BIN" check --root tests/fixtures/$fx/root |
		sed -n '/^Layers/,/could not be checked/p' > "$T/d1"
	"$BIN" analyze "$T/$fx.tar.gz" | sed -n '/^Layers/,/could not be checked/p' > "$T/d2"
	if [ -s "$T/d1" ] && diff -u "$T/d1" "$T/d2" > "$T/d.diff"; then ok; else
		bad "collect then analyze of $fx differs from check --root:"
		head -20 "$T/d.diff" | sed 's/^/    /'
	fi
done
expect collect-args 2 "collect takes no paths" -- "$BIN" collect "$T/x"
expect collect-unwritable 2 "cannot write" -- "$BIN" collect -q -o "$T/no/such/dir/x.tar.gz" \
	--root tests/fixtures/healthy-cx5/root
ids() { grep -E '"(id|rank|severity)":' "$1"; }
"$BIN" collect -q -o "$T/live.tar.gz" > /dev/null 2>&1 || bad "collect of this host failed"
"$BIN" check --json > "$T/l1.json" 2>/dev/null
"$BIN" analyze --json "$T/live.tar.gz" > "$T/l2.json" 2>/dev/null
if ids "$T/l1.json" > "$T/i1" && ids "$T/l2.json" > "$T/i2" && diff -u "$T/i1" "$T/i2" > "$T/d.diff"; then
	ok
else
	bad "collect then analyze of this host differs from check:"
	head -20 "$T/d.diff" | sed 's/^/    /'
fi
grep -q '"name": "verbs"' "$T/l2.json" && ok || bad "snapshot lacks the verbs results"

# --- --perftest is opt-in: without it no loopback test is even considered
"$BIN" check --json > "$T/np.json" 2>/dev/null
grep -q '"name": "loopback_bw"' "$T/np.json" && bad "check ran the loopback test unasked" || ok
"$BIN" check --perftest --json > "$T/pt.json" 2>/dev/null
grep -q '"name": "loopback_bw"' "$T/pt.json" && ok || bad "check --perftest has no loopback_bw collector"
grep -A1 '"name": "environment"' "$T/np.json" | grep -q '"status": "ok"' &&
	ok || bad "live check: the environment collector found nothing"

# --- check reads the counters twice: a counter that grows between the
# readings fires the "growing" rules; with --root only when asked
mkdir -p "$T/sroot" && cp -a tests/fixtures/healthy-cx5/root/. "$T/sroot/"
HWC="$T/sroot/sys/class/infiniband/mlx5_0/ports/1/hw_counters"
echo 812 > "$HWC/packet_seq_err"
"$BIN" check --root "$T/sroot" --sample-interval 2.5 --json > "$T/s2.json" 2>&1 &
cpid=$!
# the counter grows once the first reading is done and check waits (its
# nanosleep), not after a guessed delay: a loaded machine, ASan or
# valgrind make the first reading slow
i=0
while [ $i -lt 1200 ] && ! grep -q nanosleep "/proc/$cpid/wchan" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
echo 20812 > "$HWC/packet_seq_err"
wait $cpid
jq -e '[.diagnoses[] | select(.id == "roce-retransmissions-growing" and (.message | contains("grew from 812 to 20812")))] | length == 1' \
	"$T/s2.json" > /dev/null && ok || bad "check --sample-interval: no second reading of the counters"
"$BIN" check --root "$T/sroot" --json > "$T/s1.json" 2>&1
jq -e '[.diagnoses[] | select(.id == "roce-retransmissions-growing")] | length == 0' \
	"$T/s1.json" > /dev/null && ok || bad "check --root read the counters twice unasked"
expect sample-interval-bad 2 "sample-interval takes seconds between 0 and 60, not 'x'" -- \
	"$BIN" check --root "$T/sroot" --sample-interval x
expect sample-interval-help 0 "sample-interval" -- "$BIN" check --help

# --- a tool that hangs is killed at the timeout, recorded as such, and
# the report still comes out (and so does a snapshot)
mkdir -p "$T/bin"
printf '#!/bin/sh\nsleep 300 &\nsleep 300\n' > "$T/bin/ibstat"
chmod +x "$T/bin/ibstat"
start=$(date +%s)
PATH="$T/bin:$PATH" "$BIN" check --json --timeout 1 > "$T/hang.json" 2>&1
took=$(( $(date +%s) - start ))
# (valgrind slows the rest of the check, not the timeout)
limit=10
[ -n "${RD_VALGRIND:-}" ] && limit=60
[ $took -lt $limit ] && ok || bad "hung ibstat: check took ${took}s with --timeout 1"
grep -A1 '"name": "ibstat"' "$T/hang.json" | grep -q '"status": "timeout"' &&
	ok || bad "hung ibstat: collector status is not timeout"
grep -q '"diagnoses"' "$T/hang.json" && ok || bad "hung ibstat: no report"
pgrep -f "$T/bin/ibstat" > /dev/null && bad "hung ibstat: left running" || ok
PATH="$T/bin:$PATH" "$BIN" collect -q --timeout 1 -o "$T/hang.tar.gz" > /dev/null 2>&1
"$BIN" analyze --json "$T/hang.tar.gz" > "$T/hang2.json" 2>&1
grep -A1 '"name": "ibstat"' "$T/hang2.json" | grep -q '"status": "timeout"' &&
	ok || bad "hung ibstat: the snapshot does not record the timeout"

# --- a site parser's command: collect runs it (argv only, no shell, the
# parser's own timeout), records it, and analyze reads it back; a hung
# one is killed at that timeout
mkdir -p "$T/sitebin" "$T/siteov/parsers"
cp tests/fixtures/site-overlay/parsers/sminfo.yaml "$T/siteov/parsers/"
cat > "$T/siteov/parsers/hang.yaml" <<DEF
language: 1
parsers:
  - name: site_hang
    fact: hang_seen
    sources: ["a test of the timeout"]
    command: [site-hang, "\$(touch $T/SHELL-RAN)", ";", "touch", "$T/SHELL-RAN"]
    timeout: 1
    fields: ['^(?<word>\S+)']
DEF
# the line of tests/fixtures/samples/sminfo/ (magnate3/linux-riscv-dev)
printf '#!/bin/sh\necho "sminfo: sm lid 4 sm guid 0x8c0eb0300f6fc26, activity count 5568705 priority 15 state 3 SMINFO_MASTER"\n' > "$T/sitebin/sminfo"
printf '#!/bin/sh\nsleep 300 &\nsleep 300\n' > "$T/sitebin/site-hang"
chmod +x "$T/sitebin/sminfo" "$T/sitebin/site-hang"
start=$(date +%s)
PATH="$T/sitebin:$PATH" "$BIN" collect -q --rules "$T/siteov" -o "$T/site.tar.gz" > /dev/null 2>&1
took=$(( $(date +%s) - start ))
[ $took -lt $limit ] && ok || bad "site parser: collect took ${took}s with a 1 s parser timeout"
[ -e "$T/SHELL-RAN" ] && bad "site parser: a command word reached a shell" || ok
pgrep -f "$T/sitebin/site-hang" > /dev/null && bad "site parser: the hung command was left running" || ok
"$BIN" analyze --json --rules "$T/siteov" "$T/site.tar.gz" > "$T/site.json" 2>&1
grep -A1 '"name": "site:sminfo"' "$T/site.json" | grep -q '"status": "ok"' &&
	ok || bad "site parser: the snapshot's sminfo output is not read back"
grep -A1 '"name": "site:site_hang"' "$T/site.json" | grep -q '"status": "timeout"' &&
	ok || bad "site parser: the hung command is not recorded as a timeout"
"$BIN" facts --rules "$T/siteov" "$T/site.tar.gz" 2>&1 |
	grep -q "^#[0-9]* sm lid=4 guid=0x8c0eb0300f6fc26 .*state=SMINFO_MASTER" &&
	ok || bad "site parser: no sm fact from the snapshot"
# sos runs sminfo per port: every file the parser's 'files' pattern names
mkdir -p "$T/sitesos/sos_commands/infiniband"
for dev in mlx5_0 mlx5_1; do
	tar -xzOf "$T/site.tar.gz" --wildcards '*/sos_commands/rdmadoctor/sminfo' \
		> "$T/sitesos/sos_commands/infiniband/sminfo_-C_${dev}_-P_1"
done
"$BIN" facts --rules tests/fixtures/site-overlay "$T/sitesos" 2>&1 | grep -c "^#[0-9]* sm lid=4 " |
	grep -qx 2 && ok || bad "site parser: the per-port sminfo files of a sosreport are not read"
mkdir -p "$T/badov/parsers"
printf 'language: 1\nparsers:\n  - name: x\n    fact: sm\n    sources: [s]\n    fields:\n      - "(?<lidd>[0-9]+)"\n    markers: [x]\n' > "$T/badov/parsers/bad.yaml"
expect site-lint-parser 3 "badov/parsers/bad.yaml:7:9: error: kind 'sm' has no field 'lidd'; did you mean 'lid'?" -- \
	"$BIN" rules lint "$T/badov"

# --- the tools run with libibverbs' warnings on: a provider-less device
# is only named when IBV_SHOW_WARNINGS is set (rdma-core init.c)
mkdir -p "$T/ibvbin"
cat > "$T/ibvbin/ibv_devinfo" <<'TOOL'
#!/bin/sh
[ -n "${IBV_SHOW_WARNINGS:-}" ] &&
	echo "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0" >&2
echo "No IB devices found"
exit 255
TOOL
chmod +x "$T/ibvbin/ibv_devinfo"
PATH="$T/ibvbin:$PATH" "$BIN" check --json -q > "$T/ibvwarn.json" 2>&1
grep -q '"id": "verbs-no-provider"' "$T/ibvwarn.json" && ok ||
	bad "IBV_SHOW_WARNINGS: the provider-less device's warning was not seen"

# --- a device sysfs files under /sys/devices/virtual is a software one
mkdir -p "$T/swroot/sys/devices/virtual/infiniband/rxe0/ports" \
	"$T/swroot/sys/devices/pci0000:00/0000:00:03.0/infiniband/mlx5_0" \
	"$T/swroot/sys/class/infiniband"
ln -s ../../devices/virtual/infiniband/rxe0 "$T/swroot/sys/class/infiniband/rxe0"
ln -s ../../devices/pci0000:00/0000:00:03.0/infiniband/mlx5_0 \
	"$T/swroot/sys/class/infiniband/mlx5_0"
"$BIN" facts --json -q --root "$T/swroot" > "$T/sw.json" 2>&1
grep -A3 '"name": "rxe0"' "$T/sw.json" | grep -q '"software": true' && ok ||
	bad "software device: rxe0 under /sys/devices/virtual is not marked software"
grep -A3 '"name": "mlx5_0"' "$T/sw.json" | grep -q '"software": false' && ok ||
	bad "software device: mlx5_0 under a PCI function is marked software"

# --- colour: only on a terminal, never with NO_COLOR or --no-color
esc=$(printf '\033')
if command -v script >/dev/null 2>&1; then
	env -u NO_COLOR script -qec "$BIN check --root tests/fixtures/cx5-fw-mismatch/root" /dev/null > "$T/tty" 2>&1
	grep -q "$esc\[" "$T/tty" && ok || bad "colour: none on a terminal"
	NO_COLOR=1 script -qec "$BIN check --root tests/fixtures/cx5-fw-mismatch/root" /dev/null > "$T/tty" 2>&1
	grep -q "$esc\[" "$T/tty" && bad "colour: NO_COLOR ignored" || ok
	env -u NO_COLOR script -qec "$BIN check --no-color --root tests/fixtures/cx5-fw-mismatch/root" /dev/null > "$T/tty" 2>&1
	grep -q "$esc\[" "$T/tty" && bad "colour: --no-color ignored" || ok
fi
env -u NO_COLOR "$BIN" check --root tests/fixtures/cx5-fw-mismatch/root > "$T/pipe" 2>&1
grep -q "$esc" "$T/pipe" && bad "colour: escape codes in a pipe" || ok
NO_COLOR=1 "$BIN" check --color=always --root tests/fixtures/cx5-fw-mismatch/root > "$T/pipe" 2>&1
grep -q "$esc\[" "$T/pipe" && ok || bad "colour: --color=always gives none in a pipe"
if command -v script >/dev/null 2>&1; then
	env -u NO_COLOR script -qec "$BIN check --color=never --root tests/fixtures/cx5-fw-mismatch/root" /dev/null > "$T/tty" 2>&1
	grep -q "$esc\[" "$T/tty" && bad "colour: --color=never ignored" || ok
fi
expect color-bad-word 2 "--color takes auto, always or never, not 'sometimes'" -- \
	"$BIN" check --color=sometimes --root tests/fixtures/healthy-cx5/root

# --- options: global ones before or after the command, each command takes
# only its own (exit 2 naming the option), --json honoured or refused
H=tests/fixtures/healthy-cx5/root
"$BIN" check --json --root $H > "$T/after.json" 2>/dev/null
"$BIN" --json check --root $H > "$T/before.json" 2>/dev/null; rc=$?
if [ $rc = 0 ] && grep -q '"diagnoses"' "$T/before.json" && cmp -s "$T/after.json" "$T/before.json"; then ok; else
	bad "--json before the command: exit $rc, or not the JSON of 'check --json'"
fi
"$BIN" -j --root $H check > "$T/short.json" 2>/dev/null
cmp -s "$T/after.json" "$T/short.json" && ok || bad "-j before the command differs from check --json"
"$BIN" -jp check --root $H > "$T/jp.json" 2>/dev/null
cmp -s "$T/after.json" "$T/jp.json" && ok || bad "-jp check differs from check --json"
expect explain-html 2 "explain does not take --html" -- \
	"$BIN" explain fw-below-driver-minimum --html "$T/x.html"
[ -e "$T/x.html" ] && bad "explain --html wrote a file" || ok
expect analyze-jobs 2 "analyze does not take --jobs" -- "$BIN" analyze --jobs 3 $EX
expect analyze-root 2 "analyze does not take --root" -- "$BIN" analyze --root $H $EX
expect batch-save 2 "batch does not take --save" -- "$BIN" batch --save "$T/s.json" $EX
expect rules-list-html 2 "rules list does not take --html" -- "$BIN" rules list --html "$T/x.html"
expect lint-origin 2 "rules lint does not take --origin" -- "$BIN" rules lint --origin
expect rules-test-json 2 "rules test does not take --json" -- "$BIN" rules test --json
expect rules-reference-json 2 "rules reference does not take --json" -- "$BIN" rules reference --json
expect batch-pretty 2 "batch does not take --pretty" -- "$BIN" batch -p $EX
expect rules-no-sub 2 "rules needs list, lint, test or reference" -- "$BIN" rules
expect rules-unknown-sub 2 "unknown rules command 'frob'; use list, lint, test or reference" -- "$BIN" rules frob
expect rules-sub-help 0 "usage: rdmadoctor rules lint" -- "$BIN" rules lint --help
expect help-command 0 "usage: rdmadoctor explain RULE-ID" -- "$BIN" help explain
expect help-lists-options 0 "Options: --json --pretty --rules" -- "$BIN" explain --help
expect rules-before 0 "fw-below-driver-minimum" -- "$BIN" --origin rules list
"$BIN" explain --json fw-below-driver-minimum > "$T/explain.json" 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["id"]=="fw-below-driver-minimum" and d["diagnosis"]["remediation"] and d["conditions"]' "$T/explain.json" &&
	ok || bad "explain --json does not print the rule as JSON"
"$BIN" rules lint --json > "$T/lint.json" 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and d["rules"] > 0 and d["errors"] == 0' "$T/lint.json" &&
	ok || bad "rules lint --json does not print its counts as JSON"
env RDMADOCTOR_DATADIR="$T/badkb" "$BIN" rules lint --json > "$T/lint-bad.json" 2>&1; rc=$?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["problems"][0]; assert not d["ok"] and p["file"]=="kb/signatures.yaml" and p["line"] > 0 and p["col"] > 0' "$T/lint-bad.json" &&
	[ $rc = 3 ] && ok || bad "rules lint --json on a broken kb: exit $rc, or no located problem"

# --- this machine: a kernel without CONFIG_INFINIBAND is diagnosed in the
# kernel_module layer, not as a hardware fault, and check exits 1.
if zcat /proc/config.gz 2>/dev/null | grep -q '^# CONFIG_INFINIBAND is not set'; then
	"$BIN" check --json > "$T/live.json" 2> "$T/live.err"
	rc=$?
	[ $rc = 1 ] && ok || bad "live check: exit $rc, want 1"
	grep -A3 '"rank": 1,' "$T/live.json" | grep -q '"id": "kernel-without-infiniband"' &&
		ok || bad "live check: kernel-without-infiniband is not #1"
	grep -A2 '"name": "kernel_module"' "$T/live.json" | grep -q '"status": "fault"' &&
		ok || bad "live check: kernel_module layer is not a fault"
	grep -A2 '"name": "hardware"' "$T/live.json" | grep -q '"status": "fault"' &&
		bad "live check: blames the hardware" || ok
	grep -q 'CONFIG_INFINIBAND is not set, so ib_core cannot load' "$T/live.json" &&
		ok || bad "live check: message does not name CONFIG_INFINIBAND"
else
	echo "note: this kernel has CONFIG_INFINIBAND; the no-RDMA live check is not exercised"
fi

# --- libarchive and libibverbs are opened on first use: a paste loads
# neither, and a library that cannot be loaded is a clear error (a bundle)
# or a finding (a live run), not a program that cannot start
mkdir -p "$T/badlib"
printf 'not a library\n' > "$T/badlib/libarchive.so.13"
printf 'not a library\n' > "$T/badlib/libibverbs.so.1"
expect lazy-libs-paste 0 "" -- env LD_LIBRARY_PATH="$T/badlib" "$BIN" analyze examples/cx5-fw-mismatch/ib_write_bw.txt
tar -C "$(dirname $EX)" -czf "$T/lazy.tar.gz" "$(basename $EX)"
expect lazy-libarchive-missing 2 "libarchive.so.13 cannot be loaded (.*badlib/libarchive.so.13: .*): install libarchive13" -- \
	env LD_LIBRARY_PATH="$T/badlib" "$BIN" analyze "$T/lazy.tar.gz"
env LD_LIBRARY_PATH="$T/badlib" "$BIN" check --json > "$T/lazy.json" 2> /dev/null
jq -e '[.diagnoses[] | select(.id == "libibverbs-not-loadable" and .layer == "verbs")] | length == 1' "$T/lazy.json" > /dev/null &&
	ok || bad "live check without a loadable libibverbs: no libibverbs-not-loadable diagnosis"
nm -D "$BIN" | grep -q -e ' U archive_' -e ' U ibv_' &&
	bad "rdmadoctor links libarchive or libibverbs at start" || ok

# --- rules/README.md carries the reference the code prints
sed -n '/<!-- reference:begin -->/,/<!-- reference:end -->/p' rules/README.md |
	sed '1d;$d' > "$T/ref.md"
"$BIN" rules reference > "$T/ref.out" 2>&1
if diff -u "$T/ref.md" "$T/ref.out" > "$T/ref.diff"; then ok; else
	bad "rules/README.md reference differs from 'rdmadoctor rules reference' (run tools/update-reference.sh):"
	head -20 "$T/ref.diff" | sed 's/^/    /'
fi

# --- make install honours PREFIX and DESTDIR
if [ "$BIN" = ./rdmadoctor ]; then
	make -s install DESTDIR="$T/dest" PREFIX=/opt/rd > "$T/install.log" 2>&1 || bad "make install failed"
	for f in bin/rdmadoctor share/rdmadoctor/rules/firmware.yaml \
		 share/rdmadoctor/kb/adapters.yaml share/man/man1/rdmadoctor.1; do
		[ -f "$T/dest/opt/rd/$f" ] && ok || bad "make install: no $f"
	done
	RDMADOCTOR_DATADIR="$T/dest/opt/rd/share/rdmadoctor" "$T/dest/opt/rd/bin/rdmadoctor" \
		check --root tests/fixtures/healthy-cx5/root > /dev/null 2>&1 &&
		ok || bad "installed binary does not run"
	# After a plain make, the installed binary still looks under PREFIX.
	env -u RDMADOCTOR_DATADIR "$T/dest/opt/rd/bin/rdmadoctor" --help 2>&1 |
		grep -q "from /opt/rd/share/rdmadoctor" && ok ||
		bad "make install PREFIX=/opt/rd installed a binary that looks elsewhere for its rules"
	[ -f "$T/dest/opt/rd/share/bash-completion/completions/rdmadoctor" ] && ok ||
		bad "make install: no bash completion"
	bash -n contrib/bash-completion/rdmadoctor && ok || bad "the bash completion does not parse"
	make -s all > /dev/null 2>&1
fi

# --- a cause is at least as severe as what it explains, and NHC names it:
# a warning rule that explains the firmware fault becomes the fault's root
# cause (an error, ranked first), and check --nhc reports it
mkdir -p "$T/cause"
cat > "$T/cause/cause.yaml" <<'YAML'
language: 1
rules:
  - id: test-warning-cause
    title: A warning that explains the firmware fault
    layer: hardware
    severity: warning
    confidence: 0.5
    description: a cause at warning that explains a fault
    when:
      - hca: {name: $dev}
    diagnose:
      about: "{dev}"
      message: "{dev} has a warning-level cause"
      explains: [fw-below-driver-minimum]
YAML
expect cause-severity 1 "^#1 A warning that explains the firmware fault" -- \
	"$BIN" check --root tests/fixtures/cx5-fw-mismatch/root --rules "$T/cause/cause.yaml"
grep -q "^   error: mlx5_0 has a warning-level cause" "$T/out" && ok ||
	bad "cause-severity: the cause is not raised to the fault's severity"
expect nhc-root-cause 1 "rdmadoctor:  hardware layer: mlx5_0 has a warning-level cause (test-warning-cause; 1 more fault)" -- \
	"$BIN" check --nhc --root tests/fixtures/cx5-fw-mismatch/root --rules "$T/cause/cause.yaml"
# known values fill the commands a remediation suggests
expect filled-command 1 "mstflint -d 0000:3b:00.0 -i <image> burn" -- \
	"$BIN" check --root tests/fixtures/cx5-fw-mismatch/root

# --- --markdown: a ticket-ready report for check, analyze and batch, through
# the safe writer; the HTML page carries the date and the version
export SOURCE_DATE_EPOCH=1764583200
expect md-check 1 "" -- "$BIN" check --root tests/fixtures/cx5-fw-mismatch/root --markdown "$T/r.md"
for want in "^## rdmadoctor report: cx5-node07$" \
	"^\*\*Verdict: diagnosed\*\* · rdmadoctor [0-9.]* · 2025-12-01 10:00 UTC" \
	"^| Layer | Status | Found |$" "^| firmware | \*\*FAULT\*\* | " \
	"^#### 1\. FAULT: Firmware older than the driver requires$" \
	"^sys/class/infiniband/mlx5_0/fw_ver:1  16.26.1040$" \
	"mstflint -d 0000:3b:00.0 -i \\\\<image\\\\> burn"; do
	grep -q -- "$want" "$T/r.md" && ok || bad "md-check: no '$want' in the Markdown"
done
n=$(grep -c '^```$' "$T/r.md")
[ "$n" = 2 ] && ok || bad "md-check: $n code fences, want 2 (one evidence block)"
ls "$T"/r.md.* > /dev/null 2>&1 && bad "md-check: a temporary file was left" || ok
expect md-analyze 1 "" -- "$BIN" analyze "$EX" --markdown "$T/a.md"
grep -q "^#### 1\. " "$T/a.md" && ok || bad "md-analyze: no diagnosis heading"
expect md-batch 1 "" -- "$BIN" batch tests/fixtures/cx5-fw-mismatch/root tests/fixtures/healthy-cx5/root --markdown "$T/b.md"
for want in "^## rdmadoctor fleet report$" "^| Diagnosis | Severity | Layer | Hosts | Host list |$" \
	"^| Firmware older than the driver requires (\`fw-below-driver-minimum\`) | FAULT | firmware | 1 | " \
	"^| Host | Status | Diagnoses |$"; do
	grep -q -- "$want" "$T/b.md" && ok || bad "md-batch: no '$want' in the Markdown"
done
expect md-unwritable 2 "cannot write" -- "$BIN" check --root tests/fixtures/cx5-fw-mismatch/root --markdown "$T/no/such/r.md"
expect md-not-facts 2 "facts does not take --markdown" -- "$BIN" facts --markdown "$T/x.md"
# text from a bundle cannot inject Markdown or HTML: a host name with a
# tag and a pipe is escaped
"$BIN" facts --json --root tests/fixtures/cx5-fw-mismatch/root |
	sed 's/"hostname": "cx5-node07"/"hostname": "<img src=x>|evil"/' > "$T/evil.json"
"$BIN" analyze "$T/evil.json" --markdown "$T/evil.md" > /dev/null 2>&1
grep -q '\(^\|[^\\]\)<img' "$T/evil.md" && bad "md: a tag from the bundle is not escaped" || ok
grep -q '\\<img src=x\\>\\|evil' "$T/evil.md" && ok || bad "md: the escaped host name is missing"
expect html-date 1 "" -- "$BIN" check --root tests/fixtures/cx5-fw-mismatch/root --html "$T/r.html"
grep -q "rdmadoctor [0-9.]* &middot; <time>2025-12-01 10:00 UTC</time>" "$T/r.html" && ok ||
	bad "html: no version and date in the header"
unset SOURCE_DATE_EPOCH

# --- --redact: every output masks host names, addresses and identifiers,
# the same value with the same token; the mapping only with --redact-map
F=tests/fixtures/cx5-fw-mismatch/root
mkdir -p "$T/red"
expect redact-text 1 "host redacted-host-1)" -- "$BIN" check --root $F --redact
grep -q "cx5-node07" "$T/out" && bad "redact-text: the host name is still there" || ok
"$BIN" check --root $F --redact --json --html "$T/red/r.html" --markdown "$T/red/r.md" \
	--save "$T/red/s.json" > "$T/red/r.json" 2> /dev/null
for f in r.json r.html r.md s.json; do
	if grep -q "cx5-node07\|0c42:a103:00d9:e4a0" "$T/red/$f"; then
		bad "redact: $f still holds the host name or the node GUID"
	else ok; fi
done
grep -q '"hostname": "redacted-host-1"' "$T/red/r.json" && ok || bad "redact: no host token in the JSON"
grep -q 'redacted-guid-1' "$T/red/s.json" && ok || bad "redact: no GUID token in the --save snapshot"
grep -q 'redacted-host-1' "$T/red/r.html" && grep -q 'redacted-host-1' "$T/red/r.md" && ok ||
	bad "redact: the pages do not carry the same token"
"$BIN" analyze "$T/red/s.json" --json > /dev/null 2>&1
[ $? = 1 ] && ok || bad "redact: the masked snapshot no longer analyses"
ls "$T/red" | grep -qv '^\(r\.json\|r\.html\|r\.md\|s\.json\)$' && bad "redact: a mapping was written unasked" || ok
expect redact-map 1 "" -- "$BIN" check --root $F --redact-map "$T/red/map.tsv"
grep -q "^redacted-host-1	cx5-node07$" "$T/red/map.tsv" && ok || bad "redact-map: no host line"
[ "$(stat -c %a "$T/red/map.tsv")" = 600 ] && ok || bad "redact-map: the mapping is not private"
expect redact-not-facts 2 "facts does not take --redact" -- "$BIN" facts --redact
# a host name that is JSON punctuation ("},") cannot break a masked
# document: --redact masks each string of it, not its text
mkdir -p "$T/redh" && cp -a $F "$T/redh/root" && chmod -R u+w "$T/redh/root" &&
	printf '},\n' > "$T/redh/root/proc/sys/kernel/hostname"
"$BIN" check --root "$T/redh/root" --redact --json --save "$T/redh/s.json" > "$T/redh/r.json" 2> /dev/null
[ "$(jq -r .source.hostname "$T/redh/r.json" 2>/dev/null)" = redacted-host-1 ] && jq -e . "$T/redh/s.json" > /dev/null 2>&1 &&
	ok || bad "redact: a host name of JSON punctuation broke the masked JSON"
"$BIN" batch --redact --json "$T/redh/root" > "$T/redh/b.jsonl" 2> /dev/null
[ $? = 1 ] && [ "$(jq -r '.source.hostname // "summary"' "$T/redh/b.jsonl" 2>/dev/null | tr '\n' ' ')" = "redacted-host-1 summary " ] &&
	ok || bad "batch --redact: a host name of JSON punctuation broke the run"
# collect --redact: every member of the tar.gz and its name masked with
# the same tokens, the map only when asked, and the bundle still analyses
# to the same first diagnosis
case $BIN in /*) absbin=$BIN ;; *) absbin=$(pwd)/$BIN ;; esac
mkdir -p "$T/redc" && (cd "$T/redc" && "$absbin" collect -q --root "$OLDPWD/$F" --redact \
	--redact-map map.tsv > out 2>&1) || bad "collect --redact failed"
tgz=$(ls "$T/redc"/rdmadoctor-redacted-host-1-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$tgz" ] && ok || bad "collect --redact: the file name does not carry the host token"
mkdir -p "$T/redc/x" && tar -xzf "$tgz" -C "$T/redc/x" 2>/dev/null || bad "collect --redact: unreadable tar.gz"
if grep -rqF -e cx5-node07 -e 0c42:a103:00d9:e4a0 "$T/redc/x"; then
	bad "collect --redact: a member still holds the host name or the node GUID"
else ok; fi
ls "$T/redc/x" | grep -q cx5-node07 && bad "collect --redact: the top directory names the host" || ok
grep -q "^redacted-guid-1	0c42:a103:00d9:e4a0$" "$T/redc/map.tsv" && ok ||
	bad "collect --redact-map: no GUID line"
[ "$(stat -c %a "$T/redc/map.tsv")" = 600 ] && ok || bad "collect --redact-map: the mapping is not private"
grep -q "redacted-guid.*ffff" "$T/redc/map.tsv" && bad "collect --redact: a kernel address taken for a GUID" || ok
"$BIN" analyze --json "$tgz" 2>/dev/null | jq -r '.diagnoses[0].id' > "$T/redc/id"
[ "$(cat "$T/redc/id")" = fw-below-driver-minimum ] && ok ||
	bad "collect --redact: the masked bundle ranks $(cat "$T/redc/id") first"

# 'service openibd restart' prints no status: only 'status' names the
# openibd_status format
printf '$ service openibd restart\nUnloading HCA driver:        [  OK  ]\nLoading HCA driver and Access Layer:        [  OK  ]\n' > "$T/oi.txt"
"$BIN" facts --json "$T/oi.txt" > "$T/oi.json" 2> /dev/null
grep -q '"openibd_status"' "$T/oi.json" && bad "service openibd restart read as openibd status" || ok

# --- JSON lists are lists: source.paths names each path analysed, and a
# skipped rule's needs give the fact kinds and questions as data
"$BIN" analyze --json examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb \
	examples/cx5-fw-mismatch/ib_write_bw.txt > "$T/paths.json" 2> /dev/null
[ "$(jq -r '.source.paths | join("|")' "$T/paths.json")" = \
	"examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb|examples/cx5-fw-mismatch/ib_write_bw.txt" ] &&
	ok || bad "json: source.paths does not list the two paths"
"$BIN" check --json --root tests/fixtures/cx5-fw-mismatch/root > "$T/needs.json" 2> /dev/null
jq -e '.skipped[] | select(.id == "bandwidth-low-reported") | .needs.answers == ["symptom"]' \
	"$T/needs.json" > /dev/null && ok || bad "json: bandwidth-low-reported does not need the answer to symptom"
jq -e '[.skipped[] | select(.needs.facts | index("app_error"))] | length > 0' "$T/needs.json" > /dev/null &&
	ok || bad "json: no skipped rule needs app_error facts"
jq -e '[.skipped[] | select((.needs.facts | length) + (.needs.answers | length) == 0)] | length == 0' \
	"$T/needs.json" > /dev/null && ok || bad "json: a skipped rule needs nothing"

# --- the man page covers every option of the options table, and has the
# sections a user looks for
for name in $(sed -n 's/^[[:space:]]*X([A-Z_]*, "\([a-z-]*\)".*/\1/p' cli/options.h); do
	esc=$(printf '%s' "$name" | sed 's/-/\\\\-/g')
	grep -q -- "\\\\-\\\\-$esc" man/rdmadoctor.1 && ok || bad "man page: no --$name"
done
for sec in "EXIT STATUS" ENVIRONMENT FILES OPTIONS; do
	grep -q "^\.SH $sec" man/rdmadoctor.1 && ok || bad "man page: no $sec section"
done
grep -q "share/rdmadoctor" man/rdmadoctor.1 && ok || bad "man page: FILES does not name the data directory"

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
