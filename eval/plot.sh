#!/bin/bash
# make plots, host side: turn the guest's traces (eval/guest/plots.sh) into
# cwnd-over-time PNGs, one per run, one figure stacking every algorithm on
# the plain link, and one comparing the two undo rules under reordering.
#
# usage: plot.sh DATA_DIR OUT_DIR
set -euo pipefail

die() { echo "plot: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: plot.sh DATA_DIR OUT_DIR"
data=$1 out=$2
here=$(dirname "$(realpath "$0")")
# The guest's readers of the same CSVs (data_port, probe_losses).
# shellcheck source=../tests/guest/lib.sh
. "$here/../tests/guest/lib.sh"
# shellcheck source=../tests/guest/lib_trace.sh
. "$here/../tests/guest/lib_trace.sh"

[ -s "$data/runs.tsv" ] || die "no $data/runs.tsv: did the guest run eval/plots.sh?"
command -v gnuplot >/dev/null || die "gnuplot not installed (make deps)"
dat=$out/data
rm -rf "$dat"
mkdir -p "$dat"

# prep TAG: gnuplot-ready columns "t value..." (t in s from the first ACK of
# the data connection) in $dat/TAG.{cwnd,loss,wmax,undo}.
prep() {
	local tag=$1 port t0
	port=$(data_port "$data/$tag.probe.csv")
	[ -n "$port" ] || die "$tag: no tcp_probe samples"
	t0=$(awk -F, -v p="$port" '$3 == p && $6 == "probe" { print $1; exit }' "$data/$tag.probe.csv")
	awk -F, -v p="$port" -v t0="$t0" '$3 == p && $6 == "probe" { print ($1 - t0) / 1e9, $7 }' \
		"$data/$tag.probe.csv" > "$dat/$tag.cwnd"
	# tcp_probe's "infinite" ssthresh before any loss is no point to plot
	probe_losses "$data/$tag.probe.csv" "$port" |
		awk -v t0="$t0" '$2 < 1e6 { print ($3 - t0) / 1e9, $2, $1 }' > "$dat/$tag.loss"
	[ -s "$data/$tag.csv" ] || return 0
	# Wmax as a step line: a point wherever it changes (0, before any
	# loss, is no Wmax and breaks the line), held to the end of the trace.
	awk -F, -v p="$port" -v t0="$t0" -v end="$(tail -n 1 "$dat/$tag.cwnd" | cut -d' ' -f1)" '
		$3 == p && $9 != w { w = $9; print ($1 - t0) / 1e9, w ? w : "NaN" }
		END { print end, w ? w : "NaN" }' "$data/$tag.csv" > "$dat/$tag.wmax"
	awk -F, -v p="$port" -v t0="$t0" '$3 == p && $6 == "undo" { print ($1 - t0) / 1e9, $11, $7 }' \
		"$data/$tag.csv" > "$dat/$tag.undo"
}

# layers TAG: the plot command for one run.
layers() {
	local f=$dat/$1 cmd
	# '\\_' keeps an underscore from turning into a subscript
	cmd="plot '$f.cwnd' using 1:2 with steps ls 1 title 'cwnd (tcp\\_probe)'"
	[ -s "$f.wmax" ] && cmd+=", '$f.wmax' using 1:2 with steps ls 2"
	[ -s "$f.wmax" ] && cmd+=" title 'W_{max} = last\\_max\\_cwnd (bictrace)'"
	[ -s "$f.loss" ] && cmd+=", '$f.loss' using 1:2 with points ls 3"
	[ -s "$f.loss" ] && cmd+=" title 'ssthresh at a cwnd reduction (tcp\\_probe)'"
	[ -s "$f.undo" ] && cmd+=", '$f.undo' using 1:2 with points ls 4"
	[ -s "$f.undo" ] && cmd+=" title 'undo\\_cwnd() result (bictrace)'"
	echo "$cmd"
}

# style SCENARIO: under reordering the 2.6.11 undo multiplies cwnd, which
# only a log axis shows next to the fixed one; its key goes beside the plot,
# where it hides neither the dips nor the peaks.
style() {
	case $1 in
	reorder)
		echo "set logscale y; set yrange [5:*]; set autoscale yfixmax"
		echo "set ylabel 'packets (MSS, log scale)'"
		echo "set key outside right top vertical Left reverse width -4"
		;;
	*)
		echo "set yrange [0:*]"
		;;
	esac
}

kbps() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1000 }'; }

declare -A caption
while IFS=$'\t' read -r scen ca secs bps _ path; do
	tag=$scen-$ca
	[ -s "$data/$tag.probe.csv" ] || die "$tag: no $data/$tag.probe.csv"
	prep "$tag"
	caption[$tag]="$ca over $path: $(kbps "$bps") kbit/s in $secs s"
	gnuplot <<-EOF
		load '$here/cwnd.gp'
		set terminal pngcairo enhanced size 1200,520 font 'DejaVu Sans,11'
		set output '$out/$tag.png'
		set title '${caption[$tag]}' noenhanced
		$(style "$scen")
		$(layers "$tag")
	EOF
done < <(tail -n +2 "$data/runs.tsv")

# stack FILE TITLE SCENARIO TAG...: one panel per run, all on one scale.
stack() {
	local file=$1 title=$2 scen=$3 tag xmax ymax n
	shift 3
	n=$#
	xmax=$(for tag in "$@"; do tail -n 1 "$dat/$tag.cwnd"; done |
		awk '$1 > m { m = $1 } END { print int(m + 0.999) }')
	ymax=$(for tag in "$@"; do cat "$dat/$tag.cwnd" "$dat/$tag.undo" 2>/dev/null || true; done |
		awk '$2 > m { m = $2 } END { print int(m * 1.1) + 1 }')
	{
		echo "load '$here/cwnd.gp'"
		echo "set terminal pngcairo enhanced size 1200,$((280 * n + 60)) font 'DejaVu Sans,11'"
		echo "set output '$file'"
		echo "set multiplot layout $n,1 title '$title' font ',14'"
		echo "set key horizontal"
		style "$scen"
		echo "set xrange [0:$xmax]; set yrange [:$ymax]"
		for tag in "$@"; do
			echo "set title '${caption[$tag]}' noenhanced"
			layers "$tag"
		done
		echo "unset multiplot"
	} | gnuplot
}

base=() reorder=()
for f in "$dat"/base-*.cwnd; do
	[ -e "$f" ] && base+=("$(basename "$f" .cwnd)")
done
for f in "$dat"/reorder-*.cwnd; do
	[ -e "$f" ] && reorder+=("$(basename "$f" .cwnd)")
done
# Fixed order: the two BIC variants first, then the native references.
order() {
	printf '%s\n' "$@" | awk -F- '{
		k = index(" bpf_bic bpf_bic_2611 bic_ref bic cubic reno ", " " $2 " ")
		print (k ? k : 999), $0 }' | sort -n | cut -d' ' -f2
}
mapfile -t base < <(order "${base[@]}")
mapfile -t reorder < <(order "${reorder[@]}")

[ ${#base[@]} -gt 0 ] && stack "$out/cwnd-all.png" \
	'cwnd over time: BIC binary search and max probing vs. Reno and CUBIC (1 Mbit/s, 100 ms RTT)' \
	base "${base[@]}"
[ ${#reorder[@]} -gt 0 ] && stack "$out/undo-reorder.png" \
	'Spurious losses under 2% reordering: undo to W_{max} (fixed) vs. to 2 x ssthresh (2.6.11)' \
	reorder "${reorder[@]}"

ls "$out"/*.png
