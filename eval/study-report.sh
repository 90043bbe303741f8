#!/bin/bash
# make study, host side: the guest's one row per run (eval/guest/study.sh)
# as medians with their min-max over the runs of each point, in markdown
# tables written to a file meant to be committed, and the figures (gnuplot,
# eval/study.gp) into a build folder.  tests/unit/test_study_report.sh runs
# it on a recorded sample.
#
# usage: study-report.sh DATA_DIR OUT.md PLOT_DIR [ICOUNT]
#   DATA_DIR	study.tsv, traces/ and host-points.txt (eval/study-timed.sh)
#   ICOUNT	the -icount option the guest ran with, for the method text
set -euo pipefail

die() { echo "study-report: $*" >&2; exit 1; }

{ [ $# -ge 3 ] && [ $# -le 4 ]; } || die "usage: study-report.sh DATA_DIR OUT.md PLOT_DIR [ICOUNT]"
data=$1 out=$2 plots=$3 icount=${4:-}
here=$(dirname "$(realpath "$0")")
tsv=$data/study.tsv
[ -s "$tsv" ] || die "no $tsv: did the guest run eval/study.sh?"
command -v gnuplot >/dev/null || die "gnuplot not installed (vm-image/host-deps.sh installs it)"
mkdir -p "$plots" "$(dirname "$out")"

# The guest's notes: "# key value key value ..." ("# point ..." lines are
# the cost of each point, read below).
declare -A meta
while read -r -a w; do
	for ((i = 1; i + 1 < ${#w[@]}; i += 2)); do
		meta[${w[i]}]=${w[i + 1]}
	done
done < <(grep '^# ' "$tsv" | grep -v '^# point ')
secs=${meta[secs]:-?} skip=${meta[skip]:-?} runs=${meta[runs]:-?} bdp=${meta[bdp_pkts]:-?}
base_ms=$((2 * ${meta[delay_ms_each_way]:-50}))

# One line per point and metric: "kind family ca point queue metric n
# median min max", from the runs of that point.  Derived metrics are made
# here: goodput in Mbit/s, retransmissions in % of segments sent, peak cwnd
# over what the path holds, times in %, queueing delay as smoothed RTT less
# the path's own.
stats=$plots/summary.tsv
grep -v '^#' "$tsv" | awk -F'\t' -v base="$base_ms" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	function put(m, v) {
		if (v == "-" || v == "")
			return
		k = $c["kind"] " " $c["family"] " " $c["ca"] " " $c["point"] " " $c["queue"] " " m
		if (!(k in n)) order[++nk] = k
		vals[k, ++n[k]] = v + 0
	}
	{
		put("mbps", $c["bps"] / 1e6)
		put("retrans_pct", $c["out_segs"] ? 100 * $c["retrans_segs"] / $c["out_segs"] : 0)
		put("drops", $c["queue_drops"])
		put("undos", $c["undos"])
		put("full", $c["full_undos"])
		put("partial", $c["partial_undos"])
		put("dsack", $c["dsack_undos"])
		put("lossu", $c["loss_undos"])
		put("spur", $c["spurious_rtos"])
		put("rtos", $c["timeouts"])
		put("bpf_undos", $c["bpf_undos"])
		put("stalls", $c["stalls"])
		put("cpu", $c["cpu_busy"])
		if ($c["kind"] == "single") {
			put("peak", $c["peak_cwnd"])
			put("peak_path", $c["peak_cwnd"] / $c["path_pkts"])
			put("above_path", 100 * $c["above_path"])
			put("above_wmax", 100 * $c["above_wmax"])
			put("qd50", $c["srtt_p50_ms"] - base)
			put("qd95", $c["srtt_p95_ms"] - base)
			put("events", $c["cong_events"])
			put("tundos", $c["traced_undos"])
			put("ttr50", $c["ttr_p50_ms"])
			put("ttrmax", $c["ttr_max_ms"])
			put("unrec", $c["unrecovered"])
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
while read -r kind fam ca pt q m n med lo hi; do
	st[$kind|$fam|$ca|$pt|$q|$m]="$med $lo $hi"
done < "$stats"

# Algorithms, families, points and queues in the order the guest ran them.
rows() { grep -v '^#' "$tsv" | awk -F'\t' 'NR > 1'; }
mapfile -t algs < <(rows | awk -F'\t' '!s[$3]++ { print $3 }')
mapfile -t fams < <(rows | awk -F'\t' '!s[$2]++ { print $2 }')
mapfile -t queues < <(rows | awk -F'\t' '!s[$5]++ { print $5 }')
# points FAMILY: that family's points, in order.
points() { rows | awk -F'\t' -v f="$1" '$2 == f && !s[$4]++ { print $4 }'; }
kinds=()
for k in single share; do
	grep -q "^$k"$'\t' "$tsv" && kinds+=("$k")
done
has_kind() { [[ " ${kinds[*]} " == *" $1 "* ]]; }

# label FAMILY POINT: how a point reads in the text.
label() {
	case $1 in
	reorder) echo "$2%" ;;
	stall) echo "${2%%:*} s every ~${2#*:} s" ;;
	*) echo "$2" ;;
	esac
}
# fname POINT: a point in a file name.
fname() { echo "${1/:/-}"; }

# cell KEY FORMAT: "median [min-max]" of one point's metric, or "-".
cell() {
	local v=${st[$1]:-}
	[ -n "$v" ] || { echo -n -; return; }
	awk -v f="$2" -v med="${v%% *}" 'BEGIN { split(ARGV[1], a, " "); ARGV[1] = ""
		if (a[2] == a[3]) printf f, med
		else printf f " [" f "-" f "]", med, a[2], a[3] }' "$v"
}

# gnuplot data: per kind, family, algorithm and queue, one line per point
# with "index label median min max" of each metric, in the order of $metrics
# (column 3 is the first metric's median).
metrics=(mbps retrans_pct drops undos peak_path above_path above_wmax qd50 qd95 ttr50 unrec spur rtos share reno_mbps)
col() {
	local i
	for i in "${!metrics[@]}"; do
		[ "${metrics[i]}" = "$1" ] && { echo $((3 + 3 * i)); return; }
	done
	die "no metric $1"
}
for kind in "${kinds[@]}"; do
	for fam in "${fams[@]}"; do
		for ca in "${algs[@]}"; do
			for q in "${queues[@]}"; do
				f=$plots/$kind-$fam-$ca-$q.dat
				echo "# index point ${metrics[*]/%/ (med min max)}" > "$f"
				i=0
				while read -r pt; do
					line="$i $(fname "$pt")"
					for m in "${metrics[@]}"; do
						line+=" ${st[$kind|$fam|$ca|$pt|$q|$m]:-NaN NaN NaN}"
					done
					echo "$line" >> "$f"
					i=$((i + 1))
				done < <(points "$fam")
			done
		done
	done
done

# compare KIND FAMILY METRIC A B: at how many points A's median is above
# B's, below, and how many of those have min-max ranges that do not
# overlap: "points above above_apart below below_apart".
compare() {
	local kind=$1 fam=$2 m=$3 a=$4 b=$5 pt q va vb
	for q in "${queues[@]}"; do
		while read -r pt; do
			va=${st[$kind|$fam|$a|$pt|$q|$m]:-} vb=${st[$kind|$fam|$b|$pt|$q|$m]:-}
			[ -n "$va" ] && [ -n "$vb" ] && echo "$va $vb"
		done < <(points "$fam")
	done | awk '{ n++
		if ($1 > $4) { up++; if ($2 > $6) upsep++ }
		if ($1 < $4) { dn++; if ($3 < $5) dnsep++ } }
		END { print n + 0, up + 0, upsep + 0, dn + 0, dnsep + 0 }'
}

# apart KIND FAMILY POINT QUEUE METRIC A B: "apart" if the min-max ranges
# of A and B at that point do not overlap, else nothing.
apart() {
	local va=${st[$1|$2|$6|$3|$4|$5]:-} vb=${st[$1|$2|$7|$3|$4|$5]:-}
	[ -n "$va" ] && [ -n "$vb" ] || return 0
	awk -v a="$va" -v b="$vb" 'BEGIN { split(a, x, " "); split(b, y, " ")
		if (x[3] < y[2] || y[3] < x[2]) printf "apart" }'
}

# first_peak CA FAMILY POINT QUEUE: the first run's highest cwnd over the
# whole flow, slow start included, against the path, from its 20 ms trace.
first_peak() {
	local d
	d=$data/traces/$1-$2-$(fname "$3")-$4.dat
	[ -s "$d" ] || { echo -n -; return; }
	awk -v path=$((bdp + $4)) '$2 > m { m = $2 } END { printf "%.2f", m / path }' "$d"
}

# --- figures ----------------------------------------------------------------
# series KIND FAMILY QUEUE METRIC: one plot command, a line with min-max bars
# per algorithm, each nudged sideways a little so the bars stay apart.
series() {
	local kind=$1 fam=$2 q=$3 c i=0 ca cmd="plot" n=${#algs[@]}
	c=$(col "$4")
	for ca in "${algs[@]}"; do
		[ "$cmd" = plot ] || cmd+=","
		cmd+=" '$plots/$kind-$fam-$ca-$q.dat' using (\$1 + 0.06 * ($i - ($n - 1) / 2.0))"
		if [ "$4" = ttr50 ]; then	# 0 ms on a log scale: 1 ms added
			cmd+=":(\$$c + 1):(\$$((c + 1)) + 1):(\$$((c + 2)) + 1)"
		else
			cmd+=":$c:$((c + 1)):$((c + 2))"
		fi
		[ "$i" -eq 0 ] && cmd+=":xtic(2)"
		cmd+=" with yerrorlines ls $((i + 1)) title '$ca'"
		i=$((i + 1))
	done
	echo "$cmd"
}

plot_single() {
	local fam=$1 q=$2 f np
	f=$plots/study-single-$fam-$q.png
	np=$(points "$fam" | wc -l)
	{
		echo "load '$here/study.gp'"
		echo "set terminal pngcairo noenhanced size 1400,900 font 'DejaVu Sans,10'"
		echo "set output '$f'"
		echo "set xrange [-0.5:$np - 0.5]"
		if [ "$fam" = stall ]; then
			echo "set xlabel 'stall LEN-GAP: LEN s every ~GAP s'"
		else
			echo "set xlabel 'reordering (%)'"
		fi
		echo "set multiplot layout 2,3 title 'One flow alone, $fam family, 10 Mbit/s, ${base_ms} ms RTT, $q-packet queue (path holds $((bdp + q)) packets): median and min-max of ${runs} runs' font ',13'"
		local panel m title
		for panel in "mbps:goodput (Mbit/s)" "retrans_pct:retransmitted segments (% of sent)" \
			"undos:undos per run (nstat)" "ttr50:time to recover after an undo, median, + 1 ms (ms, log scale)" \
			"peak_path:peak cwnd / (BDP + queue), after ${skip} s (log scale)" \
			"above_path:time with cwnd > BDP + queue (%)"; do
			m=${panel%%:*} title=${panel#*:}
			echo "set title '$title'"
			case $m in
			mbps) echo "unset logscale y; set yrange [*:*]; set ytics autofreq" ;;
			peak_path) echo "set logscale y; set yrange [0.5:*]; set ytics (0.5, 1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)" ;;
			ttr50) echo "set logscale y; set yrange [0.8:*]; set ytics autofreq" ;;
			*) echo "unset logscale y; set yrange [0:*]; set ytics autofreq" ;;
			esac
			series single "$fam" "$q" "$m"
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$f"
}

