#!/bin/bash
# Run every guest test in order and print the one closing line.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
export RESULTS=/tmp/bic-results
: > "$RESULTS"

for t in t_*.sh; do
	echo "# --- $t"
	start=$(date +%s)
	if ! bash "$t"; then
		echo "not ok - $t exited non-zero"
		echo fail >> "$RESULTS"
	fi
	echo "# $t took $(( $(date +%s) - start ))s"
done

passed=$(grep -c '^pass$' "$RESULTS")
failed=$(grep -c '^fail$' "$RESULTS")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
