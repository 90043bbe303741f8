#!/bin/bash
# ccctl list and ccctl migrate count and move every socket, including the
# ones the kernel's BPF TCP iterator does not show a program.  On 6.12 and
# 6.1 that iterator skips the sockets of the first bucket of the established
# hash table that holds any of a namespace's when that bucket's index is the
# one tcp_seek_last_pos() resumed from: bucket 0 in a namespace with no
# listening socket (see migrate_netns() in loader/migrate.c).  7.3 resumes by
# socket cookie and skips nothing; the same checks must hold there.
#
# To put the sockets in bucket 0 for certain rather than by a 1-in-8192
# chance each, the test namespaces are made while
# net.ipv4.tcp_child_ehash_entries is 1 (6.1+), which gives each a table of
# its own with a single bucket: all N sender-side connections sit in bucket
# 0 of a namespace without a listener, so on 6.12 and 6.1 one pass of the
# iterator would see none of them, and a count or a migrate that trusted it
# would be off by exactly N.  The receiver's N and its listener are
# counted as well (2N + 1 in all).  Every check is exact; N is small (20)
# because with one bucket the bug takes all or nothing.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

N=20 PORT=7200
FROM=bpf_bic TO=bpf_bic_2611
TMP=/tmp/t55
CHILD=/proc/sys/net/ipv4/tcp_child_ehash_entries
mkdir -p "$TMP"
modules_up

# ss_has NS CA COUNT: ss sees exactly COUNT sockets on CA in namespace NS
# (a command, counted anew at each call: what wait_for polls).
ss_has() {
	[ "$(ss_count "$2" "$1")" -eq "$3" ]
}

# listed CA: the sockets ccctl list --json gives CA.
listed() {
	ccctl list --json | jq --arg n "$1" '.[] | select(.name == $n) | .sockets'
}

child_was=$(cat "$CHILD")
echo 1 > "$CHILD"
net_up 1gbit 1 1000
echo "$child_was" > "$CHILD"
check_cmp "the sender's namespace has an established table of 1 bucket" \
	"$(in_snd cat /proc/sys/net/ipv4/tcp_ehash_entries)" -eq 1

check "register $FROM" ccctl register
check "register $TO" ccctl register --variant 2611

ip netns exec "$RCV" tcphold listen "$RCV_ADDR" "$PORT" "$FROM" > "$TMP/listen" 2>&1 &
lis=$!
wait_for 5 grep -q listening "$TMP/listen"
ip netns exec "$SND" tcphold connect "$RCV_ADDR" "$PORT" "$N" "$FROM" > "$TMP/connect" 2>&1 &
con=$!
check "$N connections from a namespace without a listener" \
	wait_for 30 grep -q "connected $N" "$TMP/connect"
check_cmp "the sender's namespace has no listening socket" \
	"$(in_snd ss -ltnH | wc -l)" -eq 0
check "and the receiver has accepted all $N" \
	wait_for 10 ss_has "$RCV" "$FROM" $((N + 1))

all=$((2 * N + 1))
check_cmp "ss: $N of the sender's sockets on $FROM" "$(ss_count "$FROM" "$SND")" -eq "$N"
check_cmp "ccctl list: $FROM has all $all" "$(listed "$FROM")" -eq "$all"
check_cmp "ccctl list: $TO has none" "$(listed "$TO")" -eq 0

# migrated_all A B: ccctl migrate A B moves every socket of both namespaces,
# says so, and ss and ccctl list agree.
migrated_all() {
	local a=$1 b=$2 out
	out=$(ccctl migrate "$a" "$b")
	check_cmp "migrate $a $b says it moved all $all ($out)" \
		"$out" = "moved $all sockets from $a to $b"
	check_cmp "ss: the sender has $N on $b" "$(ss_count "$b" "$SND")" -eq "$N"
	check_cmp "ss: the sender has none left on $a" "$(ss_count "$a" "$SND")" -eq 0
	check_cmp "ss: the receiver has $((N + 1)) on $b" "$(ss_count "$b" "$RCV")" -eq $((N + 1))
	check_cmp "ss: the receiver has none left on $a" "$(ss_count "$a" "$RCV")" -eq 0
	check_cmp "ccctl list: $b has all $all" "$(listed "$b")" -eq "$all"
	check_cmp "ccctl list: $a has none" "$(listed "$a")" -eq 0
}

migrated_all "$FROM" "$TO"
migrated_all "$TO" "$FROM"

kill "$con" "$lis" 2>/dev/null
wait "$con" "$lis" 2>/dev/null
net_down
check "unregister $TO" ccctl unregister "$TO"
check "unregister $FROM" ccctl unregister "$FROM"
