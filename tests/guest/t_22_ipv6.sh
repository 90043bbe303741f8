#!/bin/bash
# IPv6: bpf_bic and ccctl work for IPv6 connections as they do for IPv4.
#
# The sender and receiver namespaces of net_up, joined by a veth pair
# that has IPv6 addresses only (nodad: no second of duplicate address
# detection before they can be used), at 10 Mbit/s:
#   - an iperf3 -6 -C bpf_bic flow of 1 s completes; ss -ti, polled while
#     it runs, sees it on bpf_bic with 150 kB acknowledged (an eighth of
#     what the link carries in the second) and its cwnd grown past the
#     initial 10 (this shows only that data moves: t_20 measures the
#     algorithm);
#   - N held connections (tcphold, no data) on bpf_bic: ccctl list counts
#     exactly the 2N + 1 sockets ss -6 shows (sock_diag is asked for
#     AF_INET6 as well as AF_INET; the namespaces have no IPv4 address);
#   - ccctl migrate moves all 2N + 1 to reno and back, each way exactly as
#     ss sees it (the TCP iterator walks the one table both families share);
#   - ccctl assign to a cgroup puts M IPv6 connects from the cgroup on
#     bpf_bic while the receiver outside it accepts them on the default.
# The flow is 1 s and the rest moves no data; jq is not used (dear under
# TCG).
#
# ACK by ACK over IPv6, against the model's rows: t_70 (ackdrill -6).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

SND6=fd22::1 RCV6=fd22::2
N=8 M=4 PORT=7222
CG=/sys/fs/cgroup
CGA=$CG/t22
TMP=/tmp/t22
mkdir -p "$TMP"
modules_up
pids=()
mounted_here=no

# stop_cgroup: end the processes in the cgroup (the $! of in_cgroup ... &
# is a subshell of this one, not the process started in the cgroup).
stop_cgroup() {
	[ -e "$CGA/cgroup.procs" ] || return 0
	# shellcheck disable=SC2046	# one PID a line
	kill $(cat "$CGA/cgroup.procs") 2>/dev/null
}

cleanup() {
	local p
	stop_cgroup
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ccctl unassign --cgroup "$CGA" > /dev/null 2>&1
	rmdir "$CGA" 2>/dev/null
	if [ "$mounted_here" = yes ]; then umount "$CG"; fi
	net_down
	ccctl unregister bpf_bic > /dev/null 2>&1
}
trap cleanup EXIT

# count6 NS CA [FILTER]: IPv6 TCP sockets on CA in namespace NS, as ss -ti
# shows them (the info line of each names its algorithm).
count6() { ip netns exec "$1" ss -6 -taniH "${@:3}" | grep -cw -- "$2"; }

# listed CA: the sockets ccctl list gives CA (its table, not --json and jq).
listed() {
	ccctl list | awk -v n="$1" '$1 == "ASSIGNED" { exit } $1 == n { print $4; exit }'
}

# hold NS TAG COMMAND...: a tcphold in the background until it says TAG.
hold() {
	local ns=$1 tag=$2
	shift 2
	ip netns exec "$ns" tcphold "$@" > "$TMP/$tag" 2>&1 &
	pids+=($!)
	wait_for 30 grep -q "^$tag" "$TMP/$tag"
}

# net_up's namespaces, lighter: IPv6 addresses only, and of its netem
# only the rate, on the sender's side.
net_down
ip netns add "$SND"
ip netns add "$RCV"
ip link add veth-s netns "$SND" type veth peer veth-r netns "$RCV"
in_snd ip -6 addr add "$SND6/64" dev veth-s nodad
in_rcv ip -6 addr add "$RCV6/64" dev veth-r nodad
in_snd ip link set veth-s up
in_rcv ip link set veth-r up
in_snd tc qdisc add dev veth-s root netem rate 10mbit limit 100
nets="net:[$(stat -L -c %i "/run/netns/$SND")] net:[$(stat -L -c %i "/run/netns/$RCV")]"
# The register first: the kernel turns a veth's queue on up to a second
# after it comes up (linkwatch), and a neighbour solicitation sent before
# that is lost, costing a second more.
check "register bpf_bic" ccctl register
check "the receiver answers over IPv6" in_snd ping -6 -c 1 -W 5 "$RCV6"
DEF=$(in_rcv cat /proc/sys/net/ipv4/tcp_congestion_control)

