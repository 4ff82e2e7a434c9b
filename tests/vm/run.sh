#!/bin/sh
# make vmtest: rdmadoctor against a real RDMA stack.  Boots Debian's kernel
# (fetched with apt-get download, never installed) under QEMU with a
# busybox initramfs, the host's root shared read-only over 9p, and runs the
# scenarios of tests/vm/scenarios.txt inside it on soft-RoCE (rdma_rxe over
# a virtio netdev).  The guest writes each scenario's `check --json` (and
# bundles) to a result share; this script judges them, one line each, and
# closes with "N passed, N failed".
#
#   VM_CACHE     where the packages and the unpacked kernel are kept
#                (build/vm); only a speed-up: a fresh clone fetches anew
#   VM_ACCEL     tcg, kvm or auto (auto: kvm only when a short probe boots)
#   VM_TIMEOUT   seconds the whole guest run may take (540)
#   VM_ONLY      run only these scenarios (space-separated names)
#   VM_DEBUG     a shell script the guest sources instead of the scenarios
#                (its output in build/vm/out/debug.log), for exploring
#
# The guest's NIC sits alone on a QEMU hub: no packet leaves the VM.
set -eu
cd "$(dirname "$0")/../.."
WT=$(pwd)
CACHE=${VM_CACHE:-$WT/build/vm}
case "$CACHE" in /*) ;; *) CACHE=$WT/$CACHE ;; esac
ACCEL=${VM_ACCEL:-auto}
TIMEOUT=${VM_TIMEOUT:-540}
RD=${RD_BIN:-$WT/rdmadoctor}
SCEN=$WT/tests/vm/scenarios.txt
T0=$(date +%s)

say() { echo "vmtest: $*"; }
die() {
	say "$*" >&2
	exit 2
}

# ---- what only this test needs ----
PKGS="qemu-system-x86 perftest sosreport rdma-core ibverbs-utils
ibverbs-providers iproute2 infiniband-diags kmod cpio jq"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
[ -x "$RD" ] || die "no $RD: build it first (make)"

# ---- the kernel and busybox, fetched and cached ----
mkdir -p "$CACHE/pkgs"
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
if [ -z "$kpkg" ]; then
	apt-get update -qq
	kpkg=$(apt-cache depends linux-image-amd64 |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
fi
[ -n "$kpkg" ] || die "no linux-image package known to apt"
fetch() { # PACKAGE: its .deb in the cache, downloaded when absent
	ver=$(apt-cache policy "$1" | awk '/Candidate:/ { print $2 }' |
		sed 's/^[0-9]*://')
	deb=$(ls "$CACHE/pkgs/$1_"*"$ver"_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		(cd "$CACHE/pkgs" && apt-get download "$1" >"$CACHE/download.log" 2>&1) ||
			die "apt-get download $1 failed (see $CACHE/download.log)"
		deb=$(ls "$CACHE/pkgs/$1_"*.deb | head -n 1)
	fi
	echo "$deb"
}
kdeb=$(fetch "$kpkg")
bdeb=$(fetch busybox-static)
REL=${kpkg#linux-image-}
KDIR=$CACHE/kernel
MODS=$KDIR/lib/modules/$REL
if [ ! -f "$MODS/modules.dep" ] || [ "$kdeb" -nt "$MODS/modules.dep" ]; then
	say "unpacking $(basename "$kdeb")"
	rm -rf "$KDIR"
	mkdir -p "$KDIR"
	dpkg-deb -x "$kdeb" "$KDIR"
	depmod -b "$KDIR" "$REL"
fi
KERNEL=$KDIR/boot/vmlinuz-$REL
[ -f "$KERNEL" ] || die "no $KERNEL in $kdeb"

# ---- the initramfs: busybox, /init, and the modules to reach the shares ----
IRD=$CACHE/initrd
rm -rf "$IRD"
mkdir -p "$IRD/bin" "$IRD/mods" "$IRD/proc" "$IRD/sys" "$IRD/dev"
dpkg-deb --fsys-tarfile "$bdeb" | tar -xO ./bin/busybox >"$IRD/bin/busybox"
chmod 755 "$IRD/bin/busybox"
cp tests/vm/init "$IRD/init"
chmod 755 "$IRD/init"
: >"$IRD/modules.order"
for m in virtio_pci virtio_net 9pnet_virtio 9p overlay; do
	modprobe -d "$KDIR" -S "$REL" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	cp "$ko" "$IRD/mods/"
	basename "$ko" >>"$IRD/modules.order"
done
(cd "$IRD" && find . | cpio -o -H newc --quiet) | gzip -1 >"$CACHE/initrd.img"

# ---- booting: every QEMU is bounded by a timeout and killed on exit ----
QPID=""
cleanup() {
	if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
		kill -KILL "$QPID" 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# boot SECONDS ACCEL OUTDIR LOG EXTRA-CMDLINE: run the VM to its end
boot() {
	qemu-system-x86_64 -accel "$2" -cpu "${VM_CPU:-max}" -smp 2 -m 1536 \
		-nographic -no-reboot -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$CACHE/initrd.img" \
		-append "console=ttyS0 panic=-1 loglevel=4 rdvm.wt=$WT rdvm.mods=$MODS $5" \
		-fsdev local,id=host,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=host,mount_tag=host \
		-fsdev local,id=out,path="$3",security_model=none \
		-device virtio-9p-pci,fsdev=out,mount_tag=out \
		-netdev hubport,id=n0,hubid=0 -device virtio-net-pci,netdev=n0,romfile= \
		</dev/null >"$4" 2>&1 &
	QPID=$!
	s=0
	while kill -0 "$QPID" 2>/dev/null && [ "$s" -lt "$1" ]; do
		sleep 1
		s=$((s + 1))
	done
	cleanup
	wait "$QPID" 2>/dev/null || true
	QPID=""
}

OUT=$CACHE/out
if [ "$ACCEL" = auto ]; then
	ACCEL=tcg
	if [ -w /dev/kvm ]; then
		rm -rf "$OUT" && mkdir -p "$OUT"
		boot 10 kvm "$OUT" "$CACHE/probe.log" "rdvm.probe=1"
		[ -f "$OUT/probe.ok" ] && ACCEL=kvm
	fi
	say "accelerator: $ACCEL"
fi

rm -rf "$OUT" && mkdir -p "$OUT"
cp "$SCEN" "$OUT/scenarios.txt"
[ -n "${VM_DEBUG:-}" ] && cp "$VM_DEBUG" "$OUT/debug.sh"
[ -n "${VM_ONLY:-}" ] && echo "$VM_ONLY" | tr ' ' '\n' >"$OUT/only"
say "booting $REL ($ACCEL), at most $TIMEOUT s"
# The guest skips a scenario that no longer fits in the budget (the
# margin covers the boot and the last reset).
boot "$TIMEOUT" "$ACCEL" "$OUT" "$CACHE/console.log" "rdvm.budget=$((TIMEOUT - 15))"
[ -f "$OUT/done" ] || say "the guest did not finish (see $CACHE/console.log)"

# ---- judging ----
exec "$WT/tests/vm/judge.sh" "$OUT" "$RD" "$T0"
