#!/bin/bash
# ccctl finds every network namespace, however it is held.
#
# An algorithm serves every namespace, so ccctl walks them all: unregister
# refuses an algorithm that is some namespace's default, set-default --from
# replaces it in each, list counts sockets and migrate moves them in each.
# Container runtimes and tools hold namespaces in ways no /proc/PID/ns/net
# of a process shows.  Here one namespace is held each way, each with the
# same registered algorithm as its default:
#   - an "ip netns" entry whose name starts with a dot;
#   - an nsfs bind mount outside /run/netns (as /run/docker/netns/...);
#   - an nsfs bind mount made in a mount namespace of its own, which only a
#     process in that mount namespace sees (its /proc/PID/mountinfo);
#   - a thread of a process whose other threads are elsewhere;
#   - an open file descriptor of a process that went back (tests/tools/
#     nshold).
# Each holder alone must stop unregister, named in the refusal, and
# set-default --from must find exactly these five; then unregister goes
# through.  A plain file in /run/netns (what an interrupted "ip netns add"
# or a bad cleanup leaves) is no namespace: the walk skips it, says so in
# one line, and the command still succeeds.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

CA=t81_held
DIR=/run/t81
modules_up
mkdir -p "$DIR"
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
before=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del .t81dot 2>/dev/null
	umount "$DIR/bound" 2>/dev/null
	rm -rf "$DIR" /run/netns/t81stale /tmp/t81mnt
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"
	ccctl unregister "$CA" > /dev/null 2>&1
}
trap cleanup EXIT

# default_in NETNS_PATH: the default congestion control there.
default_in() { nsenter --net="$1" cat /proc/sys/net/ipv4/tcp_congestion_control; }

# Only the initial namespace may choose an algorithm that is not allowed.
check "ccctl registers $CA" ccctl register --name "$CA"
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed $CA"

# unregister_refused WHAT PATTERN: the refusal names the namespace.
unregister_refused() {
	refused "unregister while $1 has it as its default" "$2" ccctl unregister "$CA"
}

ip netns add .t81dot
ip netns exec .t81dot sysctl -qw net.ipv4.tcp_congestion_control="$CA"
check_cmp "a namespace named .t81dot takes $CA" "$(default_in /run/netns/.t81dot)" = "$CA"
unregister_refused "/run/netns/.t81dot" "network namespace /run/netns/.t81dot;"

touch "$DIR/bound"
unshare --net="$DIR/bound" sysctl -qw net.ipv4.tcp_congestion_control="$CA"
check_cmp "a namespace bound at $DIR/bound takes $CA" "$(default_in "$DIR/bound")" = "$CA"
unregister_refused "a namespace bound outside /run/netns" "network namespace $DIR/bound;"

# A mount namespace of its own, private, so that nothing propagates back.
mkfifo "$DIR/fifo"
# shellcheck disable=SC2016	# $1 is the inner shell's
unshare -m --propagation private sh -c '
	touch /tmp/t81mnt
	unshare --net=/tmp/t81mnt sysctl -qw net.ipv4.tcp_congestion_control="$1"
	echo ready
	exec sleep 1000' sh "$CA" > "$DIR/fifo" &
pids+=($!)
read -r line < "$DIR/fifo"
check_cmp "a namespace bound in another mount namespace is up" "$line" = ready
check "... and not seen from here" sh -c '! nsenter --net=/tmp/t81mnt true 2>/dev/null'
unregister_refused "a namespace bound in another mount namespace" \
	"network namespace /proc/${pids[0]}/root/tmp/t81mnt;"

for how in thread fd; do
	nshold "$how" "$CA" > "$DIR/fifo" &
	pids+=($!)
	read -r line < "$DIR/fifo"
	check_cmp "nshold $how: a namespace held by a $how only is up" "$line" = ready
	check_cmp "... the process itself is in ours" \
		"$(readlink "/proc/$!/ns/net")" = "$(readlink /proc/self/ns/net)"
	unregister_refused "a namespace held by a $how only" "default congestion control of network namespace /proc/$!/"
done

check_cmp "set-default --from $CA finds all five" "$(ccctl set-default "$before" --from "$CA")" = \
	"default congestion control: $before in 5 network namespaces that had $CA"

# A leftover plain file in /run/netns: skipped and named, never fatal.
touch /run/netns/t81stale
out=$(ccctl list 2>"$DIR/err")
rc=$?
check_cmp "list with a plain file in /run/netns succeeds" "$rc" -eq 0
check "... and shows $CA" grep -q "^$CA " <<<"$out"
check_cmp "... saying in one line that it skipped it" "$(grep -c '' "$DIR/err")" -eq 1
check "... ('skipped /run/netns/t81stale: not a network namespace')" \
	grep -qx "ccctl: skipped /run/netns/t81stale: not a network namespace" "$DIR/err"
check "unregister $CA goes through, the file still there" ccctl unregister "$CA"
check_cmp "... $CA is gone" "$(grep -cw "$CA" /proc/sys/net/ipv4/tcp_available_congestion_control)" -eq 0
