#!/bin/bash
# ccctl and objects nobody here wrote (issue 29): an object that holds
# several congestion controls, and one the verifier rejects.
#
# An object can hold several tcp_congestion_ops (the kernel selftests'
# bpf_dctcp.o: bpf_dctcp_nouse, which no kernel registers, then
# bpf_dctcp).  ccctl used to take the first and fail on it with "Invalid
# argument".  With the tests' own two_ops.bpf.o (bpf_t83_a, bpf_t83_b,
# both Reno through kfuncs) this proves that:
#   - without --ops, register (--name or not) and swap (6.4+) refuse in one
#     line that names both and says how to choose, and an --ops that names
#     neither is refused naming what the object holds; nothing is added;
#   - --ops takes each: bpf_t83_a by its own name, and the other by its
#     map's name (t83_b_ops) under --name t83b; each registration makes
#     exactly one struct_ops map (the other is never created), and a TCP
#     flow between two namespaces made here runs on each, as ss shows.
# reject.bpf.o's ssthresh reads a table at an unchecked index: ccctl must
# say the verifier rejected that program, with the verifier's reason and
# not "Permission denied" (which reads like a file problem), and --verbose
# must print the verifier's log; a good object without tcp_congestion_ops
# is told apart from it (t_50 tells missing and non-ELF files).  After
# each refusal nothing is registered, pinned or loaded.
# On 6.12 and 7.3 the same goes for the kernel selftests' own bpf_dctcp.o
# (refused without --ops, naming bpf_dctcp_nouse and bpf_dctcp; --ops
# bpf_dctcp registers it alone) and bpf_cubic.o, built on the host from
# that kernel's source, with a third flow on bpf_cubic.
#
# Cheap on purpose (make test has little slack): the state compared around
# each refusal is read by ccobserve and ccctl list, not bpftool (whose
# struct_ops list parses the kernel's BTF) nor jq (whose start compiles its
# library): each costs a second under TCG.  The rejections are tried while
# the flows run.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

two=$BIC_DIR/bpf/test/two_ops.bpf.o
rej=$BIC_DIR/bpf/test/reject.bpf.o
noops=$BIC_DIR/bpf/test/no_ops.bpf.o
avail=/proc/sys/net/ipv4/tcp_available_congestion_control

# has TEXT STRING, lacks TEXT STRING, matches TEXT REGEX: of a message.
has() { grep -qF -- "$2" <<<"$1"; }
lacks() { ! has "$@"; }
matches() { grep -qE -- "$2" <<<"$1"; }
# The state compared around a refusal: ccobserve's line (the algorithms,
# pins, struct_ops maps by id, cgroup links) and ccctl's list but for its
# socket counts, which the flows below change.
state() { echo "$(ccobserve) list=$(ccctl list | awk '{ $4 = ""; print }' | tr '\n' ' ')"; }
maps() { ccobserve | sed -n 's/.* maps=//p' | tr ',' '\n' | grep -c '^[0-9]'; }
# Refusals are compared around with state() (lib.sh's refused).
REFUSED_STATE=state
# acked SS_FILE: the most bytes_acked of a connection ss saw (jq would
# cost a second under TCG).
acked() { grep -o 'bytes_acked:[0-9]*' "$1" | cut -d: -f2 | sort -n | tail -n 1; }
# seen PORT FILE: ss's view of the flow to PORT, kept in FILE, shows 10 kB
# acked (the flows start late when the refusals keep the CPU busy).
seen() {
	in_snd ss -tinH dport = ":$1" > "$2"
	[ "$(acked "$2")" -gt 10000 ] 2>/dev/null
}
# Nothing of this test is registered, listed, pinned or loaded.
clean() {
	! grep -qwE 'bpf_t83_a|bpf_t83_b|t83b|bpf_t83_reject|bpf_dctcp|bpf_cubic' "$avail" &&
		[ "$(ccctl list --json)" = "[]" ] && no_pins && [ "$(maps)" -eq 0 ]
}
modules_up

# --- several congestion controls in one object: --ops takes each ----------------
check "register --ops bpf_t83_a (its own name)" ccctl register --object "$two" --ops bpf_t83_a
check "bpf_t83_a is available, bpf_t83_b is not" \
	bash -c "grep -qw bpf_t83_a $avail && ! grep -qw bpf_t83_b $avail"
check_cmp "one struct_ops map: bpf_t83_b's was never created" "$(maps)" -eq 1
check "register --ops t83_b_ops (its map's name) --name t83b" \
	ccctl register --object "$two" --ops t83_b_ops --name t83b
check "t83b is available, bpf_t83_b is not" \
	bash -c "grep -qw t83b $avail && ! grep -qw bpf_t83_b $avail"
check_cmp "one struct_ops map more" "$(maps)" -eq 2

