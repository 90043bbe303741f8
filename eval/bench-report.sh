#!/bin/bash
# make bench, host side: the guest's raw numbers (tests/guest/bench.sh, one
# boot for the scenario matrix, one for the per-ACK cost) as markdown
# tables, printed and written to a file meant to be committed.
#
# usage: bench-report.sh DATA_DIR OUT.md [ICOUNT]
#   ICOUNT	the -icount option the cost boot ran with (shift=N,...), so
#		guest time can be told in emulated instructions
set -euo pipefail

die() { echo "bench-report: $*" >&2; exit 1; }

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: bench-report.sh DATA_DIR OUT.md [ICOUNT]"
data=$1 out=$2 icount=${3:-}
compgen -G "$data/bench-*.tsv" >/dev/null || die "no $data/bench-*.tsv: did the guest run tests/bench.sh?"
mkdir -p "$(dirname "$out")"

declare -A v
while IFS=$'\t' read -r test ca metric value; do
	v[$test|$ca|$metric]=$value
done < <(awk 'FNR > 1' "$data"/bench-*.tsv)

algs=()
for ca in bpf_bic bic_ref cubic reno; do
	[ -n "${v[util1|$ca|bps]:-}" ] && algs+=("$ca")
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
ns_per_insn=
case $icount in
shift=[0-9]*)
	n=${icount#shift=}
	ns_per_insn=$((1 << ${n%%,*}))
	;;
esac

# A run whose guest CPU was (nearly) never idle measured the emulator as
# much as the algorithm: say how busy it was, and call 90% CPU-bound.
cpu_note() {
	local busy=${v[$1|$2|cpu_s]:-} wall=${v[$1|$2|wall_s]:-}
	[ -n "$busy" ] && [ -n "$wall" ] || return 0
	calc 'u = w > 0 ? b / w : 0
	      if (u >= 0.9) printf ", CPU-bound: guest CPU %.0f%% busy", 100 * u
	      else if (u >= 0.5) printf ", guest CPU %.0f%% busy", 100 * u' "b=$busy" "w=$wall"
}

cell() {
	local test=$1 ca=$2 what=$3 x
	case $what in
	util)
		x=${v[$test|$ca|util]:-}
		[ -n "$x" ] && echo "$(pct "$x")$(cpu_note "$test" "$ca")" |
			sed 's/^\([^,]*\), \(.*\)$/\1 (\2)/' ;;
	t90)
		x=${v[$test|$ca|t90]:-}
		case $x in
		"") ;;
		none | '"none"') echo "not reached" ;;
		n/a) echo "n/a (no receiver report)" ;;
		*) calc 'printf "%.1f s", x' "x=$x" ;;
		esac ;;
	goodput)
		x=${v[$test|$ca|bps]:-}
		[ -n "$x" ] &&
			echo "$(mbps "$x") Mbit/s ($(pct "${v[$test|$ca|util]}")$(cpu_note "$test" "$ca"))" ;;
	jain)
		x=${v[$test|$ca|jain]:-}
		[ -n "$x" ] && echo "$x ($(tr '/' '\n' <<< "${v[$test|$ca|flows_bps]}" |
			while read -r b; do mbps "$b"; done | paste -sd/) Mbit/s)" ;;
	rttratio)
		x=${v[$test|$ca|flows_bps]:-}
		[ -n "$x" ] && calc 'if (l > 0) printf "%.2f", s / l; else printf "inf"' \
			"s=${x%%/*}" "l=${x##*/}" ;;
	esac
}

