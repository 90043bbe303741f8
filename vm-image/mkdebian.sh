#!/bin/bash
# The root of a real Debian guest that boots with systemd from a virtio disk
# (make debian-test), in two steps:
#
# - `--base BASE SUITE`: debootstrap of SUITE (bookworm, trixie) from the
#   host's own mirror (the suite's own defaults: merged /usr on both), with
#   systemd and all the test and the package need, into BASE.  Made once
#   per suite: the systems of one suite (bookworm with 6.12 and with 6.1)
#   start from a copy of it, so a suite is debootstrapped once, not once a
#   system (~90 s of a job's time each).
# - `ROOT BASE BPFTOOL KERNEL_DEB...`: a copy of BASE, then the system's
#   kernel, its Debian package(s) KERNEL_DEB..., installed with dpkg in a
#   chroot, so that Debian's initramfs-tools builds its initrd, and the
#   pinned bpftool for the test's checks.
#
# Nothing is mounted on the host: dpkg runs in a mount namespace of its own,
# with /proc and /dev bind-mounted from the host.  A console on ttyS0 logs
# root in without a password; there is no network.  Each step's last line
# says how long it took.
#
# usage: mkdebian.sh --base BASE SUITE
#        mkdebian.sh ROOT BASE BPFTOOL KERNEL_DEB...
set -euo pipefail

die() { echo "mkdebian: $*" >&2; exit 1; }

# make_base BASE SUITE
make_base() {
	local base suite libelf pkgs mirror tmp t0
	base=$(realpath -m "$1") suite=$2
	# systemd and what the test runs, and all that bpf-bic depends on, so
	# that apt installs the package with no network (bpftool needs libcap2
	# too).  libelf: trixie's library is libelf1t64 (the 64-bit time_t
	# transition), which Provides libelf1, the package's dependency;
	# debootstrap does not resolve a virtual package, so each suite names
	# its real one.
	case $suite in
	bookworm) libelf=libelf1 ;;
	trixie) libelf=libelf1t64 ;;
	*) die "no package list for suite '$suite' (bookworm, trixie)" ;;
	esac
	pkgs=(systemd systemd-sysv apt udev kmod iproute2 iperf3 procps initramfs-tools
	      "$libelf" zlib1g libcap2 jq)
	command -v debootstrap >/dev/null || die "debootstrap not installed"
	mirror=$("$(dirname "$0")/mirror.sh")
	tmp=$base.tmp t0=$(date +%s)
	rm -rf "$base" "$tmp"
	mkdir -p "$(dirname "$base")"
	debootstrap --variant=minbase --include="$(IFS=,; echo "${pkgs[*]}")" "$suite" "$tmp" \
		"$mirror" > "$base.log" 2>&1 || die "debootstrap of $suite failed (see $base.log)"
	chroot "$tmp" apt-get clean
	mv "$tmp" "$base"
	echo "mkdebian: $suite debootstrapped in $(( $(date +%s) - t0 ))s"
}

if [ "${1:-}" = --base ]; then
	[ $# -eq 3 ] || die "usage: mkdebian.sh --base BASE SUITE"
	make_base "$2" "$3"
	exit 0
fi
[ $# -ge 4 ] || die "usage: mkdebian.sh ROOT BASE BPFTOOL KERNEL_DEB..."
root=$(realpath -m "$1") base=$(realpath "$2") bpftool=$(realpath "$3") base_arg=$2
shift 3
kdebs=()
for d in "$@"; do kdebs+=("$(realpath "$d")"); done
[ -x "$base/usr/bin/dpkg" ] || die "$base is not a root made by mkdebian.sh --base"
log=$root.log tmp=$root.tmp
t0=$(date +%s)

rm -rf "$root" "$tmp"
mkdir -p "$(dirname "$root")"
cp -a --reflink=auto "$base" "$tmp"
: > "$log"

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

# The kernel: the package whose name is linux-image-RELEASE, and what it
# may be split into (7.x: linux-binary, -modules, -base), in one dpkg run.
kver="" names=()
for d in "${kdebs[@]}"; do
	p=$(dpkg-deb -f "$d" Package)
	case $p in linux-image-*) kver=${p#linux-image-} ;; esac
	cp "$d" "$tmp/tmp/"
	names+=("/tmp/${d##*/}")
done
[ -n "$kver" ] || die "no linux-image-* among ${kdebs[*]##*/}"
# shellcheck disable=SC2016	# expanded by the inner sh
unshare -m --propagation private sh -c '
	root=$1; shift
	mount --rbind /proc "$root/proc" && mount --rbind /dev "$root/dev" &&
	chroot "$root" env DEBIAN_FRONTEND=noninteractive dpkg -i "$@"' sh "$tmp" "${names[@]}" \
	>> "$log" 2>&1 || die "cannot install ${kdebs[*]##*/} in the root (see $log)"
for n in "${names[@]}"; do rm -f "$tmp$n"; done
for f in vmlinuz initrd.img; do
	[ -r "$tmp/boot/$f-$kver" ] || die "no $f-$kver in $tmp/boot"
done
files=$(chroot "$tmp" lsinitramfs "/boot/initrd.img-$kver") || die "cannot list the initrd of $kver"
grep -q '/virtio_blk\.ko' <<< "$files" || die "the initrd of $kver has no virtio_blk"

install -m 0755 "$bpftool" "$tmp/usr/sbin/bpftool"
chroot "$tmp" bpftool version >> "$log" 2>&1 || die "bpftool does not run in the root (see $log)"
mv "$tmp" "$root"
echo "mkdebian: $kver on a copy of $base_arg in $(( $(date +%s) - t0 ))s"
