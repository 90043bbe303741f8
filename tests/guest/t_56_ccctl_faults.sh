#!/bin/bash
# ccctl killed at every step of register, unregister, swap, migrate,
# assign and unassign, and two ccctl at once: the state stays one the next command can work
# from.
#
# ccctl-faults is ccctl linked with loader/faults.c: CCCTL_FAULT=STEP makes it
# SIGKILL itself at STEP, as kill -9 or a crash there would (exit 137 shows
# it got there).  After each kill:
#   - the kernel and ccctl agree: bpf_bic is in the kernel's list exactly
#     when `ccctl status bpf_bic` shows it;
#   - the next register or unregister works (a pin left by a killed
#     command registers nothing and is cleared: before 6.4, a map pinned
#     and not yet written);
#   - once the killed process's fds are gone, the struct_ops maps alive
#     are exactly the registered ones (a swap killed before its link moved
#     keeps the old map, after it the new one), and in the end none and no
#     pin is left.
# Register's steps come in the kernel's order: through a link (6.4+) the
# registration comes before its pin, and a link whose last fd dies with
# ccctl unregisters itself; before 6.4 ccctl pins the map before writing
# it, so that no kill leaves a registration nothing points to.
# migrate killed after moving some sockets loses none, and the next migrate
# moves the rest.  A bpffs that refuses the pin gets one line and no
# registration.
# Then the lock: a second ccctl waits for the one that holds it, and after
# LOCK_WAIT_S (loader/pins.c) gives up in one "busy" line, changing nothing.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

lock=/run/ccctl/lock	# LOCK_FILE, loader/pins.h
modules_up

not() { ! "$@"; }
maps_are() { [ "$(struct_ops_maps)" -eq "$1" ]; }
listed() { ccctl status bpf_bic >/dev/null 2>&1; }
# The kernel and ccctl agree about bpf_bic.
agree() {
	if ca_available bpf_bic; then listed; else not listed; fi
}
locked() { grep -q FLOCK /proc/locks; }
live_map() { ccctl list --json | jq -r '.[] | select(.name == "bpf_bic") | .map_id'; }

# killed STEP CMD...: ccctl-faults dies at STEP.
killed() {
	local step=$1 rc=0
	shift
	CCCTL_FAULT=$step ccctl-faults "$@" >/dev/null 2>&1 || rc=$?
	check_cmp "killed at $step" "$rc" -eq 137
	check "... the kernel and ccctl agree on bpf_bic" agree
}

# Once everything is unregistered: no map, no pin.
all_clear() {
	check "$1: no struct_ops map left" wait_for 30 maps_are 0
	check "$1: no pin left" no_pins
}

if has_struct_ops_links; then
	reg_steps=(loaded registered dir-made pinned)
else
	reg_steps=(loaded dir-made pinned registered)
fi
for step in "${reg_steps[@]}"; do
	killed "register:$step" register
	if ca_available bpf_bic; then
		info "register:$step: registered"
		check "... a second register says it is registered" \
			sh -c 'ccctl register 2>&1 | grep -q "bpf_bic is already registered"'
	else
		info "register:$step: not registered"
		check "... the next register works" ccctl register
	fi
	check "... unregister" ccctl unregister bpf_bic
	all_clear "register:$step"
done

check "register bpf_bic" ccctl register
killed unregister:unregistered unregister bpf_bic
check "... bpf_bic is no longer registered" not ca_available bpf_bic
check "... unregister again: it is not registered, and the pin left is cleared" \
	sh -c 'ccctl unregister bpf_bic 2>&1 | grep -qx "ccctl: bpf_bic is not registered by ccctl .*"'
all_clear unregister:unregistered

check "register bpf_bic" ccctl register
killed unregister:unpinned unregister bpf_bic
check "... bpf_bic is no longer registered" not ca_available bpf_bic
check "... the next register works" ccctl register
check "... unregister" ccctl unregister bpf_bic
all_clear unregister:unpinned

if has_struct_ops_links; then
	check "register bpf_bic" ccctl register
	for step in loaded prepared swapped; do
		before=$(live_map)
		killed "swap:$step" swap bpf_bic --variant 2611 --name bpf_bic
		check "... one struct_ops map once the killed fds are gone" wait_for 30 maps_are 1
		after=$(live_map)
		if [ "$step" = swapped ]; then
			check_cmp "... the link moved to the new map" "$after" -ne "$before"
		else
			check_cmp "... the link kept the old map" "$after" -eq "$before"
		fi
		check "... the next swap works" ccctl swap bpf_bic --variant fixed
	done
	check "... unregister" ccctl unregister bpf_bic
	all_clear swap
else
	skip "swap killed at each step" "no struct_ops link update before Linux $LINK_SINCE"
fi

