#!/bin/bash
# The seed and the proposal as kernel code.  make kpatch builds the
# kernel's own bic twice from Debian's linux-source for this kernel, each
# time with one set of patches/ applied (patches/series), and each build is
# loaded in place of the stock tcp_bic in turn; every drill on it must give
# exactly the rows the host's model predicted before this guest booted:
#
# - the seed (0001): the rows of bpf_bic, the same cwnd and ssthresh ACK
#   for ACK and the same undo, max(cwnd, last_max_cwnd), where the stock
#   module undoes to prior_cwnd (t_70);
# - the proposal (0003, not on top of 0001): the rows of bpf_bic_restore,
#   the complete undo of bic_math.h (bic_recalc_ssthresh_saved,
#   bic_reset_saved, bic_undo_restore): BIC's whole state as it was before
#   the reduction, cwnd max(cwnd, prior_cwnd).
#
# That the comparison can tell them apart is checked too: the model's
# rows for the proposal differ from its rows for the seed and for the
# stock bic on the drills that undo.  Both builds are tcp_bic.ko, module
# and algorithm alike named bic, so one is unloaded before the other loads;
# the stock module is loaded again at the end.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

patched=$BIC_DIR/kmod/patched
out=/tmp/kpatch		# a failed comparison's rows go to /out/kpatch/SET
expect=$BIC_DIR/drill/expect
mkdir -p "$out"

for set in seed proposal; do
	info "$set: patches applied to this kernel's source: $(paste -sd' ' "$patched/$set/applied")"
done
# in_set SET PATCH: the patch numbered PATCH was applied for SET.
in_set() { grep -q "^$2-" "$patched/$1/applied"; }
check "the seed's set has 0001 (tcp_bic undo to Wmax)" in_set seed 0001
check "the seed's set has not 0003" eval '! in_set seed 0003'
check "the proposal's set has 0003 (tcp_bic complete undo)" in_set proposal 0003
check "the proposal's set has not 0001" eval '! in_set proposal 0001'

# differ_from ALGO OTHER: how many drills' expected rows differ (both there).
differ_from() {
	local s a b n=0
	for s in "$BIC_DIR"/drill/*.ad; do
		a=$expect/$(basename "$s" .ad).$1.csv b=$expect/$(basename "$s" .ad).$2.csv
		[ -s "$a" ] && [ -s "$b" ] && ! cmp -s "$a" "$b" && n=$((n + 1))
	done
	echo "$n"
}
check_cmp "the model's proposal differs from the seed on the undo drills" \
	"$(differ_from bpf_bic_restore bpf_bic)" -ge 3
check_cmp "the model's proposal differs from the stock bic on the undo drills" \
	"$(differ_from bpf_bic_restore bic)" -ge 3

# ackdrill's peer is a tun device (t_70 may not have run before this).
check "modprobe tun" modprobe tun
# The stock module goes first (loaded if no test before left it; t_70's
# sockets are gone, ackdrill resets), and is left as the test found it.
stock_loaded=no
grep -q '^tcp_bic ' /proc/modules && stock_loaded=yes
if [ "$stock_loaded" = no ]; then
	check "modprobe tcp_bic registers the kernel's bic" modprobe tcp_bic
fi
check "the stock tcp_bic unloads" rmmod tcp_bic

# drill_set SET ALGO: load SET's tcp_bic.ko, run every drill on bic and
# compare each CSV with the model's rows for ALGO, then unload it.
drill_set() {
	local set=$1 algo=$2 s name csv undos=0

	mkdir -p "$out/$set"
	if ! insmod "$patched/$set/tcp_bic.ko"; then
		not_ok "insmod the $set's tcp_bic.ko"
		return
	fi
	ok "insmod the $set's tcp_bic.ko"
	check "bic is available again ($set)" \
		grep -qw bic /proc/sys/net/ipv4/tcp_available_congestion_control
	for s in "$BIC_DIR"/drill/*.ad; do
		name=$(basename "$s" .ad)
		csv=$out/$set/$name.bic.csv
		if ! ackdrill -o "$csv" "$s" bic; then
			not_ok "$name on the $set's bic: ackdrill failed"
			continue
		fi
		if cmp -s "$csv" "$expect/$name.$algo.csv"; then
			ok "$name on the $set's bic: every row as the model's $algo"
		else
			not_ok "$name on the $set's bic differs from $algo's rows"
			diff "$expect/$name.$algo.csv" "$csv" | head -6 | sed 's/^/# /'
			mkdir -p "/out/kpatch/$set" && cp "$csv" "/out/kpatch/$set/"
		fi
		# rows where ssthresh rises outside a reduction: the undos
		undos=$((undos + $(undo_rows "$csv" | wc -l)))
	done
	check_cmp "the drills undid on the $set's bic" "$undos" -ge 3
	check "the $set's tcp_bic unloads" rmmod tcp_bic
}

drill_set seed bpf_bic
drill_set proposal bpf_bic_restore
check "the stock tcp_bic loads again" modprobe tcp_bic
if [ "$stock_loaded" = no ]; then
	check "... and unloads, as the test found it" rmmod tcp_bic
fi
