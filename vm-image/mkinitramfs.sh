#!/bin/bash
# Assemble the guest's initramfs: busybox for the basics, the host's own
# (bookworm) networking tools with their shared libraries, the pinned bpftool,
# the guest kernel's modules this project needs, and the project's files.
#
# usage: mkinitramfs.sh OUT.cpio.gz KROOT KVER BPFTOOL EXTRA_DIR...
#   KROOT	unpacked kernel packages (holds lib/modules/KVER, see unpack-kernel.sh)
#   EXTRA_DIR	trees copied on top of the root, in order (the project's
#		guest files, then what is particular to this kernel)
set -euo pipefail

die() { echo "mkinitramfs: $*" >&2; exit 1; }

[ $# -ge 5 ] || die "usage: mkinitramfs.sh OUT.cpio.gz KROOT KVER BPFTOOL EXTRA_DIR..."
out=$(realpath -m "$1") kroot=$(realpath "$2") kver=$3 bpftool=$(realpath "$4")
shift 4
here=$(dirname "$(realpath "$0")")

tools=(bash ip tc ss nstat iperf3 jq ethtool kmod stty setpriv flock mawk)
modules=(veth sch_netem sch_prio sch_plug cls_u32 tcp_bic tcp_bbr tcp_diag inet_diag tun)

root="${out%.cpio.gz}.root"
rm -rf "$root"
mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{proc,sys,dev,tmp,run,root,etc,out}
for d in bin sbin lib lib64; do
	ln -s "usr/$d" "$root/$d"
done

# Copy an executable and every library the dynamic loader would map for it.
add_binary() {
	local bin=$1 dest=$2 lib
	install -D -m 0755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(realpath "$lib")" "$root$lib"
	done
}

for t in "${tools[@]}"; do
	p=$(command -v "$t") || die "host tool '$t' missing"
	add_binary "$p" "/usr/bin/$t"
done
add_binary "$bpftool" /usr/sbin/bpftool
for l in modprobe lsmod rmmod insmod depmod modinfo; do
	ln -s kmod "$root/usr/sbin/$l"
done
[ -d /usr/lib/tc ] && cp -a /usr/lib/tc "$root/usr/lib/tc"

# busybox fills in the rest; the real tools above win on PATH and by name.
install -m 0755 "$(command -v busybox)" "$root/usr/bin/busybox"
for a in $(busybox --list); do
	[ -e "$root/usr/bin/$a" ] || [ -e "$root/usr/sbin/$a" ] || ln -s busybox "$root/usr/bin/$a"
done

# Kernel modules and their dependencies, resolved against the guest kernel.
mdir="lib/modules/$kver"
[ -e "$kroot/$mdir/modules.dep" ] || depmod -b "$kroot" "$kver"
mkdir -p "$root/$mdir"
cp "$kroot/$mdir"/modules.{order,builtin,builtin.modinfo} "$root/$mdir/"
for m in "${modules[@]}"; do
	modprobe -d "$kroot" -S "$kver" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
	rel=${ko#"$kroot"/}
	# Stored plain: not every kernel decompresses modules itself, and
	# kmod's fallback would log an "Invalid ELF header" line for every load.
	mkdir -p "$root/${rel%/*}"
	case $ko in
	*.ko) cp "$ko" "$root/$rel" ;;
	*.ko.xz) xz -dc "$ko" > "$root/${rel%.xz}" ;;
	*.ko.zst) zstd -qdc "$ko" > "$root/${rel%.zst}" ;;
	*.ko.gz) gzip -dc "$ko" > "$root/${rel%.gz}" ;;
	*) die "module $ko: unknown compression" ;;
	esac
done
depmod -b "$root" "$kver"

echo "root:x:0:0:root:/root:/bin/bash" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "127.0.0.1 localhost" > "$root/etc/hosts"
install -m 0755 "$here/init" "$root/init"
for extra in "$@"; do
	[ -d "$extra" ] || die "no guest tree $extra"
	cp -a "$extra/." "$root/"
done

(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
