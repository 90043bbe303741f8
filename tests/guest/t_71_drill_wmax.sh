#!/bin/bash
# The anchor of make wmax's extrapolation (docs/bench.md): each script of
# drill/wmax (one loss at Wmax 2,000 and the way back to it, ACK by ACK)
# on the kernel, every row compared with what the model predicted before
# this guest booted, byte for byte, as t_70 does.  The host test
# tests/unit/test_drill_wmax.sh holds model -w, which carries the same run
# to Wmax 1,000,000, to these rows.
#
# A run is some 33,000 ACKs, about as many as all of t_70's drills on one
# algorithm together, so these run on the primary kernel only and on
# bpf_bic and the kernel's bic (no undo here: bic_ref and the undo
# variants would give bpf_bic's rows again, as t_70 shows on every
# script without an undo).  DRILL_WMAX=all runs them on any kernel.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC1091	# written per kernel into the guest's tree
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"

if [ "${PRIMARY:-yes}" != yes ] && [ "${DRILL_WMAX:-}" != all ]; then
	info "drill/wmax runs on the primary kernel only (DRILL_WMAX=all: here too)"
	exit 0
fi

algos=(bpf_bic bic)
out=/tmp/drill-wmax
mkdir -p "$out"

# back_at_wmax CSV: one reduction (ca_state, field 9, into Recovery) and in
# the last row cwnd (7) at Wmax again: ssthresh (8) is 819/1024 of it.
back_at_wmax() {
	awk -F, 'NR > 2 && $9 == 3 && p != 3 { n++ } { p = $9; c = $7; s = $8 }
		END { exit !(n == 1 && s == int(c * 819 / 1024)) }' "$1"
}

check "modprobe tun" modprobe tun
check "modprobe tcp_bic registers the kernel's bic" modprobe tcp_bic
check "bpftool registers bpf_bic" ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/t71

for s in "$BIC_DIR"/drill/wmax/*.ad; do
	name=$(basename "$s" .ad)
	for ca in "${algos[@]}"; do
		drill -t "$s" "$ca" "$out/$name.$ca.csv" /out/drill-wmax
	done
	check "$name on bpf_bic: one reduction, back at its Wmax in the last row" \
		back_at_wmax "$out/$name.bpf_bic.csv"
done
ca_unregister /sys/fs/bpf/t71
check "rmmod tcp_bic once its sockets are gone" wait_for 30 rmmod tcp_bic
