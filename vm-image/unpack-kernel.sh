#!/bin/bash
# Unpack one guest kernel's packages into ROOT and lay them out the one way
# the rest of the build expects, whatever the packaging:
#   ROOT/boot/vmlinuz-KVER, ROOT/boot/config-KVER, ROOT/lib/modules/KVER
# Debian's 6.x images keep vmlinuz and config in /boot and modules in
# /lib/modules; the 7.x split packages keep all three under /usr/lib/modules
# (vmlinuz in linux-binary, config in linux-base).
#
# usage: unpack-kernel.sh ROOT KVER DEB...
set -euo pipefail

die() { echo "unpack-kernel: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: unpack-kernel.sh ROOT KVER DEB..."
root=$(realpath -m "$1") kver=$2
shift 2

"$(dirname "$0")/unpack-debs.sh" "$root" "$@"

usr="$root/usr/lib/modules/$kver"
if [ -d "$usr" ]; then
	[ -e "$root/lib/modules/$kver" ] && die "modules of $kver in both /lib and /usr/lib"
	mkdir -p "$root/lib/modules" "$root/boot"
	[ -e "$usr/vmlinuz" ] && mv "$usr/vmlinuz" "$root/boot/vmlinuz-$kver"
	[ -e "$usr/config" ] && mv "$usr/config" "$root/boot/config-$kver"
	mv "$usr" "$root/lib/modules/$kver"
fi

for f in "boot/vmlinuz-$kver" "boot/config-$kver" "lib/modules/$kver/kernel"; do
	[ -e "$root/$f" ] || die "no $f in the packages of $kver"
done
depmod -b "$root" "$kver"
