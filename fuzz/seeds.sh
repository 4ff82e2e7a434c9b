#!/bin/sh
# Builds the seed corpora of the fuzz targets from the test fixtures and
# samples: fuzz/seeds.sh OUTDIR makes OUTDIR/<target>/ for each target.
# A parse seed is the format's index (its place in FORMAT_LIST) as one
# byte, then a real output of that format.
set -eu
cd "$(dirname "$0")/.."
OUT=$1
rm -rf "$OUT"
mkdir -p "$OUT/parse" "$OUT/detect" "$OUT/log" "$OUT/rules" "$OUT/kb" "$OUT/dparse" \
	"$OUT/archive" "$OUT/version" "$OUT/members" "$OUT/writers"
FX=tests/fixtures
S=$FX/samples
n=0

# The index of a format in FORMAT_LIST, the order fuzz_parse counts in.
format_index() {
	sed -n '/define FORMAT_LIST/,/^$/p' collectors/parsers/formats.h |
		grep -o 'X([a-z_0-9]*' | sed 's/X(//' | grep -nx "$1" | cut -d: -f1 |
		awk '{ print $1 - 1 }'
}

# seed FORMAT FILE: a parse seed and a detect seed.
seed() {
	i=$(format_index "$1")
	[ -n "$i" ] || { echo "seeds: no format '$1'" >&2; exit 1; }
	n=$((n + 1))
	{ printf "\\$(printf %o "$i")"; cat "$2"; } > "$OUT/parse/$1-$n"
	cp "$2" "$OUT/detect/$1-$n"
}

for dir in "$S"/*/; do
	d=$(basename "$dir")
	case $d in
	app_errors) fmt=app_log ;;
	ibv_devinfo_v) fmt=ibv_devinfo ;;
	ibv_rc_pingpong) fmt=pingpong ;;
	rdma_dev | rdma_link) fmt=rdma ;;
	*) fmt=$d ;;
	esac
	for f in "$dir"*; do
		[ -f "$f" ] || continue
		seed "$fmt" "$f"
		[ "$fmt" = dmesg ] && cp "$f" "$OUT/log/"
	done
done
for f in "$FX"/*/root/proc/modules; do seed proc_modules "$f"; done
for f in "$FX"/*/root/boot/config-*; do seed kconfig "$f"; done
seed limits_conf "$FX/snapshot-cx6-tools/etc/security/limits.conf"
seed facts tests/golden/facts-example/expected
# A pasted session: several commands, each with its output.
seed transcript "$(ls "$S"/ibv_devinfo/*container*.txt | head -1)"
find "$FX" -path '*/sos_commands/*' -type f | head -40 | while read -r f; do
	seed transcript "$f"
done
find "$FX" -name 'dmesg*' -type f | while read -r f; do cp "$f" "$OUT/log/"; done

cp rules/*.yaml "$FX"/site-overlay/*.yaml "$OUT/rules/"
cp kb/*.yaml "$OUT/kb/"
cp "$FX"/site-overlay/kb/*.yaml "$OUT/kb/"
# dparse: a parser file behind a 'D', or an output for the fixtures' parsers
for f in "$FX"/site-overlay/parsers/*.yaml "$FX"/dparse/*.yaml; do
	{ printf D; cat "$f"; } > "$OUT/dparse/def-$(basename "$f")"
done
cp "$S"/sminfo/*.txt "$S"/ofed_info/*.txt "$S"/ibdev2netdev/*.txt "$OUT/dparse/"

# Bundles: each fixture tree as a plain tar (what the fuzzer can mutate
# best) and one compressed; plus members that try to leave the archive.
for t in healthy-cx5/root cx5-fw-mismatch/root snapshot-cx6-tools \
	sysinfo-cx5-tools sos-debian-vm; do
	name=$(echo "$t" | tr / -)
	tar -C "$FX/$t" -cf "$OUT/archive/$name.tar" .
done
tar -C "$FX/healthy-cx5/root" -czf "$OUT/archive/healthy-cx5.tar.gz" .
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/b/sys/class/infiniband/mlx5_0"
echo 16.26.1040 > "$tmp/b/sys/class/infiniband/mlx5_0/fw_ver"
ln -s ../../../../etc/passwd "$tmp/b/sys/class/infiniband/mlx5_0/hw_rev"
ln -s loop "$tmp/b/loop"
ln -s /etc/shadow "$tmp/b/abs"
tar -C "$tmp" -cf "$OUT/archive/links.tar" b
tar -C "$tmp" -cf "$OUT/archive/escape.tar" -P b/../b/sys /etc/hostname 2>/dev/null || true

v=$OUT/version
printf '\001%s\n%s' 16.26.1040 16.27.2000 > "$v/fw"
printf '\002%s\n%s' 5.7-1.0.2.0 5.8-OFED.5.8.1.0.1 > "$v/ofed"
printf '\003%s\n%s' 4.18.0-372.9.1.el8.x86_64 5.15.0-91-generic > "$v/kernel"
printf '\000%s\n%s' 1:2.3~rc1-4 2.3^git1-4 > "$v/generic"
# Inputs that once crashed a target stay in its seeds.
for d in fuzz/regress/*/; do
	cp "$d"* "$OUT/$(basename "$d")/"
done
# members: recipes (type, repeat, fragment length, content length, the
# fragment): a name of 512 components, many siblings, links among them.
printf '\000\377\002\010ab\001\020\001\000d\002\000\001\000l\040\200\001\004s' > "$OUT/members/deep"
printf '\040\377\000\020\000\000\000\000' > "$OUT/members/many"
# writers: a file, over a regular file, a FIFO, a symlink, a directory.
for k in 0 1 2 3 4; do
	printf "\\00$k""name\\nreport text\\n" > "$OUT/writers/w$k"
done

echo "seeds: $(find "$OUT" -type f | wc -l) files in $OUT"

