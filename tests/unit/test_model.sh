#!/bin/bash
# t_58's generator, model and shrinker (tests/guest/model/) on the host,
# against a stub system (model-stub.sh: a fake ccctl, tcphold and ccobserve,
# sourced; its cgroups are directories in a temporary directory), in
# seconds and without a guest:
#   - the planted model bug (the model forgets that the default cannot be
#     unregistered) is caught and shrunk to the 3 operations it needs, and
#     the same operations agree without it;
#   - a disagreement names the field of the canonical line that differs;
#   - seeded walks, with struct_ops links and without (6.1), agree with the
#     stub after every operation and do every kind of operation both ways;
#   - a seed replays the same operations, another seed draws others, a
#     seed does here what it did in a guest, and MODEL_REPLAY runs exactly
#     what it is given;
#   - a walk with the bug planted fails and shrink_walk cuts it down to 3.
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"
here=$(dirname "$(realpath "$0")")
model=$here/../guest/model
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"
same() { [ "$1" = "$2" ] || { echo "# got:  '$1'"; echo "# want: '$2'"; return 1; }; }

# What the driver gives the model in a guest, here for the stub.
BIC_DIR=/opt/bic TMP=$tmp/tmp CGROOT=$tmp/cg
mkdir -p "$TMP" "$CGROOT/t58-c1/sub" "$CGROOT/t58-c2" "$CGROOT/t58-h"$'\xc3\xa9\xe9\xff"q'
links=true
# shellcheck source=../guest/model/model.sh
. "$model/model.sh"
# shellcheck source=../guest/model/gen.sh
. "$model/gen.sh"
# shellcheck source=../guest/model/shrink.sh
. "$model/shrink.sh"
# shellcheck source=model-stub.sh
. "$here/model-stub.sh"
STUB_CG=$CGROOT
BASE=(reno cubic)
BASE_ALLOWED=" reno cubic "
mapfile -t ALL <<< "$(printf '%s\n' "${BASE[@]}" "${NAMES[@]}" | LC_ALL=C sort -u)"
SHRINK_SECS=60 MODEL_SECS=0 MAX_SECS=0

cc() {
	stub_ccctl init "$@"
	OUT=$S_OUT ERR=$S_ERR RC=$S_RC
}
cc_ns() {
	stub_ccctl ns "$@"
	OUT=$S_OUT ERR=$S_ERR RC=$S_RC
}
holder() {
	stub_hold "$1" "$2" "$3" ${4:+"${CG_PATH[$4]}"} || { ERR=$S_ERR; return 1; }
	HOLDER=$S_HOLDER
}
unhold() { stub_unhold "$1"; }
ns_hold() { stub_ns_hold; NSHOLD=$S_NSHOLD; }
ns_unhold() { stub_ns_unhold "$1"; }
route_add() { stub_route_add "$2" || { ERR=$S_ERR; return 1; }; ROUTE=$S_ROUTE; }
route_del() { stub_route_del "$1"; }
observe() { stub_observe; OBSERVED=$S_LINE; }
settled() { agree; }
reset_state() {
	stub_init "$links"
	model_reset
	settled
}

start=$SECONDS
reset_state
check "the stub and the model agree at the start" agree

# A disagreement names the first field that differs.
def_ns=reno
agree
check "a disagreement names its field (defns)" same "${MISMATCH%%:*}" defns
def_ns=cubic

# The planted bug, as t_58 plants it in the guest.
planted=("reg fixed -" "open 2 bpf_bic" "def bpf_bic" "lo 1" "mig bpf_bic reno" "unreg bpf_bic")
replays_clean() { ! replay "$@"; }
check "without the planted bug the planted operations agree" replays_clean "${planted[@]}"
PLANT=default-unregister
t0=$SECONDS
if replay "${planted[@]}"; then
	check "the planted bug is caught at operation 6 ($MISMATCH)" same "$((FAILED_AT + 1))" 6
	shrink "${planted[@]:0:FAILED_AT+1}"
	info "shrunk in $SHRINK_TRIES replays, $((SECONDS - t0)) s"
	check "... and shrunk to the 3 operations it needs" \
		same "$(printf '%s;' "${SHRUNK[@]}")" "reg fixed -;def bpf_bic;unreg bpf_bic;"
