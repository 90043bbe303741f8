#!/bin/bash
# ccctl assign: congestion control per cgroup v2.  Two cgroups are assigned
# bpf_bic and bpf_bic_2611; iperf3 clients started in each come up on their
# cgroup's algorithm, as ss -ti sees them on the sender, while the receiver
# (outside both) and a client outside both stay on the namespace's default;
# a server in a cgroup puts the connections it accepts on the cgroup's
# algorithm (passive side).  unassign, and the removal of a cgroup, stop it;
# list and its JSON show exactly the assignments there are; the same
# assignment twice is nothing to do, said in one line.  Each bad input
# (no cgroup2 mount, a path that is no cgroup, an algorithm ccctl did not
# register, a second algorithm for a cgroup,
# nested assignments, also through a second cgroup2 mount, unregistering an
# algorithm a cgroup names) is one line and leaves maps, links and pins as
# they were.  All checks are exact: which algorithm a connection has is
# decided when it is established, not sampled.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

CG=/sys/fs/cgroup
A=$CG/bictest-a B=$CG/bictest-b
PORT=5301
TMP=/tmp/t59
mkdir -p "$TMP"
modules_up

# algos SS_OUTPUT: the algorithms ss -ti shows in it, sorted, one line.
algos() {
	grep -owE 'bpf_bic_2611|bpf_bic|cubic|reno|bic' <<<"$1" | sort -u | xargs
}

# sample: with the client's control and data connections established on
# both ends, what ss -ti shows on each into SND_CA and RCV_CA.  Socket lines
# start with the receive queue, their info lines with a blank.  One ss a
# side: each takes the better part of a second under TCG.
sample() {
	local snd rcv
	snd=$(in_snd ss -tinH state established dport = ":$PORT")
	rcv=$(in_rcv ss -tinH state established sport = ":$PORT")
	[ "$(grep -c '^[0-9]' <<<"$snd")" -eq 2 ] && [ "$(grep -c '^[0-9]' <<<"$rcv")" -eq 2 ] ||
		return 1
	SND_CA=$(algos "$snd")
	RCV_CA=$(algos "$rcv")
}

# flow CLIENT_CGROUP SERVER_CGROUP: an iperf3 flow from a client in one
# cgroup to a server in the other, for as long as it takes to see both
# ends in ss; sets SND_CA and RCV_CA to what ss shows on them.
flow() {
	local ccg=$1 scg=$2 client
	SND_CA="" RCV_CA=""
	rm -f "$TMP/srv"
	in_cgroup "$scg" ip netns exec "$RCV" iperf3 -s -1 -p "$PORT" -I "$TMP/srv" &
	wait_for 5 listening in_rcv "$PORT"
	in_cgroup "$ccg" ip netns exec "$SND" iperf3 -c "$RCV_ADDR" -p "$PORT" -t 60 \
		> "$TMP/client" 2>&1 &
	client=$!
	wait_for 30 sample || info "no sample of both ends"
	kill "$client" "$(cat "$TMP/srv")"
	wait
}

assignments() {
	ccctl list --json | jq -c 'sort_by(.name) | map({name, cgroups})'
}

net_up 100mbit 1 1000
DEF=$(in_snd cat /proc/sys/net/ipv4/tcp_congestion_control)
info "the namespaces' default congestion control: $DEF"
check "register bpf_bic" ccctl register
check "register bpf_bic_2611" ccctl register --variant 2611

mounted_here=no
if grep -qw cgroup2 /proc/mounts; then
	skip "assign without a cgroup2 mount is refused" "cgroup2 was already mounted"
else
	refused "assign without a cgroup2 mount" "no cgroup2 file system is mounted" \
		ccctl assign bpf_bic --cgroup "$CG"
	mount -t cgroup2 none "$CG" && mounted_here=yes
fi
check "cgroup2 is mounted at $CG" grep -q "^[^ ]* $CG cgroup2 " /proc/mounts
mkdir -p "$A" "$B"

refused "assign to a directory that is no cgroup" "/tmp is not a cgroup" \
	ccctl assign bpf_bic --cgroup /tmp
refused "assign to a cgroup that does not exist" "cannot find cgroup $CG/nosuch" \
	ccctl assign bpf_bic --cgroup "$CG/nosuch"
refused "assign of an algorithm not registered" "nosuch is not registered by ccctl" \
	ccctl assign nosuch --cgroup "$A"
refused "assign of the kernel's own reno" "reno is not registered by ccctl" \
	ccctl assign reno --cgroup "$A"
refused "assign without --cgroup" "usage: ccctl assign NAME --cgroup PATH" \
	ccctl assign bpf_bic
refused "assign with two algorithms" "usage: ccctl assign NAME --cgroup PATH" \
	ccctl assign bpf_bic bpf_bic_2611 --cgroup "$A"
