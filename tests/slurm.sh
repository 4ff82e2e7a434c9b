#!/bin/sh
# make slurmtest: contrib/slurm on a real one-node Slurm cluster.
#
# Installs slurm-wlm and munge when they are missing, then starts munged,
# slurmctld and slurmd in a temporary directory with their own key,
# socket, slurm.conf, state and spool directories and ports on 127.0.0.1
# (no system configuration is read or written), and checks:
# - contrib/slurm/batch-array.sbatch, as a job array over the generated
#   fleet of tests/fleetgen.sh (203 bundles), followed by the merge as a
#   dependent job, gives the fleet view of one 'batch' over the same list,
#   byte for byte;
# - contrib/slurm/rdmadoctor-healthcheck, run by slurmd as its
#   HealthCheckProgram, leaves the node alone on a healthy host and drains
#   it, with the root cause as the reason, on a faulty one.
# Every daemon and job it started is stopped on exit, whatever happened.
set -u
cd "$(dirname "$0")/.."
TOP=$(pwd)
BIN=$(realpath "${RD_BIN:-./rdmadoctor}")
export NO_PROGRESS=1 RDMADOCTOR_NO_SITE_RULES=1 RDMADOCTOR_DATADIR="$TOP"
WAIT=${SLURMTEST_WAIT:-150} # seconds for the fleet's jobs
pass=0 fail=0
started=$(date +%s)

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL slurm: $*"; fail=$((fail + 1)); }
check() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', want '$2'"; fi
}
finish() {
	echo "slurm: $(($(date +%s) - started)) s"
	echo "slurm: $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
}

# --- the packages
pkgs=""
for want in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-client munged:munge \
	jq:jq ss:iproute2; do
	command -v "${want%%:*}" > /dev/null 2>&1 || pkgs="$pkgs ${want#*:}"
done
if [ -n "$pkgs" ]; then
	echo "slurm: installing$pkgs"
	if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO=sudo; fi
	# The words of pkgs are split on purpose.
	# shellcheck disable=SC2086
	{ $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
		--no-install-recommends $pkgs; } > /dev/null 2>&1 ||
		bad "apt-get install$pkgs failed"
fi
for p in munged slurmctld slurmd sbatch squeue scontrol jq ss; do
	command -v $p > /dev/null 2>&1 || bad "$p is not installed"
done
[ $fail -eq 0 ] || finish

