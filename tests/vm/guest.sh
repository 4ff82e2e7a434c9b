#!/bin/sh
# The guest side of make vmtest (run by tests/vm/init in the VM's root: the
# host's root under an overlay).  For each scenario of /out/scenarios.txt
# (or of /out/only): back to a clean state, the fault set up, rdmadoctor
# run, its output kept in /out/NAME.*, the fault undone.  Judging is the
# host's (tests/vm/judge.sh); this side only reports what it could not do,
# in /out/NAME.setup.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
# PCRE2's JIT writes code that TCG must translate anew: far slower here
# than the interpreter.
export RDMADOCTOR_NO_JIT=1
WT=$1
OUT=/out
RD="$WT/rdmadoctor"
NET=eth0
ADDR=192.0.2.1/24 # TEST-NET-1; the NIC is alone on a QEMU hub
STEP=60           # seconds any one step may take
cd "$WT" || exit 1

# The VM is no container, whatever the host it shares its files with is.
rm -f /.dockerenv /run/.containerenv
# sos and rdmadoctor look at /etc/hostname and /proc; give the VM a name.
hostname rdvm

log() { echo "guest: $*"; }
bound() { timeout -k 5 "$STEP" "$@"; }

# ---- the clean state: no RDMA module, the netdev up with its address ----
RDMA_MODS="rdma_rxe rdma_ucm ib_umad ib_ipoib rdma_cm iw_cm ib_cm ib_uverbs
ib_core crc32_generic"
HIDDEN=/run/vmtest-hidden
reset() {
	rdma link del rxe0 2>/dev/null
	for m in $RDMA_MODS; do
		[ -d "/sys/module/$m" ] && rmmod "$m" 2>/dev/null
	done
	for m in $RDMA_MODS; do
		if [ -d "/sys/module/$m/holders" ]; then
			rmmod "$m" 2>/dev/null || log "cannot unload $m"
		fi
	done
	if [ -d "$HIDDEN" ]; then
		mv "$HIDDEN"/* /etc/libibverbs.d/ 2>/dev/null
		rmdir "$HIDDEN"
	fi
	rm -f /.dockerenv /etc/modprobe.d/vmtest.conf
	ip link set lo up
	ip link set "$NET" down
	ip link set "$NET" mtu 1500
	ip addr flush dev "$NET"
	ip link set "$NET" up
	ip addr add "$ADDR" dev "$NET"
	dmesg -C
}

# The stack a healthy RoCE host has: the provider and the modules rdma-core
# loads (/etc/rdma/modules/rdma.conf), an rxe link on the netdev, its port
# ACTIVE.
rxe_up() {
	modprobe crc32_generic && modprobe rdma_rxe &&
		modprobe -a rdma_ucm ib_umad &&
		rdma link add rxe0 type rxe netdev "$NET" || return 1
	i=0
	while [ $i -lt 20 ]; do
		rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE' && return 0
		sleep 0.5
		i=$((i + 1))
	done
	log "rxe0/1 never became ACTIVE"
	return 1
}

# check NAME [ARGS]: rdmadoctor check --json, its output kept
check() {
	n=$1
	shift
	bound "$RD" check --json -q "$@" >"$OUT/$n.json" 2>"$OUT/$n.err"
	echo $? >"$OUT/$n.rc"
}

fail_setup() {
	echo "$*" >>"$OUT/$cur.setup"
	log "$cur: $*"
}

# ---- the scenarios ----
sc_healthy() {
	rxe_up || fail_setup "rxe0 did not come up"
	check healthy --perftest
}

# collect --perftest in the healthy state; the host analyses the bundle
# and compares with healthy's check
sc_collect() {
	rxe_up || fail_setup "rxe0 did not come up"
	bound "$RD" collect -q --perftest -o "$OUT/collect.tar.gz" >"$OUT/collect.err" 2>&1 ||
		fail_setup "collect failed: $(tail -n 3 "$OUT/collect.err")"
}

# Debian's sos in the healthy state, analysed on the host and compared
# with healthy's check
sc_sosreport() {
	rxe_up || fail_setup "rxe0 did not come up"
	mkdir -p /tmp/sos
	# sos's plugin for the RDMA stack and the two rdmadoctor reads beside
	# it (kernel: log and modules; pci); sos's whole default set would take
	# many minutes under TCG
	timeout -k 5 180 sos report --batch --quiet --tmp-dir /tmp/sos \
		--label vmtest -o infiniband,kernel,pci \
		>"$OUT/sos.log" 2>&1 ||
		fail_setup "sos report failed: $(tail -n 3 "$OUT/sos.log")"
	for f in /tmp/sos/sosreport-*.tar.*; do
		case "$f" in *.sha256) continue ;; esac
		[ -f "$f" ] && cp "$f" "$OUT/"
	done
}

# ib_core loaded, no provider module: no RDMA device registered
sc_no_device() {
	modprobe ib_core && modprobe ib_uverbs || fail_setup "cannot load ib_core"
	check no_device
}

# no uverbs device file: what user space sees without ib_uverbs.  Every
# provider module needs ib_uverbs's symbols (rdma_rxe's modinfo depends:
# ib_uverbs), so the module cannot be absent under a loaded provider; the
# device file is taken away instead, as on a host whose /dev lacks it.
sc_no_uverbs() {
	rxe_up || fail_setup "rxe0 did not come up"
	rm -f /dev/infiniband/uverbs*
	check no_uverbs
}

# the device in sysfs, its libibverbs driver file hidden
sc_no_provider() {
	rxe_up || fail_setup "rxe0 did not come up"
	mkdir -p "$HIDDEN"
	mv /etc/libibverbs.d/rxe.driver "$HIDDEN/" || fail_setup "no rxe.driver"
	check no_provider
}

# memlock 64 KiB for an unprivileged user
sc_memlock() {
	rxe_up || fail_setup "rxe0 did not come up"
	(
		ulimit -l 64
		bound setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$RD" check --json -q >"$OUT/memlock.json" 2>"$OUT/memlock.err"
		echo $? >"$OUT/memlock.rc"
	)
}

sc_netdev_down() {
	rxe_up || fail_setup "rxe0 did not come up"
	ip link set "$NET" down
	sleep 1
	check netdev_down
}

sc_no_ipv4() {
	rxe_up || fail_setup "rxe0 did not come up"
	ip -4 addr flush dev "$NET"
	sleep 1
	check no_ipv4
}

# the netdev's MTU below the 1024-byte RDMA MTU RoCE needs at least
sc_mtu() {
	rxe_up || fail_setup "rxe0 did not come up"
	ip link set "$NET" mtu 1000 || fail_setup "cannot set the MTU"
	sleep 1
	check mtu
}

# a container as docker makes it without --device: its own /dev, no
# /dev/infiniband, and /.dockerenv
sc_container() {
	rxe_up || fail_setup "rxe0 did not come up"
	: >/.dockerenv
	bound unshare -m sh -c '
		mount -t tmpfs -o mode=755 tmpfs /dev &&
		for d in null zero full random urandom tty; do
			touch /dev/$d && mount --bind /proc/1/root/dev/$d /dev/$d
		done 2>/dev/null
		exec "$0" check --json -q' "$RD" >"$OUT/container.json" \
		2>"$OUT/container.err"
	echo $? >"$OUT/container.rc"
	rm -f /.dockerenv
}

# rdma_rxe loaded without the modules it needs (insmod, not modprobe, as
# with a module copied in by hand): the kernel log says which symbols
sc_module_fail() {
	ko=$(modinfo -n rdma_rxe) || fail_setup "no rdma_rxe module"
	insmod "$ko" 2>"$OUT/module_fail.insmod" &&
		fail_setup "rdma_rxe loaded without its dependencies"
	check module_fail
}

# a perftest client and server told a GID index the port does not have:
# the queue pair cannot reach RTR.  The client's output goes with a collect
# bundle to analyze, as a user would paste it into a ticket.
sc_connect() {
	rxe_up || fail_setup "rxe0 did not come up"
	bound ib_write_bw -d rxe0 -x 9 --report_gbits >"$OUT/connect.server" 2>&1 &
	sleep 2
	bound ib_write_bw -d rxe0 -x 9 --report_gbits 127.0.0.1 \
		>"$OUT/connect.client" 2>&1
	wait
	bound "$RD" collect -q -o "$OUT/connect.tar.gz" >"$OUT/connect.err" 2>&1 ||
		fail_setup "collect failed"
}

# VM_DEBUG=FILE (run.sh): that script instead of the scenarios
if [ -f "$OUT/debug.sh" ]; then
	reset
	. "$OUT/debug.sh" >"$OUT/debug.log" 2>&1
	: >"$OUT/done"
	exit 0
fi
list=$OUT/scenarios.txt
[ -f "$OUT/only" ] && list=$OUT/only
# Seconds a scenario needs at least; one that no longer fits before the
# run's deadline (rdvm.budget= on the kernel command line, counted from
# boot) is skipped with the reason, not started to be killed half-way.
need() {
	case "$1" in
	sosreport) echo 190 ;;
	*) echo 40 ;;
	esac
}
budget=0
for w in $(cat /proc/cmdline); do
	case "$w" in rdvm.budget=*) budget=${w#*=} ;; esac
done
for cur in $(awk '!/^#/ && NF { print $1 }' "$list"); do
	up=$(cut -d. -f1 /proc/uptime)
	if [ "$budget" -gt 0 ] && [ $((budget - up)) -lt "$(need "$cur")" ]; then
		echo "$((budget - up)) s left of $budget, it needs $(need "$cur") s" >"$OUT/$cur.skip"
		log "$cur: skipped, $(cat "$OUT/$cur.skip")"
		continue
	fi
	reset
	start=$(date +%s)
	log "$cur"
	if command -v "sc_$cur" >/dev/null 2>&1; then
		"sc_$cur"
	else
		fail_setup "no such scenario"
	fi
	echo $(($(date +%s) - start)) >"$OUT/$cur.time"
done
reset
: >"$OUT/done"
