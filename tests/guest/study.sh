#!/bin/bash
# make study, guest side: the 2.6.11 undo (bpf_bic_2611) against the
# 2.6.11.7 fix (bpf_bic) and the kernel's own bic over a path that reorders
# packets, so that the sender retransmits spuriously and undoes.  One row
# per run goes to /out/study.tsv; eval/study-report.sh makes docs/study.md
# and the plots from it.
#
#   single	one flow alone: goodput, retransmissions, undos, queue drops,
#		cwnd against what the path holds, time above Wmax, RTT
#   share	the same flow beside a Reno flow on the same bottleneck, both
#		started together: each flow's share of what was delivered
#
# Nothing here needs bictrace: cwnd, ssthresh and the smoothed RTT come
# from the kernel's tcp_probe tracepoint, congestion events from
# tcp_cong_state_set (lib_trace.sh), undos and retransmissions from nstat,
# drops from the bottleneck qdisc, shares from ss.  BIC's Wmax is
# rebuilt from the trace by BIC's own rule (see flow_metrics).
#
# The matrix can be narrowed from the environment (a quick check of the
# path: STUDY_RATES="0 2" STUDY_RUNS=1 STUDY_KINDS=single):
#   STUDY_ALGS	algorithms compared	(bpf_bic bpf_bic_2611 bic)
#   STUDY_RATES	netem reorder %, 0 = none	(0.5 1 2 5)
#   STUDY_QUEUES	bottleneck queues, packets	(41 165: 0.5 and 2 BDP)
#   STUDY_RUNS	runs per point		(3)
#   STUDY_SECS	seconds per flow	(20)
#   STUDY_SKIP	seconds of start-up left out of the steady-state
#		metrics and the shares	(5)
#   STUDY_KINDS	single and/or share	(single share)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_trace.sh"

read -ra ALGS <<< "${STUDY_ALGS:-bpf_bic bpf_bic_2611 bic}"
read -ra RATES <<< "${STUDY_RATES:-0.5 1 2 5}"
read -ra QUEUES <<< "${STUDY_QUEUES:-41 165}"
read -ra KINDS <<< "${STUDY_KINDS:-single share}"
RUNS=${STUDY_RUNS:-3}
SECS=${STUDY_SECS:-20}
SKIP=${STUDY_SKIP:-5}
# The path: 10 Mbit/s, 50 ms each way.  Its bandwidth-delay product in
# full-sized frames (1514 bytes on the wire, 1448 of payload), the unit of
# the queue limit and of cwnd: 10e6 * 0.1 / (1514 * 8) = 82.6.
RATE=10mbit DELAY_MS=50
BDP_PKTS=83
TSV=/out/study.tsv
TRACES=/out/traces

: > "$RESULTS"
mkdir -p "$TRACES"

# Every registration of the study, in one place (and the only place to
# change if registrations come to need options, e.g. tracing).
ca_up() {
	ccctl register > /dev/null &&
		ccctl register --variant 2611 > /dev/null &&
		modprobe tcp_bic
}
ca_down() {
	ccctl unregister bpf_bic > /dev/null
	ccctl unregister bpf_bic_2611 > /dev/null
}

# (cpu_busy: a flow that saw 0.90 or more was limited by the emulated CPU,
# not by the path.)

# client PORT CA SECS: an iperf3 client that cannot hang the study.
client() {
	in_snd timeout $(($3 + 30)) iperf3 -c "$RCV_ADDR" -p "$1" -C "$2" -t "$3" -J
}

# What the bottleneck (netem child 10:) dropped, from tc -s.
queue_drops() {
	in_snd tc -s qdisc show dev veth-s | awk '
		$1 == "qdisc" { mine = ($3 == "10:") }
		mine && $1 == "Sent" { for (i = 1; i < NF; i++) if ($i == "(dropped") { sub(",", "", $(i + 1)); print $(i + 1) } }'
}

# nstat counters of the sender's namespace since the last nstat -n, as
# "name value" lines in /tmp/nstat.
# Undos: each of the kernel's undo paths counts in exactly one of these.
undos() {
	nstat_sum /tmp/nstat TcpExtTCPFullUndo TcpExtTCPPartialUndo TcpExtTCPDSACKUndo \
		TcpExtTCPLossUndo TcpExtTCPSpuriousRTOs
}

# bic_stats.undo of a BPF variant (undo_cwnd calls), or "-".
bpf_undos() {
	case $1 in
	bpf_bic) bic_stat undo bic ;;
	bpf_bic_2611) bic_stat undo bic_2611 ;;
	*) echo - ;;
	esac
}

