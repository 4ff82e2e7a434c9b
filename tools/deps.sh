#!/bin/sh
# Installs the Debian packages rdmadoctor needs to build and test (clips
# and ripgrep: the benchmarks and their smoke runs compare with CLIPS 6.30
# and ripgrep), when they are missing; does nothing when all are present.
set -eu

PKGS="gcc make pkg-config libyaml-dev libpcre2-dev libjson-c-dev
libarchive-dev liblzma-dev libibverbs-dev libcmocka-dev ibverbs-providers ibverbs-utils
infiniband-diags xz-utils bzip2 gzip tar valgrind clang libclang-rt-14-dev sosreport
python3 python3-yaml python3-jsonschema
tmux kmod clips jq chromium fonts-dejavu-core ripgrep
time procps zstd lz4"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "deps: need root (or sudo) to install:$missing" >&2
		exit 1
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
