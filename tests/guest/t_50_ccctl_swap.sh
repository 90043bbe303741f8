#!/bin/bash
# Under two running iperf3 flows, ccctl swaps the implementation behind
# bpf_bic and migrates the connections off and back on, SWAP_ROUNDS times
# each (most on the primary kernel): no connection is dropped, ss shows each migration, the
# link keeps its id while its map changes, a swap leaves running sockets on
# the old ops and migrated ones land on the new.  Unregistering bpf_bic under the flows
# leaves them running, and once they end nothing is left in the kernel.
#
# A kernel without struct_ops links (before 6.4) cannot swap in place; there
# the rounds do what ccctl's refusal advises instead: the 2.6.11 ops are
# registered under a name of their own, bpf_bic_2611, and every round
# migrates the flows between the two names; the swap checks are skipped.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# One swap and one migrate each, SWAP_ROUNDS times (SWAP_ROUNDS_K in
# vm-image/versions.mk, by way of suite.conf; this default when absent).
SWAP_ROUNDS=100
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"
ROUNDS=$SWAP_ROUNDS
FLOW_SECS=90		# longest pair of flows; the rounds go on under new ones after
MARGIN=6		# s, more than a round takes under TCG: start none closer to the end
pins=/sys/fs/bpf/ccctl

modules_up
check "register bpf_bic" ccctl register
if has_struct_ops_links; then
	swap=true
	link=$(bpftool -j link show pinned "$pins/bpf_bic/link" | jq .id)
	fresh=bpf_bic		# where migrated sockets meet the 2611 ops
else
	swap=false
	check "register bpf_bic_2611 beside it" ccctl register --variant 2611
	fresh=bpf_bic_2611
fi
net_up 1mbit 10 30

# Established sender sockets on congestion control $1, of the ss output $2.
snd_on() {
	grep -cw "$1" <<<"${2:-$(in_snd ss -tinH state established dst "$RCV_ADDR")}"
}

# start_flows SECONDS
flows=0 client=0 flow_end=0
start_flows() {
	local secs=$1

	flows=$((flows + 1))
	in_rcv iperf3 -s -1 -D
	wait_for 5 bash -c "ip netns exec $RCV ss -ltnH | grep -q 5201"
	in_snd iperf3 -c "$RCV_ADDR" -P 2 -t "$secs" -C bpf_bic -J > "/out/t50swap.$flows.json" &
	client=$!
	flow_end=$((EPOCHSECONDS + secs))
	wait_for 10 bash -c "[ \"\$(ip netns exec $SND ss -tnH state established | wc -l)\" -ge 3 ]"
	resets_before=$(snd_resets)
}

# iperf3's own teardown resets its data connections: count resets before it.
bad_flows=0 bad_resets=0
end_flows() {
	local json=/out/t50swap.$flows.json rc=0 sent rcvd

	[ "$(snd_resets)" -eq "$resets_before" ] || bad_resets=$((bad_resets + 1))
	wait "$client" || rc=$?
	sent=$(jq '.end.sum_sent.bytes // 0' "$json")
	rcvd=$(jq '.end.sum_received.bytes // 0' "$json")
	# What the sender wrote but had not sent at the deadline is never
	# received: at 1 Mbit/s far less than 1 MiB per stream.
	info "flows $flows: iperf3 exited $rc, sent $sent, received $rcvd"
	if [ "$rc" -ne 0 ] || [ "$(jq -r '.error // "none"' "$json")" != none ] ||
	   [ "$(jq '[.end.streams[] | select(.sender.bytes > 0)] | length' "$json")" -ne 2 ] ||
	   [ "$rcvd" -lt $((sent - 2 * 1024 * 1024)) ] || [ "$rcvd" -le 0 ]; then
		bad_flows=$((bad_flows + 1))
	fi
}

