# shellcheck shell=bash
# Every shell test's results, the guest's (through lib.sh) and the host's:
# one TAP-like line each on stdout, and the closing line that adds them up,
# "N passed, N failed, N skipped", which tests/run.sh tallies.
#
# Each result is also one word, pass, fail or skip, appended to the file
# RESULTS, which summary counts: a file, not a counter in the shell,
# because a run may be many processes (run-all.sh runs each guest test as
# one of its own; a Debian guest's stages add up across reboots), all
# appending to the one file.  A host test is a run of one process, with a
# file of its own.
#
# It lives beside lib.sh, which sources it from its own folder: the guest
# tree (/opt/bic/tests) and the Debian guests (/opt/debtest) have the two
# side by side.

# tap_begin FILE: a run begins: its results go to FILE, emptied, which
# RESULTS names to the processes of the run.
tap_begin() {
	export RESULTS=$1
	: > "$RESULTS"
}

ok() { echo "ok - $*"; echo pass >> "$RESULTS"; }
not_ok() { echo "not ok - $*"; echo fail >> "$RESULTS"; }
# skip DESCRIPTION REASON: a check this kernel or system cannot support;
# never a pass.
skip() { echo "ok - $1 # SKIP $2"; echo skip >> "$RESULTS"; }

# check DESCRIPTION COMMAND...: one result from a command's status.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_cmp DESCRIPTION A OP B: integer comparison, values shown either way.
check_cmp() {
	local desc=$1 a=$2 op=$3 b=$4
	if [ -n "$a" ] && [ -n "$b" ] && test "$a" "$op" "$b"; then
		ok "$desc ($a $op $b)"
	else
		not_ok "$desc (got '$a' $op '$b')"
	fi
}

info() { echo "# $*"; }

# tap_add PASSED FAILED SKIPPED: results counted elsewhere (a guest's, from
# its closing line) added to the run's.
tap_add() {
	local w n
	for w in "pass $1" "fail $2" "skip $3"; do
		for ((n = 0; n < ${w#* }; n++)); do echo "${w% *}"; done
	done >> "$RESULTS"
}

# failures: how many results of the run have failed so far.
failures() { grep -c '^fail$' "$RESULTS"; }

# closing PASSED FAILED SKIPPED: the closing line.
closing() { echo "$1 passed, $2 failed, $3 skipped"; }

# summary: the run's closing line; fails if any check failed or none passed.
summary() {
	local passed failed skipped
	passed=$(grep -c '^pass$' "$RESULTS")
	failed=$(grep -c '^fail$' "$RESULTS")
	skipped=$(grep -c '^skip$' "$RESULTS")
	closing "$passed" "$failed" "$skipped"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# closing_line: the last closing line in a test's output on stdin (a
# guest's console: its carriage returns dropped), or nothing.  The C unit
# tests' closing lines have no skipped.
closing_line() {
	tr -d '\r' | grep -aE '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1
}

# closing_counts LINE: "PASSED FAILED SKIPPED" of a closing line.
closing_counts() {
	local p f s
	read -r p _ f _ s _ <<< "${1//,/}"
	echo "$p $f ${s:-0}"
}