# --- the cluster
T=$(mktemp -d /tmp/rdmadoctor-slurm.XXXXXX)
chmod 755 "$T"
PIDS=""
cleanup() {
	if [ -n "${SLURM_CONF:-}" ]; then
		scancel --quiet --user="$(id -un)" --partition=rdtest 2> /dev/null
		sleep 1
	fi
	# Daemons in reverse order of start: slurmd, slurmctld, munged.
	for p in $PIDS; do kill "$p" 2> /dev/null; done
	for p in $PIDS; do
		n=0
		while kill -0 "$p" 2> /dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -9 "$p" 2> /dev/null
	done
	if [ $fail -ne 0 ] && [ -z "${SLURMTEST_KEEP:-}" ]; then
		for f in slurmctld.log slurmd.log munged.log; do
			[ -f "$T/$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$T/$f"; }
		done
	fi
	[ -n "${SLURMTEST_KEEP:-}" ] && echo "slurm: kept $T" || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free ports on the loopback.
port=$((20000 + $$ % 20000))
while ss -Htan 2> /dev/null | awk '{print $4}' | grep -q -e ":$port\$" -e ":$((port + 1))\$"; do
	port=$((port + 2))
done
CTLD_PORT=$port SLURMD_PORT=$((port + 1))
HOST=$(hostname -s)
NODE=rdnode1
mkdir -p "$T/state" "$T/spool" "$T/job" "$T/bin"
ln -s "$BIN" "$T/bin/rdmadoctor"

# munge: its own key and socket.
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2> /dev/null
chmod 600 "$T/munge.key"
munged --foreground --force --key-file="$T/munge.key" --socket="$T/munge.sock" \
	--pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munged.seed" \
	> /dev/null 2>&1 &
PIDS="$! $PIDS"

# The health check that slurmd runs: slurmd gives it a fresh
# environment, so this wrapper names the cluster's configuration, the
# binary and the host tree to check (the file hc-root, switched below
# from a healthy tree to a faulty one).
cat > "$T/healthcheck" << EOF
#!/bin/sh
export SLURM_CONF=$T/slurm.conf RDMADOCTOR=$T/bin/rdmadoctor RDMADOCTOR_DATADIR=$TOP
export RDMADOCTOR_NO_SITE_RULES=1 PATH=/usr/sbin:/usr/bin:/sbin:/bin
echo "run \$(date +%s) \$(cat $T/hc-root)" >> $T/hc.log
exec $TOP/contrib/slurm/rdmadoctor-healthcheck --root "\$(cat $T/hc-root)"
EOF
chmod 755 "$T/healthcheck"
echo "$TOP/tests/fixtures/healthy-cx5/root" > "$T/hc-root"

NCPU=$(nproc)
cat > "$T/slurm.conf" << EOF
ClusterName=rdtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
MinJobAge=600
HealthCheckProgram=$T/healthcheck
HealthCheckInterval=3
HealthCheckNodeState=ANY
NodeName=$NODE NodeHostname=$HOST NodeAddr=127.0.0.1 CPUs=$NCPU State=UNKNOWN
PartitionName=rdtest Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

n=0
until [ -S "$T/munge.sock" ] || [ $n -ge 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -S "$T/munge.sock" ] && ok || { bad "munged did not start"; finish; }

slurmctld -D -c -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
PIDS="$! $PIDS"
n=0
until scontrol ping 2> /dev/null | grep -q 'is UP' || [ $n -ge 30 ]; do sleep 1; n=$((n + 1)); done
scontrol ping 2> /dev/null | grep -q 'is UP' && ok || { bad "slurmctld did not answer"; finish; }
slurmd -D -f "$SLURM_CONF" -N "$NODE" > "$T/slurmd.out" 2>&1 &
PIDS="$! $PIDS"

state() { scontrol show node "$NODE" 2> /dev/null | sed -n 's/^ *State=\([^ ]*\).*/\1/p'; }
n=0
until state | grep -q '^IDLE' || [ $n -ge 30 ]; do sleep 1; n=$((n + 1)); done
check "the node registers and is idle" IDLE "$(state | sed 's/+.*//')"
[ "$(state)" = IDLE ] || finish

# Every port our daemons listen on is on the loopback.
pids_re=$(echo $PIDS | sed 's/ /|/g')
listen=$(ss -Hltnp 2> /dev/null | grep -E "pid=($pids_re)," | awk '{print $4}' | sort -u | tr '\n' ' ')
check "the daemons listen on 127.0.0.1 only" \
	"127.0.0.1:$CTLD_PORT 127.0.0.1:$SLURMD_PORT " "$listen"

# --- the fleet over a job array, merged by a dependent job
. tests/fleetgen.sh
make_fleet "$T/fleet" "$T/stage"
ls -d "$T/fleet"/* | grep -v 'sha256$' > "$T/bundles.list"
check "the list holds 200 bundles and 3 that cannot be read" 203 "$(wc -l < "$T/bundles.list")"
"$BIN" batch --json --jobs 2 "$T/bundles.list" 2> /dev/null | tail -n 1 > "$T/one.json"

SHARDS=5
export PATH="$T/bin:$PATH"
cd "$T/job" || finish
jobid=$(sbatch --parsable --array=0-$((SHARDS - 1)) --cpus-per-task=1 \
	"$TOP/contrib/slurm/batch-array.sbatch" "$T/bundles.list" 2> "$T/sbatch.err")
[ -n "$jobid" ] && ok || bad "sbatch of the array: $(cat "$T/sbatch.err")"
mergeid=$(sbatch --parsable --dependency=afterany:"$jobid" --output=merge.log --wrap \
	'rdmadoctor batch --merge --json --html fleet.html fleet-shard-*.jsonl > merged.json' \
	2> "$T/sbatch.err")
[ -n "$mergeid" ] && ok || bad "sbatch of the merge: $(cat "$T/sbatch.err")"
cd "$TOP" || finish
n=0
while [ -n "$(squeue -h -j "$jobid,$mergeid" 2> /dev/null)" ] && [ $n -lt "$WAIT" ]; do
	sleep 1
	n=$((n + 1))
done
check "the array and the merge finish within $WAIT s" "" "$(squeue -h -j "$jobid,$mergeid" 2> /dev/null)"
# Slurm records each task's exit code: rdmadoctor's, as its summary says
# (1: a faulty host, 2: a bundle that cannot be read); the merge's is
# that of one batch over the list.
codes=$(scontrol -o show job "$jobid" 2> /dev/null | sed -n 's/.* ArrayTaskId=\([0-9]*\) .* ExitCode=\([0-9]*\):.*/\1 \2/p' |
	sort -n | awk '{printf "%s ", $2}')
