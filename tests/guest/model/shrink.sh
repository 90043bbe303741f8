# shellcheck shell=bash
# t_58's shrinker: a failing sequence of operations cut down to a short one
# that still fails (delta debugging), each candidate replayed from a clean
# state.
#
# Why here, tests/guest/model/: sourced by the guest test
# (t_58_ccctl_model.sh) and, on the host, by tests/unit/test_model.sh,
# where the planted model bug must shrink in seconds; see model.sh.
#
# Needs from the caller: reset_state (the system and the model back to
# the start: every holder closed, every cgroup unassigned, every name
# unregistered, the defaults cubic; false with MISMATCH if it cannot),
# run_op (model.sh), settled (agree, given time for what is under way),
# info, and SHRINK_SECS.

# replay OPS...: from a clean state; true if some operation disagrees.
# FAILED_AT is then its index, MISMATCH what.
replay() {
	local i=0 op
	reset_state || { info "replay: cannot reset: $MISMATCH"; return 1; }
	for op in "$@"; do
		if ! run_op "$op" || ! settled; then
			FAILED_AT=$i
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

# shrink OPS...: delta debugging down to a sequence that still fails, into
# SHRUNK (SHRINK_TRIES replays); stops at SHRINK_SECS and keeps the
# shortest found so far.
shrink() {
	local ops=("$@") n=2 chunk start cand reduced deadline=$((SECONDS + SHRINK_SECS))
	SHRINK_TRIES=0
	while [ "${#ops[@]}" -ge 2 ] && [ "$SECONDS" -lt "$deadline" ]; do
		chunk=$(( (${#ops[@]} + n - 1) / n ))
		reduced=false
		for ((start = 0; start < ${#ops[@]}; start += chunk)); do
			[ "$SECONDS" -lt "$deadline" ] || break
			cand=("${ops[@]:0:start}" "${ops[@]:start+chunk}")
			SHRINK_TRIES=$((SHRINK_TRIES + 1))
			if replay "${cand[@]}"; then
				ops=("${cand[@]:0:FAILED_AT+1}")
				n=$(( n > 2 ? n - 1 : 2 ))
				reduced=true
				break
			fi
		done
		$reduced && continue
		[ "$n" -lt "${#ops[@]}" ] || break
		n=$(( 2 * n < ${#ops[@]} ? 2 * n : ${#ops[@]} ))
	done
	# shellcheck disable=SC2034	# the caller's
	SHRUNK=("${ops[@]}")
}

# shrink_walk: shrink walk's failed run (DONE_OPS, INERT), first without
# every operation the model says changed nothing (one replay that, for a
# long run, saves most of the delta debugging), into SHRUNK.
shrink_walk() {
	local -a keep=("${DONE_OPS[@]}") ops=("${DONE_OPS[@]}")
	local i
	for i in "${INERT[@]}"; do unset "keep[$((i - 1))]"; done
	keep=("${keep[@]}")
	if [ "${#INERT[@]}" -gt 0 ] && replay "${keep[@]}"; then
		info "still fails without the ${#INERT[@]} operations that changed nothing"
		ops=("${keep[@]:0:FAILED_AT+1}")
	fi
	shrink "${ops[@]}"
}
