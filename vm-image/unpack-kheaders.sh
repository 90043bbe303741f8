#!/bin/bash
# Unpack the guest kernel's headers packages into a private root, so that an
# out-of-tree module builds against them without touching the host's /usr.
# The packages point into /usr/src and /usr/lib/linux-kbuild-* by absolute
# paths (symlinks, and the flavour's one-line Makefile): those are re-pointed
# into the private root.
#
# usage: unpack-kheaders.sh ROOT DEB...
set -euo pipefail

die() { echo "unpack-kheaders: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: unpack-kheaders.sh ROOT DEB..."
root=$(realpath -m "$1")
shift

"$(dirname "$0")/unpack-debs.sh" "$root" "$@"

find "$root" -type l -lname '/*' -print0 | while IFS= read -r -d '' link; do
	target=$(readlink "$link")
	ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$root$target")" "$link"
done

# kbuild is entered through the flavour's Makefile (make -C); its include
# (and, since 7.x, its KBUILD_OUTPUT) would otherwise name the host's
# /usr/src, and read it or fail.
for mk in "$root"/usr/src/linux-headers-*/Makefile; do
	sed -i -E "s@^(include |KBUILD_OUTPUT=)/usr/src/@\1$root/usr/src/@" "$mk"
done

# Anything still absolute would silently reach outside the private root.
left=$(find "$root" -type l -lname '/*' | head -n 1)
[ -z "$left" ] || die "absolute symlink left: $left"
