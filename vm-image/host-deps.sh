#!/bin/bash
# Install the host packages the build and the guest image need, and only
# those that are missing, so a warm machine pays nothing.  Packages given
# as arguments are installed instead of the build's own list.  With
# --check nothing is installed: what is missing is named in one line
# (make unit-test, which must not run apt behind the user's back).
#
# usage: host-deps.sh [--check] [PKG...]
set -euo pipefail

check=""
[ "${1:-}" != --check ] || { check=yes; shift; }
pkgs=(make gcc clang llvm libelf-dev zlib1g-dev libcap-dev pkg-config
      qemu-system-x86 busybox-static kmod cpio xz-utils zstd
      iproute2 iperf3 jq ethtool bash coreutils gnuplot-nox debootstrap
      debhelper devscripts e2fsprogs lintian)
[ $# -eq 0 ] || pkgs=("$@")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ -n "$check" ]; then
	echo "host-deps: not installed: ${missing[*]} (make deps installs them)" >&2
	exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "host-deps: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "  APT      ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -qq update >/dev/null
apt-get -qq install -y --no-install-recommends "${missing[@]}" >/dev/null
