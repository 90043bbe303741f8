#!/bin/bash
# make bench, guest side: a scenario matrix over bpf_bic, bic_ref (the same
# bic_math.h as a native module) and the kernel's cubic and reno, plus the
# per-ACK cost of BPF against native on an unshaped veth.  Raw numbers go to
# /out/bench.tsv (test, algorithm, metric, value); eval/bench-report.sh
# makes the table.  Nothing here asserts a time limit: under emulation only
# ratios between runs of one boot mean anything.
#
# usage: bench.sh [ALGORITHM...]	the scenario matrix
#				(default: bpf_bic bic_ref cubic reno)
#        bench.sh --cost		the per-ACK cost only
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_trace.sh"

ALGS=(bpf_bic bic_ref cubic reno)
mode=matrix
if [ "${1:-}" = --cost ]; then
	mode=cost
elif [ $# -gt 0 ]; then
	ALGS=("$@")
fi
COST_ALGS=(bpf_bic bic_ref cubic)
COST_ROUNDS=5
COST_SECS=2
RCV_ADDR2=198.18.0.3		# second receiver address, long-RTT path
TSV=/out/bench-$mode.tsv

: > "$RESULTS"
printf 'test\tca\tmetric\tvalue\n' > "$TSV"
res() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$TSV"; }

modules_up
check "bic_ref loaded" bic_ref_up
check "bpf_bic registered" ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/bench

uptime_s() { cut -d' ' -f1 /proc/uptime; }

# "busy total" CPU ticks so far; guest time is already inside user.
cpu_ticks() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

# sleep_until T0 OFFSET: sleep until OFFSET seconds after uptime T0.
sleep_until() {
	local d
	d=$(awk -v t0="$1" -v o="$2" -v now="$(uptime_s)" 'BEGIN { d = t0 + o - now; print (d > 0 ? d : 0) }')
	sleep "$d"
}

# server PORT [ARGS]: an iperf3 server for one test, in the background,
# its PID in /tmp/srv.PORT (to end it if its client never came).
server() {
	local port=$1
	shift
	rm -f "/tmp/srv.$port"
	in_rcv iperf3 -s -1 -p "$port" -I "/tmp/srv.$port" "$@" &
	wait_for 5 listening in_rcv "$port"
}

# client DST PORT CA SECS [ARGS]: an iperf3 client that cannot hang the run.
client() {
	local dst=$1 port=$2 ca=$3 secs=$4
	shift 4
	in_snd timeout $((secs + 30)) iperf3 -c "$dst" -p "$port" -C "$ca" -t "$secs" "$@"
}

# reap PORT...: collect the servers; end those whose client failed.  One
# that ended normally has removed its PID file, which may take it a moment
# after its client is done.
reap() {
	local port
	for port in "$@"; do
		wait_for 5 test ! -e "/tmp/srv.$port" ||
			kill "$(cat "/tmp/srv.$port" 2>/dev/null)" 2>/dev/null
	done
	wait
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

# acked_bytes: "peer_addr:port bytes_acked" of the busiest connection to
# each server port (the iperf3 data connection, not its control one).
acked_bytes() {
	in_snd ss -tinHO | awk '{
		peer = ""; n = 0; b = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9.]+:[0-9]+$/ && ++n == 2)
				peer = $i
			if ($i ~ /^bytes_acked:/)
				b = substr($i, 13)
		}
		if (peer != "" && b + 0 > max[peer] + 0)
			max[peer] = b
	} END { for (p in max) print p, max[p] }'
}

# shared TEST CA SECS STAGGER DST...: one flow per DST (address), flow i
# starting i * STAGGER s after the first, all ending together.  Each flow's
# goodput is measured over the same window, from when the last one has had
# 6 s to settle until 1 s before the end.
shared() {
	local test=$1 ca=$2 secs=$3 stagger=$4 i port dst t0 ts1 ts2 from ports=()
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
	sleep_until "$t0" "$from"
	ts1=$(uptime_s)
	acked_bytes > /tmp/acked.1
	sleep_until "$t0" $((secs - 1))
	ts2=$(uptime_s)
	acked_bytes > /tmp/acked.2
	for i in "${pids[@]}"; do
		wait "$i" || rc=1
	done
	reap "${ports[@]}"
	[ "$rc" -eq 0 ] || return 1
	i=0
	for dst in "$@"; do
		awk -v k="$dst:$((5201 + i))" -v dt="$(awk -v a="$ts1" -v b="$ts2" 'BEGIN { print b - a }')" '
			FNR == NR && $1 == k { b1 = $2 } FNR != NR && $1 == k { b2 = $2 }
			END { printf "%.0f\n", (b2 - b1) * 8 / dt }' /tmp/acked.1 /tmp/acked.2
		i=$((i + 1))
	done > "/tmp/$test.$ca.bps"
	res "$test" "$ca" window "$from-$((secs - 1))s"
	res "$test" "$ca" flows_bps "$(paste -sd/ "/tmp/$test.$ca.bps")"
	res "$test" "$ca" jain "$(awk '{ s += $1; q += $1 * $1 } END { printf "%.3f", q ? s * s / (NR * q) : 0 }' \
		"/tmp/$test.$ca.bps")"
	info "$test $ca: $(paste -sd' ' "/tmp/$test.$ca.bps") bit/s over ${from}-$((secs - 1))s"
	! grep -qx 0 "/tmp/$test.$ca.bps"
}

