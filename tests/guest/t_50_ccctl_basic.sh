#!/bin/bash
# ccctl register / list / status / set-default / unregister: the names, ids,
# pins and socket counts it reports are the ones the kernel, bpftool and ss
# see, and unregistering leaves nothing behind.  A registration is a pinned
# link where the kernel has struct_ops links (6.4+) and the pinned map before;
# ccctl's probe of that must agree with the kernel's version, and objects of
# either form register the kernel's way.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pins=/sys/fs/bpf/ccctl
ca_gone() { ! ca_available "$1"; }
modules_up

if has_struct_ops_links; then
	pinned=link links=true
else
	pinned=map links=false
fi
check_cmp "ccctl features: struct_ops links as Linux $(uname -r) has them" \
	"$(ccctl features --json | jq .struct_ops_link)" = "$links"
check_cmp "ccctl features: swap in place as Linux $(uname -r) has it" \
	"$(ccctl features --json | jq .struct_ops_update)" = "$links"

# btf_reads COMMAND...: how many times the command read the kernel's BTF,
# from the bytes it read (rchar, which a shell's /proc/PID/io adds up over
# the children it reaped) in whole BTFs (the rest it reads, the kernel
# config among it, is far smaller); nothing if the command failed.
btf_reads() {
	# shellcheck disable=SC2016	# expanded by the inner bash
	bash -c '"$@" > /dev/null || exit 1
		while read -r k v; do [ "$k" = rchar: ] && echo "$v"; done < /proc/$$/io' _ "$@" |
		awk -v s="$(stat -c %s /sys/kernel/btf/vmlinux)" '{ print int($1 / s) }'
}

# Each object form, under a name of its own, goes the kernel's way.  The
# kernel's BTF is read once by a register (libbpf's load) and twice by a
# swap (ccctl reads it once for the value's layout and the update probe).
for obj in bic.bpf.o nolink/bic.bpf.o; do
	check_cmp "register --object $obj --name t50form, reading the kernel's BTF once" \
		"$(btf_reads ccctl register --object "$BIC_DIR/bpf/$obj" --name t50form)" = 1
	check "$obj: t50form is available" ca_available t50form
	check "$obj: its $pinned is pinned, nothing else" \
		test "$(ls "$pins/t50form")" = "$pinned"
	if $links; then
		check_cmp "$obj: swap t50form for the same object in this form, reading BTF twice" \
			"$(btf_reads ccctl swap t50form --object "$BIC_DIR/bpf/$obj" --name t50form)" = 2
	fi
	check "$obj: unregister t50form" ccctl unregister t50form
	check "$obj: t50form is gone" ca_gone t50form
done

check "register the fixed variant" ccctl register
check "bpf_bic is available" ca_available bpf_bic
check "its $pinned is pinned at $pins/bpf_bic/$pinned" test -e "$pins/bpf_bic/$pinned"
check "register the 2.6.11 variant with --object" \
	ccctl register --object "$BIC_DIR/bpf/bic_2611.bpf.o"
check "bpf_bic_2611 is available" ca_available bpf_bic_2611

# The complete undo is built in too: registered, then gone again.
check "register the complete-undo variant" ccctl register --variant restore
check "bpf_bic_restore is available" ca_available bpf_bic_restore
check "its $pinned is pinned at $pins/bpf_bic_restore/$pinned" \
	test -e "$pins/bpf_bic_restore/$pinned"
check "unregister bpf_bic_restore" ccctl unregister bpf_bic_restore
check "bpf_bic_restore is gone" ca_gone bpf_bic_restore

ccctl list --json > /tmp/t50b.json
check_cmp "list --json shows both" "$(jq length /tmp/t50b.json)" -eq 2
for ca in bpf_bic bpf_bic_2611; do
	if $links; then
		link=$(bpftool -j link show pinned "$pins/$ca/link")
		link_id=$(jq .id <<<"$link") map_id=$(jq .map_id <<<"$link")
	else
		link_id=0 map_id=$(bpftool -j map show pinned "$pins/$ca/map" | jq .id)
	fi
	check_cmp "$ca: link id is the pinned link's (0: none)" \
		"$(jq --arg n "$ca" '.[] | select(.name == $n) | .link_id' /tmp/t50b.json)" = "$link_id"
	check_cmp "$ca: map id is the one registered" \
		"$(jq --arg n "$ca" '.[] | select(.name == $n) | .map_id' /tmp/t50b.json)" = "$map_id"
done
check "the table has a bpf_bic row" bash -c "ccctl list | grep -q '^bpf_bic .*/bpf_bic/$pinned\$'"

net_up 2mbit 10 50
in_rcv iperf3 -s -1 -D
wait_for 5 bash -c "ip netns exec $RCV ss -ltnH | grep -q 5201"
in_snd iperf3 -c "$RCV_ADDR" -P 2 -t 10 -C bpf_bic -J > /tmp/t50b.iperf &
client=$!
# Both data connections up at both ends: the receiver's are established
# half a round trip after the sender's, and iperf3 -C puts them on bpf_bic too
# (ss_count counts both namespaces, as ccctl status does).
data_up() { [ "$(ss_count bpf_bic)" -ge 4 ]; }
wait_for 5 data_up
# One ss count for both checks: the flows end after their 10 s, and a
# loaded TCG host can take seconds between two looks.
status=$(ccctl status bpf_bic --json | jq '.[0].sockets')
seen=$(ss_count bpf_bic)
check_cmp "status counts the sockets ss shows on bpf_bic" "$status" -eq "$seen"
check_cmp "at least the 2 data connections of each end" "$seen" -ge 4
check_cmp "nothing uses bpf_bic_2611" \
	"$(ccctl status bpf_bic_2611 --json | jq '.[0].sockets')" -eq 0
check "iperf3 completes" wait "$client"
net_down

check "set-default bpf_bic" ccctl set-default bpf_bic
check_cmp "the sysctl reads back bpf_bic" \
	"$(cat /proc/sys/net/ipv4/tcp_congestion_control)" = bpf_bic
check_cmp "status marks it the default" \
	"$(ccctl status bpf_bic --json | jq '.[0].default')" = true
check "set-default cubic" ccctl set-default cubic

check "unregister bpf_bic" ccctl unregister bpf_bic
check "unregister bpf_bic_2611" ccctl unregister bpf_bic_2611
check "bpf_bic is gone" ca_gone bpf_bic
check "bpf_bic_2611 is gone" ca_gone bpf_bic_2611
check "no pin left under $pins" no_output find "$pins" -mindepth 1
check_cmp "list --json is empty" "$(ccctl list --json)" = "[]"
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
check "no BPF link left" wait_for 5 no_output bpftool link show
