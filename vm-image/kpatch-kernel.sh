#!/bin/bash
# Build a whole guest kernel from Debian's linux-source with one set of the
# project's patch series applied (vm-image/kpatch.sh): Debian's own config for that kernel and the same
# release string (uname -r), so that the kernel boots the unchanged test
# initramfs and loads Debian's modules from it.  The modules' signatures
# are Debian's, which this kernel does not hold: they load and taint the
# kernel (MODULE_SIG without MODULE_SIG_FORCE); their BTF is checked
# against this vmlinux and dropped on a mismatch (MODULE_ALLOW_BTF_MISMATCH).
# Only bzImage is built; nothing else of the tree is used.
#
# The tree is unpacked, patched and configured once for a given series,
# set and config (their checksums in DIR/tree/.prepared); make then
# rebuilds only what changed, so a build that was stopped goes on.
# Another series, set or config starts from a fresh tree.
#
# usage: kpatch-kernel.sh DIR KERNEL SET SOURCE_DEB PATCH_DIR CONFIG KVER
#   DIR		DIR/tree is the source tree, DIR/bzImage the result
#   KERNEL	the id in vm-image/versions.mk (6.1, 6.12, 7.3)
#   SET		the set of the series to apply (patches/series)
#   CONFIG	Debian's config of that kernel (its /boot/config-KVER)
#   KVER	its release string
#   JOBS	parallel compile jobs (environment; default: nproc)
set -euo pipefail

die() { echo "kpatch-kernel: $*" >&2; exit 1; }

[ $# -eq 7 ] || die "usage: kpatch-kernel.sh DIR KERNEL SET SOURCE_DEB PATCH_DIR CONFIG KVER"
dir=$1 kernel=$2 set=$3 deb=$4 pdir=$5 config=$6 kver=$7
here=$(dirname "$0")
tree=$dir/tree

inputs=$(echo "set $set"; sha256sum "$config" "$pdir/series" "$pdir"/*.patch | awk '{ print $1 }')
if [ "$(cat "$tree/.prepared" 2>/dev/null)" != "$inputs" ]; then
	"$here/kpatch.sh" --whole "$dir" "$kernel" "$set" "$deb" "$pdir"
	cp "$config" "$tree/.config"
	# Debian's config names its certificates by their place in Debian's
	# build; without them the kernel trusts no built-in key.  No module
	# is built, so none is signed: no signing key either.
	"$tree/scripts/config" --file "$tree/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY ""
	make -s -C "$tree" olddefconfig
	echo "$inputs" > "$tree/.prepared"
fi

# Debian's release string is the tree's version plus its local version.
version=$(make -s -C "$tree" kernelversion)
[ "${kver#"$version"}" != "$kver" ] || die "$kver is not a release of $version"
lv=${kver#"$version"}
release=$(make -s -C "$tree" LOCALVERSION="$lv" kernelrelease)
[ "$release" = "$kver" ] || die "the tree would be release $release, not $kver"

make -s -C "$tree" -j"${JOBS:-$(nproc)}" LOCALVERSION="$lv" bzImage
cp "$tree/arch/x86/boot/bzImage" "$dir/bzImage"
