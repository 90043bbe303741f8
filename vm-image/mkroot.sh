#!/bin/bash
# A Debian root of another suite under build/, to build what the host's own
# toolchain cannot: the modules of a kernel whose kbuild tools need a newer
# glibc than the host's and whose config names a newer gcc.  debootstrap
# fetches it from the host's own mirror; nothing is installed on the host,
# and nothing in the root ever runs except in a chroot (kmod-in-root.sh).
#
# usage: mkroot.sh ROOT SUITE PKG...
set -euo pipefail

die() { echo "mkroot: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: mkroot.sh ROOT SUITE PKG..."
root=$(realpath -m "$1") suite=$2
shift 2
command -v debootstrap >/dev/null || die "debootstrap not installed"
mirror=$("$(dirname "$0")/mirror.sh")

rm -rf "$root" "$root.tmp"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include="$(IFS=,; echo "$*")" "$suite" "$root.tmp" "$mirror" \
	> "$root.log" 2>&1 || die "debootstrap of $suite failed (see $root.log)"
mv "$root.tmp" "$root"
