#!/bin/bash
# make test: the host unit tests, then the guest suite in the VM; one
# closing line that adds both up.
#
# usage: run.sh UNIT_TEST... -- VM_COMMAND...
set -uo pipefail

units=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	units+=("$1")
	shift
done
shift

total_pass=0 total_fail=0
tally() {
	local line
	line=$(tr -d '\r' < "$1" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then
		echo "run: $2 printed no result line" >&2
		total_fail=$((total_fail + 1))
		return
	fi
	total_pass=$((total_pass + $(echo "$line" | cut -d' ' -f1)))
	total_fail=$((total_fail + $(echo "$line" | cut -d' ' -f3)))
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for u in "${units[@]}"; do
	echo "== unit: $u"
	"$u" | tee "$log" || status=1
	tally "$log" "$u"
done

echo "== guest suite"
"$@" | tee "$log" || status=1
tally "$log" "guest suite"

echo "== total"
echo "$total_pass passed, $total_fail failed"
[ "$status" -eq 0 ] && [ "$total_fail" -eq 0 ]
