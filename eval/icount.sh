# shellcheck shell=bash
# Sourced by the eval/*-report.sh scripts.
# ns_per_insn ICOUNT: the guest ns one emulated instruction takes under QEMU
# -icount ICOUNT (shift=N,...: 2^N); nothing when ICOUNT sets no shift.
ns_per_insn() {
	local n
	case $1 in
	shift=[0-9]*)
		n=${1#shift=}
		echo $((1 << ${n%%,*}))
		;;
	esac
}
