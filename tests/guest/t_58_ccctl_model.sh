#!/bin/bash
# Random ccctl commands against a model of what they should do.
#
# A seeded generator draws operations: register (every variant and object
# form, good and bad names, bad objects), unregister, swap, migrate,
# set-default in the initial namespace and in another one, status and list,
# assign and unassign (cgroup2, mounted here if it is not: two sibling
# cgroups and a child of one, so that assignments would nest, a sibling
# whose name has bytes list --json must escape, and two paths that are no
# cgroup), opening and closing idle connections (tests/tools/tcphold) on a
# chosen algorithm or the default, between two namespaces (from a process
# of one of the cgroups, or not) and over loopback, and namespaces that
# come and go held one way only (an ip netns entry named with a dot, an
# nsfs bind mount elsewhere, one thread, an open descriptor:
# tests/tools/nshold), each with the initial namespace's default then, and
# routes whose congctl names an algorithm, in either namespace.  The model says, for each, whether ccctl succeeds (one line on
# stdout: the registered map, how many sockets migrate moved, the cgroup
# assigned) or refuses (one line on stderr, nothing on stdout; for assign,
# unassign and an unregister of an assigned algorithm, the line says why:
# a bad name, one ccctl did not register, no cgroup, the same or another
# assignment there, nesting, nothing assigned), and then what must hold:
#   - the kernel's list of algorithms is the baseline plus the registered,
#     and its allowed list those of them made a default once (the kernel
#     marks an algorithm allowed when it becomes a default; a swap's new
#     instance is not), which only another namespace may take;
#   - the initial namespace's default and the other's are the model's, and
#     neither can be unregistered, nor can that of a held namespace or
#     one a route's congctl names (a route takes only an algorithm there is);
#   - `ccctl list --json` shows exactly the registered names, each with its
#     map, its default flag, the number of sockets on it (every namespace)
#     and the cgroups assigned it, and the pins under /sys/fs/bpf/ccctl are
#     those names; the kernel has one cgroup BPF link per assignment;
#   - a connection established by a process of an assigned cgroup, or of
#     one below it, is on the cgroup's algorithm (its current instance),
#     even when tcphold set another with TCP_CONGESTION before connect:
#     the sock_ops program runs at establishment; those before keep theirs;
#   - ss in each namespace shows as many sockets on each algorithm as the
#     model has there;
#   - the struct_ops maps are exactly the live instances: those
#     registered, and the old ones still used by a socket or a default (a
#     swap or an unregister leaves those running on what they had).
# Freeing a map waits for an RCU grace period and a reset peer's socket goes
# in softirq, so a state that disagrees is read again for up to 10 s before
# it counts as a failure; no wait is ever taken as a pass.
#
# The run stops at the first disagreement and shrinks the operations up to
# it to a short sequence that still fails (delta debugging, each candidate
# replayed from a clean state, within SHRINK_SECS), printed as the
# MODEL_REPLAY that runs it again (a clean state unassigns every cgroup
# and kills the holders too).  First, on the primary kernel, a planted
# model bug (the model forgets that the default cannot be unregistered)
# proves that a disagreement is caught and shrunk to the 3 operations that
# need it.  A run proves something only where it went: it must have done
# each kind of operation both ways (registered and refused, assigned and
# refused, unassigned and refused, ...) and opened connections from an
# assigned cgroup, and goes on past its time until it has, up to three
# times as long and at least 60 s: a short run needs longer than its
# MODEL_SECS for its 18 kinds (docs/testing.md), more on a loaded host.
#
# MODEL_SECS (suite.conf, from MODEL_SECS_K in vm-image/versions.mk) or
# MODEL_OPS bounds the run; MODEL_SEED picks the sequence (default: a
# fresh one, printed).  make model runs thousands.  An operation with its
# checks takes under half a second in a TCG guest.
#
# The parts: model/model.sh (the operations, the state, what ccctl must
# answer and the line the system must read as), model/gen.sh (the seeded
# generator and the walk), model/shrink.sh (replay and delta debugging);
# the generator, the model and the shrinker are tested on the host too
# (tests/unit/test_model.sh, against a stub system).  This file is the
# driver: what touches the guest's kernel (ccctl, tcphold in the
# namespaces and cgroups, ccobserve reading the state back as one line),
# the planted bug, the run and its checks.
set -uo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

