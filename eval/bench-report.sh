#!/bin/bash
# make bench, host side: the guest's raw numbers (eval/guest/bench.sh, one
# boot for the scenario matrix, one for the per-ACK cost) as markdown
# tables, printed and written to a file meant to be committed.  Its own
# sections replace those of the file; the others (make scale's) stay.
#
# usage: bench-report.sh DATA_DIR OUT.md [ICOUNT]
#   ICOUNT	the -icount option the cost boot ran with (shift=N,...), so
#		guest time can be told in emulated instructions
set -euo pipefail

die() { echo "bench-report: $*" >&2; exit 1; }

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: bench-report.sh DATA_DIR OUT.md [ICOUNT]"
data=$1 out=$2 icount=${3:-}
tsvs=$(find "$data" \( -name bench-matrix.tsv -o -name bench-cost.tsv \) | sort)
[ -n "$tsvs" ] || die "no bench-*.tsv below $data: did the guest run eval/bench.sh?"
mkdir -p "$(dirname "$out")"
STATS_AWK=$(cat "$(dirname "$0")/stats.awk")	# num, sortn, median, overlap
MATRIX_TITLE="## Scenario matrix"
COST_TITLE="## Per-ACK cost, BPF against native"

# v[TEST|CA|METRIC]: each value as the guest wrote it (the matrix's boots
# each add their own guest time); a matrix test is SCENARIO@RUN.
declare -A v
while IFS=$'\t' read -r test ca metric value; do
	if [ "$metric" = guest_secs ] && [ -n "${v[$test|$ca|$metric]:-}" ]; then
		value=$((v[$test|$ca|$metric] + value))
	fi
	v[$test|$ca|$metric]=$value
done < <(for f in $tsvs; do awk 'FNR > 1' "$f"; done)
v[all|matrix|boots]=$(grep -c 'bench-matrix\.tsv$' <<<"$tsvs" || true)

# m[SCENARIO|CA|METRIC]: "median min max n" over the runs, and for t90 the
# runs that never reached 90% in m[...|t90_none]; busy is cpu_s / wall_s,
# rttratio the 20 ms flow's goodput over the 100 ms one's.
declare -A m
while IFS=$'\t' read -r key stats; do
	m[$key]=$stats
