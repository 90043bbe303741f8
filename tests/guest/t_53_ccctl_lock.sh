#!/bin/bash
# One lock covers every change of state, and bpf-bic-apply's start and stop
# are each one transaction under it (docs/ccctl.md, "One at a time").
# Raced here, each pair started together, round after round:
#
# - `ccctl unregister X` against `ccctl set-default X`.  Unregister refuses
#   to leave a namespace defaulting to an algorithm the kernel no longer
#   has; with set-default outside the lock, a set-default landing between
#   unregister's check and the detach made that state (15 rounds of 40 on
#   6.12).  Each round must end with exactly one of the two done, the other
#   refused in one line, and the initial namespace's default among the
#   available algorithms.  SET_DEFAULT_ROUNDS: at 15 bad rounds in 40, 10
#   clean rounds by chance would come about once in a hundred runs.
# - `bpf-bic-apply stop` against `ccctl register` and `ccctl list`.  stop
#   removed /sys/fs/bpf/ccctl, the directory ccctl locked, so a register
#   holding a lock on the old directory failed to make its own in it
#   ("cannot create /sys/fs/bpf/ccctl/NAME", twice in two tries), so
#   register and list start as stop unregisters its last.  Now stop holds
#   the lock from its first ccctl to its rmdir: register either
#   runs before it (and stop unregisters it with the rest) or after it
#   (and stays), or gives up in one "busy" line; list succeeds with JSON;
#   and after each round what ccctl has pinned is exactly what the kernel
#   has registered under those names.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

APPLY=/usr/lib/bpf-bic/bpf-bic-apply
RENO=$BIC_DIR/bpf/test/reno.bpf.o
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control
DEFAULT=/proc/sys/net/ipv4/tcp_congestion_control
D=/tmp/t53
SET_DEFAULT_ROUNDS=10 STOP_ROUNDS=3
default_before=$(cat "$DEFAULT")
rm -rf "$D" && mkdir -p "$D"
modules_up

cleanup() {
	echo "$default_before" > "$DEFAULT"
	for n in t53_x t53_a t53_r; do ccctl unregister "$n" > /dev/null 2>&1; done
	rm -f /run/bpf-bic/default-before
}
trap cleanup EXIT

# available NAME: the kernel lists NAME.
available() { grep -qw -- "$1" "$AVAIL"; }

# --- set-default against unregister -----------------------------------------
bad=0 both=0 neither=0 unreg_won=0 def_won=0
for ((i = 0; i < SET_DEFAULT_ROUNDS; i++)); do
	if ! ccctl register --object "$RENO" --name t53_x > /dev/null; then
		not_ok "round $i: register t53_x"
		break
	fi
	# unregister first, set-default right behind it: set-default, which
	# takes little, lands inside unregister's run (the other order ends
	# before unregister looks).
	ccctl unregister t53_x > "$D/u" 2>&1 & u=$!
	ccctl set-default t53_x > "$D/s" 2>&1 & s=$!
	urc=0 src=0
	wait "$u" || urc=$?
	wait "$s" || src=$?
	def=$(cat "$DEFAULT")
	if ! available "$def"; then
		bad=$((bad + 1))
		info "round $i: the default is $def, which the kernel no longer has" \
			"(unregister: $(head -c 200 "$D/u"); set-default: $(head -c 200 "$D/s"))"
	fi
	if [ "$urc" = 0 ] && [ "$src" = 0 ]; then
		both=$((both + 1))
	elif [ "$urc" != 0 ] && [ "$src" != 0 ]; then
		neither=$((neither + 1))
		info "round $i: both refused: $(head -c 200 "$D/u"); $(head -c 200 "$D/s")"
	elif [ "$urc" = 0 ]; then
		grep -qx 'ccctl: t53_x is not a registered congestion control' "$D/s" ||
			{ bad=$((bad + 1)); info "round $i: set-default said: $(head -c 200 "$D/s")"; }
		unreg_won=$((unreg_won + 1))
	else
		grep -qx 'ccctl: t53_x is the default congestion control; set-default another first' "$D/u" ||
			{ bad=$((bad + 1)); info "round $i: unregister said: $(head -c 200 "$D/u")"; }
		def_won=$((def_won + 1))
	fi
	echo "$default_before" > "$DEFAULT"
	available t53_x && ccctl unregister t53_x > /dev/null