# flow_metrics CSV PORT PATH_PKTS [EVENTS]: one flow's tcp_probe trace
# reduced to "peak_cwnd above_path above_wmax srtt_p50 srtt_p95 srtt_min
# events" over [SKIP s, end] (fractions of that time; RTTs in ms), a trace
# at 20 ms steps "t cwnd wmax srtt_ms" into CSV.plot and, if asked, one line
# "ts_ns cwnd wmax" per congestion event into EVENTS.
#
# A congestion event is a move into CWR or Recovery from any other state
# (Loss included), where TCP asks the algorithm for ssthresh.
# The cwnd it asked with is the last sample's if that gives the ssthresh
# the next ACK reports, else the one that ssthresh says, by BIC's rule
# (cwnd * 819 / 1024, or cwnd / 2 at or below low_window 14): an undo and
# a new event on one ACK pass a cwnd no sample saw.  It counts towards the
# peak.  Wmax is rebuilt as BIC keeps last_max_cwnd, the same in all three
# algorithms: at each event it becomes that cwnd, or cwnd * (1024 + 819) /
# 2048 if that is below the old Wmax (fast convergence); entering Loss (an
# RTO) resets it to 0; no undo touches it (tests/study-wmax.sh checks it
# against bictrace).  "Above Wmax" counts time with cwnd > Wmax > 0: BIC
# past its binary search, in max probing.
flow_metrics() {
	awk -F, -v p="$2" -v path="$3" -v skip="$SKIP" -v plot="$1.plot" -v evf="${4:-}" '
	function bic_ssthresh(c) {
		return c <= 14 ? (c >= 4 ? int(c / 2) : 2) : int(c * 819 / 1024)
	}
	NR > 1 && $3 == p {
		if ($6 == "ca_state") {
			if ($14 == 4) {
				wmax = 0
				pending = 0
			} else if (($14 == 2 || $14 == 3) && state != 2 && state != 3 && seen) {
				pending = 1
				at = $1
			}
			state = $14
			next
		}
		if ($6 != "probe")
			next
		if (!seen)
			t0 = $1
		t = ($1 - t0) / 1e9
		if (seen && t > skip) {
			dt = t - (tprev > skip ? tprev : skip)
			T += dt
			if (cwnd > path)
				over += dt
			if (wmax > 0 && cwnd > wmax)
				above += dt
		}
		if (pending) {
			w = cwnd
			if (state >= 2 && bic_ssthresh(cwnd) != $8) {
				if ($8 <= 7)
					w = 2 * $8
				else
					for (w = int($8 * 1024 / 819); bic_ssthresh(w) < $8; w++)
						;
			}
			wmax = (w < wmax) ? int(w * 1843 / 2048) : w
			events++
			if ((at - t0) / 1e9 > skip && w > peak)
				peak = w
			if (evf != "")
				print at, w, wmax > evf
			pending = 0
		}
		seen = 1
		tprev = t
		cwnd = $7
		if (t > skip) {
			if (cwnd > peak)
				peak = cwnd
			ms = int($13 / 1000)
			h[ms]++
			n++
		}
		if (t >= nextplot) {
			printf "%.3f %d %d %.1f\n", t, cwnd, wmax, $13 / 1000 > plot
			nextplot = t + 0.02
		}
	}
	END {
		for (ms = 0; k < n / 2; ms++) k += h[ms]
		p50 = ms - 1
		for (; k < n * 0.95; ms++) k += h[ms]
		p95 = ms - 1
		for (mn = 0; n && !h[mn]; mn++) ;
		printf "%d %.3f %.3f %d %d %d %d\n", peak, T ? over / T : 0, T ? above / T : 0,
			p50, p95, mn, events
	}' "$1"
}

# single CA REORDER QUEUE RUN: one flow alone on the path.
single() {
	local ca=$1 reo=$2 q=$3 run=$4 tag=single-$1-$2-$3-$4 port rc=0 m b0 drops t0 c0 c1
	local path=$((BDP_PKTS + q))
	t0=$EPOCHREALTIME
	server 5201 > /dev/null || return 1
	b0=$(bpf_undos "$ca")
	in_snd nstat -n
	probe_start 5201 || return 1
	c0=$(cpu_ticks)
	client 5201 "$ca" "$SECS" > "/tmp/$tag.json" || rc=1
	c1=$(cpu_busy "$c0")
	probe_stop "/tmp/$tag.csv" || rc=1
	in_snd nstat -a > /tmp/nstat
	drops=$(queue_drops)
	reap 5201
	[ "$rc" -eq 0 ] || return 1
	port=$(data_port "/tmp/$tag.csv")
	read -ra m <<< "$(flow_metrics "/tmp/$tag.csv" "$port" "$path")"
	[ "${#m[@]}" -eq 7 ] || return 1
	[ "$run" -eq 1 ] && mv "/tmp/$tag.csv.plot" "$TRACES/$ca-$reo-$q.dat"
	row single "$ca" "$reo" "$q" "$run" "$path" \
		"$(goodput "/tmp/$tag.json")" \
		"$(nstat_sum /tmp/nstat TcpOutSegs)" "$(nstat_sum /tmp/nstat TcpRetransSegs)" \
		"${drops:-0}" "$(undos)" \
		"$(nstat_sum /tmp/nstat TcpExtTCPDSACKUndo)" "$(nstat_sum /tmp/nstat TcpExtTCPSpuriousRTOs)" \
		"$(nstat_sum /tmp/nstat TcpExtTCPTimeouts)" \
		"$(b=$(bpf_undos "$ca"); [ "$b" = - ] && echo - || echo $((b - b0)))" \
		"${m[@]}" - - "$c1"
	info "$tag: $(tail -n 1 "$TSV")"
	info "$tag: done after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s of guest time"
	rm -f "/tmp/$tag.csv" "/tmp/$tag.csv.plot" "/tmp/$tag.json"
}

