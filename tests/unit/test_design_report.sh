#!/bin/bash
# eval/design-report.sh's definitions (docs/bench.md, BIC's design point)
# held against samples whose answers are known, computed by hand below.
# Samples every 0.25 s on a 10 Mbit/s path with a 1.2 s RTT: an "RTT"
# window is the 4 intervals (1 s) that fit in one; a unit is an interval
# at the full rate, 312,500 bytes.
#
# One flow (one1k): 20 intervals at 50%, 20 at 100%, a congestion event at
# sample 40, 12 intervals at 60%, 28 at 100% with a second event at sample
# 70 that costs nothing.
# - util: from sample 1, by which the first 100 frames had left:
#   (9.5 + 20 + 7.2 + 28) / 79 units = 0.8190
# - fill: the first 4-interval window at >= 90% starts at sample 20:
#   5 s / 1.2 = 4.17 RTTs
# - events: 2 (the counter's 1 before any data flowed is a SYN's RTO and
#   does not count)
# - regain: after sample 40, a window holding at most one 60% interval
#   reaches 90% ((0.6 + 3) / 4): sample 51, 11 x 0.25 / 1.2 = 2.29 RTTs;
#   after sample 70, 0.00
# Two flows (conv), the second 5 s after the first, 20 s in all: flow 1
# alone at 100% for 20 intervals, then 80:20 for 20, then 50:50 for 40.
# - share2, ratio12, jain over the second half (samples 40-80): 0.5000,
#   1.0000, 1.0000
# - conv: the 16-sample (4-RTT) window from sample k-16 holds m = 56 - k
#   80:20 intervals and Jain = 256 / (256 + 0.36 m^2) >= 0.95 from m = 6,
#   k = 50: (12.5 - 5) / 1.2 = 6.25 RTTs
# And two things that must not count: a flow's count that falls (its data
# connection closed; the control connection to the same port stays) and
# a sample with one flow only.
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"
report=${1:-$(dirname "$0")/../../eval/design-report.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

d=$tmp/data/d1
mkdir -p "$d/design"
{
	printf 'test\tca\tmetric\tvalue\n'
	printf 'all\tdesign\t%s\t%s\n' kernel k path "10mbit 10000000 1200 100" \
		path5 "20mbit 20000000 3000 500" secs 20 secs5 20 pair_secs 20 apart 5 guest_secs 60
	printf 'one1k@1\tbpf_bic\t%s\t%s\n' flow "bpf_bic@1.1.1.2:5201@0" t0 100 busy 0.25
	printf 'conv@1\tbpf_bic\t%s\t%s\n' flow "bpf_bic@1.1.1.2:5201@0" flow "bpf_bic@1.1.1.2:5202@5" \
		t0 100 busy 0.5
} > "$d/bench-design.tsv"
# "uptime frames bytes retrans events [peer acked]..." from the rates
awk 'BEGIN { u = 312500; b = 0; e = 1
	for (k = 0; k <= 80; k++) {
		if (k == 40 || k == 70) e++
		printf "%.2f %d %d 0 %d\n", 100 + k / 4, b / 1514, b, e
		r = k < 20 ? 0.5 : k < 40 ? 1 : k < 52 ? 0.6 : 1
		b += r * u
	} }' > "$d/design/one1k@1.bpf_bic.link"
awk 'BEGIN { u = 312500; b = x = y = 0
	for (k = 0; k <= 82; k++) {
		printf "%.2f %d %d 0 0 1.1.1.2:5201 %d", 100 + k / 4, b / 1514, b, (k > 80 ? 187 : x)
		if (k >= 20 && k <= 80)
			printf " 1.1.1.2:5202 %d", y
		print ""
		if (k < 20) { x += u } else if (k < 40) { x += 0.8 * u; y += 0.2 * u }
		else { x += 0.5 * u; y += 0.5 * u }
		b += u
	} }' > "$d/design/conv@1.bpf_bic.link"

"$report" --runs "$tmp/data" > "$tmp/runs"
check "the report reads the samples" test -s "$tmp/runs"
# want CELL METRIC VALUE...: the run's values of that metric, in any order
want() {
	local c=$1 m=$2 got need
	shift 2
	got=$(awk -v c="$c" -v m="$m" '$1 == c && $4 == m { print $5 }' "$tmp/runs" | sort | paste -sd' ')
	need=$(printf '%s\n' "$@" | sort | paste -sd' ')
	[ "$got" = "$need" ] || { echo "# got '$got', want '$need'"; return 1; }
}
check "utilization once data flows" want one1k util 0.8190
check "RTTs to 90% from the start" want one1k fill 4.17
check "congestion events once data flows" want one1k events 2
check "RTTs to regain 90% after each loss" want one1k regain 2.29 0.00
check "the busy share as the guest gave it" want one1k busy 0.25
check "no two-flow figures for one flow" want one1k share2
check "second flow's share over the second half" want conv share2 0.5000
check "goodput ratio over the second half" want conv ratio12 1.0000
check "Jain index over the second half" want conv jain 1.0000
check "RTTs to converge" want conv conv 6.25

# the table: bpf_bic's cell, and the run medians it is made of
"$report" "$tmp/data" "$tmp/out.md" > /dev/null 2>&1
check "the table's regain is the median of the run's events" \
	grep -q '^| RTTs to regain 90% after a loss | 1\.1 |' "$tmp/out.md"
check "the section replaces itself" \
	test "$("$report" "$tmp/data" "$tmp/out.md" > /dev/null 2>&1; grep -c "^## BIC's design point" "$tmp/out.md")" = 1

summary