bad_link=0 bad_map=0 old_gone=0 bad_moved=0 bad_ss=0 bad_init=0
on=bpf_bic	# where the flows' sockets are
i=0
start=$EPOCHSECONDS
while ((i < ROUNDS)); do
	# Later flows last about as long as the rounds left; too short costs
	# only one more pair of flows.
	secs=$FLOW_SECS
	if ((i)); then
		secs=$(( (ROUNDS - i) * (EPOCHSECONDS - start) * 11 / (10 * i) + MARGIN + 5 ))
		((secs < FLOW_SECS)) || secs=$FLOW_SECS
	fi
	start_flows "$secs"
	on=bpf_bic	# iperf3 -C bpf_bic, whatever the last flows were on
	done_before=$i
	while ((i < ROUNDS && EPOCHSECONDS + MARGIN < flow_end)); do
		i=$((i + 1))
		if ! $swap; then
			# Between the two names, each time onto the other.
			to=bpf_bic
			[ "$on" = bpf_bic ] && to=bpf_bic_2611
		# Off bpf_bic after a swap to the fixed ops, back on after one to 2611.
		elif [ "$on" = bpf_bic ]; then
			out=$(ccctl swap bpf_bic --variant fixed)
			to=cubic
		else
			out=$(ccctl swap bpf_bic --variant 2611 --name bpf_bic)
			to=bpf_bic
		fi
		if $swap; then
			# "swapped bpf_bic: map OLD -> NEW, link ID"
			read -r _ _ _ old _ new _ l <<<"${out//,/}"
			[ "$l" = "$link" ] || bad_link=$((bad_link + 1))
			if [ -z "$old" ] || [ "$old" = "$new" ]; then
				bad_map=$((bad_map + 1))
			fi
			# The link let go of the old map: only the running sockets hold
			# it.  (bpftool map show: struct_ops show would read the
			# kernel's BTF to print the ops, a second a round under TCG.)
			if [ "$on" = bpf_bic ] &&
			   ! bpftool map show id "${old:-0}" &>/dev/null; then
				old_gone=$((old_gone + 1))
			fi
		fi

		# A swapped-in 2611 object counts its inits from 0; a registered
		# one goes on counting.
		init0=0
		$swap || init0=$(bic_stat init bic_2611)
		moved=$(ccctl migrate "$on" "$to" | sed -n 's/^moved \([0-9]*\) .*/\1/p')
		moved=${moved:-0}
		[ "$moved" -ge 2 ] || bad_moved=$((bad_moved + 1))
		ss=$(in_snd ss -tinH state established dst "$RCV_ADDR")
		if [ "$(snd_on "$on" "$ss")" -ne 0 ] || [ "$(snd_on "$to" "$ss")" -lt 2 ]; then
			bad_ss=$((bad_ss + 1))
		fi
		# Listeners move without an init call, so init may trail moved.
		if [ "$to" = "$fresh" ] && ! ((i % 5)); then
			init=$(( $(bic_stat init bic_2611) - init0 ))
			if [ "${init:-0}" -lt 2 ] || [ "${init:-0}" -gt "$moved" ]; then
				bad_init=$((bad_init + 1))
			fi
		fi
		on=$to
	done
	((i < ROUNDS)) || break
	end_flows
	((i > done_before)) || break	# flows too short for even one round
done
info "$i rounds under $flows iperf3 runs in $((EPOCHSECONDS - start))s"

if $swap; then
	check_cmp "$ROUNDS swaps and $ROUNDS migrates ran under flows" "$i" -eq "$ROUNDS"
	check_cmp "every swap kept the link id" "$bad_link" -eq 0
	check_cmp "every swap put a new map behind the link" "$bad_map" -eq 0
	check_cmp "running sockets kept the swapped-out ops" "$old_gone" -eq 0
else
	check_cmp "$ROUNDS migrates between two names ran under flows" "$i" -eq "$ROUNDS"
	for what in "kept the link id" "put a new map behind the link" \
		    "left running sockets on the swapped-out ops"; do
		skip "every swap $what" "$NO_LINK_WHY"
	done
fi
check_cmp "every migrate moved at least the 2 data connections" "$bad_moved" -eq 0
check_cmp "after every migrate ss shows the sockets on the new algorithm" "$bad_ss" -eq 0
check_cmp "migrated sockets started on the 2611 ops" "$bad_init" -eq 0

# Unregister bpf_bic under the last flows, with them on it.
[ "$on" = bpf_bic ] || ccctl migrate "$on" bpf_bic >/dev/null
if ! $swap; then
	check "unregister bpf_bic_2611, now unused" ccctl unregister bpf_bic_2611
fi
check "unregister bpf_bic under running flows" ccctl unregister bpf_bic
check "bpf_bic is no longer available" \
	bash -c '! grep -qw bpf_bic /proc/sys/net/ipv4/tcp_available_congestion_control'
check "no pin left" no_output find "$pins" -mindepth 1
check "the flows still run" kill -0 "$client"
check_cmp "ss still shows them on bpf_bic" "$(snd_on bpf_bic)" -ge 2
end_flows

check_cmp "every iperf3 run completed with all bytes delivered" "$bad_flows" -eq 0
check_cmp "no connection was reset" "$bad_resets" -eq 0

net_down
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
check "no BPF link left" wait_for 5 no_output bpftool link show
check "dmesg has no WARNING/BUG/Oops" dmesg_clean
