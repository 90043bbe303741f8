#!/bin/bash
# make study, guest side: BIC's undo rules side by side over paths that make
# the sender retransmit spuriously and undo.  One row per run goes to
# /out/study.tsv; eval/study-report.sh makes docs/study.md and the plots
# from it.
#
# Algorithms (STUDY_ALGS): bpf_bic_2611 (2.6.11: max(cwnd, 2 * ssthresh)),
# bpf_bic (the seed, 2.6.11.7: max(cwnd, Wmax)), the kernel's bic
# (max(cwnd, prior_cwnd)), bpf_bic_restore (the complete undo: BIC's whole
# state back) and the kernel's cubic, the reference a user would pick today.
#
# Two families of paths, both 10 Mbit/s, 50 ms each way:
#   reorder	netem reorders P% of the data packets (each skips the 50 ms
#		delay line, ahead of the ~40 packets in it): spurious fast
#		retransmits, undone by D-SACK or timestamps
#   stall	the ACK path stalls now and then for longer than the RTO and
#		then delivers everything it held, dropping nothing: spurious
#		timeouts, found out by F-RTO or timestamps
#
# How the stall is made.  The receiver's egress is a netem delay line of
# 50 ms (limit 100000) with a plug qdisc (sch_plug) as its child: "tc qdisc
# change ... plug block" holds every ACK that leaves the delay line from then
# on, "release_indefinite" lets all it held go at once and passes
# everything again.  Its limit (10 MB) holds over 100000 ACKs, so nothing is
# dropped.  A timer in the guest drives it on the guest's clock (the
# stall_driver below; under -icount that is the emulated one), with the
# times written into the trace (trace_marker) so they share its clock.  What
# was tried and why not: netem's slot feature holds packets until the next
# slot opens, but it re-arms a slot after every burst, so it stalls all the
# time, not now and then, and a change without slot cannot turn it off;
# changing netem's delay on a timer does not hold what is already in the
# line (each packet's time is set when it enters) and reorders what comes
# after; a tbf rate change keeps trickling at its slowest rate (a trickled
# ACK re-arms the RTO) and drops a packet larger than its bucket; stalling
# the data side ahead of the bottleneck would burst into its 41-packet
# queue and drop.  The stall is on the ACK path so that the data path, the
# bottleneck and its queue are exactly those of the reorder family.
# Schedule of one run: the first stall starts SKIP s into the flow, each
# next one a gap after the last ended, the gap uniform in [G/2, 3G/2]
# (awk's rand seeded with the run's number, so all algorithms of a run meet
# the same stalls), none starting after SECS - 3 s.
#
# Per run: goodput, retransmissions, queue drops, cwnd against what the path
# holds, time above Wmax, RTT, and from nstat the undos by kind
# (TcpExtTCPFullUndo, TCPPartialUndo, TCPDSACKUndo, TCPLossUndo) and the
# spurious RTOs F-RTO found (TCPSpuriousRTOs; an RTO found spurious by
# timestamps or D-SACK counts in TCPLossUndo instead), and RTOs
# (TCPTimeouts).  Time to recover: see flow_metrics.
#
# Nothing here needs bictrace: cwnd, ssthresh and the smoothed RTT come
# from the kernel's tcp_probe tracepoint, congestion events from
# tcp_cong_state_set, undos from a kprobe (lib_trace.sh), counts from
# nstat, drops from the bottleneck qdisc, shares from ss.  BIC's Wmax is
# rebuilt from the trace by BIC's own rule (see flow_metrics).
#
# Cost: every point prints "STUDY-POINT begin|end ..." on the console,
# which the host dates (eval/study-timed.sh): its host time under -icount.
#
# The matrix can be narrowed from the environment:
#   STUDY_ALGS	algorithms	(bpf_bic_2611 bpf_bic bic bpf_bic_restore cubic)
#   STUDY_RATES	netem reorder %, 0 = none	(0.5 1 2 5)
#   STUDY_STALLS	stall points LEN:GAP, seconds	(1:2 1:5 2:2 2:5)
#   STUDY_QUEUES	bottleneck queues, packets	(41 165: 0.5 and 2 BDP)
#   STUDY_RUNS	runs per point		(5)
#   STUDY_SECS	seconds per flow	(20)
#   STUDY_SKIP	seconds of start-up left out of the steady-state
#		metrics and the shares	(5)
#   STUDY_KINDS	single and/or share	(single share)
#   STUDY_SHARE_POINTS	points that also run share, FAMILY:POINT:QUEUE
#		(reorder:2:41 reorder:2:165 stall:1:2:41 stall:1:2:165)
#   STUDY_QUICK=1	one point per family, single only: reorder 2% and
#		stall 1:2 on the 41-packet queue, 2 runs (unless STUDY_RUNS)
set -uo pipefail
# The tests' libraries, from their one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=../../tests/guest/lib_trace.sh
. "$(dirname "$0")/../tests/lib_trace.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${STUDY_QUICK:-0}" = 1 ]; then
	: "${STUDY_RATES:=2}" "${STUDY_STALLS:=1:2}" "${STUDY_QUEUES:=41}" "${STUDY_KINDS:=single}"
	: "${STUDY_RUNS:=2}"
