#!/bin/bash
# make bench, guest side: a scenario matrix over bpf_bic, bic_ref (the same
# bic_math.h as a native module) and the kernel's cubic and reno, plus the
# per-ACK cost of BPF against native on an unshaped veth.  Raw numbers go to
# /out/bench.tsv (test, algorithm, metric, value); eval/bench-report.sh
# makes the table.  Nothing here asserts a time limit: under emulation only
# ratios between runs of one boot mean anything.
#
# usage: bench.sh [ALGORITHM...]	the scenario matrix
#				(default: bpf_bic bic_ref cubic reno), once
#				for each run number in BENCH_RUNS (e.g.
#				1,3,5; default 1)
#        bench.sh --cost		the per-ACK cost only
#        bench.sh --design [ALGORITHM...]
#				BIC's design point, windows of 1,000 and
#				5,000 packets (default: bpf_bic bic cubic
#				bbr reno), runs as BENCH_RUNS
set -uo pipefail
# The tests' libraries, from their one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=../../tests/guest/lib_trace.sh
. "$(dirname "$0")/../tests/lib_trace.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ALGS=(bpf_bic bic_ref cubic reno)
mode=matrix
case ${1:-} in
--cost)
	mode=cost
	;;
--design)
	mode=design
	shift
	ALGS=(bpf_bic bic cubic bbr reno)
	[ $# -eq 0 ] || ALGS=("$@")
	;;
?*)
	ALGS=("$@")
	;;