# The first run of one point, each algorithm in a panel, the queues side by
# side: cwnd, the rebuilt Wmax, what the path holds, each undo (a mark at
# the cwnd it had to get back to: filled when it did) and each stall (a bar
# on the time axis).
plot_cwnd() {
	local fam=$1 pt=$2 f ca q d b
	f=$plots/study-cwnd-$fam-$(fname "$pt").png
	{
		echo "load '$here/study.gp'"
		echo "set terminal pngcairo noenhanced size 1400,$((230 * ${#algs[@]} + 60)) font 'DejaVu Sans,10'"
		echo "set output '$f'"
		printf "set multiplot layout %s,%s title 'cwnd, %s family, %s (tcp_probe, first run of each point)' font ',13'\n" \
			"${#algs[@]}" "${#queues[@]}" "$fam" "$(label "$fam" "$pt")"
		echo "set xlabel 'time since the flow started (s)'; set ylabel 'packets'"
		echo "set xtics autofreq; set xrange [0:$secs]; set yrange [0:*]"
		echo "set key inside top right horizontal"
		for ca in "${algs[@]}"; do
			for q in "${queues[@]}"; do
				b=$data/traces/$ca-$fam-$(fname "$pt")-$q
				d=$b.dat
				[ -s "$d" ] || continue
				echo "set title '$ca, $q-packet queue'"
				local cmd="plot '$d' using 1:2 with steps ls 11 title 'cwnd', '' using 1:(\$3 > 0 ? \$3 : NaN) with steps ls 12 title 'Wmax (rebuilt)', $((bdp + q)) with lines ls 13 title 'BDP + queue'"
				[ -s "$b.undo" ] && cmd+=", '$b.undo' using 1:(\$3 >= 0 ? \$2 : NaN) with points ls 14 title 'undo: cwnd before (recovered)', '' using 1:(\$3 < 0 ? \$2 : NaN) with points ls 15 title 'undo (not recovered)'"
				[ -s "$b.stall" ] && cmd+=", '$b.stall' using 1:(0):(\$2 - \$1):(0) with vectors nohead ls 16 title 'stall'"
				echo "$cmd"
			done
		done
		echo "unset multiplot"
	} | gnuplot
	echo "$f"
}

