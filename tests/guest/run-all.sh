#!/bin/bash
# Run every guest test in order and print the one closing line.
# Arguments, if any, are globs that pick the tests (e.g. 't_50_*').
set -uo pipefail
cd "$(dirname "$0")" || exit 1
. ./lib.sh
export RESULTS=/tmp/bic-results
: > "$RESULTS"

[ $# -gt 0 ] || set -- 't_*.sh'
# shellcheck disable=SC2068	# the globs are meant to expand
for t in $@; do
	echo "# --- $t"
	start=$(date +%s)
	if ! bash "$t"; then
		echo "not ok - $t exited non-zero"
		echo fail >> "$RESULTS"
	fi
	echo "# $t took $(( $(date +%s) - start ))s"
done

summary
