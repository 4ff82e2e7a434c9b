#!/bin/sh
# B6, a host with many HCAs (an SR-IOV host has hundreds of virtual
# functions): tests/fixtures/healthy-cx5/root with its ConnectX-5 copied
# to N PCI functions 0000:3b:DD.F, each its own mlx5_K with one port and
# its netdev ibK, linked from /sys/class and /sys/bus/pci as the kernel
# links them.  Times 'rdmadoctor check --json --root' (medians of RUNS
# after a warm-up) at N = 1, 64 and 512, checks that every HCA is
# reported, and prints the target: 512 HCAs in at most 0.3 s.  --smoke
# makes 16 and checks the count only.
#
#   bench/b6-hcas.sh [--smoke]     (RUNS=3 by default)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_setup "$@"
require jq "the benchmark counts the HCAs with jq"

FIXTURE=tests/fixtures/healthy-cx5/root
PCI=sys/devices/pci0000:3a/0000:3a:00.0
SIZES="1 64 512"
[ $SMOKE = 1 ] && SIZES=16

# hcas N DIR: the fixture with N HCAs.
hcas() {
	rm -rf "$2"
	cp -a "$FIXTURE" "$2"
	src=$2/$PCI/0000:3b:00.0
	mv "$src" "$2/proto"
	rm -f "$2"/sys/class/infiniband/* "$2"/sys/class/net/ib0 "$2"/sys/bus/pci/devices/*
	k=0
	while [ $k -lt "$1" ]; do
		bdf=$(printf '0000:3b:%02x.%x' $((k / 8)) $((k % 8)))
		d=$2/$PCI/$bdf
		cp -a "$2/proto" "$d"
		if [ $k -gt 0 ]; then
			mv "$d/infiniband/mlx5_0" "$d/infiniband/mlx5_$k"
			mv "$d/net/ib0" "$d/net/ib$k"
		fi
		ln -sfn "../../../$bdf" "$d/infiniband/mlx5_$k/device"
		ln -s "../../devices/pci0000:3a/0000:3a:00.0/$bdf/infiniband/mlx5_$k" \
			"$2/sys/class/infiniband/mlx5_$k"
		ln -s "../../devices/pci0000:3a/0000:3a:00.0/$bdf/net/ib$k" "$2/sys/class/net/ib$k"
		ln -s "../../../devices/pci0000:3a/0000:3a:00.0/$bdf" "$2/sys/bus/pci/devices/$bdf"
		printf '%016x\n' $((0x248a0703001c0000 + k)) | sed 's/\(....\)\(....\)\(....\)\(....\)/\1:\2:\3:\4/' \
			> "$d/infiniband/mlx5_$k/node_guid"
		k=$((k + 1))
	done
	rm -rf "$2/proto"
}

runs=$RUNS
[ $SMOKE = 1 ] && runs=1
[ $SMOKE = 1 ] || printf '%5s | %7s %7s | %7s\n' HCAs wall cpu 'RSS MiB'
for n in $SIZES; do
	dir=$BENCH_DIR/b6-hcas-$n
	hcas "$n" "$dir"
	out=$("$BENCHRUN" "$runs" -x 1 -o "$dir.json" -e "RDMADOCTOR_DATADIR=$(pwd)" \
		-e RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" check -q --json --root "$dir" \
		</dev/null) || die "a run failed (see above)"
	jq -e .layers "$dir.json" >/dev/null 2>&1 || die "no JSON report for $n HCAs"
	got=$(RDMADOCTOR_DATADIR=$(pwd) RDMADOCTOR_NO_SITE_RULES=1 "$RD_BIN" facts --root "$dir" 2>/dev/null |
		grep -c '^#[0-9]* hca ')
	[ "$got" = "$n" ] || die "$n HCAs made, $got reported"
	if [ $SMOKE = 1 ]; then
		echo "b6 smoke: a host with $n HCAs: each is reported"
	else
		printf '%5s | %7s %7s | %7s\n' "$n" "$(field 1 "$out")" "$(field 3 "$out")" \
			"$(awk -v k="$(field 2 "$out")" 'BEGIN { printf "%.1f", k / 1024 }')"
		[ "$n" = 512 ] && T512=$(field 1 "$out")
	fi
	[ "${KEEP:-0}" = 1 ] || rm -rf "$dir" "$dir.json"
done
[ $SMOKE = 1 ] || target "B6 512 HCAs analysed, seconds" "${T512:-0}" 0.3