figs=()
if has_kind single; then
	for fam in "${fams[@]}"; do
		for q in "${queues[@]}"; do
			figs+=("$(plot_single "$fam" "$q")")
		done
		while read -r pt; do
			compgen -G "$data/traces/*-$fam-$(fname "$pt")-*.dat" > /dev/null &&
				figs+=("$(plot_cwnd "$fam" "$pt")")
		done < <(points "$fam")
	done
fi

# --- cost -------------------------------------------------------------------
# The host's clock at each point's begin and end (eval/study-timed.sh), and
# the guest's from study.tsv: "kind family point queue flows guest_s host_s".
cost=$plots/cost.tsv
: > "$cost"
if [ -s "$data/host-points.txt" ]; then
	awk 'NR == FNR { if ($2 == "STUDY-POINT") {
			k = $4 " " $5 " " $6 " " $7
			if ($3 == "begin") b[k] = $1; else if ($3 == "end" && (k in b)) h[k] = $1 - b[k] }
		next }
		$2 == "point" { k = $3 " " $4 " " $5 " " $6; print k, $10, $8, (k in h) ? h[k] : "-" }' \
		"$data/host-points.txt" <(grep '^# point ' "$tsv") > "$cost"
fi

# --- the document -------------------------------------------------------------
# shellcheck source=eval/icount.sh
. "$(dirname "$0")/icount.sh"
ns_per_insn=$(ns_per_insn "$icount")
busiest=$(awk '$6 == "cpu" { if ($10 > m) m = $10 } END { printf "%.0f", 100 * m }' "$stats")