fi
read -ra ALGS <<< "${STUDY_ALGS:-bpf_bic_2611 bpf_bic bic bpf_bic_restore cubic}"
read -ra RATES <<< "${STUDY_RATES-0.5 1 2 5}"
read -ra STALLS <<< "${STUDY_STALLS-1:2 1:5 2:2 2:5}"
read -ra QUEUES <<< "${STUDY_QUEUES:-41 165}"
read -ra KINDS <<< "${STUDY_KINDS:-single share}"
SHARE_POINTS=" ${STUDY_SHARE_POINTS:-reorder:2:41 reorder:2:165 stall:1:2:41 stall:1:2:165} "
RUNS=${STUDY_RUNS:-5}
SECS=${STUDY_SECS:-20}
SKIP=${STUDY_SKIP:-5}
# The path: 10 Mbit/s, 50 ms each way.  Its bandwidth-delay product in
# full-sized frames (1514 bytes on the wire, 1448 of payload), the unit of
# the queue limit and of cwnd: 10e6 * 0.1 / (1514 * 8) = 82.6.
RATE=10mbit DELAY_MS=50
BDP_PKTS=83
TSV=/out/study.tsv
# mawk for every awk here, the library's included, where the image has it:
# the trace of every flow goes through awk twice (lib_trace.sh probe_csv,
# flow_metrics), and busybox's awk takes about five times as long.
if command -v mawk > /dev/null; then
	awk() { mawk "$@"; }
fi
TRACES=/out/traces

tap_begin "$RESULTS"
mkdir -p "$TRACES"

# Every registration of the study, in one place (and the only place to
# change if registrations come to need options, e.g. tracing).
ca_up() {
	ccctl register > /dev/null &&
		ccctl register --variant 2611 > /dev/null &&
		ccctl register --variant restore > /dev/null &&
		modprobe tcp_bic && ca_available cubic
}
ca_down() {
	ccctl unregister bpf_bic > /dev/null
	ccctl unregister bpf_bic_2611 > /dev/null
	ccctl unregister bpf_bic_restore > /dev/null
}

# (cpu_busy: a flow that saw 0.90 or more was limited by the emulated CPU,
# not by the path.)

# client PORT CA SECS: an iperf3 client that cannot hang the study.
client() {
	in_snd timeout $(($3 + 30)) iperf3 -c "$RCV_ADDR" -p "$1" -C "$2" -t "$3" -J
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
	bpf_bic_restore) bic_stat undo bic_restore ;;
	*) echo - ;;
	esac
}

