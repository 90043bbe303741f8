#!/bin/bash
# bpftool registers the three objects (the seed's undo, 2.6.11's and the
# complete undo), the names show up where sysctl and
# setsockopt look them up, and unregistering removes them, in each form the
# kernel takes: the link form (bic.bpf.o, pinned links, 6.4+) and the pre-6.4
# form (nolink/bic.bpf.o, registered by writing its map), which every kernel
# takes.  A kernel without struct_ops links refuses the link form cleanly.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up
pin=/sys/fs/bpf/t10
available() { cat /proc/sys/net/ipv4/tcp_available_congestion_control; }

if has_struct_ops_links; then
	mkdir -p "$pin/fixed" "$pin/2611" "$pin/restore" "$pin/again"
	check "bpftool struct_ops register bic.bpf.o" \
		bpftool struct_ops register "$BIC_DIR/bpf/bic.bpf.o" "$pin/fixed"
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

	check "register the 2.6.11-undo object" \
		bpftool struct_ops register "$BIC_DIR/bpf/bic_2611.bpf.o" "$pin/2611"
	check "bpf_bic_2611 listed" ca_available bpf_bic_2611
	check "register the complete-undo object" \
		bpftool struct_ops register "$BIC_DIR/bpf/bic_restore.bpf.o" "$pin/restore"
	check "bpf_bic_restore listed" ca_available bpf_bic_restore

	rm -rf "$pin"
	check "unpinning unregisters bpf_bic" wait_for 5 bash -c '! grep -qw bpf_bic /proc/sys/net/ipv4/tcp_available_congestion_control'
	check "unpinning unregisters bpf_bic_2611" wait_for 5 bash -c '! grep -qw bpf_bic_2611 /proc/sys/net/ipv4/tcp_available_congestion_control'
	check "unpinning unregisters bpf_bic_restore" wait_for 5 bash -c '! grep -qw bpf_bic_restore /proc/sys/net/ipv4/tcp_available_congestion_control'
	check "no struct_ops map left" wait_for 5 no_output bpftool struct_ops list
else
	before=$(available)
	mkdir -p "$pin/fixed"
	check "the link form bic.bpf.o is refused ($NO_LINK_WHY)" \
		bash -c "! bpftool struct_ops register $BIC_DIR/bpf/bic.bpf.o $pin/fixed 2>/dev/null"
	check "the refusal left no struct_ops map" no_output bpftool struct_ops list
	check_cmp "the refusal registered nothing" "$(available)" = "$before"
	rm -rf "$pin"
	skip "pinned struct_ops links: register, refuse a second, unpin" "$NO_LINK_WHY"
fi

# The pre-6.4 form, on every kernel.  bpftool prints the map's id on stderr.
out=$(bpftool struct_ops register "$BIC_DIR/bpf/nolink/bic.bpf.o" 2>&1)
check "bpftool struct_ops register nolink/bic.bpf.o ($out)" grep -q '^Registered tcp_congestion_ops bic_ops id [0-9]' <<<"$out"
check "bpf_bic listed" ca_available bpf_bic
check "sysctl accepts it as the default" sysctl -qw net.ipv4.tcp_congestion_control=bpf_bic
sysctl -qw net.ipv4.tcp_congestion_control=cubic
check "a second registration of bpf_bic is refused" \
	bash -c "! bpftool struct_ops register $BIC_DIR/bpf/nolink/bic.bpf.o 2>/dev/null"
check "register nolink/bic_2611.bpf.o beside it" \
	bpftool struct_ops register "$BIC_DIR/bpf/nolink/bic_2611.bpf.o"
check "bpf_bic_2611 listed" ca_available bpf_bic_2611
check "register nolink/bic_restore.bpf.o beside them" \
	bpftool struct_ops register "$BIC_DIR/bpf/nolink/bic_restore.bpf.o"
check "bpf_bic_restore listed" ca_available bpf_bic_restore
check_cmp "bpftool struct_ops list shows the three maps" "$(bpftool struct_ops list | grep -cw bic_ops)" -eq 3
for id in $(bpftool -j struct_ops list | jq '.[].id'); do
	check "bpftool struct_ops unregister id $id" bpftool struct_ops unregister id "$id"
done
check "unregistered: bpf_bic gone" wait_for 5 bash -c '! grep -qw bpf_bic /proc/sys/net/ipv4/tcp_available_congestion_control'
check "unregistered: bpf_bic_2611 gone" wait_for 5 bash -c '! grep -qw bpf_bic_2611 /proc/sys/net/ipv4/tcp_available_congestion_control'
check "unregistered: bpf_bic_restore gone" wait_for 5 bash -c '! grep -qw bpf_bic_restore /proc/sys/net/ipv4/tcp_available_congestion_control'
check "no struct_ops map left" wait_for 5 no_output bpftool struct_ops list
