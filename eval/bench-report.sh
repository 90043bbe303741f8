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

# One line per cost run: round, algorithm, goodput in Mbit/s, guest CPU busy
# fraction, Mbit per CPU-second, ACKs per MB, CPU ns per ACK.  CPU time is
# wall time times the busy fraction: iperf3's own clock is finer than the
# 10 ms ticks of /proc/stat, which would quantize 2 s runs by 0.5%.
cost_rows() {
	local r ca bytes busy acks bps secs
	for r in 1 2 3 4 5 6 7 8 9; do
		for ca in bpf_bic bic_ref cubic; do
			bytes=${v[cost$r|$ca|bytes]:-}
			[ -n "$bytes" ] || continue
			bps=${v[cost$r|$ca|bps]} secs=${v[cost$r|$ca|secs]} acks=${v[cost$r|$ca|acks]:-0}
			busy=$(calc 'printf "%.3f", (w > 0 ? b / w : 0)' "b=${v[cost$r|$ca|cpu_s]}" \
				"w=${v[cost$r|$ca|wall_s]}")
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$ca" "$(mbps "$bps")" "$busy" \
				"$(calc 'printf "%.3f", (u > 0 ? x / 1e6 / u : 0)' "x=$bps" "u=$busy")" \
				"$(calc 'printf "%.0f", a / (b / 1e6)' "a=$acks" "b=$bytes")" \
				"$(calc 'if (a > 0) printf "%.0f", s * u * 1e9 / a; else printf "n/a"' \
					"s=$secs" "u=$busy" "a=$acks")"
		done
	done
}

# Each round's Mbit per CPU-second against bic_ref's in the same round, and
# the median of those ratios; and the median extra CPU per ACK.
cost_ratios() {
	cost_rows | awk -F'\t' -v nspi="$ns_per_insn" '
		{ e[$1, $2] = $5; d[$1, $2] = $7
		  if (!($1 in seen)) { seen[$1] = 1; rounds[++nr] = $1 }
		  if (!($2 in algs)) { algs[$2] = 1; order[++na] = $2 } }
		function median(a, n,    i, j, t) {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			for (k = 1; k <= na; k++) {
				c = order[k]
				if (c == "bic_ref")
					continue
				n = 0
				list = ""
				for (i = 1; i <= nr; i++) {
					r = rounds[i]
					if (!((r, c) in e) || !((r, "bic_ref") in e) || e[r, "bic_ref"] == 0)
						continue
					x[++n] = e[r, c] / e[r, "bic_ref"]
					y[n] = d[r, c] - d[r, "bic_ref"]
					list = list (list == "" ? "" : ", ") sprintf("%.4f", x[n])
				}
				if (!n)
					continue
				printf "- %s / bic_ref, Mbit per CPU-second: median **%.4f** (rounds: %s)", \
					c, median(x, n), list
				dy = median(y, n)
				printf "; CPU per ACK, median difference %+.0f ns", dy
				if (nspi)
					printf " = **%+.0f emulated instructions**", dy / nspi
				printf "\n"
			}
		}'
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
	local clock="host time" k p n ns
	[ -n "$ns_per_insn" ] &&
		clock="QEMU -icount $icount, $ns_per_insn ns of guest time per emulated instruction"
	echo "## Per-ACK cost, BPF against native"
	echo
	echo "Guest: ${v[all|cost|kernel]:-?} on ${v[all|cost|cpu]:-?}, 1 vCPU;"
	echo "guest clock: $clock."
	echo "One flow over an unshaped veth (no qdisc, offloads off, a quickack route so"
	echo "the receiver ACKs every segment), ${v[cost1|bpf_bic|wall_s]:-?} s per run, the algorithms"
	echo "alternating round by round in one boot after one warm-up flow.  The guest"
	echo "CPU is the bottleneck, so goodput per CPU-second is inversely proportional"
	echo "to the cost of a segment, the congestion control's per-ACK work included;"
	echo "below 1 against bic_ref means costlier.  That work is a small part of the"
	echo "path (ACKs that queue behind a busy socket are also coalesced before TCP"
	echo "sees them), so the expected answer is a ratio near 1.  cubic against"
	echo "bic_ref, two native modules, shows how much the ratio moves for other"
	echo "reasons."
	echo
	echo "| round | algorithm | goodput Mbit/s | guest CPU busy | Mbit per CPU-second | ACKs per MB | CPU ns per ACK |"
	echo "|---|---|---|---|---|---|---|"
	cost_rows | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
	echo
	cost_ratios
	[ -n "${v[coststats|bpf_bic|bps]:-}" ] || return 0
	echo
	echo "With kernel.bpf_stats_enabled=1 for one more bpf_bic run, the BPF programs'"
	echo "own run time, as the trampoline accounts it (which itself adds cost):"
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
	[ -n "${v[cost1|bic_ref|bps]:-}" ] && cost_section
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
