# Sourced by tests/fleet.sh and tests/slurm.sh: make_fleet DIR STAGE
# writes a fleet of 200 generated bundles to DIR (STAGE holds the trees
# that go into tarballs) and four that cannot be read:
#   node001-080 healthy --root trees (FW 16.27.4000);
#   node081-140 trees on the old FW 16.26.1040 (a fault);
#   node141-180 healthy tarballs on FW 16.28.1002;
#   node181-190 sosreports, node191-200 sosreport tarballs (the old FW,
#   a fault);
#   node990-truncated.tar.gz, README.txt (no bundle) and node991-empty/.
# Run from the top of the repository.

HEALTHY=tests/fixtures/healthy-cx5/root
FAULTY=tests/fixtures/cx5-fw-mismatch/root
SOS=examples/cx5-fw-mismatch/sosreport-cx5-node07-2024-03-18-kqzwpvb

# fleet_root HOST FW SRC DEST: a --root style tree of host HOST with
# firmware FW.
fleet_root() {
	cp -a "$3" "$4"
	echo "$1" > "$4/proc/sys/kernel/hostname"
	echo "$2" > "$4"/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/infiniband/mlx5_0/fw_ver
}

# fleet_sos HOST DEST: the example sosreport as host HOST.
fleet_sos() {
	cp -a "$SOS" "$2"
	echo "$1" > "$2/sos_commands/host/hostname"
	sed -i "s/cx5-node07/$1/g" "$2/sos_commands/kernel/uname_-a"
}

make_fleet() {
	_f=$1 _s=$2
	mkdir -p "$_f" "$_s"
	_i=1
	while [ $_i -le 200 ]; do
		_h=$(printf 'node%03d' $_i)
		if [ $_i -le 80 ]; then
			fleet_root "$_h" 16.27.4000 "$HEALTHY" "$_f/$_h"
		elif [ $_i -le 140 ]; then
			fleet_root "$_h" 16.26.1040 "$FAULTY" "$_f/$_h"
		elif [ $_i -le 180 ]; then
			fleet_root "$_h" 16.28.1002 "$HEALTHY" "$_s/$_h"
			tar -C "$_s" -czf "$_f/$_h.tar.gz" "$_h"
		elif [ $_i -le 190 ]; then
			fleet_sos "$_h" "$_f/sosreport-$_h-2024-03-18-abcdefg"
		else
			fleet_sos "$_h" "$_s/sosreport-$_h-2024-03-18-abcdefg"
			tar -C "$_s" -cJf "$_f/sosreport-$_h-2024-03-18-abcdefg.tar.xz" \
				"sosreport-$_h-2024-03-18-abcdefg"
			echo "0123 sosreport" > "$_f/sosreport-$_h-2024-03-18-abcdefg.tar.xz.sha256"
		fi
		_i=$((_i + 1))
	done
	head -c 300 "$_f/node141.tar.gz" > "$_f/node990-truncated.tar.gz"
	echo "notes about the fleet" > "$_f/README.txt"
	mkdir "$_f/node991-empty"
}
