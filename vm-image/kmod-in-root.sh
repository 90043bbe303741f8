#!/bin/bash
# Build bic_ref for kernel KVER inside ROOT (see mkroot.sh), against the
# kernel's own headers packages, with the very compiler the kernel was built
# with: the root's gcc must print exactly the CONFIG_CC_VERSION_TEXT of the
# kernel's config, or nothing is built.  The project's kmod/ and bpf/ are
# bind-mounted read-only into the root, in a mount namespace of the build's
# own, with /proc (objtool reads it); M= is a folder of links in the root,
# so kbuild writes nothing into the source tree.
#
# usage: kmod-in-root.sh ROOT KVER OUT_DIR SRC_DIR DEB...
#   SRC_DIR	the project's top folder (holds kmod/ and bpf/)
set -euo pipefail

die() { echo "kmod-in-root: $*" >&2; exit 1; }

[ $# -ge 5 ] || die "usage: kmod-in-root.sh ROOT KVER OUT_DIR SRC_DIR DEB..."
root=$(realpath "$1") kver=$2 out=$(realpath -m "$3") src=$(realpath "$4")
shift 4

for deb in "$@"; do
	dpkg-deb -x "$deb" "$root"
done
hdr=/usr/src/linux-headers-$kver
[ -r "$root$hdr/.config" ] || die "no $hdr/.config in the headers packages"

want=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root$hdr/.config")
cc=${want%% *}
have=$(chroot "$root" "$cc" --version 2>/dev/null | head -n 1) || true
[ "$have" = "$want" ] || die "$kver was built with '$want'; the root has '${have:-no $cc}'"

rm -rf "$root/build/kmod"
mkdir -p "$root/build/kmod" "$root/src"
ln -s /src/kmod/tcp_bic_ref.c /src/kmod/Kbuild "$root/build/kmod/"
# shellcheck disable=SC2016	# expanded by the inner sh
unshare -m --propagation private sh -c '
	root=$1 src=$2 hdr=$3
	mount -t proc proc "$root/proc" &&
	mount --bind -o ro "$src" "$root/src" &&
	exec chroot "$root" make -s -C "$hdr" M=/build/kmod BIC_INC=/src/bpf \
		CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_PAHOLE_VERSION=0 modules
' sh "$root" "$src" "$hdr" || die "module build for $kver failed"

mkdir -p "$out"
cp "$root/build/kmod/tcp_bic_ref.ko" "$out/"