# RTT fairness: one bottleneck, ACKs from RCV_ADDR2 take 80 ms longer.
net_rtt() {
	modprobe sch_prio && modprobe cls_u32 || return 1
	net_up 10mbit 5 150 || return 1
	in_rcv ip addr add "$RCV_ADDR2/24" dev veth-r
	in_rcv tc qdisc replace dev veth-r root handle 1: prio bands 2 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
	in_rcv tc qdisc add dev veth-r parent 1:1 netem delay 15ms
	in_rcv tc qdisc add dev veth-r parent 1:2 netem delay 95ms
	in_rcv tc filter add dev veth-r parent 1: protocol ip prio 1 u32 \
		match ip src "$RCV_ADDR2/32" flowid 1:2
}

# Segments the sender's namespace took in so far: nearly all of them ACKs.
in_segs() {
	in_snd nstat -az TcpInSegs | awk '$1 == "TcpInSegs" { print $2 }'
}

matrix() {
	local ca
	for ca in "${ALGS[@]}"; do
		net_up 1mbit 50 30
		check "util 1 Mbit/100 ms: $ca" single util1 "$ca" 15 1000000
	done
	for ca in "${ALGS[@]}"; do
		# a queue of one bandwidth-delay product, ~830 packets
		net_up 100mbit 50 830
		check "util 100 Mbit/100 ms: $ca" single util100 "$ca" 15 100000000
	done
	for ca in "${ALGS[@]}"; do
		net_up 10mbit 50 150
		check "2 flows share 10 Mbit/100 ms: $ca" shared jain2 "$ca" 20 2 "$RCV_ADDR" "$RCV_ADDR"
		net_up 10mbit 50 150
		check "4 flows share 10 Mbit/100 ms: $ca" shared jain4 "$ca" 25 2 \
			"$RCV_ADDR" "$RCV_ADDR" "$RCV_ADDR" "$RCV_ADDR"
	done
	for ca in "${ALGS[@]}"; do
		check "RTT 20 vs 100 ms network: $ca" net_rtt
		check "20 and 100 ms flows share 10 Mbit: $ca" shared rtt "$ca" 25 0 \
			"$RCV_ADDR" "$RCV_ADDR2"
	done
	for ca in "${ALGS[@]}"; do
		net_up 10mbit 50 150 loss 1%
		check "1% loss on 10 Mbit/100 ms: $ca" single loss1 "$ca" 15 10000000
	done
}

# Per-ACK cost: unshaped veth, the CPU is the bottleneck, so goodput per
# CPU-second is inverse cost per packet; algorithms alternate so that drift
# of the emulation hits all alike.  A quickack route makes the receiver ACK
# every segment, which gives the congestion control's per-ACK work the
# largest share of the path it can get.  make bench boots for this with
# QEMU's -icount, so that guest CPU time counts emulated instructions.
cost() {
	local r ca a0
	net_up 1gbit 0 1000
	in_snd tc qdisc del dev veth-s root
	in_rcv tc qdisc del dev veth-r root
	check "receiver ACKs every segment (quickack route)" \
		in_rcv ip route replace "${SND_ADDR%.*}.0/24" dev veth-r quickack 1
	# The first flow after boot runs slow, whichever algorithm it uses.
	check "cost warm-up flow" single warmup cubic "$COST_SECS" 1
	for ((r = 1; r <= COST_ROUNDS; r++)); do
		for ca in "${COST_ALGS[@]}"; do
			a0=$(in_segs)
			check "cost round $r: $ca" single "cost$r" "$ca" "$COST_SECS" 1
			res "cost$r" "$ca" acks $(($(in_segs) - a0))
			res "cost$r" "$ca" secs "$(jq '.end.sum_received.seconds' /tmp/cli.json)"
			res "cost$r" "$ca" bytes "$(jq '.end.sum_received.bytes' /tmp/cli.json)"
		done
	done
	# The BPF side's own account of its time, with stats on only for
	# this run since measuring costs time too.
	sysctl -qw kernel.bpf_stats_enabled=1
	check "cost with bpf_stats: bpf_bic" single coststats bpf_bic "$COST_SECS" 1
	bpftool -j prog show |
		jq -r '.[] | select(.type == "struct_ops" and (.name | startswith("bpf_bic")))
			| [.name, (.run_time_ns // 0), (.run_cnt // 0)] | @tsv' |
		while IFS=$'\t' read -r name ns cnt; do
			res coststats "$name" run_time_ns "$ns"
			res coststats "$name" run_cnt "$cnt"
		done
	sysctl -qw kernel.bpf_stats_enabled=0
}

start=$(uptime_s)
res all "$mode" kernel "$(uname -r)"
res all "$mode" cpu "$(awk -F': ' '$1 ~ /^model name/ { print $2; exit }' /proc/cpuinfo)"
"$mode"
net_down
ca_unregister /sys/fs/bpf/bench
res all "$mode" guest_secs "$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')"
summary