# flow_metrics CSV PORT PATH_PKTS [EVENTS]: one flow's tcp_probe trace
# reduced to "peak_cwnd above_path above_wmax srtt_p50 srtt_p95 srtt_min
# events undos ttr_p50_ms ttr_max_ms unrecovered" over [SKIP s, end]
# (fractions of that time; RTTs in ms; the undo fields over the whole
# flow), a trace at 20 ms steps "t cwnd wmax srtt_ms" into CSV.plot, one
# line "t cwnd_before ttr_ms" per undo into CSV.undo (ttr -1: did not
# recover), "t_start t_end" per stall into CSV.stall and, if asked, one
# line "ts_ns cwnd wmax" per congestion event into EVENTS.
#
# A congestion event is a move into CWR or Recovery from any other state
# (Loss included), where TCP asks the algorithm for ssthresh; an RTO (a move
# into Loss) is one too, for the time to recover.
# The cwnd it asked with is the last sample's if that gives the ssthresh
# the next ACK reports, else the one that ssthresh says, by BIC's rule
# (cwnd * 819 / 1024, or cwnd / 2 at or below low_window 14): an undo and
# a new event on one ACK pass a cwnd no sample saw.  It counts towards the
# peak.  Wmax is rebuilt as BIC keeps last_max_cwnd, the same in all three
# BIC algorithms: at each event it becomes that cwnd, or cwnd * (1024 + 819) /
# 2048 if that is below the old Wmax (fast convergence); entering Loss (an
# RTO) resets it to 0; no undo touches it (eval/guest/study-wmax.sh checks it
# against bictrace), except bpf_bic_restore's (RESTORE=1), whose undo puts
# back the Wmax the event undone found.  "Above Wmax" counts time with cwnd > Wmax > 0: BIC
# past its binary search, in max probing.  (For cubic the same rule gives
# a BIC-like Wmax, not cubic's own; cubic's reduction is 0.7, so the
# ssthresh check falls back to the last sample's cwnd.)
#
# Time to recover, per undo (an "undo" row: tcp_undo_cwnd_reduction() ran
# for the flow): the target is the cwnd before the event being undone, the
# last tcp_probe sample's cwnd before the latest move into CWR, Recovery or
# Loss (the congestion event's cwnd above); the time to recover is from the
# undo to the first tcp_probe sample after it (each sample shows the state
# before its ACK is processed, so the first one after the undo shows what
# the undo left) with cwnd >= the target.  An undo that a new congestion
# event (one on the undo's own ACK included: the undo of a reordered
# segment and a new Recovery for the next hole, common under reordering)
# or the end of the flow overtakes first did not recover
# ("unrecovered"); a second undo before the first recovered, with no event
# between, undoes the same event and is not timed again.  ttr_p50 and
# ttr_max are over the recovered undos of the flow ("-" if none).
flow_metrics() {
	awk -F, -v p="$2" -v path="$3" -v skip="$SKIP" -v plot="$1.plot" -v undof="$1.undo" \
		-v stallf="$1.stall" -v evf="${4:-}" -v restore="${RESTORE:-0}" '
	function bic_ssthresh(c) {
		return c <= 14 ? (c >= 4 ? int(c / 2) : 2) : int(c * 819 / 1024)
	}
	function unrecovered() {
		if (watching) {
			unrec++
			printf "%.3f %d -1\n", (ut - t0) / 1e9, target > undof
		}
		watching = 0
	}
	NR > 1 && $6 == "mark" {
		if (!seen)
			next
		if ($14 ~ /^stall/)
			ss = ($1 - t0) / 1e9
		else if ($14 ~ /^release/ && ss != "")
			printf "%.3f %.3f\n", ss, ($1 - t0) / 1e9 > stallf
		next
	}
	NR > 1 && $3 == p {
		if ($6 == "undo") {
			undos++
			if (restore && inev)
				wmax = wsave
			inev = 0
			if (!watching && lastw > 0) {
				watching = 1
				ut = $1
				target = lastw
			}
			next
		}
		if ($6 == "ca_state") {
			if ($14 == 4) {
				if (state != 4) {
					wsave = wmax
					inev = 1
				}
				wmax = 0
				pending = 0
				if (state != 4 && seen) {
					unrecovered()
					lastw = cwnd
				}
			} else if (($14 == 2 || $14 == 3) && state != 2 && state != 3 && seen) {
				pending = 1
				at = $1
				wsave = wmax
				inev = 1
				unrecovered()
				lastw = cwnd
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
		if (watching && $1 > ut && $7 >= target) {
			d = ($1 - ut) / 1e6
			ttr[++nr] = d
			printf "%.3f %d %.1f\n", (ut - t0) / 1e9, target, d > undof
			watching = 0
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
		unrecovered()
		for (ms = 0; k < n / 2; ms++) k += h[ms]
		p50 = ms - 1
		for (; k < n * 0.95; ms++) k += h[ms]
		p95 = ms - 1
		for (mn = 0; n && !h[mn]; mn++) ;
		for (i = 2; i <= nr; i++)
			for (j = i; j > 1 && ttr[j - 1] > ttr[j]; j--) {
				x = ttr[j]; ttr[j] = ttr[j - 1]; ttr[j - 1] = x
			}
		printf "%d %.3f %.3f %d %d %d %d %d %s %s %d\n", peak, T ? over / T : 0, T ? above / T : 0,
			p50, p95, mn, events, undos,
			nr ? sprintf("%.1f", (nr % 2) ? ttr[(nr + 1) / 2] : (ttr[nr / 2] + ttr[nr / 2 + 1]) / 2) : "-",
			nr ? sprintf("%.1f", ttr[nr]) : "-", unrec
	}' "$1"
}

# mark TEXT: TEXT in the trace, dated by its clock.  Only a traced run
# (single) has one: with tracing off the kernel refuses the write (EBADF),
# and the shares need no marks.
mark() {
	[ "$(cat "$TRACEFS/tracing_on")" = 1 ] && echo "$1" > "$TRACEFS/trace_marker"
}

# stall_driver T0 LEN GAP SEED: the stalls of one run (see the header), from
# uptime T0, the start of the flow; each one dated in the trace.  Prints how
# many it made.
stall_driver() {
	local t0=$1 len=$2 n=0 at
	while read -r at; do
		sleep_until "$t0" "$at"
		mark "stall $len"
		in_rcv tc qdisc change dev veth-r parent 1:1 handle 20: plug block < /dev/null
		sleep_until "$t0" "$(awk -v a="$at" -v l="$len" 'BEGIN { print a + l }')"
		in_rcv tc qdisc change dev veth-r parent 1:1 handle 20: plug release_indefinite
		mark release
		n=$((n + 1))
	done <<< "$(awk -v skip="$SKIP" -v secs="$SECS" -v len="$2" -v gap="$3" -v seed="$4" 'BEGIN {
		srand(seed)
		for (t = skip; t <= secs - 3; t += len + gap * (0.5 + rand()))
			print t }')"
	echo "$n"
}

# stall_path: the ACK path of the stall family, a delay line with a plug
# behind it (open).
stall_path() {
	in_rcv tc qdisc del dev veth-r root &&
		in_rcv tc qdisc add dev veth-r root handle 1: netem delay "${DELAY_MS}ms" limit 100000 &&
		in_rcv tc qdisc add dev veth-r parent 1:1 handle 20: plug limit 10000000 &&
		in_rcv tc qdisc change dev veth-r parent 1:1 handle 20: plug release_indefinite
}

# counts: the nstat columns every row has, from /tmp/nstat.
counts() {
	local c
	for c in TcpOutSegs TcpRetransSegs; do
		nstat_sum /tmp/nstat "$c"
	done
	echo "${1:-0}"
	undos
	for c in TCPFullUndo TCPPartialUndo TCPDSACKUndo TCPLossUndo TCPSpuriousRTOs TCPTimeouts; do
		nstat_sum /tmp/nstat "TcpExt$c"
	done
}

# stalls_start FAMILY POINT RUN: for the stall family, the run's stall
# driver in the background (its count into /tmp/stalls); stalls_wait: its
# count, "-" for the reorder family.
stalls_start() {
	rm -f /tmp/stalls
	[ "$1" = stall ] || return 0
	stall_driver "$(uptime_s)" "${2%%:*}" "${2#*:}" "$3" > /tmp/stalls &
	STALLER=$!
}
stalls_wait() {
	[ -e /tmp/stalls ] || { echo -; return; }
	wait "$STALLER"
	in_rcv tc qdisc change dev veth-r parent 1:1 handle 20: plug release_indefinite
	cat /tmp/stalls
}

# single CA FAMILY POINT QUEUE RUN: one flow alone on the path.
single() {
	local ca=$1 fam=$2 pt=$3 q=$4 run=$5 tag port rc=0 m b0 drops t0 t1 t2 t3 t4 c0 c1 st cn
	local path=$((BDP_PKTS + q))
	tag=single-$ca-$fam-${pt/:/-}-$q-$run
	t0=$EPOCHREALTIME
	server 5201 > /dev/null || return 1
	b0=$(bpf_undos "$ca")
	in_snd nstat -n
	probe_start 5201 || return 1
	c0=$(cpu_ticks)
	stalls_start "$fam" "$pt" "$run"
	client 5201 "$ca" "$SECS" > "/tmp/$tag.json" || rc=1
	st=$(stalls_wait)
	c1=$(cpu_busy "$c0")
	t1=$EPOCHREALTIME
	probe_stop "/tmp/$tag.csv" || rc=1
	t2=$EPOCHREALTIME
	in_snd nstat -a > /tmp/nstat
	drops=$(queue_drops)
	reap 5201
	[ "$rc" -eq 0 ] || return 1
	mapfile -t cn <<< "$(counts "${drops:-0}")"
	port=$(data_port "/tmp/$tag.csv")
	t3=$EPOCHREALTIME
	read -ra m <<< "$(RESTORE=$([ "$ca" = bpf_bic_restore ] && echo 1 || echo 0) \
		flow_metrics "/tmp/$tag.csv" "$port" "$path")"
	t4=$EPOCHREALTIME
	[ "${#m[@]}" -eq 11 ] || return 1
	if [ "$run" -eq 1 ]; then
		mv "/tmp/$tag.csv.plot" "$TRACES/$ca-$fam-${pt/:/-}-$q.dat"
		[ -e "/tmp/$tag.csv.undo" ] && mv "/tmp/$tag.csv.undo" "$TRACES/$ca-$fam-${pt/:/-}-$q.undo"
		[ -e "/tmp/$tag.csv.stall" ] && mv "/tmp/$tag.csv.stall" "$TRACES/$ca-$fam-${pt/:/-}-$q.stall"
	fi
	row single "$fam" "$ca" "$pt" "$q" "$run" "$path" \
		"$(goodput "/tmp/$tag.json")" "${cn[@]}" \
		"$(b=$(bpf_undos "$ca"); [ "$b" = - ] && echo - || echo $((b - b0)))" "$st" \
		"${m[@]}" - - "$c1"
	info "$tag: $(tail -n 1 "$TSV")"
	info "$tag: done after $(awk -v a="$t0" -v b="$EPOCHREALTIME" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v t4="$t4" \
		'BEGIN { printf "%.1f s of guest time (flow %.1f, trace to CSV %.1f, metrics %.1f)", b - a, t1 - a, t2 - t1, t4 - t3 }')"
	rm -f "/tmp/$tag".*
}

# share CA FAMILY POINT QUEUE RUN: CA on port 5201 and Reno on 5202, started
# together; each one's goodput over [SKIP, SECS - 1] s from bytes_acked.
share() {
	local ca=$1 fam=$2 pt=$3 q=$4 run=$5 rc=0 t0 c1 c2 drops bps cpu0 busy st tag cn
	tag=share-$ca-$fam-${pt/:/-}-$q-$run
	{ server 5201 && server 5202; } > /dev/null || return 1
	in_snd nstat -n
	t0=$(uptime_s)
	cpu0=$(cpu_ticks)
	stalls_start "$fam" "$pt" "$run"
	client 5201 "$ca" "$SECS" > /dev/null &
	c1=$!
	client 5202 reno "$SECS" > /dev/null &
	c2=$!
	acked_window "$t0" "$SKIP" $((SECS - 1))
	wait "$c1" || rc=1
	wait "$c2" || rc=1
	st=$(stalls_wait)
	busy=$(cpu_busy "$cpu0")
	in_snd nstat -a > /tmp/nstat
	drops=$(queue_drops)
	reap 5201 5202
	[ "$rc" -eq 0 ] || return 1
	bps="$(window_bps "$RCV_ADDR:5201") $(window_bps "$RCV_ADDR:5202")"
	mapfile -t cn <<< "$(counts "${drops:-0}")"
	row share "$fam" "$ca" "$pt" "$q" "$run" $((BDP_PKTS + q)) "${bps% *}" \
		"${cn[@]}" - "$st" - - - - - - - - - - - "${bps#* }" \
		"$(awk -v a="${bps% *}" -v b="${bps#* }" 'BEGIN { printf "%.3f", (a + b) ? a / (a + b) : 0 }')" \
		"$busy"
	info "$tag: $(tail -n 1 "$TSV")"
}

COLS="kind family ca point queue run path_pkts bps out_segs retrans_segs queue_drops undos
full_undos partial_undos dsack_undos loss_undos spurious_rtos timeouts bpf_undos stalls
peak_cwnd above_path above_wmax srtt_p50_ms srtt_p95_ms srtt_min_ms cong_events
traced_undos ttr_p50_ms ttr_max_ms unrecovered reno_bps share cpu_busy"
row() {
	local IFS=$'\t'
	echo "$*" >> "$TSV"
}

# eval/guest/study-wmax.sh takes the functions above and nothing more.
[ -n "${STUDY_LIB:-}" ] && return 0

# point_mark WORDS: a console line the host dates as it arrives
# (eval/study-timed.sh), for what each point costs in host time.
point_mark() {
	echo "STUDY-POINT $*"
}

start=$(uptime_s)
check "modules, sch_plug among them" eval 'modules_up && modprobe sch_plug'
check "registered ${ALGS[*]}" ca_up
check "kprobe on tcp_undo_cwnd_reduction" undo_probe_add
{
	echo "# kernel $(uname -r)"
	echo "# rate $RATE delay_ms_each_way $DELAY_MS bdp_pkts $BDP_PKTS secs $SECS skip $SKIP runs $RUNS"
	echo "# quick ${STUDY_QUICK:-0}"
	echo "${COLS//[[:space:]]/$'\t'}"
} > "$TSV"

# The first flow after boot runs slow, whichever algorithm it uses.
net_up "$RATE" "$DELAY_MS" 100
server 5201 > /dev/null && check "warm-up flow" client 5201 cubic 3 > /dev/null
reap 5201

# path FAMILY POINT QUEUE: the path of one point, made afresh for each run.
path() {
	if [ "$1" = stall ]; then
		net_up "$RATE" "$DELAY_MS" "$3" && stall_path
	elif [ "$2" = 0 ]; then
		net_up "$RATE" "$DELAY_MS" "$3"
	else
		net_up "$RATE" "$DELAY_MS" "$3" reorder "$2%"
	fi
}

# Runs of one point alternate between the algorithms, so that anything
# drifting over the boot hits them alike.
points=()
for q in "${QUEUES[@]}"; do
	for reo in "${RATES[@]}"; do
		points+=("reorder $reo $q")
	done
	for stl in "${STALLS[@]}"; do
		points+=("stall $stl $q")
	done
done
for kind in "${KINDS[@]}"; do
	for p in "${points[@]}"; do
		read -r fam pt q <<< "$p"
		if [ "$kind" = share ] && [[ "$SHARE_POINTS" != *" $fam:$pt:$q "* ]]; then
			continue
		fi
		p0=$(uptime_s)
		point_mark "begin $kind $fam $pt $q"
		for ((r = 1; r <= RUNS; r++)); do
			for ca in "${ALGS[@]}"; do
				path "$fam" "$pt" "$q"
				check "$kind $ca $fam $pt queue $q run $r" \
					"$kind" "$ca" "$fam" "$pt" "$q" "$r"
			done
		done
		g=$(awk -v a="$p0" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')
		point_mark "end $kind $fam $pt $q guest_secs $g"
		echo "# point $kind $fam $pt $q guest_secs $g flows $((RUNS * ${#ALGS[@]}))" >> "$TSV"
	done
done

net_down
ca_down
echo "# guest_secs $(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')" >> "$TSV"
summary