# --- the kernel selftests' own, built from the kernel's source (6.12, 7.3) -------
st=$BIC_DIR/bpf/selftests
selftests=false
if [ -e "$st/bpf_dctcp.bpf.o" ]; then
	selftests=true
	refused "the selftests' bpf_dctcp.o without --ops" \
		"$st/bpf_dctcp.bpf.o holds 2 congestion controls (bpf_dctcp_nouse, bpf_dctcp); choose one with --ops NAME" \
		ccctl register --object "$st/bpf_dctcp.bpf.o"
	check "the selftests' bpf_dctcp.o --ops bpf_dctcp" \
		ccctl register --object "$st/bpf_dctcp.bpf.o" --ops bpf_dctcp
	check "bpf_dctcp is available, bpf_dctcp_nouse is not" \
		bash -c "grep -qw bpf_dctcp $avail && ! grep -qw bpf_dctcp_nouse $avail"
	check_cmp "one struct_ops map more: bpf_dctcp_nouse's was never created" "$(maps)" -eq 3
	check "the selftests' bpf_cubic.o" ccctl register --object "$st/bpf_cubic.bpf.o"
	check "bpf_cubic is available" grep -qw bpf_cubic "$avail"
else
	skip "the kernel selftests' bpf_dctcp.o and bpf_cubic.o" \
		"built for 6.12 and 7.3 only: 6.1's are written for its bpf_tcp_helpers.h"
fi

# A 3 s flow on each at once; ss looks at each until it has 10 kB acked.
# The refusals below are tried meanwhile: the flows change nothing they
# compare.
net_up 10mbit 5 100
server 5301 && server 5302
in_snd iperf3 -c "$RCV_ADDR" -p 5301 -C bpf_t83_a -t 3 > /dev/null &
client_a=$!
in_snd iperf3 -c "$RCV_ADDR" -p 5302 -C t83b -t 3 > /dev/null &
client_b=$!
if $selftests; then
	server 5303
	in_snd iperf3 -c "$RCV_ADDR" -p 5303 -C bpf_cubic -t 3 > /dev/null &
	client_c=$!
fi
(
	wait_for 5 seen 5301 /tmp/t83a.ss
	wait_for 5 seen 5302 /tmp/t83b.ss
	! $selftests || wait_for 5 seen 5303 /tmp/t83c.ss
) &
sampler=$!

# --- ... and without --ops none --------------------------------------------------
both="2 congestion controls (bpf_t83_a, bpf_t83_b); choose one with --ops NAME"
refused "two ops, no --ops" "$two holds $both" ccctl register --object "$two" --name t83c
refused "--ops naming neither" \
	"$two holds no congestion control named 'nosuch' (it holds bpf_t83_a, bpf_t83_b)" \
	ccctl register --object "$two" --ops nosuch --name t83c
if has_struct_ops_links; then
	refused "swap without --ops" "$two holds $both" \
		ccctl swap bpf_t83_a --object "$two" --name bpf_t83_a
fi

# --- the verifier's rejection -----------------------------------------------------
refused "a verifier rejection" "the verifier rejected program t83_reject_ssthresh of $rej: " \
	ccctl register --object "$rej"
check "... not as 'Permission denied'" lacks "$ERR" "Permission denied"
check "... and says how to see the log" has "$ERR" "(--verbose shows its log)"
before=$(state)
log=$(ccctl register --object "$rej" --verbose 2>&1 >/dev/null)
printf '%s\n' "$log" > /out/t83-verbose.txt
last=$(tail -n 1 <<<"$log")
info "--verbose: $(grep -c '' <<<"$log") lines on stderr, the last: $last"
check "--verbose prints the verifier's log of the program" \
	has "$log" "-- the verifier's log of program t83_reject_ssthresh --"
check "... which says where the read goes out of bounds" \
	matches "$log" 'invalid access to map value|unbounded memory access'
check "... and the refusal comes last, saying the log is above" matches "$last" \
	'^ccctl: the verifier rejected program t83_reject_ssthresh .*\(its log is above\)$'
check_cmp "--verbose: no state left behind" "$(state)" = "$before"
refused "a good object without tcp_congestion_ops" "$noops holds no tcp_congestion_ops" \
	ccctl register --object "$noops"

wait "$sampler"
check "the flow on bpf_t83_a completes" wait "$client_a"
check "the flow on t83b completes" wait "$client_b"
if $selftests; then
	check "the flow on bpf_cubic completes" wait "$client_c"
	reap 5303
fi
reap 5301 5302
net_down
check "ss shows the first flow on bpf_t83_a" grep -qw bpf_t83_a /tmp/t83a.ss
check "ss shows the second on t83b" grep -qw t83b /tmp/t83b.ss
check_cmp "the flow on bpf_t83_a had 10 kB acked while ss looked" "$(acked /tmp/t83a.ss)" -gt 10000
check_cmp "the flow on t83b had 10 kB acked while ss looked" "$(acked /tmp/t83b.ss)" -gt 10000

if $selftests; then
	check "ss shows the third on the selftests' bpf_cubic" grep -qw bpf_cubic /tmp/t83c.ss
	check_cmp "the flow on bpf_cubic had 10 kB acked while ss looked" "$(acked /tmp/t83c.ss)" -gt 10000
	check "unregister bpf_dctcp" ccctl unregister bpf_dctcp
	check "unregister bpf_cubic" ccctl unregister bpf_cubic
fi
check "unregister bpf_t83_a" ccctl unregister bpf_t83_a
check "unregister t83b" ccctl unregister t83b
check "at the end nothing is registered, listed, pinned or loaded" wait_for 10 clean
check "dmesg has no WARNING/BUG/Oops" dmesg_clean