esac
BENCH_RUNS=${BENCH_RUNS:-1}
BENCH_RUNS=${BENCH_RUNS//,/ }	# "1,3,5" passes through a kernel command line
COST_ALGS=(bic_ref bpf_bic bpf_bic_tr bpf_bic_1e bic cubic reno bpf_reno bpf_reno_acked)
COST_ROUNDS=${COST_ROUNDS:-7}
COST_BYTES=$((24 << 20))
ACK_ROUNDS=${ACK_ROUNDS:-3}
ACK_BYTES=$((4 << 20))
CWND_RATE=50mbit
RCV_ADDR2=198.18.0.3		# second receiver address, long-RTT path
TSV=/out/bench-$mode.tsv

tap_begin "$RESULTS"
printf 'test\tca\tmetric\tvalue\n' > "$TSV"
res() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$TSV"; }

modules_up
check "bic_ref loaded" bic_ref_up
check "bpf_bic registered" ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/bench

# client DST PORT CA SECS [ARGS]: an iperf3 client that cannot hang the run.
client() {
	local dst=$1 port=$2 ca=$3 secs=$4
	shift 4
	in_snd timeout $((secs + 30)) iperf3 -c "$dst" -p "$port" -C "$ca" -t "$secs" "$@"
}

# single TEST CA SECS RATE_BPS [IPERF3 ARGS]: one flow; goodput, utilization
# of RATE_BPS, the first 0.5 s interval at the receiver reaching 90% of it,
# and the CPU the guest spent (busy and wall, in seconds).
single() {
	local test=$1 ca=$2 secs=$3 rate=$4 b0 t0 b1 t1 bps t90 rc=0
	shift 4
	server 5201 -J -i 0.5 > /tmp/srv.json || return 1
	read -r b0 t0 <<< "$(cpu_ticks)"
	client "$RCV_ADDR" 5201 "$ca" "$secs" -J "$@" > /tmp/cli.json || rc=1
	read -r b1 t1 <<< "$(cpu_ticks)"
	reap 5201
	[ "$rc" -eq 0 ] || return 1
	bps=$(goodput /tmp/cli.json)
	# iperf3 3.12's server died once in sysmalloc() writing its JSON under
	# TCG; the client's numbers stand without it.
	t90=$(jq -r --argjson r "$rate" \
		'[.intervals[].sum | select(.bits_per_second >= 0.9 * $r) | .end][0] // "none"' \
		/tmp/srv.json 2>/dev/null) || t90=n/a
	res "$test" "$ca" bps "$bps"
	res "$test" "$ca" util "$(awk -v b="$bps" -v r="$rate" 'BEGIN { printf "%.3f", b / r }')"
	res "$test" "$ca" t90 "$t90"
	# /proc/stat counts in USER_HZ, 100 on x86
	res "$test" "$ca" cpu_s "$(awk -v t=$((b1 - b0)) 'BEGIN { printf "%.2f", t / 100 }')"
	res "$test" "$ca" wall_s "$(awk -v t=$((t1 - t0)) 'BEGIN { printf "%.2f", t / 100 }')"
	info "$test $ca: $bps bit/s, 90% after ${t90}s, CPU $((b1 - b0))/$((t1 - t0)) ticks busy"
	[ "$bps" -gt 0 ]
}

# shared TEST CA SECS STAGGER DST...: one flow per DST (address), flow i
# starting i * STAGGER s after the first, all ending together.  Each flow's
# goodput is measured over the same window, from when the last one has had
# 6 s to settle until 1 s before the end.
shared() {
	local test=$1 ca=$2 secs=$3 stagger=$4 i port dst t0 from ports=()
	shift 4
	local n=$# rc=0 pids=()
	for ((i = 0; i < n; i++)); do
		ports+=($((5201 + i)))
		server $((5201 + i)) > /dev/null || return 1
	done
	t0=$(uptime_s)
	i=0
	for dst in "$@"; do
		(sleep_until "$t0" $((i * stagger))
		 client "$dst" $((5201 + i)) "$ca" $((secs - i * stagger)) > /dev/null) &
		pids+=($!)
		i=$((i + 1))
	done
	from=$(((n - 1) * stagger + 6))
	acked_window "$t0" "$from" $((secs - 1))
	for i in "${pids[@]}"; do
		wait "$i" || rc=1
	done
	reap "${ports[@]}"
	[ "$rc" -eq 0 ] || return 1
	i=0
	for dst in "$@"; do
		window_bps "$dst:$((5201 + i))"
		i=$((i + 1))
	done > "/tmp/$test.$ca.bps"
	res "$test" "$ca" window "$from-$((secs - 1))s"
	res "$test" "$ca" flows_bps "$(paste -sd/ "/tmp/$test.$ca.bps")"
	res "$test" "$ca" jain "$(awk '{ s += $1; q += $1 * $1 } END { printf "%.3f", q ? s * s / (NR * q) : 0 }' \
		"/tmp/$test.$ca.bps")"
	info "$test $ca: $(paste -sd' ' "/tmp/$test.$ca.bps") bit/s over ${from}-$((secs - 1))s"
	! grep -qx 0 "/tmp/$test.$ca.bps"
}

# net_rtt RATE DELAY QUEUE ACK_DELAY ACK_DELAY2: RTT fairness, one
# bottleneck (net_up's RATE, DELAY and QUEUE), the ACKs of flows to
# RCV_ADDR delayed ACK_DELAY ms, those from RCV_ADDR2 ACK_DELAY2 ms.
net_rtt() {
	modprobe sch_prio && modprobe cls_u32 || return 1
	net_up "$1" "$2" "$3" || return 1
	in_rcv ip addr add "$RCV_ADDR2/24" dev veth-r
	in_rcv tc qdisc replace dev veth-r root handle 1: prio bands 2 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
	in_rcv tc qdisc add dev veth-r parent 1:1 netem delay "$4ms" limit 100000
	in_rcv tc qdisc add dev veth-r parent 1:2 netem delay "$5ms" limit 100000
	in_rcv tc filter add dev veth-r parent 1: protocol ip prio 1 u32 \
		match ip src "$RCV_ADDR2/32" flowid 1:2
}

# matrix: every scenario on every algorithm, once per run of BENCH_RUNS,
# the algorithms alternating within each run.  A test is named SCENARIO@RUN.
matrix() {
	local ca r
	for r in $BENCH_RUNS; do
		for ca in "${ALGS[@]}"; do
			net_up 1mbit 50 30
			check "util 1 Mbit/100 ms, run $r: $ca" single "util1@$r" "$ca" 15 1000000
		done
		for ca in "${ALGS[@]}"; do
			net_up 10mbit 50 150
			check "2 flows share 10 Mbit/100 ms, run $r: $ca" shared "jain2@$r" "$ca" 20 2 \
				"$RCV_ADDR" "$RCV_ADDR"
			net_up 10mbit 50 150
			check "4 flows share 10 Mbit/100 ms, run $r: $ca" shared "jain4@$r" "$ca" 25 2 \
				"$RCV_ADDR" "$RCV_ADDR" "$RCV_ADDR" "$RCV_ADDR"
		done
		for ca in "${ALGS[@]}"; do
			check "RTT 20 vs 100 ms network, run $r: $ca" net_rtt 10mbit 5 150 15 95
			check "20 and 100 ms flows share 10 Mbit, run $r: $ca" shared "rtt@$r" "$ca" 25 0 \
				"$RCV_ADDR" "$RCV_ADDR2"
		done
		for ca in "${ALGS[@]}"; do
			net_up 10mbit 50 150 loss 1%
			check "1% loss on 10 Mbit/100 ms, run $r: $ca" single "loss1@$r" "$ca" 15 10000000
		done
	done
}

# BIC's design point (bench.sh --design): windows of thousands of packets,
# reached with long round trips at rates the emulated CPU carries with room
# to spare, on one bottleneck whose drop-tail queue holds a tenth of the
# path's bandwidth-delay product (BDP, in 1,514-byte frames), where how far
# an algorithm backs off after a loss decides how much of the link it
# leaves idle.  The guest only records; eval/design-report.sh computes
# every figure from /out/design/TEST.CA.link, eval/tools/linkmon's samples
# every quarter of the longest RTT (the link's output, the sender's
# congestion events and, with two flows, each one's acked bytes), and from
# bench-design.tsv: each run's flows (CA@PEER:PORT@START_S), its start
# and the guest CPU's busy share.
DP_MBIT=10 DP_RTT=1200 DP_QUEUE=100	# BDP 991 frames
DP5_MBIT=20 DP5_RTT=3000 DP5_QUEUE=500	# BDP 4,953
DP_RATE=${DP_MBIT}mbit DP5_RATE=${DP5_MBIT}mbit
# Under TCG a run's cost is the frames it sends: RTTs times the BDP.
DP_SECS=${DP_SECS:-40}		# 33 RTTs of the 1,000-frame path
DP5_SECS=${DP5_SECS:-60}	# 20 of the 5,000-frame one
DP_PAIR_SECS=${DP_PAIR_SECS:-30}	# two flows: 25 RTTs of the longest
DP_APART=${DP_APART:-12}	# the second of two starts 10 RTTs late

# dp_buffers: socket buffers for windows of 10,000 frames and more (the
# defaults' 4 and 6 MB would cap the window below the 5,000-frame BDP).
dp_buffers() {
	local ns
	for ns in "$SND" "$RCV"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_rmem="4096 131072 67108864" \
			net.ipv4.tcp_wmem="4096 16384 67108864" || return 1
	done
}

# The samples are eval/tools/linkmon's, in the sender's namespace, until
# MON_STOP appears.
MON_STOP=/tmp/mon.stop

# dp_run TEST CA SECS IVAL FLOW...: flows CA@DST@START (congestion control,
# receiver address, start in s after the first), flow i to port 5201 + i,
# all ending SECS s after the first started, with linkmon every IVAL s;
# TEST's row of the table is CA's.  The flows are tcpblast's: one connection
# each, reset when its time is up (iperf3's control connection added RTTs
# to every run, and what its send buffer held went on for RTTs after the
# end, both at the host's cost: docs/evaluation.md).  The sink reads as
# data comes: a low-water mark (SO_RCVLOWAT) would wake it less often, but
# it also holds back the receiver's ACKs until it reads.
dp_run() {
	local test=$1 ca=$2 secs=$3 ival=$4 i=0 flow fca dst at t0 b0 busy rc=0 pids=() sinks=()
	shift 4
	local out=/out/design/$test.$ca
	mkdir -p /out/design
	for flow in "$@"; do
		IFS=@ read -r _ dst _ <<< "$flow"
		in_rcv timeout $((secs + 60)) tcpblast sink "$dst" $((5201 + i)) &
		sinks+=($!)
		wait_for 5 listening in_rcv $((5201 + i)) || return 1
		i=$((i + 1))
	done
	rm -f "$MON_STOP"
	b0=$(cpu_ticks)
	t0=$(uptime_s)
	if [ $# -gt 1 ]; then
		in_snd linkmon veth-s "$ival" "$MON_STOP" acked > "$out.link" &
	else
		in_snd linkmon veth-s "$ival" "$MON_STOP" > "$out.link" &
	fi
	i=0
	for flow in "$@"; do
		IFS=@ read -r fca dst at <<< "$flow"
		(sleep_until "$t0" "$at"
		 in_snd timeout $((secs - at + 30)) tcpblast for "$dst" $((5201 + i)) \
			$((secs - at)) "$fca" > /dev/null) &
		pids+=($!)
		res "$test" "$ca" flow "$fca@$dst:$((5201 + i))@$at"
		i=$((i + 1))
	done
	for i in "${pids[@]}" "${sinks[@]}"; do
		wait "$i" || rc=1
	done
	touch "$MON_STOP"
	wait
	busy=$(cpu_busy "$b0")
	res "$test" "$ca" t0 "$t0"
	res "$test" "$ca" busy "$busy"
	# a run whose flows did not all end well is left out of the report
	res "$test" "$ca" complete "$([ "$rc" -eq 0 ] && echo yes || echo no)"
	info "$test $ca: $(wc -l < "$out.link") samples, guest CPU $busy busy"
	[ "$rc" -eq 0 ] && [ -s "$out.link" ]
}

# design: every cell on every algorithm, once per run of BENCH_RUNS.
design() {
	local ca r q q5
	q=$(awk -v ms="$DP_RTT" 'BEGIN { print ms / 4000 }')
	q5=$(awk -v ms="$DP5_RTT" 'BEGIN { print ms / 4000 }')
	modprobe tcp_bic && modprobe tcp_bbr || return 1
	res all design path "$DP_RATE $((DP_MBIT * 1000000)) $DP_RTT $DP_QUEUE"
	res all design path5 "$DP5_RATE $((DP5_MBIT * 1000000)) $DP5_RTT $DP5_QUEUE"
	res all design secs "$DP_SECS"
	res all design secs5 "$DP5_SECS"
	res all design pair_secs "$DP_PAIR_SECS"
	res all design apart "$DP_APART"
	for r in $BENCH_RUNS; do
		for ca in "${ALGS[@]}"; do
			net_up "$DP_RATE" $((DP_RTT / 2)) "$DP_QUEUE" && dp_buffers
			check "BDP 1,000, one flow, run $r: $ca" dp_run "one1k@$r" "$ca" "$DP_SECS" "$q" \
				"$ca@$RCV_ADDR@0"
			net_up "$DP5_RATE" $((DP5_RTT / 2)) "$DP5_QUEUE" && dp_buffers
			check "BDP 5,000, one flow, run $r: $ca" dp_run "one5k@$r" "$ca" "$DP5_SECS" "$q5" \
				"$ca@$RCV_ADDR@0"
			net_up "$DP_RATE" $((DP_RTT / 2)) "$DP_QUEUE" && dp_buffers
			check "BDP 1,000, two flows ${DP_APART} s apart, run $r: $ca" dp_run "conv@$r" "$ca" \
				"$DP_PAIR_SECS" "$q" "$ca@$RCV_ADDR@0" "$ca@$RCV_ADDR@$DP_APART"
			net_up "$DP_RATE" $((DP_RTT / 2)) "$DP_QUEUE" && dp_buffers
			check "BDP 1,000, one reno beside, run $r: $ca" dp_run "friend@$r" "$ca" \
				"$DP_PAIR_SECS" "$q" "reno@$RCV_ADDR@0" "$ca@$RCV_ADDR@0"
			# RTTs 1:2 and 1:4: the data path's delay is 150 ms,
			# the ACKs' makes up the rest
			net_rtt "$DP_RATE" 150 "$DP_QUEUE" $((DP_RTT / 2 - 150)) $((DP_RTT - 150)) &&
				dp_buffers
			check "RTT 1:2, run $r: $ca" dp_run "rtt2@$r" "$ca" "$DP_PAIR_SECS" "$q" \
				"$ca@$RCV_ADDR@0" "$ca@$RCV_ADDR2@0"
			net_rtt "$DP_RATE" 150 "$DP_QUEUE" $((DP_RTT / 4 - 150)) $((DP_RTT - 150)) &&
				dp_buffers
			check "RTT 1:4, run $r: $ca" dp_run "rtt4@$r" "$ca" "$DP_PAIR_SECS" "$q" \
				"$ca@$RCV_ADDR@0" "$ca@$RCV_ADDR2@0"
		done
	done
}

# Per-ACK cost.  make bench boots for this under QEMU's -icount, where the
# guest clock counts emulated instructions (2^shift ns each) and nothing
# else: so a fixed number of bytes over an unshaped veth, the guest CPU
# busy throughout, takes a guest time that is the instructions the whole
# path spent on it, read by tcpblast in ns.  Idle time (none is expected;
# /proc/timer_list's idle_sleeptime, in ns) is taken out and reported.  A
# quickack route makes the receiver ACK every segment, which gives the
# congestion control's per-ACK work the largest share of the path it can
# get.  The algorithms alternate round by round, so drift hits all alike:
#   bic_ref, bic	bic_math.h as a native module; the kernel's own bic
#   bpf_bic		untraced (the default), bpf_bic_tr traced, with
#			bictrace reading its ring (what tracing costs a user)
#   bpf_bic_1e		bpf_bic entering BPF once per ACK: the delayed-ACK
#			estimate updated in cong_avoid, no pkts_acked (an
#			experiment: the drill scripts show it is not exact)
#   cubic		a second native algorithm: how much the ratio
#			moves for reasons other than the algorithm
#   reno, bpf_reno	the kernel's Reno, natively and as kfuncs called
#			from BPF: the price of one entry into BPF per ACK;
#			bpf_reno_acked adds an empty pkts_acked, a second
cost_setup() {
	modprobe tcp_bic || return 1
	ccctl register --trace --name bpf_bic_tr > /dev/null || return 1
	ccctl register --object "$BIC_DIR/bpf/test/bic_1e.bpf.o" > /dev/null || return 1
	ccctl register --object "$BIC_DIR/bpf/test/reno.bpf.o" > /dev/null || return 1
	ccctl register --object "$BIC_DIR/bpf/test/reno_acked.bpf.o" > /dev/null
}

cost_teardown() {
	local ca
	for ca in bpf_bic_tr bpf_bic_1e bpf_reno bpf_reno_acked; do
		ccctl unregister "$ca" > /dev/null
	done
}

# idle_ns: how long the CPU has slept in idle so far.
idle_ns() {
	awk '$1 == ".idle_sleeptime" { s += $3 } END { print s + 0 }' /proc/timer_list
}

# blast TEST CA: COST_BYTES on one connection; its guest ns, ACKs, idle ns.
blast() {
	local test=$1 ca=$2 sink i0 i1 tracer="" out k1 ns k2 acks k3 segs k4 bytes k5 retrans
	in_rcv tcpblast sink "$RCV_ADDR" 5301 &
	sink=$!
	wait_for 5 listening in_rcv 5301 || return 1
	if [ "$ca" = bpf_bic_tr ]; then
		bictrace -o /dev/null &
		tracer=$!
	fi
	i0=$(idle_ns)
	out=$(in_snd tcpblast send "$RCV_ADDR" 5301 "$COST_BYTES" "$ca") || return 1
	i1=$(idle_ns)
	[ -z "$tracer" ] || { kill -INT "$tracer"; wait "$tracer"; }
	wait "$sink" || return 1
	read -r k1 ns k2 acks k3 segs k4 bytes k5 retrans _ <<<"$out"
	[ "$k1 $k2 $k3 $k4 $k5" = "ns segs_in segs_out bytes_acked retrans" ] || return 1
	res "$test" "$ca" ns "$ns"
	res "$test" "$ca" idle_ns $((i1 - i0))
	res "$test" "$ca" acks "$acks"
	res "$test" "$ca" segs_out "$segs"
	res "$test" "$ca" bytes "$bytes"
	res "$test" "$ca" retrans "$retrans"
	info "$test $ca: $ns ns, idle $((i1 - i0)) ns, $acks ACKs, $retrans retransmitted"
	[ "$bytes" -eq $((COST_BYTES + 2)) ]	# the SYN and the FIN count too
}

# ack_blast TEST CA: blast ACK_BYTES with ackcost timing each tcp_ack() call
# of the sender's connection: all calls' mean, and the median, 10th and
# 90th percentile of the calls that acked exactly one segment, the path
# where the congestion control's share is the largest.  (ACKs that arrive
# while the sender holds its socket wait in the backlog and are coalesced:
# tcp_ack() runs about once per 4 ACKs here, the algorithm once per call.)
ack_blast() {
	local test=$1 ca=$2 timer k1 calls k2 mean k3 n k4 med k5 p10 k6 p90
	ackcost 5301 > /tmp/ackcost.out &
	timer=$!
	wait_for 10 grep -q ready /tmp/ackcost.out || return 1
	COST_BYTES=$ACK_BYTES blast "$test" "$ca" || return 1
	kill -INT "$timer"
	wait "$timer" || return 1
	read -r k1 calls k2 mean <<<"$(tail -n 1 /tmp/ackcost.out)"
	read -r k3 n k4 med k5 p10 k6 p90 <<<"$(awk '$1 == "segs" && $2 == 1 {
		$1 = $2 = ""; print }' /tmp/ackcost.out)"
	[ "$k1 $k2 $k3 $k4 $k5 $k6" = "calls mean_ns calls median_ns p10_ns p90_ns" ] || return 1
	res "$test" "$ca" tcp_ack_calls "$calls"
	res "$test" "$ca" tcp_ack_mean_ns "$mean"
	res "$test" "$ca" tcp_ack1_calls "$n"
	res "$test" "$ca" tcp_ack1_median_ns "$med"
	res "$test" "$ca" tcp_ack1_p10_ns "$p10"
	res "$test" "$ca" tcp_ack1_p90_ns "$p90"
	info "$test $ca: tcp_ack() $calls calls, mean $mean ns; $n acked one segment:" \
		"median $med ns (p10 $p10, p90 $p90)"
}

# one_entry_exact: run every drill script on bpf_bic_1e and compare its rows
# with what the model says bpf_bic does (t_70 proves bpf_bic does exactly
# that): how many scripts differ, and where the first difference is.
one_entry_exact() {
	local s name line n=0 differ=0 first=""
	modprobe tun || return 1
	for s in "$BIC_DIR"/drill/*.ad; do
		name=$(basename "$s" .ad)
		ackdrill -o /tmp/1e.csv "$s" bpf_bic_1e 2>/dev/null || return 1
		n=$((n + 1))
		line=$(cmp /tmp/1e.csv "$BIC_DIR/drill/expect/$name.bpf_bic.csv" 2>/dev/null |
			awk '{ print $NF }')
		if [ -n "$line" ]; then
			differ=$((differ + 1))
			first=${first:-"$name line $line"}
		fi
	done
	res onentry bpf_bic_1e scripts "$n"
	res onentry bpf_bic_1e differ "$differ"
	res onentry bpf_bic_1e first "${first:-none}"
	info "bpf_bic_1e differs from bpf_bic on $differ of $n drill scripts (first: ${first:-none})"
}

cost() {
	local r ca
	res all cost algs "${COST_ALGS[*]}"
	res all cost rounds "$COST_ROUNDS"
	res all cost bytes "$COST_BYTES"
	res all cost ack_rounds "$ACK_ROUNDS"
	res all cost ack_bytes "$ACK_BYTES"
	res all cost cwnd_rate "$CWND_RATE"
	check "algorithms for the cost runs registered" cost_setup
	net_up 1gbit 0 1000
	in_snd tc qdisc del dev veth-s root
	in_rcv tc qdisc del dev veth-r root
	check "receiver ACKs every segment (quickack route)" \
		in_rcv ip route replace "${SND_ADDR%.*}.0/24" dev veth-r quickack 1
	# The first flow after boot runs slow, whichever algorithm it uses.
	check "cost warm-up flow" blast warmup cubic
	for ((r = 1; r <= COST_ROUNDS; r++)); do
		for ca in "${COST_ALGS[@]}"; do
			check "cost round $r: $ca" blast "cost$r" "$ca"
		done
	done
	# Here the flow is limited by the CPU and the receiver, not by cwnd:
	# cong_avoid returns at tcp_is_cwnd_limited().  The same again on a
	# shaped path where the window limits (losses at a 100-packet queue
	# keep BIC in congestion avoidance), so that BIC's growth runs on
	# every ACK, and with it the traced cwnd changes.
	for ((r = 1; r <= ACK_ROUNDS; r++)); do
		for ca in "${COST_ALGS[@]}"; do
			check "tcp_ack() round $r: $ca" ack_blast "ack$r" "$ca"
		done
	done
	net_up "$CWND_RATE" 5 100
	check "receiver ACKs every segment (quickack route)" \
		in_rcv ip route replace "${SND_ADDR%.*}.0/24" dev veth-r quickack 1
	for ((r = 1; r <= ACK_ROUNDS; r++)); do
		for ca in "${COST_ALGS[@]}"; do
			check "tcp_ack() cwnd-limited round $r: $ca" ack_blast "cwnd$r" "$ca"
		done
	done
	# The BPF side's own account of its time on that path, with stats on
	# only for these runs since measuring costs time too.  Programs of one
	# name (bpf_bic's come in three objects) are summed: only one ran.
	sysctl -qw kernel.bpf_stats_enabled=1
	for ca in bpf_bic bpf_reno_acked; do
		COST_BYTES=$ACK_BYTES check "cost with bpf_stats: $ca" blast coststats "$ca"
	done
	bpftool -j prog show |
		jq -r '[.[] | select(.type == "struct_ops" and (.name | test("^bpf_(bic|reno)_")))]
			| group_by(.name)[] | [.[0].name, (map(.run_time_ns // 0) | add),
			  (map(.run_cnt // 0) | add)] | @tsv' |
		while IFS=$'\t' read -r name ns cnt; do
			res coststats "$name" run_time_ns "$ns"
			res coststats "$name" run_cnt "$cnt"
		done
	sysctl -qw kernel.bpf_stats_enabled=0
	check "bpf_bic_1e against the drill scripts" one_entry_exact
	cost_teardown
}

start=$(uptime_s)
res all "$mode" kernel "$(uname -r)"
res all "$mode" cpu "$(awk -F': ' '$1 ~ /^model name/ { print $2; exit }' /proc/cpuinfo)"
"$mode"
net_down
ca_unregister /sys/fs/bpf/bench
res all "$mode" guest_secs "$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')"
summary
