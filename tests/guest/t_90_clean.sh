#!/bin/bash
# Runs last: nothing the suite registered is left behind, and the kernel
# logged no warning, BUG or oops along the way.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Sockets of deleted namespaces hold their ops until the netns is torn down,
# which is deferred work: give it time before calling anything a leak.
check "no struct_ops map left registered" wait_for 30 no_output bpftool struct_ops list
check "no BPF link left" wait_for 5 no_output bpftool link show
bpftool struct_ops list
check "no bpf_* algorithm left available" \
	no_output grep -o 'bpf_[a-z0-9_]*' /proc/sys/net/ipv4/tcp_available_congestion_control
check "dmesg has no WARNING/BUG/Oops" dmesg_clean