refused "unassign where nothing is assigned" "nothing is assigned to $A" \
	ccctl unassign --cgroup "$A"
refused "unassign with neither --cgroup nor --all" "usage: ccctl unassign (--cgroup PATH | --all)" \
	ccctl unassign
refused "unassign with both --cgroup and --all" "usage: ccctl unassign (--cgroup PATH | --all)" \
	ccctl unassign --all --cgroup "$A"
refused "list takes no --cgroup" "list takes no --cgroup option" \
	ccctl list --cgroup "$A"

check "assign bpf_bic to $A" ccctl assign bpf_bic --cgroup "$A"
check "assign bpf_bic_2611 to $B" ccctl assign bpf_bic_2611 --cgroup "$B"
check_cmp "list --json shows both assignments" "$(assignments)" = \
	"[{\"name\":\"bpf_bic\",\"cgroups\":[\"$A\"]},{\"name\":\"bpf_bic_2611\",\"cgroups\":[\"$B\"]}]"
check "list shows them under ASSIGNED" \
	grep -qE "^bpf_bic_2611 +$B\$" <<<"$(ccctl list | sed -n '/^ASSIGNED/,$p')"
check_cmp "two cgroup links are attached" "$(cgroup_links)" -eq 2

out=$(ccctl assign bpf_bic --cgroup "$A" 2>&1)
check_cmp "the same assignment twice: exits 0" "$?" -eq 0
check_cmp "... and says it is already so" "$out" = "bpf_bic is already assigned to $A"
check_cmp "... and attaches nothing" "$(cgroup_links)" -eq 2
refused "a second algorithm for a cgroup" "$A is already assigned to bpf_bic; unassign it first" \
	ccctl assign bpf_bic_2611 --cgroup "$A"
mkdir -p "$A/sub"
refused "an assignment inside another" "it is inside $A, which is assigned to bpf_bic" \
	ccctl assign bpf_bic_2611 --cgroup "$A/sub"
refused "an assignment around others" "contains" \
	ccctl assign bpf_bic --cgroup "$CG"
# The same cgroups through a second cgroup2 mount: compared under the first.
mkdir -p "$TMP/cg2" && mount -t cgroup2 none "$TMP/cg2"
refused "an assignment inside another, through a second cgroup2 mount" \
	"cannot assign bpf_bic_2611 to $A/sub: it is inside $A, which is assigned to bpf_bic" \
	ccctl assign bpf_bic_2611 --cgroup "$TMP/cg2/${A#"$CG"/}/sub"
umount "$TMP/cg2"
refused "unregister of an algorithm a cgroup names" \
	"bpf_bic is assigned to cgroup $A; ccctl unassign --cgroup $A first" \
	ccctl unregister bpf_bic

flow "$A" "$CG"
check_cmp "a client in $A connects on bpf_bic" "$SND_CA" = bpf_bic
check_cmp "the server outside both accepts it on the default" "$RCV_CA" = "$DEF"
flow "$B" "$CG"
check_cmp "a client in $B connects on bpf_bic_2611" "$SND_CA" = bpf_bic_2611
check_cmp "the server outside both accepts it on the default" "$RCV_CA" = "$DEF"
flow "$A/sub" "$CG"
check_cmp "a client in a cgroup below $A connects on bpf_bic" "$SND_CA" = bpf_bic
flow "$CG" "$CG"
check_cmp "a client outside both connects on the default" "$SND_CA" = "$DEF"
flow "$CG" "$B"
check_cmp "a server in $B accepts on bpf_bic_2611" "$RCV_CA" = bpf_bic_2611
check_cmp "its client outside both connects on the default" "$SND_CA" = "$DEF"

check "unassign $A" ccctl unassign --cgroup "$A"
flow "$A" "$CG"
check_cmp "after unassign, a client in $A connects on the default" "$SND_CA" = "$DEF"
check_cmp "list --json shows only $B" "$(assignments)" = \
	"[{\"name\":\"bpf_bic\",\"cgroups\":[]},{\"name\":\"bpf_bic_2611\",\"cgroups\":[\"$B\"]}]"
check "bpf_bic can be unregistered now" ccctl unregister bpf_bic
check "and registered again" ccctl register

# A removed cgroup takes its links with it; ccctl forgets the pin.
check "remove $B" rmdir "$B"
check_cmp "list --json shows no assignment once $B is gone" "$(assignments)" = \
	'[{"name":"bpf_bic","cgroups":[]},{"name":"bpf_bic_2611","cgroups":[]}]'
check "bpf_bic_2611 can be unregistered" ccctl unregister bpf_bic_2611
check "bpf_bic can be unregistered" ccctl unregister bpf_bic
check "no pins left" no_pins
check_cmp "no cgroup link left" "$(cgroup_links)" -eq 0

rmdir "$A/sub" "$A"
if [ "$mounted_here" = yes ]; then umount "$CG"; fi
net_down