# share CA REORDER QUEUE RUN: CA on port 5201 and Reno on 5202, started
# together; each one's goodput over [SKIP, SECS - 1] s from bytes_acked.
share() {
	local ca=$1 reo=$2 q=$3 run=$4 tag=share-$1-$2-$3-$4 rc=0 t0 c1 c2 drops bps cpu0 busy
	{ server 5201 && server 5202; } > /dev/null || return 1
	in_snd nstat -n
	t0=$(uptime_s)
	cpu0=$(cpu_ticks)
	client 5201 "$ca" "$SECS" > /dev/null &
	c1=$!
	client 5202 reno "$SECS" > /dev/null &
	c2=$!
	acked_window "$t0" "$SKIP" $((SECS - 1))
	wait "$c1" || rc=1
	wait "$c2" || rc=1
	busy=$(cpu_busy "$cpu0")
	in_snd nstat -a > /tmp/nstat
	drops=$(queue_drops)
	reap 5201 5202
	[ "$rc" -eq 0 ] || return 1
	bps="$(window_bps "$RCV_ADDR:5201") $(window_bps "$RCV_ADDR:5202")"
	row share "$ca" "$reo" "$q" "$run" $((BDP_PKTS + q)) "${bps% *}" \
		"$(nstat_sum /tmp/nstat TcpOutSegs)" "$(nstat_sum /tmp/nstat TcpRetransSegs)" \
		"${drops:-0}" "$(undos)" \
		"$(nstat_sum /tmp/nstat TcpExtTCPDSACKUndo)" "$(nstat_sum /tmp/nstat TcpExtTCPSpuriousRTOs)" \
		"$(nstat_sum /tmp/nstat TcpExtTCPTimeouts)" - - - - - - - - "${bps#* }" \
		"$(awk -v a="${bps% *}" -v b="${bps#* }" 'BEGIN { printf "%.3f", (a + b) ? a / (a + b) : 0 }')" \
		"$busy"
	info "$tag: $(tail -n 1 "$TSV")"
}

COLS="kind ca reorder queue run path_pkts bps out_segs retrans_segs queue_drops undos dsack_undos
spurious_rtos timeouts bpf_undos peak_cwnd above_path above_wmax srtt_p50_ms srtt_p95_ms
srtt_min_ms cong_events reno_bps share cpu_busy"
row() {
	local IFS=$'\t'
	echo "$*" >> "$TSV"
}

# tests/study-wmax.sh takes the functions above and nothing more.
[ -n "${STUDY_LIB:-}" ] && return 0

start=$(uptime_s)
modules_up
check "registered bpf_bic, bpf_bic_2611 and the kernel's bic" ca_up
{
	echo "# kernel $(uname -r)"
	echo "# rate $RATE delay_ms_each_way $DELAY_MS bdp_pkts $BDP_PKTS secs $SECS skip $SKIP runs $RUNS"
	echo "${COLS//[[:space:]]/$'\t'}"
} > "$TSV"

# The first flow after boot runs slow, whichever algorithm it uses.
net_up "$RATE" "$DELAY_MS" 100
server 5201 > /dev/null && check "warm-up flow" client 5201 cubic 3 > /dev/null
reap 5201

# Runs of one point alternate between the algorithms, so that anything
# drifting over the boot hits them alike.
for kind in "${KINDS[@]}"; do
	for q in "${QUEUES[@]}"; do
		for reo in "${RATES[@]}"; do
			for ((r = 1; r <= RUNS; r++)); do
				for ca in "${ALGS[@]}"; do
					if [ "$reo" = 0 ]; then
						net_up "$RATE" "$DELAY_MS" "$q"
					else
						net_up "$RATE" "$DELAY_MS" "$q" reorder "$reo%"
					fi
					check "$kind $ca reorder $reo% queue $q run $r" \
						"$kind" "$ca" "$reo" "$q" "$r"
				done
			done
		done
	done
done

net_down
ca_down
echo "# guest_secs $(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')" >> "$TSV"
summary
