#!/bin/bash
# make study, host side: the guest's one row per run (tests/guest/study.sh)
# as medians with their min-max over the runs of each point, in markdown
# tables written to a file meant to be committed, and the figures (gnuplot,
# eval/study.gp) into a build folder.
#
# usage: study-report.sh DATA_DIR OUT.md PLOT_DIR [ICOUNT]
#   ICOUNT	the -icount option the guest ran with, for the method text
set -euo pipefail

die() { echo "study-report: $*" >&2; exit 1; }

{ [ $# -ge 3 ] && [ $# -le 4 ]; } || die "usage: study-report.sh DATA_DIR OUT.md PLOT_DIR [ICOUNT]"
data=$1 out=$2 plots=$3 icount=${4:-}
here=$(dirname "$(realpath "$0")")
tsv=$data/study.tsv
[ -s "$tsv" ] || die "no $tsv: did the guest run tests/study.sh?"
command -v gnuplot >/dev/null || die "gnuplot not installed"
mkdir -p "$plots" "$(dirname "$out")"

# The guest's notes: "# key value key value ...".
declare -A meta
while read -r -a w; do
	for ((i = 1; i + 1 < ${#w[@]}; i += 2)); do
		meta[${w[i]}]=${w[i + 1]}
	done
done < <(grep '^# ' "$tsv")
secs=${meta[secs]:-?} skip=${meta[skip]:-?} runs=${meta[runs]:-?} bdp=${meta[bdp_pkts]:-?}
base_ms=$((2 * ${meta[delay_ms_each_way]:-50}))

# One line per point and metric: "kind ca reorder queue metric n median
# min max", from the runs of that point.  Derived metrics are made here:
# goodput in Mbit/s, retransmissions in % of segments sent, peak cwnd over
# what the path holds, times in %, queueing delay as smoothed RTT less the
# path's own.
stats=$plots/summary.tsv
grep -v '^#' "$tsv" | awk -F'\t' -v base="$base_ms" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	function put(m, v) {
		if (v == "-" || v == "")
			return
		k = $c["kind"] " " $c["ca"] " " $c["reorder"] " " $c["queue"] " " m
		if (!(k in n)) order[++nk] = k
		vals[k, ++n[k]] = v + 0
	}
	{
		put("mbps", $c["bps"] / 1e6)
		put("retrans_pct", $c["out_segs"] ? 100 * $c["retrans_segs"] / $c["out_segs"] : 0)
		put("drops", $c["queue_drops"])
		put("undos", $c["undos"])
		put("rtos", $c["timeouts"])
		put("bpf_undos", $c["bpf_undos"])
		put("cpu", $c["cpu_busy"])
		if ($c["kind"] == "single") {
			put("peak", $c["peak_cwnd"])
			put("peak_path", $c["peak_cwnd"] / $c["path_pkts"])
			put("above_path", 100 * $c["above_path"])
			put("above_wmax", 100 * $c["above_wmax"])
			put("qd50", $c["srtt_p50_ms"] - base)
			put("qd95", $c["srtt_p95_ms"] - base)
			put("events", $c["cong_events"])
		} else {
			put("reno_mbps", $c["reno_bps"] / 1e6)
			put("share", 100 * $c["share"])
		}
	}
	END {
		for (o = 1; o <= nk; o++) {
			k = order[o]
			m = n[k]
			for (i = 1; i <= m; i++) s[i] = vals[k, i]
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
					t = s[j]; s[j] = s[j - 1]; s[j - 1] = t
				}
			med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
			print k, m, med, s[1], s[m]
		}
	}' > "$stats"

declare -A st
while read -r kind ca reo q m n med lo hi; do
	key="$kind|$ca|$reo|$q"
	st[$key|$m]="$med $lo $hi"
	st[$key|n]=$n
done < "$stats"

# Points and algorithms in the order the guest ran them.
mapfile -t algs < <(grep -v '^#' "$tsv" | awk -F'\t' 'NR > 1 && !s[$2]++ { print $2 }')
mapfile -t rates < <(grep -v '^#' "$tsv" | awk -F'\t' 'NR > 1 && !s[$3]++ { print $3 }')
mapfile -t queues < <(grep -v '^#' "$tsv" | awk -F'\t' 'NR > 1 && !s[$4]++ { print $4 }')
kinds=()
for k in single share; do
	grep -q "^$k"$'\t' "$tsv" && kinds+=("$k")
done

# cell KEY FORMAT: "median [min-max]" of one point's metric, or "-".
cell() {
	local v=${st[$1]:-}
	[ -n "$v" ] || { echo -n -; return; }
	# shellcheck disable=SC2086	# three numbers
	awk -v f="$2" -v med="${v%% *}" 'BEGIN { split(ARGV[1], a, " "); ARGV[1] = ""
		if (a[2] == a[3]) printf f, med
		else printf f " [" f "-" f "]", med, a[2], a[3] }' "$v"
}

# gnuplot data: per kind, algorithm and queue, one line per reorder rate
# with "rate median min max" of each metric, in the order of $metrics.
metrics=(mbps retrans_pct drops undos peak_path above_path above_wmax qd50 qd95 share reno_mbps)
for kind in "${kinds[@]}"; do
	for ca in "${algs[@]}"; do
		for q in "${queues[@]}"; do
			f=$plots/$kind-$ca-$q.dat
			echo "# reorder ${metrics[*]/%/ (med min max)}" > "$f"
			for reo in "${rates[@]}"; do
				line=$reo
				for m in "${metrics[@]}"; do
					line+=" ${st[$kind|$ca|$reo|$q|$m]:-NaN NaN NaN}"
				done
				echo "$line" >> "$f"
			done
		done
	done
done

# compare KIND METRIC A B: at how many points A's median is above B's,
# below, and how many of those have min-max ranges that do not overlap:
# "points above above_apart below below_apart".
compare() {
	local kind=$1 m=$2 a=$3 b=$4
	local reo q va vb
	# shellcheck disable=SC2030,SC2031	# the loop runs in its own subshell
	for q in "${queues[@]}"; do
		for reo in "${rates[@]}"; do
			va=${st[$kind|$a|$reo|$q|$m]:-} vb=${st[$kind|$b|$reo|$q|$m]:-}
			[ -n "$va" ] && [ -n "$vb" ] && echo "$va $vb"
		done
	done | awk '{ n++
		if ($1 > $4) { up++; if ($2 > $6) upsep++ }
		if ($1 < $4) { dn++; if ($3 < $5) dnsep++ } }
		END { print n + 0, up + 0, upsep + 0, dn + 0, dnsep + 0 }'
}

# finding KIND METRIC WHAT A B: one sentence from compare.
finding() {
	local r n up ups dn dns
	read -r n up ups dn dns <<< "$(compare "$1" "$2" "$4" "$5")"
	r="$4 against $5, $3: median higher at $up of $n points"
	r+=" (min-max ranges apart at $ups), lower at $dn (apart at $dns)"
	echo "- $r."
}

# first_peak CA REORDER QUEUE: the first run's highest cwnd over the whole
# flow, slow start included, against the path, from its 20 ms trace.
first_peak() {
	local d=$data/traces/$1-$2-$3.dat
	[ -s "$d" ] || { echo -n -; return; }
	awk -v path=$((bdp + $3)) '$2 > m { m = $2 } END { printf "%.2f", m / path }' "$d"
}

# --- figures ----------------------------------------------------------------
plot_single() {
	local q=$1 f
	f=$plots/study-single-$q.png
	{
		echo "load '$here/study.gp'"
		echo "set terminal pngcairo noenhanced size 1400,900 font 'DejaVu Sans,10'"
		echo "set output '$f'"
		echo "set multiplot layout 2,3 title 'One flow alone, 10 Mbit/s, ${base_ms} ms RTT, $q-packet queue (path holds $((bdp + q)) packets): median and min-max of ${runs} runs' font ',13'"
		local panel col title
		for panel in "2:goodput (Mbit/s)" "5:retransmitted segments (% of sent)" \
			"11:undos per run (nstat)" "14:peak cwnd / (BDP + queue), after ${skip} s (log scale)" \
			"17:time with cwnd > BDP + queue (%)" "23:median queueing delay: srtt - ${base_ms} ms (ms)"; do
			col=${panel%%:*} title=${panel#*:}
			echo "set title '$title'"
			# goodput differs by tenths: no zero under it
			# and peaks of one to many times the path on a log scale
			case $col in
			2) echo "unset logscale y; set yrange [*:*]; set ytics autofreq" ;;
			14) echo "set logscale y; set yrange [0.8:*]; set ytics (1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)" ;;
			*) echo "unset logscale y; set yrange [0:*]; set ytics autofreq" ;;
			esac
			series "single" "$q" "$col"
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$f"
}

# series KIND QUEUE COLUMN: one plot command, a line with min-max bars per
# algorithm, each nudged sideways a little so the bars stay apart.
series() {
	local kind=$1 q=$2 col=$3 i=0 ca cmd="plot"
	for ca in "${algs[@]}"; do
		[ "$cmd" = plot ] || cmd+=","
		cmd+=" '$plots/$kind-$ca-$q.dat' using (\$1 * (1 + 0.04 * ($i - 1))):$col:$((col + 1)):$((col + 2))"
		cmd+=" with yerrorlines ls $((i + 1)) title '$ca'"
		i=$((i + 1))
	done
	echo "$cmd"
}

plot_share() {
	local f=$plots/study-share.png q
	{
		echo "load '$here/study.gp'"
		echo "set terminal pngcairo noenhanced size 1400,480 font 'DejaVu Sans,10'"
		echo "set output '$f'"
		echo "set multiplot layout 1,${#queues[@]} title 'Beside one Reno flow on the same bottleneck: share (%) of the goodput of both that the BIC flow got, ${skip} s to $((secs - 1)) s (median and min-max of ${runs} runs)' font ',13'"
		echo "set yrange [50:100]"
		for q in "${queues[@]}"; do
			echo "set title '$q-packet queue (path holds $((bdp + q)) packets)'"
			series share "$q" 29
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$f"
}

# The first run of one reordering rate, each algorithm in a panel, both
# queues side by side: cwnd, the rebuilt Wmax and what the path holds.
plot_cwnd() {
	local reo=$1 f ca q d
	f=$plots/study-cwnd-$reo.png
	{
		echo "load '$here/study.gp'"
		echo "set terminal pngcairo noenhanced size 1400,$((260 * ${#algs[@]} + 60)) font 'DejaVu Sans,10'"
		echo "set output '$f'"
		printf "set multiplot layout %s,%s title 'cwnd under %s%% reordering (tcp_probe, first run of each point)' font ',13'\n" \
			"${#algs[@]}" "${#queues[@]}" "$reo"
		echo "set xlabel 'time since the flow started (s)'; set ylabel 'packets'"
		echo "unset logscale x; set xtics autofreq; set xrange [0:$secs]; set yrange [0:*]"
		echo "set key inside top right horizontal"
		for ca in "${algs[@]}"; do
			for q in "${queues[@]}"; do
				d=$data/traces/$ca-$reo-$q.dat
				[ -s "$d" ] || continue
				echo "set title '$ca, $q-packet queue'"
				echo "plot '$d' using 1:2 with steps ls 11 title 'cwnd'," \
					"'' using 1:(\$3 > 0 ? \$3 : NaN) with steps ls 12 title 'Wmax (rebuilt)'," \
					"$((bdp + q)) with lines ls 13 title 'BDP + queue'"
			done
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$f"
}

figs=()
if [[ " ${kinds[*]} " == *" single "* ]]; then
	for q in "${queues[@]}"; do
		figs+=("$(plot_single "$q")")
	done
	for reo in "${rates[@]}"; do
		compgen -G "$data/traces/*-$reo-*.dat" > /dev/null && figs+=("$(plot_cwnd "$reo")")
	done
fi
[[ " ${kinds[*]} " == *" share "* ]] && figs+=("$(plot_share)")

# --- the document -------------------------------------------------------------
# shellcheck source=eval/icount.sh
. "$(dirname "$0")/icount.sh"
ns_per_insn=$(ns_per_insn "$icount")
busiest=$(awk '$5 == "cpu" { if ($9 > m) m = $9 } END { printf "%.0f", 100 * m }' "$stats")

{
cat <<EOF
# The 2.6.11 undo against the 2.6.11.7 fix, with data

Written by \`make study\` (tests/guest/study.sh in the guest,
eval/study-report.sh on the host); rerun it rather than editing this file.
The figures are in \`$plots/\`, written by the same run (\`make study\`
regenerates them; they are not committed).

The question of the 2005 stable review: when Linux undoes a window reduction
it finds spurious, should BIC put cwnd back at \`max(cwnd, last_max_cwnd)\`
(the fix, where the binary search left off) or at \`max(cwnd, ssthresh << 1)\`
(2.6.11, which with BIC's beta of 819/1024 is 1.6 x Wmax, past the search,
in max probing)?  Undo only happens after spurious retransmissions, so the
path reorders packets.  Three algorithms are compared: \`bpf_bic\` (the fix),
\`bpf_bic_2611\` (the 2.6.11 undo, otherwise the same program) and the
kernel's own \`bic\` (tcp_bic.ko, which today undoes to \`max(cwnd,
prior_cwnd)\`, the cwnd before the reduction).

## Method

- Guest: ${meta[kernel]:-?} under QEMU TCG, 1 vCPU, with
  \`-icount ${icount:-none}\`${ns_per_insn:+ (guest time counts emulated instructions, ${ns_per_insn} ns each, and skips idle time)}:
  the emulated network runs on the guest's clock, so what a flow sees does
  not depend on how busy the host is.  Checked when the study was set up
  (\`make vm-test KERNELS=6.12 GUEST_CMD="env STUDY_RATES=0 ... bash
  tests/study.sh"\` with \`QEMU_ICOUNT\`): a flow on the 41-packet queue
  without reordering delivered 9.26 Mbit/s in 10 s, slow start included
  (the ceiling is 9.56: 1448 bytes of payload in a 1514-byte frame), and
  from 5 s on its smoothed RTT stayed between 120 and 149 ms = 100 ms + the
  41-packet queue drained at 10 Mbit/s (49.7 ms), as the path says.
  The busiest guest CPU during any flow of this run was ${busiest}%$(
	[ "$busiest" -lt 90 ] && echo ': no flow was limited by the emulated CPU.' ||
		echo ': flows at 90% or more were limited by the emulated CPU.')
- Path: two network namespaces over a veth pair (tests/guest/lib.sh
  \`net_up\`): on the sender's side a netem delay line of ${meta[delay_ms_each_way]:-50} ms that
  also reorders (\`reorder P%\`: a packet, with probability P, skips the
  delay line and goes straight to the bottleneck, ahead of the
  $((bdp / 2)) or so packets still in it), then the bottleneck, a netem child with
  rate ${meta[rate]:-10mbit} and a drop-tail queue; ${meta[delay_ms_each_way]:-50} ms more on the ACK path.
  BDP ${bdp} packets (10 Mbit/s x ${base_ms} ms / 1514 bytes).  Queues:
  $(printf '%s, ' "${queues[@]/%/ packets}" | sed 's/, $//') (0.5 and 2 BDP), so the path holds
  BDP + queue = $(for q in "${queues[@]}"; do printf '%s, ' $((bdp + q)); done | sed 's/, $//') packets.
  Reordering: $(printf '%s%%, ' "${rates[@]}" | sed 's/, $//').
- Runs: iperf3 flows of ${secs} s, ${runs} runs per point, the algorithms
  alternating run by run in one boot.  Tables give the median and, in
  brackets, min-max over the runs.
  - single: one flow alone.  Goodput from iperf3; retransmitted and sent
    segments, and undos, from nstat in the sender's namespace (undos: the
    sum of TcpExtTCPFullUndo, TCPPartialUndo, TCPDSACKUndo, TCPLossUndo and
    TCPSpuriousRTOs: each undo counts in exactly one; for the BPF variants
    bic_stats.undo, the program's own count of undo_cwnd calls, is in
    study.tsv too); drops from the bottleneck qdisc.  cwnd, ssthresh and
    the smoothed RTT of every ACK from the kernel's tcp_probe tracepoint,
    congestion state changes from tcp_cong_state_set, from ${skip} s on (after
    slow start): peak cwnd against BDP + queue, time with cwnd above it,
    time above Wmax, RTT percentiles.  Wmax is not visible for the
    kernel's bic, so it is rebuilt from the trace for all three alike by
    BIC's rule: at each congestion event it becomes the cwnd then, or
    1843/2048 of it when below the old Wmax (fast convergence), and an RTO
    clears it; no undo touches it.  The cwnd of an event is the last
    sample's, or, where an undo and a new event fell on one ACK and no
    sample saw it, the one the reported ssthresh says; it counts towards
    the peak.  \`tests/guest/study-wmax.sh\` checks the rebuilt events
    against bictrace's record of each ssthresh call (2% reordering, 41
    packets: 18 of 19 for bpf_bic, one packet off at the fast convergence
    threshold, and 19 of 19 for bpf_bic_2611).  The first run of each
    point also gives a whole-flow peak (20 ms samples, slow start
    included), where the 2.6.11 undo's early runaway shows.  Queueing delay is the smoothed RTT less
    the path's ${base_ms} ms (a reordered packet skips ${meta[delay_ms_each_way]:-50} ms of delay, so
    its own sample is lower).  No metric here needs bictrace.
  - share: the same algorithm beside one Reno flow, both started together
    over the same bottleneck; each flow's goodput from ss's bytes_acked
    from ${skip} s to $((secs - 1)) s; the BIC flow's share of the two.  Undos
    count both flows.
- Raw rows: \`build/study-data/study.tsv\`, one per run; plotted
  cwnd traces: \`build/study-data/traces/\` (first run of each point).
EOF

for q in "${queues[@]}"; do
	[[ " ${kinds[*]} " == *" single "* ]] || break
	cat <<-EOF

	## One flow alone, $q-packet queue (path holds $((bdp + q)) packets)

	| reorder | algorithm | undos | goodput Mbit/s | retrans % of sent | queue drops | RTOs | peak cwnd / path from ${skip} s | first run: whole-flow peak / path | time cwnd > path | time cwnd > Wmax | queueing delay p50 / p95 ms |
	|---|---|---|---|---|---|---|---|---|---|---|---|
	EOF
	for reo in "${rates[@]}"; do
		for ca in "${algs[@]}"; do
			k="single|$ca|$reo|$q"
			echo "| $reo% | $ca | $(cell "$k|undos" %.0f) | $(cell "$k|mbps" %.2f) |" \
				"$(cell "$k|retrans_pct" %.1f) | $(cell "$k|drops" %.0f) | $(cell "$k|rtos" %.0f) |" \
				"$(cell "$k|peak_path" %.2f) | $(first_peak "$ca" "$reo" "$q") |" \
				"$(cell "$k|above_path" %.0f%%) |" \
				"$(cell "$k|above_wmax" %.0f%%) | $(cell "$k|qd50" %.0f) / $(cell "$k|qd95" %.0f) |"
		done
	done
	echo
	echo "Figure: \`$plots/study-single-$q.png\`."
done

if [[ " ${kinds[*]} " == *" share "* ]]; then
	cat <<-EOF

	## Beside a Reno flow

	| queue | reorder | algorithm | undos (both flows) | BIC flow Mbit/s | Reno flow Mbit/s | BIC share | queue drops |
	|---|---|---|---|---|---|---|---|
	EOF
	for q in "${queues[@]}"; do
		for reo in "${rates[@]}"; do
			for ca in "${algs[@]}"; do
				k="share|$ca|$reo|$q"
				echo "| $q | $reo% | $ca | $(cell "$k|undos" %.0f) | $(cell "$k|mbps" %.2f) |" \
					"$(cell "$k|reno_mbps" %.2f) | $(cell "$k|share" %.0f%%) | $(cell "$k|drops" %.0f) |"
			done
		done
	done
	echo
	echo "Figure: \`$plots/study-share.png\`."
fi

cat <<EOF

Figures of cwnd over time: $(for f in "${figs[@]}"; do case $f in */study-cwnd-*) printf "\`%s\` " "$f" ;; esac; done)

## What the data says

Counted over the points (reordering rate x queue) where both have runs; "apart" means
the min-max ranges of the ${runs} runs do not overlap.

EOF
if [[ " ${kinds[*]} " == *" single "* ]]; then
	finding single undos "undos per run" bpf_bic_2611 bpf_bic
	finding single peak_path "peak cwnd against the path" bpf_bic_2611 bpf_bic
	finding single above_path "time with cwnd above BDP + queue" bpf_bic_2611 bpf_bic
	finding single above_wmax "time above Wmax" bpf_bic_2611 bpf_bic
	finding single drops "queue drops" bpf_bic_2611 bpf_bic
	finding single retrans_pct "retransmissions" bpf_bic_2611 bpf_bic
	finding single rtos "RTOs" bpf_bic_2611 bpf_bic
	finding single qd95 "95th percentile queueing delay" bpf_bic_2611 bpf_bic
	finding single qd50 "median queueing delay" bpf_bic_2611 bpf_bic
	finding single mbps "goodput" bpf_bic_2611 bpf_bic
	finding single peak_path "peak cwnd against the path" bic bpf_bic
	finding single mbps "goodput" bic bpf_bic
fi
if [[ " ${kinds[*]} " == *" share "* ]]; then
	finding share share "share beside Reno" bpf_bic_2611 bpf_bic
	finding share share "share beside Reno" bic bpf_bic
fi
if [ -r "$here/study-conclusion.md" ]; then
	echo
	cat "$here/study-conclusion.md"
fi
echo
echo "Guest time of the run: ${meta[guest_secs]:-?} s (the guest's clock, under -icount);" \
	"host wall time of the guest: ${meta[host_wall_secs]:-?} s."
} > "$out"

echo "$out"
printf '%s\n' "${figs[@]}"
