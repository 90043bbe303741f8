#!/bin/bash
# The seed as kernel code: the kernel's own bic, built from Debian's
# linux-source for this kernel with patches/ applied (make kpatch), is
# loaded in place of the stock tcp_bic, and every drill on it must give
# exactly the rows the model predicted for bpf_bic: the same cwnd and
# ssthresh ACK for ACK, and now the same undo, max(cwnd, last_max_cwnd),
# where the stock module undoes to prior_cwnd (t_70).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

patched=$BIC_DIR/kmod/patched
out=/tmp/kpatch		# a failed comparison's rows go to /out/kpatch
expect=$BIC_DIR/drill/expect
mkdir -p "$out"
info "series applied to this kernel's source: $(paste -sd' ' "$patched/applied")"
check "0001 (tcp_bic undo) is in the series for this kernel" \
	grep -q '^0001-' "$patched/applied"

# ackdrill's peer is a tun device (t_70 may not have run before this).
check "modprobe tun" modprobe tun
# The stock module goes first; t_70's sockets are gone (ackdrill resets).
if grep -q '^tcp_bic ' /proc/modules; then
	check "the stock tcp_bic unloads" rmmod tcp_bic
fi
check "insmod the patched tcp_bic.ko" insmod "$patched/tcp_bic.ko"
check "bic is available again" grep -qw bic /proc/sys/net/ipv4/tcp_available_congestion_control

undos=0
for s in "$BIC_DIR"/drill/*.ad; do
	name=$(basename "$s" .ad)
	if ! ackdrill -o "$out/$name.bic.csv" "$s" bic; then
		not_ok "$name on the patched bic: ackdrill failed"
		continue
	fi
	if cmp -s "$out/$name.bic.csv" "$expect/$name.bpf_bic.csv"; then
		ok "$name on the patched bic: every row as the model's bpf_bic"
	else
		not_ok "$name on the patched bic differs from bpf_bic's rows"
		diff "$expect/$name.bpf_bic.csv" "$out/$name.bic.csv" | head -6 | sed 's/^/# /'
		mkdir -p /out/kpatch && cp "$out/$name.bic.csv" /out/kpatch/
	fi
	# rows where ssthresh rises outside a reduction: undos, now as bpf_bic's
	undos=$(( undos + $(undo_rows "$out/$name.bic.csv" | wc -l) ))
done
check_cmp "the drills undid on the patched bic" "$undos" -ge 3
check "the patched tcp_bic unloads" rmmod tcp_bic
check "the stock tcp_bic loads again" modprobe tcp_bic