done < <(for k in "${!v[@]}"; do
		case $k in
		*@*) printf '%s\t%s\n' "$k" "${v[$k]}" ;;
		esac
	done | awk -F'\t' "$STATS_AWK"'
	{
		split($1, f, "|"); sc = f[1]; sub(/@.*/, "", sc)
		run = f[1]; sub(/^[^@]*@/, "", run)
		key = sc "|" f[2]; val[key, run, f[3]] = $2; keys[key] = 1; runs[key, run] = 1
	}
	function add(k, x) { n[k]++; a[k, n[k]] = x }
	END {
		for (kr in runs) {
			split(kr, p, SUBSEP); k = p[1]; r = p[2]
			if ((k, r, "util") in val) add(k "|util", val[k, r, "util"])
			if ((k, r, "bps") in val) add(k "|bps", val[k, r, "bps"])
			if ((k, r, "jain") in val) add(k "|jain", val[k, r, "jain"])
			if ((k, r, "wall_s") in val && val[k, r, "wall_s"] > 0)
				add(k "|busy", val[k, r, "cpu_s"] / val[k, r, "wall_s"])
			if ((k, r, "t90") in val) {
				t = val[k, r, "t90"]; gsub(/"/, "", t)
				if (t ~ /^[0-9.]+$/) add(k "|t90", t); else none[k "|t90_none"]++
			}
			if ((k, r, "flows_bps") in val) {
				nf = split(val[k, r, "flows_bps"], b, "/")
				if (nf == 2 && b[2] > 0) add(k "|rttratio", b[1] / b[2])
			}
		}
		for (k in n) {
			c = n[k]; delete s
			for (i = 1; i <= c; i++) s[i] = a[k, i]
			sortn(s, c)
			printf "%s\t%s %s %s %d\n", k, median(s, c), s[1], s[c], c
		}
		for (k in none)
			printf "%s\t%d\n", k, none[k]
	}')

algs=()
for ca in bpf_bic bic_ref cubic reno; do
	[ -n "${m[util1|$ca|util]:-}" ] && algs+=("$ca")
done

# calc EXPR [VAR=VALUE...]: awk arithmetic, printf-formatted by the caller.
calc() {
	local expr=$1 a args=()
	shift
	for a in "$@"; do
		args+=(-v "$a")
	done
	awk "${args[@]}" "BEGIN { $expr }"
}

pct() { calc 'printf "%.1f%%", x * 100' "x=$1"; }
mbps() { calc 'printf "%.2f\n", x / 1e6' "x=$1"; }

# -icount shift=N: each emulated instruction is 2^N ns of guest time.
# shellcheck source=eval/icount.sh
. "$(dirname "$0")/icount.sh"
ns_per_insn=$(ns_per_insn "$icount")

# A run whose guest CPU was (nearly) never idle measured the emulator as
# much as the algorithm: say how busy it was (median of the runs), and call
# 90% CPU-bound.
cpu_note() {
	local busy=${m[$1|$2|busy]:-}
	[ -n "$busy" ] || return 0
	calc 'u = b + 0
	      if (u >= 0.9) printf ", CPU-bound: guest CPU %.0f%% busy", 100 * u
	      else if (u >= 0.5) printf ", guest CPU %.0f%% busy", 100 * u' "b=${busy%% *}"
}

# fmt KIND "MEDIAN MIN MAX N": a median and its range, in KIND's units.
fmt() {
	local med min max n
	read -r med min max n <<<"$2"
	case $1 in
	pct) calc 'printf "%.1f%% (%.1f-%.1f)", 100 * a, 100 * b, 100 * c' "a=$med" "b=$min" "c=$max" ;;
	mbps) calc 'printf "%.2f Mbit/s (%.2f-%.2f)", a / 1e6, b / 1e6, c / 1e6' "a=$med" "b=$min" "c=$max" ;;
	s) calc 'printf "%.1f s (%.1f-%.1f)", a, b, c' "a=$med" "b=$min" "c=$max" ;;
	*) calc 'printf "%.3f (%.3f-%.3f)", a, b, c' "a=$med" "b=$min" "c=$max" ;;
	esac
}

# metric_of WHAT: the m[] metric a row of that kind compares.
metric_of() {
	case $1 in
	util) echo util ;;
	goodput) echo bps ;;
	*) echo "$1" ;;
	esac
}

cell() {
	local sc=$1 ca=$2 what=$3 x none
	x=${m[$sc|$ca|$(metric_of "$what")]:-}
	case $what in
	util)
		[ -n "$x" ] && echo "$(fmt pct "$x")$(cpu_note "$sc" "$ca")" |
			sed 's/^\([^,]*\), \(.*\)$/\1, \2/' ;;
	t90)
		none=${m[$sc|$ca|t90_none]:-0}
		if [ -z "$x" ]; then
			[ "$none" -gt 0 ] && echo "not reached"
		else
			echo "$(fmt s "$x")$([ "$none" -gt 0 ] && echo ", not reached in $none")"
		fi ;;
	goodput)
		[ -n "$x" ] && echo "$(fmt mbps "$x")$(cpu_note "$sc" "$ca")" ;;
	jain | rttratio)
		[ -n "$x" ] && fmt num "$x" ;;
	esac
}