row() {
	local scen=$1 metric=$2 test=$3 what=$4 ca line
	line="| $scen | $metric |"
	for ca in "${algs[@]}"; do
		line+=" $(cell "$test" "$ca" "$what" || true) |"
	done
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
	ack_rows "$1" | compare 3 table
	echo
	ack_rows "$1" > "$tmp"
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
		-v order="$COST_ORDER" '
		{ c[$1, $2] = $col; r[$1] = 1 }
		function sortn(a, n,    i, j, t) {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		}
		function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
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
				return sprintf("%.4f (%.4f-%.4f)", med(a, n), a[1], a[n])
			return sprintf("%+.0f (%+.0f to %+.0f)", med(a, n), a[1], a[n])
		}
		function self(x,    rr, n, a) {
			n = 0
			for (rr in r)
				if ((rr, x) in c)
					a[++n] = c[rr, x]
			sortn(a, n)
			return sprintf("%d | %.0f (%.0f-%.0f) | %.0f", n, med(a, n), a[1], a[n], med(a, n) / nspi)
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
	echo "## Scenario matrix"
	echo
	echo "Guest: ${v[all|matrix|kernel]:-?} on ${v[all|matrix|cpu]:-?}, 1 vCPU, ${v[all|matrix|guest_secs]:-?} s"
	echo "of guest time; two network namespaces joined by a veth pair, netem for rate,"
	echo "delay, queue and loss on the sender's side, iperf3 traffic.  One run per"
	echo "cell: between bpf_bic and bic_ref, which run the same bic_math.h, the"
	echo "differences here are run-to-run variance (random loss, start-up timing);"
	echo "tests/guest/t_60_differential.sh is their controlled comparison."
	echo "Utilization is receiver goodput over the netem rate, which counts whole"
	echo "frames: 1448 bytes of payload in 1514 put the ceiling at 95.6%.  Under QEMU"
	echo "TCG every packet costs emulated CPU: where the guest CPU was busy the cell"
	echo "says so, and at 90% or more calls itself CPU-bound."
	echo
	printf '| scenario | metric |'
	printf ' %s |' "${algs[@]}"
	echo
	printf '|---|---|'
	printf -- '---|%.0s' "${algs[@]}"
	echo
	row "1 Mbit/s, 100 ms RTT, 30-packet queue, 15 s" "utilization" util1 util
	row "" "time to 90% utilization (0.5 s bins)" util1 t90
	row "100 Mbit/s, 100 ms RTT, 830-packet queue (1 BDP), 15 s" "utilization" util100 util
	row "" "time to 90% utilization (0.5 s bins)" util100 t90
	row "2 flows, 10 Mbit/s, 100 ms, 150-packet queue, started 2 s apart" \
		"Jain index over ${v[jain2|${algs[0]}|window]:-?} (per-flow goodput)" jain2 jain
	row "4 flows, 10 Mbit/s, 100 ms, 150-packet queue, started 2 s apart" \
		"Jain index over ${v[jain4|${algs[0]}|window]:-?} (per-flow goodput)" jain4 jain
	row "20 ms and 100 ms RTT flows, 10 Mbit/s, started together" \
		"Jain index over ${v[rtt|${algs[0]}|window]:-?} (20 ms/100 ms goodput)" rtt jain
	row "" "goodput ratio 20 ms / 100 ms flow" rtt rttratio
	row "1% random loss, 10 Mbit/s, 100 ms RTT, 150-packet queue, 15 s" "goodput (utilization)" loss1 goodput
}

cost_section() {
	local clock="host time" k p n ns idle acks order tmp floor
	tmp=$(mktemp)
	read -ra order <<<"${v[all|cost|algs]}"
	COST_ORDER=${order[*]}
	idle=$(for k in "${!v[@]}"; do
		if [[ $k == cost[0-9]*"|idle_ns" ]]; then echo "${v[$k]}"; fi
	done | sort -n | tail -n 1)
	acks=$(cost_rows | cut -f4 | sort -n | sed -n '1p;$p' | paste -sd-)
	[ -n "$ns_per_insn" ] &&
		clock="QEMU -icount $icount, $ns_per_insn ns of guest time per emulated instruction"
	echo "## Per-ACK cost, BPF against native"
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
	cost_rows | compare 5 table
	echo
	cost_rows > "$tmp"
	pair_line "the method's own noise, two native modules" cubic/bic_ref 5 < "$tmp"
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
		echo "tcp_cong_control), so ackcost (fentry and fexit on tcp_ack, bpf/ackcost.bpf.c)"
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

{
	echo "# Benchmarks"
	echo
	echo "Written by \`make bench\` (tests/guest/bench.sh in the guest, eval/bench-report.sh"
	echo "on the host); rerun it rather than editing this file.  Absolute numbers are"
	echo "those of an emulated machine: compare columns, not machines."
	echo
	if [ ${#algs[@]} -gt 0 ]; then
		matrix_section
		echo
	fi
	[ -n "${v[cost1|bic_ref|ns]:-}" ] && cost_section
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