{
cat <<EOF
# BIC's undo rules side by side: reordering and spurious timeouts, with data

Written by \`make study\` (eval/guest/study.sh in the guest,
eval/study-report.sh on the host); rerun it rather than editing this file.
The figures are in \`$plots/\`, written by the same run (\`make study\`
regenerates them; they are not committed).

When Linux undoes a window reduction it finds spurious, where should cwnd
go back to?  Five algorithms, four undo rules and today's usual choice:
\`bpf_bic_2611\` (2.6.11: \`max(cwnd, 2 * ssthresh)\`), \`bpf_bic\` (the
seed, 2.6.11.7: \`max(cwnd, Wmax)\`), the kernel's \`bic\` (tcp_bic.ko:
\`max(cwnd, prior_cwnd)\`), \`bpf_bic_restore\` (the complete undo: cwnd,
ssthresh and BIC's whole state as they were before the reduction) and the
kernel's \`cubic\` (\`max(cwnd, prior_cwnd)\` too), the reference a user
would pick today.  Algorithms in this run: $(printf '%s, ' "${algs[@]}" | sed 's/, $//').
Undo only happens after spurious retransmissions, and two families of
paths cause them: packets reordered (spurious fast retransmits) and a path
that stalls for longer than the RTO and then delivers everything
(spurious timeouts).

## Method

- Guest: ${meta[kernel]:-?} under QEMU TCG, 1 vCPU, with
  \`-icount ${icount:-none}\`${ns_per_insn:+ (guest time counts emulated instructions, ${ns_per_insn} ns each, and skips idle time)}:
  the emulated network runs on the guest's clock, so what a flow sees does
  not depend on how busy the host is.
  The busiest guest CPU during any flow of this run was ${busiest}%$(
	[ "$busiest" -lt 90 ] && echo ': no flow was limited by the emulated CPU.' ||
		echo ': flows at 90% or more were limited by the emulated CPU.')
- Path: two network namespaces over a veth pair (tests/guest/lib.sh
  \`net_up\`): on the sender's side a netem delay line of ${meta[delay_ms_each_way]:-50} ms,
  then the bottleneck, a netem child with rate ${meta[rate]:-10mbit} and a drop-tail
  queue; ${meta[delay_ms_each_way]:-50} ms more on the ACK path.  BDP ${bdp} packets
  (10 Mbit/s x ${base_ms} ms / 1514 bytes).  Queues:
  $(printf '%s, ' "${queues[@]/%/ packets}" | sed 's/, $//'), so the path holds
  BDP + queue = $(for q in "${queues[@]}"; do printf '%s, ' $((bdp + q)); done | sed 's/, $//') packets.
  - reorder family: the delay line also reorders (\`reorder P%\`: a
    packet, with probability P, skips it and goes straight to the
    bottleneck, ahead of the $((bdp / 2)) or so packets still in it).
    Points: $(for p in $(points reorder); do printf '%s, ' "$(label reorder "$p")"; done | sed 's/, $//').
  - stall family: the ACK path's delay line has a plug qdisc behind it
    which a timer in the guest closes for LEN s and then opens, letting
    everything it held go at once; the stall drops nothing (the burst
    that the released ACKs clock out can overflow the bottleneck's
    queue, and the queue drops count it).  The first stall
    starts ${skip} s into the flow, each next one a gap after the last ended,
    the gap uniform in [GAP/2, 3 GAP/2] (seeded by the run's number: all
    algorithms of a run meet the same stalls), none after $((secs - 3)) s.
    Stalls are meant to be longer than the RTO (about 0.3 to 0.6 s here
    on an undisturbed path; the RTT samples of ACKs a stall held raise
    it), so that they fire it and the ACKs let go show it spurious; the
    stall tables set the RTOs beside the stalls.  Why a
    plug and not netem's slot, a delay or tbf change: eval/guest/study.sh.
    Points (LEN:GAP): $(for p in $(points stall); do printf '%s, ' "$(label stall "$p")"; done | sed 's/, $//').
- Runs: iperf3 flows of ${secs} s, ${runs} runs per point, the algorithms
  alternating run by run in one boot.  Tables give the median and, in
  brackets, min-max over the runs.
  - single: one flow alone.  Goodput from iperf3; retransmitted and sent
    segments and undos from nstat in the sender's namespace, by kind:
    TcpExtTCPFullUndo (full, after a recovery), TCPPartialUndo, TCPDSACKUndo
    and TCPLossUndo (an RTO found spurious by timestamps or D-SACK); F-RTO's
    finds count in TCPSpuriousRTOs; RTOs are TCPTimeouts.  Each undo counts
    in exactly one of the five; "undos" is their sum.  Drops from the
    bottleneck qdisc.  cwnd, ssthresh and the smoothed RTT of every ACK from
    the kernel's tcp_probe tracepoint, congestion state changes from
    tcp_cong_state_set, each undo from a kprobe on
    tcp_undo_cwnd_reduction(); from ${skip} s on (after slow start): peak
    cwnd against BDP + queue, time with cwnd above it, time above Wmax, RTT
    percentiles.  Wmax is not visible for the kernel's algorithms, so it is
    rebuilt from the trace for all alike by BIC's rule (at each congestion
    event it becomes the cwnd then, or 1843/2048 of it when below the old
    Wmax, and an RTO clears it; no undo touches it; for cubic it is that
    rule's Wmax, not cubic's own); \`eval/guest/study-wmax.sh\` checks it
    against bictrace.  Queueing delay is the smoothed RTT less the path's
    ${base_ms} ms.
  - time to recover, per undo: from the undo to the first tcp_probe sample
    after it whose cwnd is at least the cwnd before the event undone (the
    last sample's cwnd before the latest move into CWR, Recovery or Loss).
    An undo that a new congestion event or the end of the flow overtakes
    first did not recover ("unrecovered", counted); a second undo of the
    same event is not timed again.  Each run gives the median and the
    largest time over its recovered undos; tables give the median over
    runs of the per-run median.  0 to a few ms means the undo itself put
    cwnd back (the next ACK shows it).
  - share: the same algorithm beside one Reno flow, both started together
    over the same bottleneck, at a few points; each flow's goodput from
    ss's bytes_acked from ${skip} s to $((secs - 1)) s; the BIC flow's share of
    the two.  Undos count both flows.
- Raw rows: \`study.tsv\` in the run's data folder, one per run; plotted
  cwnd traces, undos and stalls: its \`traces/\` (first run of each point).
EOF

for fam in "${fams[@]}"; do
	has_kind single || break
	for q in "${queues[@]}"; do
		cat <<-EOF

		## One flow alone, $fam family, $q-packet queue (path holds $((bdp + q)) packets)

		| $fam | algorithm | undos | full / partial / D-SACK / loss undos | spurious RTOs (F-RTO) | RTOs$([ "$fam" = stall ] && echo " / stalls") | time to recover p50 ms | largest ms | unrecovered | goodput Mbit/s | retrans % of sent | queue drops | peak cwnd / path from ${skip} s | first run: whole-flow peak / path | time cwnd > path | time cwnd > Wmax | queueing delay p50 / p95 ms |
		|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
		EOF
		while read -r pt; do
			for ca in "${algs[@]}"; do
				k="single|$fam|$ca|$pt|$q"
				echo "| $(label "$fam" "$pt") | $ca | $(cell "$k|undos" %.0f) |" \
					"$(cell "$k|full" %.0f) / $(cell "$k|partial" %.0f) / $(cell "$k|dsack" %.0f) / $(cell "$k|lossu" %.0f) |" \
					"$(cell "$k|spur" %.0f) | $(cell "$k|rtos" %.0f)$([ "$fam" = stall ] && echo " / $(cell "$k|stalls" %.0f)") |" \
					"$(cell "$k|ttr50" %.0f) | $(cell "$k|ttrmax" %.0f) | $(cell "$k|unrec" %.0f) |" \
					"$(cell "$k|mbps" %.2f) |" \
					"$(cell "$k|retrans_pct" %.1f) | $(cell "$k|drops" %.0f) |" \
					"$(cell "$k|peak_path" %.2f) | $(first_peak "$ca" "$fam" "$pt" "$q") |" \
					"$(cell "$k|above_path" %.0f%%) |" \
					"$(cell "$k|above_wmax" %.0f%%) | $(cell "$k|qd50" %.0f) / $(cell "$k|qd95" %.0f) |"
			done
		done < <(points "$fam")
		echo
		echo "Figure: \`$plots/study-single-$fam-$q.png\`."
	done
done

if has_kind share; then
	cat <<-EOF

	## Beside a Reno flow

	| family | point | queue | algorithm | undos (both flows) | BIC flow Mbit/s | Reno flow Mbit/s | BIC share | queue drops |
	|---|---|---|---|---|---|---|---|---|
	EOF
	for fam in "${fams[@]}"; do
		for q in "${queues[@]}"; do
			while read -r pt; do
				for ca in "${algs[@]}"; do
					k="share|$fam|$ca|$pt|$q"
					[ -n "${st[$k|mbps]:-}" ] || continue
					echo "| $fam | $(label "$fam" "$pt") | $q | $ca | $(cell "$k|undos" %.0f) | $(cell "$k|mbps" %.2f) |" \
						"$(cell "$k|reno_mbps" %.2f) | $(cell "$k|share" %.0f%%) | $(cell "$k|drops" %.0f) |"
				done
			done < <(points "$fam")
		done
	done
fi

cwndfigs=$(for f in "${figs[@]}"; do case $f in */study-cwnd-*) printf "\`%s\` " "$f" ;; esac; done)
[ -z "$cwndfigs" ] || printf '\nFigures of cwnd over time, with the undos and the stalls: %s\n' "$cwndfigs"
cat <<EOF

## What the data says

Each algorithm against the complete undo (\`bpf_bic_restore\`), counted over
the points (point x queue) of a family where both have runs; "apart" means
the min-max ranges of the ${runs} runs do not overlap.  A point with ranges
apart is named.
EOF
ref=bpf_bic_restore
[[ " ${algs[*]} " == *" $ref "* ]] || ref=${algs[0]}
for fam in "${fams[@]}"; do
	has_kind single || break
	printf '\n### %s family\n\n' "$fam"
	echo "| metric | algorithm | median higher than $ref at | of them apart | median lower at | of them apart | points apart |"
	echo "|---|---|---|---|---|---|---|"
	for mw in "undos:undos per run" "ttr50:time to recover (median)" "unrec:unrecovered undos" \
		"mbps:goodput" "retrans_pct:retransmissions" "drops:queue drops" "rtos:RTOs" \
		"peak_path:peak cwnd against the path" "above_path:time with cwnd above BDP + queue" \
		"qd95:95th percentile queueing delay"; do
		m=${mw%%:*}
		for ca in "${algs[@]}"; do
			[ "$ca" = "$ref" ] && continue
			read -r n up ups dn dns <<< "$(compare single "$fam" "$m" "$ca" "$ref")"
			[ "$n" -gt 0 ] || continue
			names=""
			for q in "${queues[@]}"; do
				while read -r pt; do
					[ -n "$(apart single "$fam" "$pt" "$q" "$m" "$ca" "$ref")" ] &&
						names+="$(label "$fam" "$pt")/$q, "
				done < <(points "$fam")
			done
			echo "| ${mw#*:} | $ca | $up of $n | $ups | $dn of $n | $dns | ${names%, } |"
		done
	done
done
if has_kind share; then
	printf '\n### Beside Reno\n\n'
	for fam in "${fams[@]}"; do
		for ca in "${algs[@]}"; do
			[ "$ca" = "$ref" ] && continue
			read -r n up ups dn dns <<< "$(compare share "$fam" share "$ca" "$ref")"
			[ "$n" -gt 0 ] || continue
			echo "- $fam: $ca against $ref, share beside Reno: median higher at $up of $n points (apart at $ups), lower at $dn (apart at $dns)."
		done
	done
fi

if [ -s "$cost" ]; then
	cat <<-EOF

	## What it cost

	Host time of each point, dated on the host as the guest's console said
	each point began and ended (eval/study-timed.sh), against the guest's
	own (under -icount the emulated clock: idle time skipped, busy time at
	${ns_per_insn:-?} ns an instruction).

	| kind | family | point | queue | flows | guest s | host s | host s a flow |
	|---|---|---|---|---|---|---|---|
	EOF
	awk '{ printf "| %s | %s | %s | %s | %d | %d | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7,
		($7 == "-" || !$5) ? "-" : sprintf("%.1f", $7 / $5) }' "$cost"
	awk '$7 != "-" { f += $5; h += $7; g += $6 }
		END { if (f) printf "\nIn all %d flows, %d s of host time (%.1f s a flow), %d s of the guest'"'"'s.\n", f, h, h / f, g }' "$cost"
fi

if [ -r "$here/study-conclusion.md" ]; then
	echo
	cat "$here/study-conclusion.md"
fi
echo
parts=${meta[parts]:-1}
echo "Guest time of the run: ${meta[guest_secs]:-?} s (the guest's clock, under -icount$(
	[ "$parts" -gt 1 ] && echo "; the longest of $parts guests side by side, one per queue"));" \
	"host wall time: ${meta[host_wall_secs]:-?} s."
} > "$out"

echo "$out"
printf '%s\n' "${figs[@]}"