# migrate killed half-way: the sockets of an iperf3 flow, its sender in SND
# and its receiver in RCV, all on cubic; ccctl-faults dies right after the
# first namespace in which it moved one.  The sockets it reached are on
# bpf_bic, the others still on cubic, none is lost, the next migrate moves
# the rest, and the flow completes.
on() { echo $(( $(in_snd ss -tinH | grep -cw "$1") + $(in_rcv ss -tinH | grep -cw "$1") )); }
net_up 10mbit 5 100
check "register bpf_bic" ccctl register
in_rcv iperf3 -s -1 -D
wait_for 5 listening in_rcv 5201
in_snd iperf3 -c "$RCV_ADDR" -P 2 -t 20 -C cubic -J > /tmp/t56.json &
client=$!
# bash: busybox sh would run its own ip applet, which has no netns
check "an iperf3 flow is up: control and 2 data connections" \
	wait_for 10 bash -c "[ \"\$(ip netns exec $SND ss -tnH state established | wc -l)\" -ge 3 ]"
before=$(on cubic)
killed migrate:some-moved migrate cubic bpf_bic
moved=$(on bpf_bic) left=$(on cubic)
info "migrate killed: $moved sockets on bpf_bic, $left still on cubic, of $before"
check_cmp "... it had moved some sockets" "$moved" -gt 0
check_cmp "... and not yet the others" "$left" -gt 0
check_cmp "... none lost" "$((moved + left))" -eq "$before"
check "... the next migrate moves the rest" ccctl migrate cubic bpf_bic
check_cmp "... none left on cubic" "$(on cubic)" -eq 0
rc=0
wait "$client" || rc=$?
check_cmp "... the flow completes" "$rc:$(jq -r '.error // "none"' /tmp/t56.json)" = "0:none"
net_down
check "unregister bpf_bic" ccctl unregister bpf_bic
all_clear migrate

# assign killed before and after its pin, unassign after the detach and
# before the unpin: no assignment is left half made.  A link not yet pinned
# goes with ccctl; a detached link's pin is dropped by the next ccctl that
# takes the lock.
cg=/sys/fs/cgroup cgmounted=no
grep -qw cgroup2 /proc/mounts || { mount -t cgroup2 none "$cg" && cgmounted=yes; }
mkdir -p "$cg/t56"
cgroups() { ccctl list --json | jq -c '[.[].cgroups[]]'; }
cglinks_are() { [ "$(cgroup_links)" -eq "$1" ]; }
check "register bpf_bic" ccctl register
killed assign:attached assign bpf_bic --cgroup "$cg/t56"
check "... no cgroup link once the killed fds are gone" wait_for 30 cglinks_are 0
check_cmp "... nothing assigned" "$(cgroups)" = "[]"
check "... the next assign works" ccctl assign bpf_bic --cgroup "$cg/t56"
check "... unassign" ccctl unassign --cgroup "$cg/t56"
killed assign:pinned assign bpf_bic --cgroup "$cg/t56"
check_cmp "... the assignment is made" "$(cgroups)" = "[\"$cg/t56\"]"
killed unassign:detached unassign --cgroup "$cg/t56"
check_cmp "... nothing is assigned" "$(cgroups)" = "[]"
check "... the next assign works" ccctl assign bpf_bic --cgroup "$cg/t56"
check "... and the detached link's pin is gone: one cgroup link" cglinks_are 1
check "... unassign" ccctl unassign --cgroup "$cg/t56"
check "unregister bpf_bic" ccctl unregister bpf_bic
all_clear assign
rmdir "$cg/t56"
[ "$cgmounted" = no ] || umount "$cg"

# A bpffs that refuses the pin (read-only in a mount namespace of its own):
# one line, and the registration made for it does not outlive ccctl.
refused "register on a bpffs that refuses the pin" "/sys/fs/bpf/ccctl.*Read-only file system" \
	unshare -m --propagation private sh -c \
	'mount -o remount,bind,ro /sys/fs/bpf && exec ccctl register'
all_clear "read-only bpffs"

# Two at once: the second waits for the first, then finds the name taken.
rm -f /tmp/t56.*
ccctl register > /tmp/t56.a 2>&1 &
ccctl register > /tmp/t56.b 2>&1
wait
check_cmp "two registers at once: one registers" \
	"$(cat /tmp/t56.a /tmp/t56.b | grep -c '^registered bpf_bic')" -eq 1
check_cmp "... the other says, in one line, that it is taken" \
	"$(cat /tmp/t56.a /tmp/t56.b | grep -c '^ccctl: bpf_bic is already registered$')" -eq 1

# A ccctl that holds the lock: the next one waits for it ...
flock "$lock" sh -c 'sleep 2; touch /tmp/t56.released' &
holder=$!
wait_for 10 locked
check "unregister while another holds the lock: waits, then works" ccctl unregister bpf_bic
check "... after the holder let go" test -e /tmp/t56.released
wait "$holder"

# ... up to LOCK_WAIT_S, then gives up in one line and changes nothing.  (-o: the
# lock stays with flock, which the kill ends, not with its sleep, which
# would hold it for the next test; the sleep, flock's child, is ended too,
# or it would outlive the test.)
flock -o "$lock" sleep 60 &
holder=$!
wait_for 10 locked
refused "register while the lock is held too long" "^ccctl: busy: another ccctl" ccctl register
# shellcheck disable=SC2046	# one PID a line
kill $(children "$holder") "$holder"
wait "$holder" 2>/dev/null
all_clear "the end"
