#!/bin/bash
# The runner's contract: the guest command's status comes back as the exit
# status, and a guest that panics or hangs fails within --timeout.
#
# usage: test_run_vm.sh   (KERNEL, INITRD, ACCEL_CACHE from the environment)
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

run_vm="$(dirname "$0")/../../vm-image/run-vm.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"
log=$tmp/log

# expect DESCRIPTION STATUS PATTERN RUN-VM-ARGS...: status and a line of output.
expect() {
	local desc=$1 want=$2 pattern=$3 rc=0
	shift 3
	"$run_vm" "$@" > "$log" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE "$pattern" "$log"; then
		ok "$desc"
	else
		not_ok "$desc (status $rc, want $want; last lines:)"
		tail -n 5 "$log" | sed 's/^/#   /'
	fi
}

expect "a passing guest command returns 0" 0 'BIC-GUEST-EXIT=0' --timeout 120 -- true
expect "a failing guest command's status comes back" 3 'BIC-GUEST-EXIT=3' \
	--timeout 120 -- sh -c 'exit 3'
expect "a guest kernel panic is a failure" 1 'guest kernel panicked' \
	--timeout 120 -- sh -c 'echo c > /proc/sysrq-trigger'
# Busy, not asleep: under -icount with sleep=off (make test's guests) a
# sleeping guest's clock jumps ahead and "sleep 1000" ends in seconds.
expect "a hung guest is stopped at --timeout" 1 'timed out after 20s' \
	--timeout 20 -- sh -c 'while :; do :; done'
expect "an unknown runner option is refused" 1 "unknown option '--bogus'" --bogus -- true
expect "a guest argument with a double quote is refused, no guest started" 1 \
	'^run-vm: guest arguments cannot contain double quotes: say "hi"$' -- echo 'say "hi"'
DISK=$log expect "a disk guest is given no command, no guest started" 1 \
	'^run-vm: a disk guest takes no command: true$' -- true

summary
