#!/bin/bash
# Boot the guest kernel with the project's initramfs, run one command inside
# it and exit with that command's status.  A guest that panics, hangs or never
# reports a status is a failure within --timeout seconds.
#
# usage: run-vm.sh [--out DIR] [--timeout SEC] [--log FILE] -- COMMAND [ARG...]
#        DISK=IMG run-vm.sh [--timeout SEC] [--log FILE]
#   KERNEL, INITRD	guest kernel and initramfs (environment)
#   DISK		a raw disk image instead: the guest boots its own
#		system from it (root=/dev/vda, its initrd in INITRD), may
#		reboot itself (no -no-reboot), and must print
#		BIC-GUEST-EXIT=N on the console and power off by itself
#		(make debian-test); it takes no command
#   ACCEL		tcg, kvm or auto (default: auto, see pick_accel)
#   QEMU_CPU	CPU model under TCG (default max,-cx16,-erms,-la57,-pku:
#		with CMPXCHG16B offered, QEMU 7.2's TCG double-faulted in
#		the guest's SLUB fast path, the instruction after a %gs
#		cmpxchg16b, in 4 of 20 boots, with -cpu max and qemu64
#		alike; without it SLUB takes its locked path and no boot
#		failed.  The rest cost emulation and test nothing
#		of the project's: with ERMS the kernel copies to and from
#		user space with rep movsb, which TCG runs (and -icount
#		counts) a byte at a time; LA57's five-level page tables
#		add a level to every walk of the emulated TLB; with PKU
#		the guest's kernel loads a task's PKRU as it switches
#		tasks, and TCG flushes its whole TLB whenever PKRU is
#		written (WRPKRU or XRSTOR).  What they cost:
#		docs/testing.md.  XSAVE stays: 7.3 without it still chose
#		its AVX GHASH and oopsed on the first VEX instruction.
#		BMI2, which the BPF JIT uses for shifts, stays too)
#   QEMU_ICOUNT	under TCG, QEMU's -icount option (e.g. shift=4,sleep=off):
#		guest time counts emulated instructions instead of host
#		time, so CPU-time measurements in the guest stop depending
#		on how busy the host is
#   QEMU_SMP	the guest's vCPUs (default 1).  Under -icount QEMU runs
#		them all in one host thread, taking turns (round-robin
#		TCG): the guest has that many CPUs, preempted between
#		each other, at one host core's cost
set -euo pipefail

die() { echo "run-vm: $*" >&2; exit 1; }

out_dir="" timeout_s=900 log=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out_dir=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown option '$1'" ;;
	esac
done
if [ -n "${DISK:-}" ]; then
	[ $# -eq 0 ] || die "a disk guest takes no command: $*"
	[ -w "$DISK" ] || die "no writable disk image at $DISK"
else
	[ $# -gt 0 ] || die "no guest command given"
fi
: "${KERNEL:?KERNEL not set}" "${INITRD:?INITRD not set}"
[ -r "$KERNEL" ] || die "no guest kernel at $KERNEL"
[ -r "$INITRD" ] || die "no initramfs at $INITRD"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The kernel hands everything after "--" to init, split at blanks unless
# double-quoted, so no argument can hold a double quote.  Checked here, not
# in boot(), which runs in the background.
for a in "$@"; do
	case $a in
	*\"*) die "guest arguments cannot contain double quotes: $a" ;;
	esac
done

# $1: accel, $2: timeout, $3: console log, rest: guest command
boot() {
	local accel=$1 secs=$2 console=$3 cpu=${QEMU_CPU:-max,-cx16,-erms,-la57,-pku} a cmdline="" extra=()
	local append disk=() noreboot=(-no-reboot) smp=${QEMU_SMP:-1}
	shift 3
	for a in "$@"; do
		case $a in
		*[[:space:]]*) cmdline+=" \"$a\"" ;;
		*) cmdline+=" $a" ;;
		esac
	done
	[ "$accel" = kvm ] && cpu=host
	[ "$accel" = tcg ] && [ -n "${QEMU_ICOUNT:-}" ] && extra=(-icount "$QEMU_ICOUNT")
	append="console=ttyS0 panic=-1 oops=panic loglevel=4 --$cmdline"
	if [ -n "${DISK:-}" ]; then
		append="root=/dev/vda rw console=ttyS0 panic=-1 oops=panic loglevel=4"
		disk=(-drive "file=$DISK,format=raw,if=virtio")
		noreboot=()
	fi
	timeout --foreground -k 5 "$secs" qemu-system-x86_64 \
		-accel "$accel" -cpu "$cpu" -smp "$smp" -m 1024 "${extra[@]}" \
		-kernel "$KERNEL" -initrd "$INITRD" "${disk[@]}" \
		-append "$append" \
		-display none "${noreboot[@]}" -nic none -monitor none \
		-serial "file:$console" -serial "file:$tmp/data" </dev/null >/dev/null 2>"$tmp/qemu.err"
}

# KVM is only used where it really boots this kernel: /dev/kvm opening is not
# enough on every host.  The verdict of a short probe boot is cached.
pick_accel() {
	local cache=${ACCEL_CACHE:-}
	if [ -n "$cache" ] && [ -s "$cache" ]; then
		cat "$cache"
		return
	fi
	local accel=tcg why="no usable /dev/kvm"
	# the probe would run a disk guest's own system, which changes its disk
	if [ -n "${DISK:-}" ]; then
		echo "run-vm: accel tcg (no cached verdict, and a disk guest is not probed)" >&2
		echo tcg
		return
	fi
	if [ -w /dev/kvm ] && { exec 3<>/dev/kvm; } 2>/dev/null; then
		exec 3>&-
		if boot kvm 60 "$tmp/probe" true && grep -q '^BIC-GUEST-EXIT=0' "$tmp/probe"; then
			accel=kvm why="/dev/kvm boots the guest"
		else
			why="/dev/kvm opens but the guest did not boot under it"
		fi
	fi
	echo "run-vm: accel $accel ($why)" >&2
	[ -n "$cache" ] && echo "$accel" > "$cache"
	echo "$accel"
}

accel=${ACCEL:-auto}
[ "$accel" = auto ] && accel=$(pick_accel)
console=${log:-$tmp/console}
: > "$console"
start=$(date +%s)
boot "$accel" "$timeout_s" "$console" "$@" &
qemu=$!
# Stream the console while the guest runs.
tail -n +1 -f --pid="$qemu" "$console" &
tailer=$!
qrc=0
wait "$qemu" || qrc=$?
wait "$tailer" 2>/dev/null || true
echo "run-vm: guest ran $(( $(date +%s) - start ))s under $accel" >&2

if [ -n "$out_dir" ] && grep -q '^BIC-OUT-BEGIN' "$tmp/data" 2>/dev/null; then
	mkdir -p "$out_dir"
	# -m: the guest's clock (under -icount, its own time) dates nothing here
	sed -n '/^BIC-OUT-BEGIN/,/^BIC-OUT-END/{//!p}' "$tmp/data" | tr -d '\r' |
		base64 -d | tar -C "$out_dir" -mxzf - || die "guest output in $tmp/data is corrupt"
fi

status=$(tr -d '\r' < "$console" | sed -n 's/^BIC-GUEST-EXIT=\([0-9]*\)$/\1/p' | tail -n 1)
if [ -z "$status" ]; then
	[ "$qrc" -eq 124 ] && die "guest timed out after ${timeout_s}s"
	grep -q 'Kernel panic' "$console" && die "guest kernel panicked"
	die "guest ended without a status (qemu: $(head -c 300 "$tmp/qemu.err"))"
fi
exit "$status"
