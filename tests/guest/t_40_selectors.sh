#!/bin/bash
# The registered name works wherever the kernel selects an algorithm: the
# per-netns default (sysctl), a route (ip route ... congctl) and
# setsockopt(TCP_CONGESTION) (iperf3 -C, covered by t_20).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up
ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/t40
net_up 10mbit 5 100

# data_flowing TAG: one ss sample of the sender's connections into
# /out/TAG.ss, true once it holds the data connection with data
# acknowledged (the control connection carries a few hundred bytes).
data_flowing() {
	in_snd ss -tinH dst "$RCV_ADDR" > "/out/$1.ss"
	grep -qE 'bytes_acked:[0-9]{5,}' "/out/$1.ss"
}

# short_flow TAG: a 3 s flow with no -C, sampled by ss once data flows.
short_flow() {
	local client rc=0
	server 5201 || return 1
	in_snd iperf3 -c "$RCV_ADDR" -p 5201 -t 3 > /dev/null &
	client=$!
	wait_for 3 data_flowing "$1" || rc=1
	wait "$client" || rc=1
	reap 5201
	return "$rc"
}

# A namespace may only default to an algorithm the host allows.
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
check "bpf_bic can be added to tcp_allowed_congestion_control" \
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed bpf_bic"
check "the sender namespace defaults to bpf_bic" \
	in_snd sysctl -qw net.ipv4.tcp_congestion_control=bpf_bic
check "flow with the netns default set to bpf_bic completes" short_flow t40-sysctl
check "ss shows it on bpf_bic" grep -q 'bpf_bic' /out/t40-sysctl.ss
in_snd sysctl -qw net.ipv4.tcp_congestion_control=cubic
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"

check "ip route accepts congctl bpf_bic" \
	in_snd ip route replace "${RCV_ADDR%.*}.0/24" dev veth-s congctl bpf_bic
check "flow on that route completes" short_flow t40-route
check "ss shows it on bpf_bic although the default is cubic" grep -q 'bpf_bic' /out/t40-route.ss
check "no socket on the route used cubic" no_output grep cubic /out/t40-route.ss

net_down
ca_unregister /sys/fs/bpf/t40