want=$(for f in "$T/job"/fleet-shard-*.jsonl; do tail -n 1 "$f" | jq -r '.fleet.exit' 2> /dev/null; done | tr '\n' ' ')
check "the shards' exit codes" "$want" "$codes"
check "the merge's exit code" "ExitCode=$(jq -r .fleet.exit "$T/one.json"):0" \
	"$(scontrol -o show job "$mergeid" 2> /dev/null | grep -o 'ExitCode=[0-9:]*')"
check "a file per shard, each ending with its summary" "$SHARDS $SHARDS" \
	"$(ls "$T/job"/fleet-shard-*.jsonl 2> /dev/null | wc -l) $(for f in "$T/job"/fleet-shard-*.jsonl; do tail -n 1 "$f"; done | jq -r 'select(.fleet)' 2> /dev/null | jq -s length)"
check "the shards share out the list" 203 \
	"$(for f in "$T/job"/fleet-shard-*.jsonl; do tail -n 1 "$f"; done | jq -s 'map(.fleet.bundles) | add' 2> /dev/null)"
check "the merged fleet: bundles, analysed, failed, fault" "203 200 3 80" \
	"$(jq -r '.fleet | "\(.bundles) \(.analysed) \(.failed) \(.fault)"' "$T/job/merged.json" 2> /dev/null)"
if [ -s "$T/job/merged.json" ] && cmp -s "$T/one.json" "$T/job/merged.json"; then ok; else
	bad "the merged fleet view differs from one batch's: $(cmp "$T/one.json" "$T/job/merged.json" 2>&1)"
fi
[ -s "$T/job/fleet.html" ] && ok || bad "the merge wrote no HTML page"

# --- the health check
# Healthy: the node stays up.  Wait for a run that started after now.
hc_runs_after() { awk -v t="$1" -v r="$2" '$2 >= t && $3 == r' "$T/hc.log" 2> /dev/null | wc -l; }
now=$(date +%s)
n=0
until [ "$(hc_runs_after "$now" "$TOP/tests/fixtures/healthy-cx5/root")" -ge 1 ] || [ $n -ge 30 ]; do
	sleep 1
	n=$((n + 1))
done
sleep 1
check "slurmd runs the health check on a healthy host" 1 \
	"$([ "$(hc_runs_after "$now" "$TOP/tests/fixtures/healthy-cx5/root")" -ge 1 ] && echo 1)"
check "a healthy host is not drained" IDLE "$(state)"

# Faulty: drained, with the root cause as the reason.
echo "$TOP/tests/fixtures/cx5-fw-mismatch/root" > "$T/hc-root"
n=0
until state | grep -q DRAIN || [ $n -ge 30 ]; do sleep 1; n=$((n + 1)); done
check "a faulty host is drained" DRAIN "$(state | grep -o DRAIN)"
reason=$(scontrol show node "$NODE" 2> /dev/null | sed -n 's/^ *Reason=\(.*\) \[[^]]*\]$/\1/p')
# The reason is the root-cause line 'check --nhc' prints for the fixture,
# and that root cause is the guide's firmware diagnosis.
want=$("$BIN" check --nhc --quiet --timeout 5 --root "$TOP/tests/fixtures/cx5-fw-mismatch/root" \
	< /dev/null 2> /dev/null)
want=${want#*Health check failed:  }
check "the reason is the root cause" "$want" "$reason"
check "the root cause is the firmware diagnosis" fw-below-driver-minimum \
	"$(echo "$reason" | grep -o 'fw-below-driver-minimum')"

finish