env_secs=${MODEL_SECS:-} env_ops=${MODEL_OPS:-}
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"
MODEL_SECS=${env_secs:-${MODEL_SECS:-60}}
MAX_SECS=$((3 * MODEL_SECS > 60 ? 3 * MODEL_SECS : 60))
MODEL_OPS=${env_ops:-0}
MODEL_SEED=${MODEL_SEED:-$(( RANDOM << 15 | RANDOM ))}
SHRINK_SECS=${SHRINK_SECS:-240}
MODEL_REPLAY=${MODEL_REPLAY:-}

pins=/sys/fs/bpf/ccctl
NS_PORT=7100 LO_PORT=7101
TMP=/tmp/t58
CGROOT=/sys/fs/cgroup
mkdir -p "$TMP"
links=false
has_struct_ops_links && links=true

. "$here/model/model.sh"
. "$here/model/gen.sh"
. "$here/model/shrink.sh"

# --- the system: what model.sh runs and reads ----------------------------------
# cc ARGS...: run ccctl; OUT, ERR and RC.
cc() {
	RC=0
	OUT=$(ccctl "$@" 2> "$TMP/err") || RC=$?
	ERR=$(< "$TMP/err")
}
cc_ns() {
	RC=0
	OUT=$(in_snd ccctl "$@" 2> "$TMP/err") || RC=$?
	ERR=$(< "$TMP/err")
}

# holder KIND N CA [CG]: start a tcphold (as a process of cgroup CG); its
# first line says whether it holds.  HOLDER: its pid.
holder() {
	local kind=$1 n=$2 ca=$3 cg=${4:-} line="" pid
	local -a pre=()
	rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
	# shellcheck disable=SC2016	# expanded by the inner bash
	[ -n "$cg" ] && pre=(bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "${CG_PATH[$cg]}")
	# ip netns exec, not in_snd: the pid must be tcphold's own (ip execs
	# it, as the bash before it does), not a subshell's that a kill would
	# leave its child behind
	if [ "$kind" = ns ]; then
		"${pre[@]}" ip netns exec "$SND" tcphold connect "$RCV_ADDR" "$NS_PORT" "$n" "$ca" \
			> "$TMP/fifo" 2> "$TMP/err" &
	else
		tcphold connect 127.0.0.1 "$LO_PORT" "$n" "$ca" > "$TMP/fifo" 2> "$TMP/err" &
	fi
	pid=$!
	read -r -t 20 line < "$TMP/fifo"
	if [ "$line" = "connected $n" ]; then
		HOLDER=$pid
		return 0
	fi
	wait "$pid" 2>/dev/null
	HOLDER=""
	ERR=$(< "$TMP/err")
	return 1
}

unhold() {
	kill "$1"
	wait "$1" 2>/dev/null
}

# observe: the state as one line (model.sh's model_line says which), from
# ccobserve: the sysctls, ccctl list --json, the pins, the cgroup links,
# sock_diag in SND and here, the struct_ops maps.  Two processes, where
# ss, bpftool and jq took seven, jq the dearest of them.
# A namespace held one way only (model.sh's ns_hold); the handle is
# HOW:WHAT, WHAT the entry, the mount or the process.
NSDIR=/run/t58ns
ns_next=0
ns_hold() {
	local line="" pid
	ns_next=$((ns_next + 1))
	NSHOLD=""
	case $1 in
	dot)
		ip netns add ".t58n$ns_next" 2> "$TMP/err" && NSHOLD="dot:.t58n$ns_next" ;;
	bind)
		mkdir -p "$NSDIR" && touch "$NSDIR/n$ns_next" &&
			unshare --net="$NSDIR/n$ns_next" true 2> "$TMP/err" &&
			NSHOLD="bind:$NSDIR/n$ns_next" ;;
	thread | fd)
		rm -f "$TMP/nsfifo" && mkfifo "$TMP/nsfifo"
		nshold "$1" - > "$TMP/nsfifo" 2> "$TMP/err" &
		pid=$!
		read -r -t 20 line < "$TMP/nsfifo"
		if [ "$line" = ready ]; then NSHOLD="pid:$pid"; else wait "$pid" 2>/dev/null; fi ;;
	esac
	[ -n "$NSHOLD" ] && return 0
	ERR=$(< "$TMP/err")
	return 1
}