# Held connections: counted, then migrated both ways.
hold "$RCV" listening listen "$RCV6" "$PORT" bpf_bic
check "$N IPv6 connections on bpf_bic" hold "$SND" connected connect "$RCV6" "$PORT" "$N" bpf_bic
check "... all accepted" wait_for 10 test "$(count6 "$RCV" bpf_bic)" -eq $((N + 1))
all=$((2 * N + 1))
check_cmp "ss -6: the sender has $N on bpf_bic" "$(count6 "$SND" bpf_bic)" -eq "$N"
check_cmp "ccctl list counts all $all IPv6 sockets" "$(listed bpf_bic)" -eq "$all"

# migrated A B: ccctl migrate A B moves all of them, as ss sees it.
migrated() {
	check_cmp "migrate $1 $2 moves all $all" "$(ccctl migrate "$1" "$2")" = \
		"moved $all sockets from $1 to $2"
	check_cmp "... ss -6: the sender has $N on $2" "$(count6 "$SND" "$2")" -eq "$N"
	check_cmp "... ss -6: the receiver has $((N + 1)) on $2" \
		"$(count6 "$RCV" "$2")" -eq $((N + 1))
}
migrated bpf_bic reno
check_cmp "... ccctl list: none left on bpf_bic" "$(listed bpf_bic)" -eq 0
migrated reno bpf_bic
check_cmp "... ccctl list: all $all on bpf_bic again" "$(listed bpf_bic)" -eq "$all"
for p in "${pids[@]}"; do kill "$p"; done
wait
pids=()

# A flow with data, sampled by ss while it runs until its data connection
# has 150 kB acknowledged; 64 kB socket buffers, so that its end does not
# wait for megabytes queued at 10 Mbit/s to drain.
# most FIELD: the largest FIELD:N of the sample (the data connection's).
most() { grep -o "$1:[0-9]*" /out/t22.ss | cut -d: -f2 | sort -n | tail -1; }
acked_150k() {
	in_snd ss -6 -tinH state established > /out/t22.ss
	[ "$(most bytes_acked)" -ge 150000 ] 2>/dev/null
}
server 5222
in_snd iperf3 -6 -c "$RCV6" -p 5222 -C bpf_bic -t 1 -w 64K > /dev/null &
client=$!
check "an iperf3 -6 -C bpf_bic flow gets 150 kB acknowledged while it runs" \
	wait_for 5 acked_150k
wait "$client"
check_cmp "an iperf3 -6 -C bpf_bic flow completes" "$?" -eq 0
reap 5222
check "ss -ti shows it on bpf_bic, over IPv6" grep -q 'bpf_bic.*cwnd:' /out/t22.ss
# 150 kB is over 100 segments acknowledged; slow start adds one to cwnd per
# segment acknowledged, a loss takes it to 819/1024 of what it was (half at
# or below 14) and only a timeout lower: a cwnd of 10 or less would be a
# window that did not grow.
check_cmp "... its cwnd past the initial 10" "$(most cwnd)" -gt 10

# assign: the cgroup's IPv6 connects come up on bpf_bic, the receiver's
# ends on the default.
if ! grep -q "^[^ ]* $CG cgroup2 " /proc/mounts; then
	mount -t cgroup2 none "$CG" && mounted_here=yes
fi
mkdir -p "$CGA"
check "assign bpf_bic to $CGA" ccctl assign bpf_bic --cgroup "$CGA"
P2=$((PORT + 1))
hold "$RCV" listening listen "$RCV6" "$P2"
in_cgroup "$CGA" ip netns exec "$SND" tcphold connect "$RCV6" "$P2" "$M" - \
	> "$TMP/assigned" 2>&1 &
pids+=($!)
check "$M IPv6 connects from $CGA, on the default as far as they ask" \
	wait_for 30 grep -q "^connected $M" "$TMP/assigned"
check_cmp "... ss -6: all $M on bpf_bic at the sender" \
	"$(count6 "$SND" bpf_bic "dport = :$P2")" -eq "$M"
check_cmp "... ss -6: the receiver accepted them on $DEF (and listens on it)" \
	"$(count6 "$RCV" "$DEF" "sport = :$P2")" -eq $((M + 1))
stop_cgroup
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
wait
pids=()
check "unassign $CGA" ccctl unassign --cgroup "$CGA"
check "$CGA is left empty, and removed" rmdir "$CGA"
net_down
check "unregister bpf_bic" ccctl unregister bpf_bic
# A process left in either namespace would keep it, and every later
# namespace walk (set-default --from, t_84) would find it.
left=$(for f in /proc/[0-9]*/ns/net; do
	case " $nets " in *" $(readlink "$f" 2>/dev/null) "*) echo "${f%/ns/net}" ;; esac
done)
check "no process left in the two namespaces${left:+: $(echo "$left" | xargs)}" test -z "$left"
