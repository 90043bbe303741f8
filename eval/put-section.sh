#!/bin/bash
# put-section.sh FILE TITLE SECTION: the "## " section of FILE titled TITLE
# (up to the next "## ") replaced by the file SECTION, or SECTION appended
# when FILE has no such section; a FILE that is empty or missing becomes
# "# Benchmarks" and SECTION.  How the reports that share docs/bench.md
# (make bench, make scale, make wmax) each write their own part of it.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: put-section.sh FILE TITLE SECTION" >&2; exit 2; }
out=$1 title=$2 sec=$3
mkdir -p "$(dirname "$out")"
{
	if [ -s "$out" ]; then
		awk -v title="$title" -v sec="$sec" '
			$0 == title { skip = 1; done = 1
				      while ((getline l < sec) > 0) print l
				      next }
			skip && /^## / { skip = 0; print "" }
			!skip { print }
			END { if (!done) { print ""; while ((getline l < sec) > 0) print l } }
		' "$out"
	else
		echo "# Benchmarks"
		echo
		cat "$sec"
	fi
} > "$out.tmp"
mv "$out.tmp" "$out"
