#!/bin/bash
# The per-test times of guest consoles, as a markdown table for
# docs/testing.md: each test's guest time and host time (run-all.sh's
# "# t_X took Ns, host Ms" lines) on each kernel, the longest first by
# host time summed over the kernels.
#
# usage: tests/times.sh build/vm-test-6.12.log build/vm-test-6.1.log ...
#        (a log's kernel is the part of its name after "vm-test-")
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: times.sh CONSOLE_LOG..." >&2; exit 2; }
for log in "$@"; do
	k=${log##*vm-test-}
	k=${k%.log}
	tr -d '\r' < "$log" | awk -v k="$k" '
		/^# t_[^ ]*\.sh took [0-9]+s, host [0-9]+s$/ {
			sub(/\.sh$/, "", $2); print k, $2, $4 + 0, $6 + 0
		}'

done | awk '
	!($1 in seen) { seen[$1] = 1; ks[++nk] = $1 }
	!($2 in tsum) { ts[++nt] = $2 }
	{ g[$1, $2] = $3; h[$1, $2] = $4; tsum[$2] += $4; gt[$1] += $3; ht[$1] += $4 }
	END {
		printf "| test |"; for (i = 1; i <= nk; i++) printf " %s guest / host |", ks[i]; print ""
		printf "|---|"; for (i = 1; i <= nk; i++) printf "---|"; print ""
		# longest first: a selection sort over the few tests
		for (n = 1; n <= nt; n++) {
			best = ""
			for (j = 1; j <= nt; j++)
				if (!(ts[j] in done) && (best == "" || tsum[ts[j]] > tsum[best]))
					best = ts[j]
			done[best] = 1
			printf "| %s |", best
			for (i = 1; i <= nk; i++)
				printf (((ks[i], best) in g) ? " %d s / %d s |" : " - |"), g[ks[i], best], h[ks[i], best]
			print ""
		}
		printf "| all |"; for (i = 1; i <= nk; i++) printf " %d s / %d s |", gt[ks[i]], ht[ks[i]]; print ""
	}'