else
	check "the planted bug is caught" false
fi
PLANT=""

# walk_seed SEED OPS: a seeded walk from a clean state.
walk_seed() {
	reset_state
	gen_init
	RANDOM=$1 MODEL_OPS=$2
	walk
}
# missing: the kinds of MUST the walk did not do, into REPLY.
missing() {
	local k
	REPLY=""
	for k in "${MUST[@]}"; do [ "${tally[$k]:-0}" -gt 0 ] || REPLY+=" $k"; done
}

for links in true false; do
	for seed in 1 58; do
		walk_seed "$seed" 150
		check "links $links, seed $seed: ${#DONE_OPS[@]} operations as the model said${FAILED:+ (op \"$OP\": $FAILED)}" \
			same "${FAILED:-}:${#DONE_OPS[@]}" ":150"
		missing
		check "... every kind of operation done (${#MUST[@]} kinds)" same "$REPLY" ""
	done
done
links=true

walk_seed 7 60
first=$(printf '%s;' "${DONE_OPS[@]}")
walk_seed 7 60
check "a seed replays the same operations" same "$(printf '%s;' "${DONE_OPS[@]}")" "$first"
walk_seed 8 60
check "another seed draws others" test "$(printf '%s;' "${DONE_OPS[@]}")" != "$first"

# The kinds a 6.12 guest's run of seed 426710190 did in its first 150
# operations (t_58, MODEL_OPS=150, as printed; run again when the
# generator learned namespaces held each way and the cgroup "hi", and
# when an assign of what is assigned already became a success, and when
# it learned routes):
# the stub and the model draw and decide the same stream.
walk_seed 426710190 150
kinds=""
for k in "${MUST[@]}" list:ok status:ok status:refused swap:refused; do kinds+=" $k=${tally[$k]:-0}"; done
check "seed 426710190 does what it did in a 6.12 guest" same "$kinds" \
	" reg:ok=8 reg:refused=13 unreg:ok=4 unreg:refused=10 mig:ok=10 mig:refused=5 def:ok=7 def:refused=2 defns:ok=4 defns:refused=2 assign:ok=4 assign:refused=2 unassign:ok=3 unassign:refused=5 open=24 open:cg=3 lo=10 close=6 nsadd=3 nsdel=2 route=6 unroute=2 swap:ok=6 list:ok=1 status:ok=3 status:refused=2 swap:refused=6"

reset_state
MODEL_REPLAY=" reg fixed rnd_a ;def rnd_a; open 2 default c2;lo 1"
walk
check "MODEL_REPLAY runs what it is given" \
	same "$(printf '%s;' "${DONE_OPS[@]}")|$FAILED" "reg fixed rnd_a;def rnd_a;open 2 default c2;lo 1;|"
MODEL_REPLAY=""

# A long walk with the bug planted: shrink_walk (the inert operations out
# first, then delta debugging) down to register, set-default, unregister.
PLANT=default-unregister
walk_seed 58 400
if [ -n "$FAILED" ]; then
	info "seed 58 fails at operation ${#DONE_OPS[@]} of 400: $FAILED"
	shrink_walk
	info "shrunk in $SHRINK_TRIES replays: $(printf '%s; ' "${SHRUNK[@]}")"
	check "a planted walk's failure shrinks to 3 operations" same "${#SHRUNK[@]}" 3
	check "... the last of them an unregister of the default" test "${SHRUNK[2]:-}" != "${SHRUNK[2]#unreg }"
else
	check "a planted walk fails" false
fi
PLANT=""

info "$((SECONDS - start)) s"
summary
