#!/bin/bash
# Unpack some files of the kernel source tarball in Debian's linux-source
# package into OUT_DIR, paths kept below the tree's top.  Decompressing the
# tarball is the slow part, so the build does it once per
# kernel for everything that needs a few of its files (kpatch.sh,
# checkpatch.sh, the BPF selftests' congestion controls).
#
# usage: unpack-source.sh OUT_DIR SOURCE_DEB FILE...
set -euo pipefail

die() { echo "unpack-source: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: unpack-source.sh OUT_DIR SOURCE_DEB FILE..."
out=$(realpath -m "$1") deb=$(realpath "$2")
shift 2

rm -rf "$out" && mkdir -p "$out"
tarball=$(dpkg-deb -c "$deb" | awk '/\.tar\.xz$/ { print $NF; exit }')
[ -n "$tarball" ] || die "no source tarball in $deb"
top=$(basename "$tarball" .tar.xz)
dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" |
	tar -xJ -C "$out" --strip-components=1 "${@/#/$top/}" ||
	die "cannot unpack $* from $tarball"
echo "$top" > "$out/.top"
