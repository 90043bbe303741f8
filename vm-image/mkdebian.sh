#!/bin/bash
# The root of a real Debian bookworm guest that boots with systemd from a
# virtio disk (make debian-test): debootstrap from the host's own mirror,
# then the pinned guest kernel installed with dpkg in a chroot, so that
# Debian's initramfs-tools builds its initrd, and the pinned bpftool for
# the test's checks.  Nothing is mounted on the host: dpkg runs in a mount
# namespace of its own, with /proc and /dev bind-mounted from the host.
# A console on ttyS0 logs root in without a password; there is no network.
#
# usage: mkdebian.sh ROOT KERNEL_DEB BPFTOOL
set -euo pipefail

die() { echo "mkdebian: $*" >&2; exit 1; }

# systemd and what the test runs, and all that bpf-bic depends on, so that
# apt installs the package with no network (bpftool needs libcap2 too).
pkgs=(systemd systemd-sysv apt udev kmod iproute2 iperf3 procps initramfs-tools
      libelf1 zlib1g libcap2 jq)

[ $# -eq 3 ] || die "usage: mkdebian.sh ROOT KERNEL_DEB BPFTOOL"
root=$(realpath -m "$1") kdeb=$(realpath "$2") bpftool=$(realpath "$3")
command -v debootstrap >/dev/null || die "debootstrap not installed"
mirror=$("$(dirname "$0")/mirror.sh")
log=$root.log tmp=$root.tmp

rm -rf "$root" "$tmp"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include="$(IFS=,; echo "${pkgs[*]}")" bookworm "$tmp" "$mirror" \
	> "$log" 2>&1 || die "debootstrap of bookworm failed (see $log)"

echo debian-bic > "$tmp/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tdebian-bic\n' > "$tmp/etc/hosts"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' > "$tmp/etc/fstab"
chroot "$tmp" passwd -d root >> "$log" 2>&1 || die "cannot clear root's password"
mkdir -p "$tmp/etc/systemd/system/serial-getty@ttyS0.service.d"
# shellcheck disable=SC2016	# $TERM is systemd's
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %%I $TERM\n' \
	> "$tmp/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"
# The disk's driver is a module in the cloud kernel: into the initrd with it.
printf 'virtio_pci\nvirtio_blk\n' >> "$tmp/etc/initramfs-tools/modules"

cp "$kdeb" "$tmp/tmp/"
# shellcheck disable=SC2016	# expanded by the inner sh
unshare -m --propagation private sh -c '
	mount --rbind /proc "$1/proc" && mount --rbind /dev "$1/dev" &&
	chroot "$1" env DEBIAN_FRONTEND=noninteractive dpkg -i "/tmp/$2"' sh "$tmp" "${kdeb##*/}" \
	>> "$log" 2>&1 || die "cannot install ${kdeb##*/} in the root (see $log)"
rm -f "$tmp/tmp/${kdeb##*/}"
kver=$(dpkg-deb -f "$kdeb" Package)
kver=${kver#linux-image-}
for f in vmlinuz initrd.img; do
	[ -r "$tmp/boot/$f-$kver" ] || die "no $f-$kver in $tmp/boot"
done
files=$(chroot "$tmp" lsinitramfs "/boot/initrd.img-$kver") || die "cannot list the initrd of $kver"
grep -q '/virtio_blk\.ko' <<< "$files" || die "the initrd of $kver has no virtio_blk"

install -m 0755 "$bpftool" "$tmp/usr/sbin/bpftool"
chroot "$tmp" bpftool version >> "$log" 2>&1 || die "bpftool does not run in the root (see $log)"
chroot "$tmp" apt-get clean
mv "$tmp" "$root"