# overlapping_pairs SCENARIO WHAT: the pairs of algorithms whose ranges
# over the runs overlap (stats.awk's overlap), i.e. between which these
# runs show no measurable difference.
overlapping_pairs() {
	local sc=$1 metric i j a b lo1 hi1 lo2 hi2 list=()
	metric=$(metric_of "$2")
	for ((i = 0; i < ${#algs[@]}; i++)); do
		for ((j = i + 1; j < ${#algs[@]}; j++)); do
			a=${m[$sc|${algs[i]}|$metric]:-} b=${m[$sc|${algs[j]}|$metric]:-}
			if [ -z "$a" ] || [ -z "$b" ]; then
				continue
			fi
			read -r _ lo1 hi1 _ <<<"$a"
			read -r _ lo2 hi2 _ <<<"$b"
			if awk -v l1="$lo1" -v h1="$hi1" -v l2="$lo2" -v h2="$hi2" \
				"$STATS_AWK"'BEGIN { exit !overlap(l1, h1, l2, h2) }'; then
				list+=("${algs[i]} ~ ${algs[j]}")
			fi
		done
	done
	local IFS=,
	list=("${list[*]:-none}")
	echo "${list[0]//,/, }"
}

row() {
	local scen=$1 metric=$2 sc=$3 what=$4 ca line
	line="| $scen | $metric |"
	for ca in "${algs[@]}"; do
		line+=" $(cell "$sc" "$ca" "$what" || true) |"
	done
	[ "$what" = t90 ] && line+=" |" || line+=" $(overlapping_pairs "$sc" "$what") |"
	echo "$line"
}

# One line per cost run: round, algorithm, busy guest ns (the run's guest
# time less the idle time in it), ACKs, busy ns per ACK.
cost_rows() {
	local k r ca ns
	for k in "${!v[@]}"; do
		case $k in
		cost[0-9]*\|*\|ns) r=${k%%|*} && r=${r#cost} && ca=${k#*|} && echo "$r ${ca%|ns}" ;;
		esac
	done | sort -n | while read -r r ca; do
		ns=$(( ${v[cost$r|$ca|ns]} - ${v[cost$r|$ca|idle_ns]} ))
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$ca" "$ns" "${v[cost$r|$ca|acks]}" \
			"$(calc 'printf "%.1f", n / a' "n=$ns" "a=${v[cost$r|$ca|acks]}")"
	done
}

# ack_rows PREFIX: one line per tcp_ack() run of tests PREFIX1, PREFIX2...:
# round, algorithm, the median ns of its calls that acked one segment, their
# number, all calls' mean ns.
ack_rows() {
	local pre=$1 k r ca
	for k in "${!v[@]}"; do
		case $k in
		"$pre"[0-9]*\|*\|tcp_ack1_median_ns)
			r=${k%%|*} && r=${r#"$pre"} && ca=${k#*|} && echo "$r ${ca%|tcp_ack1_median_ns}" ;;
		esac
	done | sort -n | while read -r r ca; do
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$ca" "${v[$pre$r|$ca|tcp_ack1_median_ns]}" \
			"${v[$pre$r|$ca|tcp_ack1_calls]}" "${v[$pre$r|$ca|tcp_ack_mean_ns]}"
	done
}

# ack_table PREFIX: the tcp_ack() table of those runs, and what it says.
ack_table() {
	local tmp gap entries
	tmp=$(mktemp)
	echo "| algorithm | runs | tcp_ack() ns, one segment acked, median (min-max) | emulated instructions | / bic_ref | instructions more than bic_ref |"
	echo "|---|---|---|---|---|---|"
	ack_rows "$1" > "$tmp"
	compare 3 table < "$tmp"
	echo
	pair_line "the method's own noise: two native BICs" bic/bic_ref 3 < "$tmp"
	pair_line "another native algorithm, for scale (its own work differs)" cubic/bic_ref 3 < "$tmp"
	pair_line "BPF bic against native, per call" bpf_bic/bic_ref 3 < "$tmp"
	pair_line "against the kernel's own bic" bpf_bic/bic 3 < "$tmp"
	pair_line "tracing" bpf_bic_tr/bpf_bic 3 < "$tmp"
	pair_line "one entry fewer (not exact, see below)" bpf_bic_1e/bpf_bic 3 < "$tmp"
	pair_line "one entry into BPF (cong_avoid through a trampoline, Reno as a kfunc)" \
		bpf_reno/reno 3 < "$tmp"
	pair_line "a second entry (an empty pkts_acked)" bpf_reno_acked/bpf_reno 3 < "$tmp"
	gap=$(med_insns bpf_bic/bic_ref < "$tmp")
	entries=$(med_insns bpf_reno_acked/reno < "$tmp")
	[ -n "$gap" ] && [ -n "$entries" ] &&
		echo "- the gap: bpf_bic costs **$gap** instructions per call more than bic_ref; two entries into BPF (bpf_reno_acked - reno) account for **$entries**, which leaves **$((gap - entries))** for BIC's own work compiled to BPF against the same work native"
	rm -f "$tmp"
}

# compare COLUMN MODE [A/B...]: reads round, algorithm, ... lines; COLUMN is
# the cost in ns.  MODE table: per algorithm of COST_ORDER the median
# (min-max) over rounds, in instructions too, and against bic_ref in the
# same round the ratio and the extra instructions, median (min-max).  MODE
# pairs: for each A/B the same two figures, one line each.
compare() {
	awk -F'\t' -v col="$1" -v mode="$2" -v pairs="${*:3}" -v nspi="${ns_per_insn:-1}" \
		-v order="$COST_ORDER" "$STATS_AWK"'
		{ c[$1, $2] = $col; r[$1] = 1 }
		# over the rounds with both: x / b, or (x - b) in instructions
		function rel(x, b, kind,    rr, n, a) {
			n = 0
			for (rr in r)
				if ((rr, x) in c && (rr, b) in c)
					a[++n] = kind == "ratio" ? c[rr, x] / c[rr, b] : (c[rr, x] - c[rr, b]) / nspi
			sortn(a, n)
			if (!n)
				return "-"
			if (kind == "ratio")
				return sprintf("%.4f (%.4f-%.4f)", median(a, n), a[1], a[n])
			return sprintf("%+.0f (%+.0f to %+.0f)", median(a, n), a[1], a[n])
		}
		function self(x,    rr, n, a) {
			n = 0
			for (rr in r)
				if ((rr, x) in c)
					a[++n] = c[rr, x]
			sortn(a, n)
			return sprintf("%d | %.0f (%.0f-%.0f) | %.0f", n, median(a, n), a[1], a[n], median(a, n) / nspi)
		}
		END {
			if (mode == "table") {
				na = split(order, alg, " ")
				for (k = 1; k <= na; k++)
					printf "| %s | %s | %s | %s |\n", alg[k], self(alg[k]),
						alg[k] == "bic_ref" ? "1" : rel(alg[k], "bic_ref", "ratio"),
						alg[k] == "bic_ref" ? "0" : rel(alg[k], "bic_ref", "insns")
				exit
			}
			np = split(pairs, p, " ")
			for (k = 1; k <= np; k++) {
				split(p[k], ab, "/")
				printf "%s\t%s\t%s\n", p[k], rel(ab[1], ab[2], "ratio"), rel(ab[1], ab[2], "insns")
			}
		}'
}

# med_insns A/B: the median extra instructions of A over B, a whole number,
# from ack_rows lines on stdin.
med_insns() {
	local k ratio insns
	IFS=$'\t' read -r k ratio insns < <(compare 3 pairs "$1")
	insns=${insns%% *}
	[ "$insns" != "-" ] && echo "${insns#+}"
}

# pair_line LABEL A/B COLUMN: "- LABEL: A / B ratio, N instructions more"
# from the rows on stdin.
pair_line() {
	local label=$1 pair=$2 col=$3 k ratio insns
	IFS=$'\t' read -r k ratio insns < <(compare "$col" pairs "$pair")
	echo "- $label, ${pair/\// \/ }: **${ratio%% *}** ${ratio#* }, **${insns%% *}** instructions ${insns#* }"
}

matrix_section() {
	echo "$MATRIX_TITLE"
	echo
	local runs
	runs=${m[util1|${algs[0]}|util]##* }
	echo "Guest: ${v[all|matrix|kernel]:-?} on ${v[all|matrix|cpu]:-?}, 1 vCPU; guest clock:"
	echo "${icount:+QEMU -icount $icount, }${v[all|matrix|guest_secs]:-?} s of guest time in ${v[all|matrix|boots]:-?} boots side by side."
	echo "Two network namespaces joined by a veth pair, netem for rate, delay, queue"
	echo "and loss on the sender's side, iperf3 traffic.  Each cell is the median"
	echo "and, in brackets, the range of $runs runs, the algorithms taking turns"
	echo "within each run; the last column names the pairs whose ranges overlap,"
	echo "between which these runs show no measurable difference.  bpf_bic and"
	echo "bic_ref run the same bic_math.h: what separates them here is chaos, the"
	echo "BPF path's instructions per ACK moving every later event (the seed's path,"
	echo "below, traces it); tests/guest/t_60_differential.sh is their controlled"
	echo "comparison.  These paths are small; windows of thousands of packets, where"
	echo "BIC was meant to work, are the design point's section (a 100 Mbit/s cell"
	echo "that was here measured the emulated CPU, busy throughout, not the"
	echo "algorithms)."
	echo "Utilization is receiver goodput over the netem rate, which counts whole"
	echo "frames: 1448 bytes of payload in 1514 put the ceiling at 95.6%.  Under"
	echo "-icount the emulated CPU runs at a fixed $(( ${ns_per_insn:+1000 / ns_per_insn} ))M instructions a guest second,"
	echo "whatever else the host runs, so the runs do not depend on host load;"
	echo "where that CPU was busy the cell says so, at 90% or more CPU-bound."
	echo
	printf '| scenario | metric |'
	printf ' %s |' "${algs[@]}"
	echo " no measurable difference |"
	printf '|---|---|'
	printf -- '---|%.0s' "${algs[@]}"
	echo "---|"
	row "1 Mbit/s, 100 ms RTT, 30-packet queue, 15 s" "utilization" util1 util
	row "" "time to 90% utilization (0.5 s bins)" util1 t90
	row "2 flows, 10 Mbit/s, 100 ms, 150-packet queue, started 2 s apart" \
		"Jain index over ${v[jain2@1|${algs[0]}|window]:-?} (per-flow goodput)" jain2 jain
	row "4 flows, 10 Mbit/s, 100 ms, 150-packet queue, started 2 s apart" \
		"Jain index over ${v[jain4@1|${algs[0]}|window]:-?} (per-flow goodput)" jain4 jain
	row "20 ms and 100 ms RTT flows, 10 Mbit/s, started together" \
		"Jain index over ${v[rtt@1|${algs[0]}|window]:-?} (20 ms/100 ms goodput)" rtt jain
	row "" "goodput ratio 20 ms / 100 ms flow" rtt rttratio
	row "1% random loss, 10 Mbit/s, 100 ms RTT, 150-packet queue, 15 s" "goodput" loss1 goodput
}

cost_section() {
	local clock="host time" k p n ns idle acks order tmp floor
	tmp=$(mktemp)
	cost_rows > "$tmp"
	read -ra order <<<"${v[all|cost|algs]}"
	COST_ORDER=${order[*]}
	idle=$(for k in "${!v[@]}"; do
		if [[ $k == cost[0-9]*"|idle_ns" ]]; then echo "${v[$k]}"; fi
	done | sort -n | tail -n 1)
	acks=$(cut -f4 "$tmp" | sort -n | sed -n '1p;$p' | paste -sd-)
	[ -n "$ns_per_insn" ] &&
		clock="QEMU -icount $icount, $ns_per_insn ns of guest time per emulated instruction"
	echo "$COST_TITLE"
	echo
	echo "Guest: ${v[all|cost|kernel]:-?} on ${v[all|cost|cpu]:-?}, 1 vCPU;"
	echo "guest clock: $clock."
	echo "tcpblast sends ${v[all|cost|bytes]:-?} bytes on one connection over an unshaped veth"
	echo "(no qdisc, offloads off, a quickack route so that the receiver ACKs every"
	echo "segment) and times it in guest ns, from connect() to the receiver's close."
	echo "Under -icount the guest clock counts emulated instructions and nothing"
	echo "else, and the guest CPU is busy throughout (idle time, from"
	echo "/proc/timer_list, is taken out; it was $idle ns at most in a run), so"
	echo "busy guest ns / $ns_per_insn is what the whole path cost in instructions, every"
	echo "layer of the stack included, for the same bytes ($acks ACKs a run)."
	echo "${v[all|cost|rounds]:-?} rounds, the algorithms alternating in one"
	echo "boot after a warm-up transfer: bic_ref is bic_math.h as a native module,"
	echo "bic the kernel's own, bpf_bic untraced (the default) and bpf_bic_tr traced"
	echo "with bictrace reading, reno and bpf_reno the kernel's Reno natively and"
	echo "called as kfuncs from BPF (one entry into BPF per ACK), bpf_reno_acked the"
	echo "same with an empty pkts_acked (a second entry, as bpf_bic has), and"
	echo "bpf_bic_1e a bpf_bic that enters BPF once per ACK (below)."
	echo
	echo "| algorithm | runs | busy guest ns per ACK, median (min-max) | emulated instructions per ACK | cost / bic_ref, median (min-max) | instructions per ACK more than bic_ref |"
	echo "|---|---|---|---|---|---|"
	compare 5 table < "$tmp"
	echo
	pair_line "the method's own noise: two native BICs that do the same work" bic/bic_ref 5 < "$tmp"
	pair_line "another native algorithm, which does more per ACK (see inside tcp_ack() below)" \
		cubic/bic_ref 5 < "$tmp"
	pair_line "untraced BPF against the same arithmetic native" bpf_bic/bic_ref 5 < "$tmp"
	pair_line "against the kernel's own bic" bpf_bic/bic 5 < "$tmp"
	pair_line "tracing, with bictrace reading the ring" bpf_bic_tr/bpf_bic 5 < "$tmp"
	echo
	echo "Per round, busy guest ns per ACK:"
	echo
	printf '| round |'
	printf ' %s |' "${order[@]}"
	echo
	printf '|---|'
	printf -- '---|%.0s' "${order[@]}"
	echo
	awk -F'\t' -v order="$COST_ORDER" '
		{ c[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; rr[++n] = $1 } }
		END {
			na = split(order, alg, " ")
			for (i = 1; i <= n; i++) {
				line = "| " rr[i] " |"
				for (k = 1; k <= na; k++)
					line = line " " c[rr[i], alg[k]] " |"
				print line
			}
		}' "$tmp"
	if [ -n "${v[ack1|bic_ref|tcp_ack1_median_ns]:-}" ]; then
		echo
		echo "### Inside tcp_ack()"
		echo
		echo "The path's own run-to-run noise hides differences of a few dozen"
		echo "instructions per ACK.  tcp_ack() is where an ACK meets the congestion"
		echo "control (pkts_acked while the retransmit queue is cleaned, cong_avoid from"
		echo "tcp_cong_control), so ackcost (fentry and fexit on tcp_ack, eval/bpf/ackcost.bpf.c)"
		echo "times each of its calls on the sender's connection, in ${v[all|cost|ack_bytes]:-?}-byte"
		echo "transfers, ${v[all|cost|ack_rounds]:-?} rounds.  ACKs that arrive while the sender holds its"
		echo "socket wait in the backlog and are coalesced, so tcp_ack() ran about once"
		echo "per $(calc 'printf "%.1f", a / c' "a=${v[ack1|bic_ref|acks]:-0}" "c=${v[ack1|bic_ref|tcp_ack_calls]:-1}") ACKs (bic_ref, round 1: ${v[ack1|bic_ref|tcp_ack_calls]:-?} calls for ${v[ack1|bic_ref|acks]:-?} ACKs)"
		echo "here, and the algorithm runs once per call.  The figure is the median of"
		echo "the calls that acked exactly one segment (the same work but for the"
		echo "algorithm's; the calls' own spread, p10-p90, is about ${v[ack1|bic_ref|tcp_ack1_p10_ns]:-?}-${v[ack1|bic_ref|tcp_ack1_p90_ns]:-?} ns for"
		echo "bic_ref in round 1); the fentry/fexit pair adds the same to every algorithm."
		echo
		echo "Unshaped, as above (the flow is limited by the CPU and the receiver's"
		echo "window, not by cwnd: cong_avoid returns at tcp_is_cwnd_limited()):"
		echo
		ack_table ack
		echo
		echo "Shaped to ${v[all|cost|cwnd_rate]:-?} with 10 ms of delay and a 100-packet queue, where"
		echo "cwnd limits the flow and losses keep BIC in congestion avoidance, so"
		echo "BIC's growth runs on every ACK (and a traced bpf_bic records each cwnd"
		echo "change):"
		echo
		ack_table cwnd
		echo
		echo "Every ACK enters BPF twice, pkts_acked (BIC's delayed-ACK estimate) and"
		echo "cong_avoid, each through a trampoline.  bpf_bic_1e updates the estimate"
		echo "in cong_avoid instead, with the acked count it is given, and has no"
		echo "pkts_acked.  It is not BIC: the kernel calls pkts_acked on ACKs that"
		echo "cong_avoid never sees (those that acknowledge nothing new decay the"
		echo "estimate) and before an ACK can take the socket out of recovery, and on"
		echo "the drill scripts (tests/guest/t_70_drill.sh's exact harness) its rows"
		echo "differ from bpf_bic's on ${v[onentry|bpf_bic_1e|differ]:-?} of ${v[onentry|bpf_bic_1e|scripts]:-?} scripts (first: ${v[onentry|bpf_bic_1e|first]:-?})."
		echo "cong_control, which would take the whole per-ACK decision, would also"
		echo "have to redo tcp_cwnd_reduction() (PRR), which the kernel offers no BPF"
		echo "program.  So bpf_bic keeps its two entries; their price is the gap."
	fi
	rm -f "$tmp"
	[ -n "${v[coststats|bpf_bic_cong_avoid|run_cnt]:-}" ] || return 0
	n=${v[coststats|bpf_reno_pkts_acked|run_cnt]:-0}
	floor='?'
	[ "$n" -gt 0 ] &&
		floor=$((v[coststats|bpf_reno_pkts_acked|run_time_ns] / n / ${ns_per_insn:-1}))
	echo
	echo "With kernel.bpf_stats_enabled=1 for one more run each of bpf_bic and"
	echo "bpf_reno_acked on the shaped path, the BPF programs' run time as the"
	echo "trampoline accounts it, kfuncs they call included.  Under -icount the"
	echo "clock reads that take it are themselves costly and partly inside it: the"
	echo "empty bpf_reno_pkts_acked, $floor instructions a call, is this method's floor, so"
	echo "read the rows against it, not as absolute figures:"
	echo
	if [ -n "$ns_per_insn" ]; then
		echo "| program | calls | guest ns per call | emulated instructions per call |"
		echo "|---|---|---|---|"
	else
		echo "| program | calls | ns per call |"
		echo "|---|---|---|"
	fi
	for k in "${!v[@]}"; do
		case $k in
		coststats\|*\|run_cnt) p=${k#coststats|} && echo "${p%|run_cnt}" ;;
		esac
	done | sort | while read -r p; do
		n=${v[coststats|$p|run_cnt]} ns=${v[coststats|$p|run_time_ns]:-0}
		if [ "$n" -eq 0 ]; then
			echo "| $p | 0 | - |${ns_per_insn:+ - |}"
		elif [ -n "$ns_per_insn" ]; then
			echo "| $p | $n | $((ns / n)) | $((ns / n / ns_per_insn)) |"
		else
			echo "| $p | $n | $((ns / n)) |"
		fi
	done
}

# The sections of OUT this report does not write (make scale's), to keep
# after its own.
others() {
	[ -s "$out" ] || return 0
	awk -v a="$MATRIX_TITLE" -v b="$COST_TITLE" '/^## / { keep = $0 != a && $0 != b } keep' "$out"
}
kept=$(others)

{
	echo "# Benchmarks"
	echo
	echo "Written by \`make bench\` (eval/guest/bench.sh in the guest, eval/bench-report.sh"
	echo "on the host); rerun it rather than editing this file.  Absolute numbers are"
	echo "those of an emulated machine: compare columns, not machines."
	echo
	if [ ${#algs[@]} -gt 0 ]; then
		matrix_section
		echo
	fi
	[ -n "${v[cost1|bic_ref|ns]:-}" ] && cost_section
	if [ -n "$kept" ]; then
		echo
		echo "$kept"
	fi
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