done
info "set-default against unregister: $unreg_won rounds unregister first, $def_won set-default first"
check_cmp "the default always an algorithm the kernel has, each refusal the other's reason" \
	"$bad" -eq 0
check_cmp "never both done" "$both" -eq 0
check_cmp "never both refused" "$neither" -eq 0

# --- bpf-bic-apply stop against register and list ------------------------------
# pins_match: every name pinned under ccctl's root is registered, and each
# t53_ name the kernel has is pinned.
pins_match() {
	local p n
	for p in /sys/fs/bpf/ccctl/*/; do
		[ -d "$p" ] || continue
		n=${p%/}
		n=${n##*/}
		available "$n" || { echo "pinned, not registered: $n"; return 1; }
	done
	for n in $(tr ' ' '\n' < "$AVAIL" | grep '^t53_'); do
		[ -e "/sys/fs/bpf/ccctl/$n/link" ] || [ -e "/sys/fs/bpf/ccctl/$n/map" ] ||
			{ echo "registered, not pinned: $n"; return 1; }
	done
}
echo 'register t53_a fixed' > "$D/conf"
bad=0 registered=0 busy=0
for ((i = 0; i < STOP_ROUNDS; i++)); do
	if ! "$APPLY" start "$D/conf" > /dev/null; then
		not_ok "round $i: bpf-bic-apply start"
		break
	fi
	"$APPLY" stop > "$D/stop" 2>&1 & st=$!
	# register and list as stop ends: once t53_a is gone from the kernel,
	# only stop's rmdir of ccctl's directory is left.  Builtins only: a
	# fork would let stop finish first.
	while kill -0 "$st" 2> /dev/null; do
		read -r line < "$AVAIL"
		[[ " $line " == *" t53_a "* ]] || break
	done
	ccctl register --object "$RENO" --name t53_r > "$D/r" 2>&1 & r=$!
	ccctl list --json > "$D/list" 2> "$D/list.err" & l=$!
	strc=0 rrc=0 lrc=0
	wait "$st" || strc=$?
	wait "$r" || rrc=$?
	wait "$l" || lrc=$?
	if [ "$strc" != 0 ]; then
		bad=$((bad + 1)); info "round $i: stop failed: $(head -c 300 "$D/stop")"
	fi
	if [ "$rrc" = 0 ]; then
		available t53_r && registered=$((registered + 1))
	elif grep -q '^ccctl: busy: ' "$D/r" && [ "$(grep -c '' "$D/r")" -eq 1 ]; then
		busy=$((busy + 1))
	else
		bad=$((bad + 1)); info "round $i: register failed: $(head -c 300 "$D/r")"
	fi
	if [ "$lrc" != 0 ] || ! jq -e 'type == "array"' "$D/list" > /dev/null 2>&1; then
		bad=$((bad + 1)); info "round $i: list failed: $(head -c 300 "$D/list.err")"
	fi
	if ! why=$(pins_match); then
		bad=$((bad + 1)); info "round $i: $why"
	fi
	available t53_a && { bad=$((bad + 1)); info "round $i: stop left t53_a registered"; }
	available t53_r && ccctl unregister t53_r > /dev/null
done
info "stop against register: register stayed $registered times (ran after stop)," \
	"busy $busy times, went with stop the rest"
check_cmp "stop, register and list together: each ends well, pins and registrations match" \
	"$bad" -eq 0
check "nothing pinned" no_pins
