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

# Only the initial namespace may choose an algorithm that is not allowed.
check "ccctl registers $CA" ccctl register --name "$CA"
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed $CA"

# The five namespaces: how each is held, a path to enter it by, and how
# ccctl's refusal must name it.
whats=() paths=() names=()
held() { whats+=("$1"); paths+=("$2"); names+=("$3"); }
# set_in PATH CA: the default of the namespace at PATH (reno is always
# allowed: no namespace is ever asked for one that is not, see t_80).
set_in() { nsenter --net="$1" sh -c "echo $2 > /proc/sys/net/ipv4/tcp_congestion_control"; }

ip netns add .t81dot
held "an ip netns entry named .t81dot" /run/netns/.t81dot "/run/netns/.t81dot;"

touch "$DIR/bound"
unshare --net="$DIR/bound" true
held "a bind mount outside /run/netns" "$DIR/bound" "$DIR/bound;"

# A mount namespace of its own, private, so that nothing propagates back.
mkfifo "$DIR/fifo"
unshare -m --propagation private sh -c '
	touch /tmp/t81mnt
	unshare --net=/tmp/t81mnt true
	echo ready
	exec sleep 1000' > "$DIR/fifo" &
pids+=($!)
read -r line < "$DIR/fifo"
check_cmp "a namespace bound in another mount namespace is up" "$line" = ready
check "... and not seen from here" sh -c '! nsenter --net=/tmp/t81mnt true 2>/dev/null'
held "a bind mount in another mount namespace" "/proc/$!/root/tmp/t81mnt" "/proc/$!/root/tmp/t81mnt;"

for how in thread fd; do
	nshold "$how" reno > "$DIR/fifo" &
	pids+=($!)
	read -r line < "$DIR/fifo"
	check_cmp "nshold $how: a namespace held by a $how only is up" "$line" = ready
	check_cmp "... the process itself is in ours" \
		"$(readlink "/proc/$!/ns/net")" = "$(readlink /proc/self/ns/net)"
	# Its way in: the other thread's, or the descriptor of another namespace.
	path=""
	for f in "/proc/$!/task/"*/ns/net "/proc/$!/fd/"*; do
		[ "$(readlink "$f")" != "$(readlink /proc/self/ns/net)" ] || continue
		case $(readlink "$f") in net:*) path=$f; break ;; esac
	done
	check "... and can be entered by $path" test -n "$path"
	held "a $how only" "$path" "/proc/$!/"
done

# Each alone, the others on reno: its own refusal, naming it.
for i in "${!paths[@]}"; do
	for j in "${!paths[@]}"; do
		if [ "$i" = "$j" ]; then set_in "${paths[j]}" "$CA"; else set_in "${paths[j]}" reno; fi
	done
	check_cmp "${whats[i]}: its default is $CA" \
		"$(nsenter --net="${paths[i]}" cat /proc/sys/net/ipv4/tcp_congestion_control)" = "$CA"
	refused "unregister while only ${whats[i]} has it as its default" \
		"default congestion control of network namespace ${names[i]}" ccctl unregister "$CA"
done

for p in "${paths[@]}"; do set_in "$p" "$CA"; done
check_cmp "set-default --from $CA finds all five" "$(ccctl set-default reno --from "$CA")" = \
	"default congestion control: reno in 5 network namespaces that had $CA"

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
