#!/bin/bash
# Generate vmlinux.h from the BTF of the exact guest kernel image.
#
# The bzImage payload is the (stripped) vmlinux ELF, which still carries the
# .BTF section that the running guest exposes as /sys/kernel/btf/vmlinux;
# so the header matches the guest without booting it.
#
# usage: gen.sh VMLINUZ BPFTOOL OUT_VMLINUX_H
set -euo pipefail

die() { echo "vmlinux-gen: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: gen.sh VMLINUZ BPFTOOL OUT_VMLINUX_H"
vmlinuz=$1 bpftool=$2 out=$3
elf="${out%/*}/vmlinux"

# The first match of each compressor's magic is the start of the payload.
unpack() {
	local magic=$1
	shift
	local off
	off=$(LC_ALL=C grep -obUaP "$magic" "$vmlinuz" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	# Trailing bytes after the stream make the decompressor complain: ignore
	# its status and check the ELF magic instead.
	tail -c +"$((off + 1))" "$vmlinuz" | "$@" > "$elf" 2>/dev/null || true
	[ "$(head -c 4 "$elf" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]
}

unpack '\x28\xb5\x2f\xfd' zstd -dcq ||
	unpack '\xfd\x37\x7a\x58\x5a\x00' xz -dcq ||
	unpack '\x1f\x8b\x08' gzip -dcq ||
	die "cannot find a zstd/xz/gzip vmlinux payload in $vmlinuz"

"$bpftool" btf dump file "$elf" format c > "$out.tmp" ||
	die "$vmlinuz has no usable BTF (CONFIG_DEBUG_INFO_BTF=n?)"
grep -q 'struct tcp_congestion_ops {' "$out.tmp" ||
	die "guest BTF lacks struct tcp_congestion_ops"
mv "$out.tmp" "$out"
