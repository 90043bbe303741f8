#!/bin/bash
# Build an out-of-tree module for kernel KVER inside ROOT (see mkroot.sh),
# against the kernel's own headers packages, with the very compiler the
# kernel was built with: the root's gcc must print exactly the
# CONFIG_CC_VERSION_TEXT of the kernel's config, or nothing is built.  The
# module's folder and the include folder are bind-mounted read-only into the
# root, in a mount namespace of the build's own, with /proc (objtool reads
# it); M= is a folder of links in the root, so kbuild writes nothing into
# the source tree.
#
# usage: kmod-in-root.sh ROOT KVER OUT_DIR MOD_DIR INC_DIR DEB...
#   MOD_DIR	the module's Kbuild and sources (kmod/ for bic_ref)
#   INC_DIR	reaches the Kbuild as BIC_INC (bpf/, for bic_math.h)
set -euo pipefail

die() { echo "kmod-in-root: $*" >&2; exit 1; }

[ $# -ge 6 ] || die "usage: kmod-in-root.sh ROOT KVER OUT_DIR MOD_DIR INC_DIR DEB..."
root=$(realpath "$1") kver=$2 out=$(realpath -m "$3") mod=$(realpath "$4") inc=$(realpath "$5")
shift 5

# One build in a root at a time: make -j builds bic_ref and the patched
# tcp_bic at once, and both unpack the headers into it.  The build in the
# root is a make of its own, not one of make -j's jobs: it gets none of
# the outer make's flags, whose jobserver it cannot reach from here.
exec 9>"$root/.kmod.lock"
flock 9
for deb in "$@"; do
	dpkg-deb -x "$deb" "$root"
done
hdr=/usr/src/linux-headers-$kver
[ -r "$root$hdr/.config" ] || die "no $hdr/.config in the headers packages"

want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root$hdr/.config")
cc=${want%% *}
have=$(chroot "$root" "$cc" --version 2>/dev/null | head -n 1) || true
[ "$have" = "$want" ] || die "$kver was built with '$want'; the root has '${have:-no $cc}'"

kdir=/build/kmod.$$
rm -rf "${root:?}$kdir"
mkdir -p "$root$kdir" "$root/src/mod" "$root/src/inc"
trap 'rm -rf "${root:?}$kdir"' EXIT
for f in "$mod"/*; do
	ln -s "/src/mod/${f##*/}" "$root$kdir/"
done
# shellcheck disable=SC2016	# expanded by the inner sh
unshare -m --propagation private sh -c '
	root=$1 mod=$2 inc=$3 hdr=$4 kdir=$5
	mount -t proc proc "$root/proc" &&
	mount --bind -o ro "$mod" "$root/src/mod" &&
	mount --bind -o ro "$inc" "$root/src/inc" &&
	exec env -u MAKEFLAGS -u MFLAGS chroot "$root" make -s -C "$hdr" M="$kdir" BIC_INC=/src/inc \
		CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_PAHOLE_VERSION=0 modules
' sh "$root" "$mod" "$inc" "$hdr" "$kdir" || die "module build for $kver failed"

mkdir -p "$out"
cp "$root$kdir/"*.ko "$out/"