ns_unhold() {
	case $1 in
	dot:*) ip netns del "${1#dot:}" ;;
	bind:*) umount "${1#bind:}" && rm -f "${1#bind:}" ;;
	pid:*) kill "${1#pid:}"; wait "${1#pid:}" 2>/dev/null ;;
	esac
}

# A blackhole route with congctl NAME (model.sh's route_add): the kernel
# checks the name, no device is needed.  The handle is WHERE:PREFIX.
rt_next=0
route_add() {
	local prefix
	rt_next=$((rt_next + 1))
	prefix=10.$((99 + rt_next / 256)).$((rt_next % 256)).0/24
	ROUTE=""
	if [ "$1" = ns ]; then
		in_snd ip route add blackhole "$prefix" congctl "$2" 2> "$TMP/err"
	else
		ip route add blackhole "$prefix" congctl "$2" 2> "$TMP/err"
	fi && ROUTE="$1:$prefix" && return 0
	ERR=$(< "$TMP/err")
	return 1
}

route_del() {
	case $1 in
	ns:*) in_snd ip route del blackhole "${1#ns:}" ;;
	*) ip route del blackhole "${1#*:}" ;;
	esac
}

observe() {
	ccctl list --json > "$TMP/list" 2>&1
	OBSERVED=$(ccobserve --list "$TMP/list" --netns "$SND" 2>&1)
}

# settled: agree now, or within 10 s (frees and resets that are under way).
settled() { wait_for 10 agree; }

reset_state() {
	local i n
	for i in "${!h_pid[@]}"; do
		kill "${h_pid[$i]}" 2>/dev/null
		wait "${h_pid[$i]}" 2>/dev/null
	done
	for i in "${!ns_h[@]}"; do ns_unhold "${ns_h[$i]}"; done
	for i in "${!rt_h[@]}"; do route_del "${rt_h[$i]}"; done
	ccctl set-default cubic >/dev/null
	in_snd ccctl set-default cubic >/dev/null
	for n in "${CGS[@]}"; do
		ccctl unassign --cgroup "${CG_PATH[$n]}" >/dev/null 2>&1
	done
	for n in "$pins"/*; do
		[ -e "$n" ] && ccctl unregister "${n##*/}" >/dev/null
	done
	model_reset
	settled
}

# --- the run -----------------------------------------------------------------
modules_up
cg_mounted_here=no
if ! grep -q "^[^ ]* $CGROOT cgroup2 " /proc/mounts; then
	mount -t cgroup2 none "$CGROOT" && cg_mounted_here=yes
fi
for c in "${CGS[@]}"; do mkdir -p "${CG_PATH[$c]}"; done
net_up 1gbit 1 1000
ip netns exec "$RCV" tcphold listen 0.0.0.0 "$NS_PORT" > "$TMP/listen.ns" &
lis_ns=$!
tcphold listen 127.0.0.1 "$LO_PORT" > "$TMP/listen.lo" &
lis_lo=$!
wait_for 5 grep -q listening "$TMP/listen.ns"
wait_for 5 grep -q listening "$TMP/listen.lo"
ccctl set-default cubic >/dev/null
read -ra BASE < /proc/sys/net/ipv4/tcp_available_congestion_control
BASE_ALLOWED=" $(< /proc/sys/net/ipv4/tcp_allowed_congestion_control) "
# every name a socket can be on, in the canonical line's order
mapfile -t ALL <<< "$(printf '%s\n' "${BASE[@]}" "${NAMES[@]}" | LC_ALL=C sort -u)"
info "kernel $(uname -r); algorithms before: ${BASE[*]}"
check_cmp "no ccctl registration to start from" "$(ccctl list --json)" = "[]"
check "model and system agree at the start" agree
info "the state as ccobserve reads it: $OBSERVED"

