#!/bin/bash
# make plots, guest side: the flows the host draws.  Every flow is traced by
# tcp_probe (cwnd for BPF and native algorithms alike); the bpf_* ones also by
# bictrace, whose last_max_cwnd column is BIC's Wmax.  Files land in
# /out/<scenario>-<algorithm>.*; runs.tsv lists them for the host.
#
#   base	1 Mbit/s, 100 ms RTT, 30-packet queue: BIC's binary search
#		and max probing against Reno's linear growth
#   reorder	same link, 100-packet queue, 2% reordering: spurious
#		losses and undos, the 2.6.11 undo against the fixed one
set -uo pipefail
# The tests' libraries, from their one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=../../tests/guest/lib_trace.sh
. "$(dirname "$0")/../tests/lib_trace.sh"

tap_begin "$RESULTS"
modules_up
modprobe tcp_bic
ca_register "$BIC_DIR/bpf/trace/bic.bpf.o" /sys/fs/bpf/plots/fixed
ca_register "$BIC_DIR/bpf/trace/bic_2611.bpf.o" /sys/fs/bpf/plots/2611
printf 'scenario\tca\tsecs\tbps\tlimit\tpath\n' > /out/runs.tsv

# run SCENARIO CA SECS QUEUE [NETEM ARGS]
run() {
	local scen=$1 ca=$2 secs=$3 limit=$4 tag=$1-$2 bps
	shift 4
	net_up 1mbit 50 "$limit" "$@"
	check "$tag: traced flow" probe_flow "$ca" "$secs" "$tag"
	bps=$(goodput "/out/$tag.json" 2>/dev/null)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$scen" "$ca" "$secs" "${bps:-0}" "$limit" \
		"1 Mbit/s, 100 ms RTT, $limit-packet queue${*:+, $*}" >> /out/runs.tsv
	info "$tag: ${bps:-?} bit/s, $(($(wc -l < "/out/$tag.probe.csv") - 1)) tcp_probe samples"
}

for ca in bpf_bic bpf_bic_2611 reno cubic bic; do
	run base "$ca" 30 30
done
for ca in bpf_bic bpf_bic_2611; do
	run reorder "$ca" 20 100 reorder 2%
done

net_down
ca_unregister /sys/fs/bpf/plots
summary
