#!/bin/bash
# A bpf_bic flow over the 1 Mbit / 100 ms netem path: the kernel runs it on
# bpf_bic, fills the link, and every loss cuts ssthresh to 819/1024 of cwnd
# (half of it at or below low_window), exactly what the kernel then applies.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up
ca_register "$BIC_DIR/bpf/trace/bic.bpf.o" /sys/fs/bpf/t20
net_up 1mbit 50 30

check "iperf3 -C bpf_bic flow completes" flow_run bpf_bic 20 t20
check "ss -ti shows the flow on bpf_bic" grep -q 'bpf_bic.*cwnd:' /out/t20.ss

bps=$(goodput /out/t20.json)
info "goodput ${bps} bit/s on a 1 Mbit/s link"
check_cmp "goodput is at least 80% of the 1 Mbit/s link" "$bps" -ge 800000

port=$(data_port /out/t20.csv)
awk -F, -v p="$port" '$3 == p' /out/t20.csv > /tmp/t20.flow
losses=$(grep -c ',ssthresh,' /tmp/t20.flow)
check_cmp "the queue overflowed into congestion events" "$losses" -ge 2
# Drops in the network, not refusals by the sender's own qdisc (see net_up).
check_cmp "the sender retransmitted what the queue dropped" \
	"$(jq '.end.sum_sent.retransmits' /out/t20.json)" -ge 1

# ssthresh = cwnd * 819 / 1024 above low_window (14), max(cwnd / 2, 2) below.
bad=$(awk -F, '$6 == "ssthresh" {
	want = $7 > 14 ? int($7 * 819 / 1024) : ($7 >= 4 ? int($7 / 2) : 2)
	if ($11 != want) { print "cwnd " $7 " ssthresh " $11 " want " want > "/dev/stderr"; bad++ }
} END { print bad + 0 }' /tmp/t20.flow)
check_cmp "every ssthresh is beta = 819/1024 of cwnd" "$bad" -eq 0
big=$(awk -F, '$6 == "ssthresh" && $7 > 14' /tmp/t20.flow | wc -l)
check_cmp "losses above low_window were exercised" "$big" -ge 1

# The kernel's own view: each ssthresh that ss reports is one BIC returned.
awk -F, '$6 == "ssthresh" { print $11 }' /tmp/t20.flow | sort -u > /tmp/t20.ret
grep "bpf_bic" /out/t20.ss | grep -oE '(^| )ssthresh:[0-9]+' | cut -d: -f2 | sort -u > /tmp/t20.seen
check_cmp "ss saw ssthresh values" "$(wc -l < /tmp/t20.seen)" -ge 1
check "each ssthresh seen by ss came from bpf_bic" \
	no_output grep -vxFf /tmp/t20.ret /tmp/t20.seen

# Wmax follows cwnd at each loss (fast convergence lowers it when the new
# loss comes below the previous Wmax).
bad=$(awk -F, '$6 == "ssthresh" {
	want = ($7 < prev) ? int($7 * (1024 + 819) / 2048) : $7
	if ($9 != want) bad++
	prev = $9
} END { print bad + 0 }' /tmp/t20.flow)
check_cmp "last_max_cwnd set as fast convergence says" "$bad" -eq 0

# The growth epoch: a loss ends it (no epoch on the ssthresh record, nor on
# an RTO's state reset); the first window update after it starts the next,
# whose age then only grows and never exceeds the time since that loss (plus
# a jiffy at HZ >= 100).
read -r epochs bad <<< "$(awk -F, '
	$6 == "ssthresh" || $6 == "loss" { if ($12 != "") bad++; lost = $1; last = -1; next }
	$6 == "cwnd" && $12 != "" {
		if (last < 0)
			epochs++
		if ($12 < last || (lost && $12 > ($1 - lost) / 1e6 + 10))
			bad++
		last = $12
	} END { print epochs + 0, bad + 0 }' /tmp/t20.flow)"
check_cmp "growth epochs traced after losses" "$epochs" -ge 2
check_cmp "epoch ends at each loss, then ages with the flow (violations)" "$bad" -eq 0

net_down
ca_unregister /sys/fs/bpf/t20
