#!/bin/bash
# Unpack files of the kernel source tarball in Debian's linux-source
# package (it holds one, linux-source-X.tar.xz) into OUT_DIR, paths kept
# below the tree's top; with no FILE, the whole tree.  OUT_DIR/.top names
# the tree (linux-source-X).  Decompressing the tarball is the slow part,
# so the build does it once per kernel for everything that needs a few of
# its files (kpatch.sh, checkpatch.sh, the BPF selftests' congestion
# controls); kpatch.sh --whole has it unpack a tree of its own.
#
# usage: unpack-source.sh OUT_DIR SOURCE_DEB [FILE...]
set -euo pipefail

die() { echo "unpack-source: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: unpack-source.sh OUT_DIR SOURCE_DEB [FILE...]"
out=$(realpath -m "$1") deb=$(realpath "$2")
shift 2

rm -rf "$out" && mkdir -p "$out"
tarball=$(dpkg-deb -c "$deb" | awk '/\.tar\.xz$/ { print $NF; exit }')
[ -n "$tarball" ] || die "no source tarball in $deb"
top=$(basename "$tarball" .tar.xz)
members=("${@/#/$top/}")
[ $# -gt 0 ] || members=("$top")
dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" |
	tar -xJ -C "$out" --strip-components=1 "${members[@]}" ||
	die "cannot unpack ${*:-it} from $tarball"
echo "$top" > "$out/.top"
