#!/bin/bash
# eval/study-report.sh on a recorded sample (tests/unit/study-sample: a
# real STUDY_QUICK=1 run on 6.12, trimmed: its study.tsv, host-points.txt
# and the traces of two points), so that a report that no longer parses
# the guest's rows or renders them cannot land.  No guest; gnuplot from
# vm-image/host-deps.sh.  Checks the tables and their numbers against
# medians and ranges computed here from the sample's rows, by other code,
# the "apart" counts, the cost table and the figures.
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")
sample=$here/study-sample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"
has() { grep -qF -- "$2" "$1"; }

md=$tmp/study.md
"$top/eval/study-report.sh" "$sample" "$md" "$tmp/plots" shift=3,sleep=off > "$tmp/log" 2>&1
rc=$?
check "the report runs (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || cat "$tmp/log"

# Columns of the sample by name.
colno() { head -n 1 < <(grep -v '^#' "$sample/study.tsv") | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
# expect FAMILY CA POINT QUEUE COLUMN SCALE FORMAT: "median [min-max]" (or
# the median alone when all runs agree) of a column over the runs of a point,
# as the report should print it.
expect() {
	local c
	c=$(colno "$5")
	grep -v '^#' "$sample/study.tsv" | awk -F'\t' -v f="$1" -v a="$2" -v p="$3" -v q="$4" \
		-v c="$c" -v k="$6" -v fmt="$7" '
		$1 == "single" && $2 == f && $3 == a && $4 == p && $5 == q { v[++n] = $c * k }
		END {
			asort_(v, n)
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			if (v[1] == v[n]) printf fmt, med
			else printf fmt " [" fmt "-" fmt "]", med, v[1], v[n]
		}
		function asort_(x, m,   i, j, y) {
			for (i = 1; i <= m; i++)
				for (j = i + 1; j <= m; j++)
					if (x[j] < x[i]) { y = x[i]; x[i] = x[j]; x[j] = y }
		}'
}
# row FAMILY POINT_LABEL CA: that algorithm's row of a single-flow table.
row() { grep -F "| $2 | $3 |" "$md" | head -n 1; }

algs=(bpf_bic_2611 bpf_bic bic bpf_bic_restore cubic)
check "title" has "$md" "# BIC's undo rules side by side"
for fam in reorder stall; do
	check "$fam: a single-flow table for the 41-packet queue" has "$md" "## One flow alone, $fam family, 41-packet queue"
done
check "the method names the stall points" has "$md" "Points (LEN:GAP): 1 s every ~2 s"
check "the method names the reorder points" has "$md" "Points: 2%."
check "the findings section" has "$md" "## What the data says"
check "the findings: one table per family" test "$(grep -c '^### .* family$' "$md")" -eq 2
check "the cost section" has "$md" "## What it cost"
concl=$top/eval/study-conclusion.md
check "the hand-written conclusion is included whole" test \
	"$(sed -n '/^## Conclusion$/,$p' "$md" | head -n "$(wc -l < "$concl")")" = "$(cat "$concl")"

for ca in "${algs[@]}"; do
	for fp in "reorder 2 2%" "stall 1:2 1 s every ~2 s"; do
		read -r fam pt lab <<< "$fp"
		r=$(row "$fam" "$lab" "$ca")
		check "$fam $pt: a row for $ca" test -n "$r"
		IFS='|' read -ra cells <<< "$r"
		# cells[1] point, 2 algorithm, 3 undos, 4 by kind, 5 spurious, 6 RTOs,
		# 7 ttr p50, 8 largest, 9 unrecovered, 10 goodput, 11 retrans, 12 drops
		trim() { sed 's/^ *//; s/ *$//' <<< "$1"; }
		want=$(expect "$fam" "$ca" "$pt" 41 undos 1 %.0f)
		check "$fam $pt $ca: undos '$want'" test "$(trim "${cells[3]:-}")" = "$want"
		want="$(expect "$fam" "$ca" "$pt" 41 full_undos 1 %.0f) / $(expect "$fam" "$ca" "$pt" 41 partial_undos 1 %.0f) / $(expect "$fam" "$ca" "$pt" 41 dsack_undos 1 %.0f) / $(expect "$fam" "$ca" "$pt" 41 loss_undos 1 %.0f)"
		check "$fam $pt $ca: undos by kind '$want'" test "$(trim "${cells[4]:-}")" = "$want"
		want=$(expect "$fam" "$ca" "$pt" 41 spurious_rtos 1 %.0f)
		check "$fam $pt $ca: spurious RTOs '$want'" test "$(trim "${cells[5]:-}")" = "$want"
		want=$(expect "$fam" "$ca" "$pt" 41 bps 1e-6 %.2f)
		check "$fam $pt $ca: goodput '$want'" test "$(trim "${cells[10]:-}")" = "$want"
		want=$(expect "$fam" "$ca" "$pt" 41 queue_drops 1 %.0f)
		check "$fam $pt $ca: queue drops '$want'" test "$(trim "${cells[12]:-}")" = "$want"
	done
done

# The sample's numbers as recorded (6.12, the STUDY_QUICK=1 run of 5 December 2026), by hand:
check "literal: reorder 2%, bpf_bic: undos, by kind, F-RTO, RTOs, time to recover" \
	has "$md" "| 2% | bpf_bic | 10 [9-12] | 0 / 10 [9-12] / 0 / 0 | 0 | 1 | 1 |"
check "literal: reorder 2%, bpf_bic_restore: goodput" \
	grep -qF "| 9.41 [9.38-9.43] |" <<< "$(row reorder 2% bpf_bic_restore)"
check "literal: stall, bpf_bic: 4 loss undos, 4 RTOs in 4 and 5 stalls, 137 ms to recover" \
	has "$md" "| 1 s every ~2 s | bpf_bic | 4 | 0 / 0 / 0 / 4 | 0 | 4 / 4 [4-5] | 137 [136-137] |"
check "literal: stall, bpf_bic_restore: back at once" \
	has "$md" "| 1 s every ~2 s | bpf_bic_restore | 4 [4-5] | 0 / 0 / 0 / 4 [4-5] | 0 | 4 [4-5] / 4 [4-5] | 0 | 0 | 0 |"

# "apart": recount, for goodput in the reorder family, the algorithms whose
# range lies wholly above or below bpf_bic_restore's, and find the report's
# row of the findings table saying the same.
range() {
	local c
	c=$(colno bps)
	grep -v '^#' "$sample/study.tsv" | awk -F'\t' -v f="$1" -v a="$2" -v c="$c" \
		'$1 == "single" && $2 == f && $3 == a { v = $c; if (n++ == 0 || v < lo) lo = v; if (n == 1 || v > hi) hi = v }
		END { print lo, hi }'
}
read -r rlo rhi <<< "$(range reorder bpf_bic_restore)"
napart=0
for ca in bpf_bic_2611 bpf_bic bic cubic; do
	read -r lo hi <<< "$(range reorder "$ca")"
	ap=0
	awk -v a="$lo" -v b="$hi" -v c="$rlo" -v d="$rhi" 'BEGIN { exit !(b < c || d < a) }' && ap=1
	napart=$((napart + ap))
	line=$(sed -n '/^### reorder family/,/^### /p' "$md" | grep -F "| goodput | $ca |")
	IFS='|' read -ra f <<< "$line"
	got=$(( ${f[4]:-0} + ${f[6]:-0} ))
	check "reorder goodput, $ca against bpf_bic_restore: apart $ap, the report $got" test "$got" -eq "$ap"
	if [ "$ap" = 1 ]; then
		check "reorder goodput, $ca: the point named apart" grep -qF "2%/41" <<< "${f[7]:-}"
	fi
done
check "the sample has goodput ranges apart (else the check above proves little): $napart" test "$napart" -gt 0

# cost: each point's host seconds from host-points.txt
while read -r b e; do
	want=$((e - b))
	check "cost: a point of $want host s" grep -qE "\| 10 \| [0-9]+ \| $want \|" "$md"
done < <(awk '$3 == "begin" { b = $1 } $3 == "end" { print b, $1 }' "$sample/host-points.txt")

for f in study-single-reorder-41 study-single-stall-41 study-cwnd-reorder-2 study-cwnd-stall-1-2; do
	check "figure $f.png" test -s "$tmp/plots/$f.png"
done

# A broken input must fail, not write a report.
mkdir -p "$tmp/empty"
fails() { ! "$@" 2> /dev/null; }
check "no data: the report fails" fails "$top/eval/study-report.sh" "$tmp/empty" "$tmp/x.md" "$tmp/p"

summary