# The planted bug: caught, and shrunk to register, set-default, unregister.
# The shrinker is the same on every kernel, and tested on the host: its
# self-test runs on the primary kernel only, to keep the others' slot short.
if [ "${PRIMARY:-yes}" = yes ]; then
	PLANT=default-unregister
	planted=("reg fixed -" "open 2 bpf_bic" "def bpf_bic" "lo 1" "mig bpf_bic reno"
		"unreg bpf_bic")
	if replay "${planted[@]}"; then
		ok "planted model bug caught at operation $((FAILED_AT + 1)) of ${#planted[@]}: $MISMATCH"
		shrink "${planted[@]:0:FAILED_AT+1}"
		info "shrunk in $SHRINK_TRIES replays to: $(printf '%s; ' "${SHRUNK[@]}")"
		check_cmp "... shrunk to the 3 operations it needs" \
			"$(printf '%s;' "${SHRUNK[@]}")" = "reg fixed -;def bpf_bic;unreg bpf_bic;"
	else
		not_ok "planted model bug not caught"
	fi
	PLANT=""
else
	skip "a planted model bug is caught and shrunk" "the primary kernel's run proves the shrinker"
	skip "... shrunk to the 3 operations it needs" "the primary kernel's run proves the shrinker"
fi

gen_init
if [ -n "$MODEL_REPLAY" ]; then
	IFS=';' read -ra replay_ops <<< "$MODEL_REPLAY"
	info "replaying ${#replay_ops[@]} operations"
else
	info "seed $MODEL_SEED, $([ "$MODEL_OPS" -gt 0 ] && echo "$MODEL_OPS operations" ||
		echo "$MODEL_SECS s")"
fi
reset_state || not_ok "clean state before the run: $MISMATCH"
RANDOM=$MODEL_SEED
# MODEL_PLANT=default-unregister plants the model bug in this run too, to
# watch a long run's failure shrink.
PLANT=${MODEL_PLANT:-}
walk

if [ -n "$FAILED" ]; then
	not_ok "operation ${#DONE_OPS[@]} ('$OP') of seed $MODEL_SEED: $FAILED"
	shrink_walk
	info "shrunk in $SHRINK_TRIES replays to ${#SHRUNK[@]} operations; replay with"
	info "  MODEL_REPLAY='$(printf '%s;' "${SHRUNK[@]}")'"
	if replay "${SHRUNK[@]}"; then info "which fails with: $MISMATCH"; fi
else
	for k in $(echo "${!tally[@]}" | tr ' ' '\n' | sort); do
		info "$k ${tally[$k]}"
	done
	ok "${#DONE_OPS[@]} operations in ${WALK_SECS}s (seed $MODEL_SEED), after each the system as the model said"
	# The run proves something only if it went where the bugs would be.
	if [ -n "$MODEL_REPLAY" ]; then
		skip "... it did every kind of operation" "a replay does what it is given"
	else
		for k in "${MUST[@]}"; do
			check_cmp "... it did $k" "${tally[$k]:-0}" -gt 0
		done
		$links || skip "... it did swap:ok" "$NO_LINK_WHY"
	fi
fi

check "back to a clean state" reset_state
kill "$lis_ns" "$lis_lo" 2>/dev/null
wait 2>/dev/null
net_down
for c in c1/sub c1 c2 hi; do
	check "cgroup $c removed" wait_for 5 rmdir "${CG_PATH[$c]}"
done
[ "$cg_mounted_here" = no ] || check "cgroup2 unmounted" umount "$CGROOT"
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
check "no pin left" no_pins
check "dmesg has no warning" dmesg_clean
