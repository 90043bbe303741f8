#!/bin/bash
# Run every guest test in order and print the one closing line.
# Arguments, if any, are globs that pick the tests (e.g. 't_50_*').
#
# Each test must leave the guest as it found it, so that one test's
# failure does not become the next one's: after each, the state that
# guest_state reads is compared with what it was before the test, and a
# test that changed it fails by name, with what it left.  What it left is
# then undone where that is simple (processes, namespaces, pins, cgroups,
# mounts, the sysctls a namespace default sets), so the tests after it
# start from where it started.  A test that cannot put something back
# says so (lib.sh's leaves): what it leaves of that kind is printed, not
# failed, and stays.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
. ./lib.sh
tap_begin "$RESULTS"
shopt -s nullglob globstar

# guest_state: into STATE, one item a line, read with builtins only (a
# fork costs ~10 ms under TCG): the congestion control sysctls, the
# network namespaces, what is pinned in bpffs, the cgroup2 and bpffs
# mounts, the cgroups, and every process but the kernel's threads and
# zombies.
guest_state() {
	local f v p
	STATE=""
	for f in tcp_congestion_control tcp_allowed_congestion_control \
		 tcp_available_congestion_control; do
		read -r v < "/proc/sys/net/ipv4/$f"
		STATE+="sysctl $f $v"$'\n'
	done
	for p in /run/netns/*; do STATE+="netns ${p##*/}"$'\n'; done
	# ccctl's root directory stays, by design (docs/ccctl.md)
	for p in /sys/fs/bpf/**; do
		[ "$p" = /sys/fs/bpf/ccctl ] || STATE+="pin $p"$'\n'
	done
	while read -r _ p f _; do
		case $f in cgroup2|bpf) STATE+="mount $p $f"$'\n' ;; esac
	done < /proc/mounts
	for p in /sys/fs/cgroup/**/; do STATE+="cgroup ${p%/}"$'\n'; done
	for p in /proc/[0-9]*; do
		read_stat "${p#/proc/}" || continue
		# kthreadd and its children are the kernel's; a zombie holds nothing
		[ "$STAT_PID" = 2 ] || [ "$STAT_PPID" = 2 ] || [ "$STAT_STATE" = Z ] && continue
		STATE+="process $STAT_PID $STAT_COMM"$'\n'
	done
}

# unchanged BEFORE: what guest_state reads is BEFORE again.
unchanged() {
	guest_state
	[ "$STATE" = "$1" ]
}

# restore: undo what /tmp/state.after has and /tmp/state.before had not, where
# simple: processes first, then namespaces, pins, cgroups (innermost first)
# and mounts; and put back the sysctls a namespace default changes.  (The
# guest has no /dev/fd for <(...), nor comm.)
restore() {
	local kind k a b
	grep -vxFf /tmp/state.before /tmp/state.after | sort -r > /tmp/state.new
	for kind in process netns pin cgroup mount; do
		while read -r k a _; do
			[ "$k" = "$kind" ] || continue
			case $k in
			process) kill -KILL "$a" ;;
			netns) ip netns del "$a" ;;
			pin) rm -rf "$a" ;;
			cgroup) rmdir "$a" ;;
			mount) umount "$a" ;;
			esac 2>/dev/null
		done < /tmp/state.new
	done
	while read -r k a b; do
		[ "$k" = sysctl ] && [ "$a" != tcp_available_congestion_control ] &&
			sysctl -qw "net.ipv4.$a=$b"
	done < /tmp/state.before
}

# left_as_said: every item that differs between /tmp/state.before and
# /tmp/state.after is of a kind the test said it leaves (lib.sh's leaves).
left_as_said() {
	local said kind
	[ -s "$LEAVES" ] || return 1
	said=" $(cut -d' ' -f1 "$LEAVES" | paste -sd' ') "
	{ grep -vxFf /tmp/state.before /tmp/state.after
	  grep -vxFf /tmp/state.after /tmp/state.before; } > /tmp/state.changed
	while read -r kind _; do
		[[ "$said" == *" $kind "* ]] || return 1
	done < /tmp/state.changed
}

[ $# -gt 0 ] || set -- 't_*.sh'
# The vCPUs run.sh asked QEMU for (versions.mk's GUEST_CPUS): a lane meant
# to run with a second CPU must not quietly run with one.
if [ -n "${GUEST_CPUS:-}" ]; then
	check_cmp "the guest has the $GUEST_CPUS vCPU make test gave it" "$(nproc)" -eq "$GUEST_CPUS"
fi
# host_s: the host's clock in seconds, through the emulated RTC, which
# QEMU keeps on host time while -icount drives the guest's own clock: what
# a test costs the machine (docs/testing.md).  Empty without an RTC.
RTC=/sys/class/rtc/rtc0/since_epoch
host_s() { HOST_S=""; [ -r "$RTC" ] && read -r HOST_S < "$RTC"; }

# shellcheck disable=SC2068	# the globs are meant to expand
for t in $@; do
	echo "# --- $t"
	start=${EPOCHREALTIME/./}
	host_s
	host0=$HOST_S
	guest_state
	before=$STATE
	rm -f "$LEAVES"
	bash "$t" || not_ok "$t exited non-zero"
	# A killed process may take a moment to be reaped, a namespace to go.
	if ! wait_for 5 unchanged "$before"; then
		echo -n "$before" > /tmp/state.before
		echo -n "$STATE" > /tmp/state.after
		if left_as_said; then
			info "$t leaves, as it says: $(cut -d' ' -f2- "$LEAVES" | paste -sd';')"
		else
			not_ok "$t left the guest as it did not find it"
		fi
		diff /tmp/state.before /tmp/state.after | sed -n 's/^[-+<>][^-+]/# &/p'
		left_as_said || restore
	fi
	host_s
	echo "# $t took $(( (${EPOCHREALTIME/./} - start) / 1000000 ))s${HOST_S:+, host $((HOST_S - host0))s}"
done

summary
