#!/bin/bash
# Unpack packages into a fresh private root (dpkg-deb -x: no maintainer
# scripts, nothing registered with the host's dpkg).
#
# usage: unpack-debs.sh ROOT DEB...
set -euo pipefail

die() { echo "unpack-debs: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: unpack-debs.sh ROOT DEB..."
root=$1
shift

rm -rf "$root"
mkdir -p "$root"
for deb in "$@"; do
	[ -r "$deb" ] || die "no package $deb"
	dpkg-deb -x "$deb" "$root"
done
