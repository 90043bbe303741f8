#!/bin/bash
# bpftool registers both objects, the names show up where sysctl and
# setsockopt look them up, and removing the pinned links unregisters them.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up
pin=/sys/fs/bpf/t10

check "bpftool struct_ops register bic.bpf.o" ca_register "$BIC_DIR/bpf/bic.bpf.o" "$pin/fixed"
check "bpf_bic listed in tcp_available_congestion_control" ca_available bpf_bic
check "bpftool struct_ops list shows bpf_bic" bash -c 'bpftool struct_ops list | grep -qw bic_ops'

check "sysctl accepts bpf_bic as the default" \
	sysctl -qw net.ipv4.tcp_congestion_control=bpf_bic
check_cmp "default reads back as bpf_bic" \
	"$(cat /proc/sys/net/ipv4/tcp_congestion_control)" = bpf_bic
sysctl -qw net.ipv4.tcp_congestion_control=cubic

check "second registration of the same name is refused" \
	bash -c "! bpftool struct_ops register $BIC_DIR/bpf/bic.bpf.o $pin/again 2>/dev/null"
check "refused registration left no link pinned" no_output ls -A "$pin/again"

check "register the 2.6.11-undo object" ca_register "$BIC_DIR/bpf/bic_2611.bpf.o" "$pin/2611"
check "bpf_bic_2611 listed" ca_available bpf_bic_2611

rm -rf "$pin"
check "unpinning unregisters bpf_bic" wait_for 5 bash -c '! grep -qw bpf_bic /proc/sys/net/ipv4/tcp_available_congestion_control'
check "unpinning unregisters bpf_bic_2611" wait_for 5 bash -c '! grep -qw bpf_bic_2611 /proc/sys/net/ipv4/tcp_available_congestion_control'
check "no struct_ops map left" wait_for 5 no_output bpftool struct_ops list
