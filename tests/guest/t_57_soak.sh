#!/bin/bash
# Soak: 8 flows at a time on bpf_bic for SOAK_SECS while something changes
# every second, then nothing lost, nothing broken, nothing leaked.
#
# Churn, one action a second, in turn: ccctl swap bpf_bic between its two
# implementations (6.4+), ccctl migrate the flows to bpf_bic_2611 and back,
# ccctl unregister and register an algorithm no flow uses (spare), netem's
# delay line changed (delay, loss up to 1%, reordering), and the veth link
# taken down for 0.3 s and up again (from the receiver's end: the sender's
# end going down would also delete the sender's route, below).  Each of 8
# slots sends a counted number of bytes on a new connection (up to 200 KB,
# less towards the end, to end with the soak), checks them and starts the
# next, until SOAK_SECS is over; the churn starts once all 8 run and goes
# on until the last of them is done.
#
# The flows are busybox nc pairs, not iperf3: iperf3 -n ends its test as soon
# as the sender has written the bytes, and closes its data connections with
# whatever is still queued or in flight (measured here: a stream wrote 131072
# bytes, its receiver got 94120, and the close reset 10 connections), so
# neither "all bytes" nor "no reset" could be checked exactly.  nc closes
# with a FIN after the last byte, and the receiver counts what it read: every
# connection must deliver exactly its bytes, both ends exit 0, and the
# namespaces' reset and abort counters (new namespaces, so from 0) stay 0.
# The flows get bpf_bic from the sender's route (ip route ... congctl, as in
# t_40), which the kernel resolves by name at each connect, so a flow that
# starts after a swap gets the new implementation; now and then ss must
# show every flow on bpf_bic or bpf_bic_2611.
#
# Ring buffer full: before the churn, bictrace is attached to bpf_bic's ring
# buffer and stopped (SIGSTOP), and two flows run in slow start from their
# first segment to their last (one event per ACK), a third more events than
# the ring holds.  bpf_bic counts the events it could not reserve room for;
# the flows still deliver every byte with no reset; after SIGCONT bictrace
# drains exactly one full ring, RING_RECS records of 88 bytes (the 80-byte
# struct bic_event and the ring's 8-byte header) in bic.bpf.c's 256 KiB, and
# exits 0 on SIGINT with a well-formed CSV, having named on stderr the one
# ring it read.
#
# Leaks, once everything registered is unregistered and the namespaces are
# gone: BPF programs, maps, links, BTF objects, struct_ops maps, pins, the
# available algorithms, the kernel's TCP socket slabs (TCP, tw_sock_TCP,
# request_sock_TCP and their v6 twins), its count of allocated TCP sockets,
# the vmalloc areas BPF allocated (programs and their JIT packs) and the
# taint flags are back to what they were before, exactly.  SLUB counts the
# free objects of a CPU's current slab as active, so each slab is shrunk
# (/sys/kernel/slab/X/shrink) before it is read; then the count is exact (on
# 6.12: 13 active TCP objects after a flow, 0 after the shrink).  There is
# no slab cache of struct_ops or of BPF: a struct_ops map and its value come
# from kmalloc, shared with everything else, and programs from vmalloc, which
# /proc/vmallocinfo lists by caller; the struct_ops maps themselves are
# counted through bpftool.  dmesg: no WARNING, BUG, Oops, INFO (hung task,
# RCU stall) or lockdep report (these Debian kernels have no lockdep built
# in: CONFIG_PROVE_LOCKING is off).
#
# SOAK_SECS: from the environment (make soak: 600), else suite.conf (60 on
# the primary kernel, 20 on 6.1 and 7.3), else 60.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

soak_env=${SOAK_SECS:-}
SOAK_SECS=60
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"
[ -n "$soak_env" ] && SOAK_SECS=$soak_env

SLOTS=8			# flows at a time
PORT0=6000		# slot N listens on PORT0 + 2N and PORT0 + 2N + 1
# The soak's path: 1 Mbit/s, as t_50's, leaves the guest's one emulated CPU
# time for the churn (at 4 Mbit/s the flows took all of it and ccctl swaps
# crawled).  A flow of SOAK_BYTES lasts long enough that no slot opens a
# new connection every few seconds: each costs the guest CPU in processes
# (nc, ip netns exec, ss).  The figures: docs/testing.md.
RATE=1mbit DELAY=10 QUEUE=30
SOAK_BYTES=200000
# A flow's pace under the churn before its slot has measured one: 8.7 and
# 9.4 KB/s measured (6.12 over 60 s, 6.1 over 20 s), 60% of its share of
# the link (losses, RTOs after the flaps).
SOAK_PACE=10000
# The ring phase's: one connection in each of RING_SLOTS slots, as fast as
# the guest goes, a queue no flow fills, an ACK for every segment (quickack)
# and socket buffers that never limit a flow (with the default 128 KiB
# receive buffer a flow stopped growing at cwnd 90, 64 KiB in flight), so
# that each flow is in slow start from its first segment to its last: every
# ACK changes cwnd, an event.  2 x 5 MB are ~6900 segments, 72-100% of them
# acked with a cwnd change (measured; fewer when the guest is too slow to
# keep the flows cwnd-limited): past one ring's 2978 records.
RING_RATE=12mbit RING_QUEUE=100000 RING_BYTES=5000000 RING_SLOTS=2
RING_RECS=$(( 256 * 1024 / (80 + 8) ))
FLAP_SECS=0.3		# down time of a link flap, far below any RTO give-up
MAX_REPORTS=10		# failures shown one by one, then only counted

dir=/tmp/t57
rm -rf "$dir"
mkdir -p "$dir"
hold=$dir/hold		# receivers' stdin: a FIFO that never reaches EOF
mkfifo "$hold"
start_time=$(date +%s)

# --- what must come back to where it was ----------------------------------
slabs=()
for s in TCP TCPv6 tw_sock_TCP tw_sock_TCPv6 request_sock_TCP request_sock_TCPv6; do
	[ -w "/sys/kernel/slab/$s/shrink" ] && slabs+=("$s")
done
# One "name value" line per counted thing.
counts() {
	local s
	# (grep, not jq: jq is dear in a loaded TCG guest)
	echo "progs $(bpftool prog show | grep -c '^[0-9]')"
	echo "maps $(bpftool map show | grep -c '^[0-9]')"
	echo "links $(bpftool link show | grep -c '^[0-9]')"
	echo "btf $(bpftool btf list | grep -c '^[0-9]')"
	echo "struct_ops $(bpftool struct_ops list | wc -l)"
	# /sys/fs/bpf/ccctl itself stays, by design (docs/ccctl.md)
	echo "pins $(find /sys/fs/bpf -mindepth 1 ! -path /sys/fs/bpf/ccctl | wc -l)"
	echo "available $(tr ' ' , < /proc/sys/net/ipv4/tcp_available_congestion_control)"
	for s in "${slabs[@]}"; do
		echo 1 > "/sys/kernel/slab/$s/shrink"
		echo "slab_$s $(awk -v s="$s" '$1 == s { print $2 }' /proc/slabinfo)"
	done
	echo "tcp_sockets_allocated $(awk '$1 == "TCP:" { print $9 }' /proc/net/sockstat)"
	echo "vmalloc_bpf $(awk '$3 ~ /^bpf_/' /proc/vmallocinfo | wc -l)"
	echo "taint $(cat /proc/sys/kernel/tainted)"
}

modules_up
# What an earlier test let go of may still be on its way out (namespaces,
# struct_ops maps and programs are freed by deferred work): the baseline is
# two counts a second apart that agree.
counts > "$dir/before"
for _ in $(seq 1 30); do
	sleep 1
	counts > "$dir/before.2"
	cmp -s "$dir/before" "$dir/before.2" && break
	mv "$dir/before.2" "$dir/before"
done
info "counted what must come back, at $(( $(date +%s) - start_time ))s"

# --- churn actions, each counted ------------------------------------------
declare -A done_n fail_n
reports=0 slowest=0 slowest_what=""
# act KIND COMMAND...: run one churn command; a failure is reported with
# its stderr.
act() {
	local kind=$1 err rc=0 t
	shift
	t=${EPOCHREALTIME/./}
	err=$("$@" 2>&1 >"$dir/act.out") || rc=$?
	t=$(( ${EPOCHREALTIME/./} - t ))
	echo "$EPOCHREALTIME $kind rc=$rc $((t / 1000))ms: $* => $(head -c 200 "$dir/act.out" | tr '\n' ' ')" >> "$dir/churn.log"
	((t <= slowest)) || slowest=$t slowest_what="$*"
	done_n[$kind]=$(( ${done_n[$kind]:-0} + 1 ))
	if [ "$rc" -ne 0 ]; then
		fail_n[$kind]=$(( ${fail_n[$kind]:-0} + 1 ))
		if ((reports++ < MAX_REPORTS)); then
			not_ok "churn $kind: '$*' exited $rc: $err"
		fi
	fi
	return "$rc"
}

# The sender's route gives new connections bpf_bic.
route_up() {
	in_snd ip route replace "${RCV_ADDR%.*}.0/24" dev veth-s congctl bpf_bic
}

# The sender's neighbour entry for the receiver, made permanent: a carrier
# loss flushes the others, and one resolved again while the link is still
# down fails a connect under way with EHOSTUNREACH (seen when a stalled
# guest stretched a flap many times over).  A flap should cost packets only.
static_neigh() {
	in_snd ip neigh replace "$RCV_ADDR" dev veth-s nud permanent \
		lladdr "$(in_rcv cat /sys/class/net/veth-r/address)"
}

# The receiver keeps a route to the sender while its end of the link is
# down: one into a veth pair of its own, where packets die unanswered.
# Without it a SYN-ACK retransmission finds no route, the kernel drops the
# half-open connection (reqsk_timer_handler), and the client, established
# on the first SYN-ACK, meets a reset on its next segment (seen at the
# soak's first flap, during the first handshakes).
sink_route() {
	in_rcv ip link add sink0 type veth peer sink1 &&
		in_rcv ip link set sink1 up && in_rcv ip link set sink0 up &&
		in_rcv ip neigh replace "$SND_ADDR" dev sink0 nud permanent lladdr 02:00:00:00:00:01 &&
		in_rcv ip route add "${SND_ADDR%.*}.0/24" dev sink0 metric 100
}

# The veth link down and up, from the receiver's end: that takes the
# carrier from the sender's end too, and its qdiscs drop what they hold.
# (Taking the sender's end down would also delete the sender's route, and
# with it the congctl that puts new connections on bpf_bic.)
flap() {
	in_rcv ip link set veth-r down && sleep "$FLAP_SECS" && in_rcv ip link set veth-r up
}

# netem's delay line (root 1:); the rate and queue (child 10:) stay.
NETEMS=("delay 20ms loss 0.5%" "delay ${DELAY}ms reorder 5% 50%" "delay 5ms loss 1%"
	"delay 15ms 5ms" "delay ${DELAY}ms")
netem() {
	# shellcheck disable=SC2086	# the options are words
	in_snd tc qdisc change dev veth-s root handle 1: netem limit 100000 $1
}

# --- flows ----------------------------------------------------------------
# slot N BYTES TAG END PACE [ROUNDS]: connections from SND to RCV, one after
# another, until END (epoch seconds) or ROUNDS of them.  Each sends BYTES, or less, so as to end by END at the pace of the
# slot's last connection (PACE, bytes/s, before the first); a slot stops
# when less than 2 s are left.  The receiver of the next connection listens
# before this one starts, on the slot's other port (PORT0 + 2N or + 2N + 1),
# so that no flow waits for one.  One line per connection in
# $dir/flows.TAG.N: "bytes received sender_rc receiver_rc".
slot() {
	local n=$1 max=$2 tag=$3 end=$4 pace=$5 rounds=${6:-0} r=0 bytes left t
	# (ip netns exec, not in_rcv: $! must be nc itself, for kill)
	local port rpid next=-1 spid rc_s rc_r got
	renice -n "$SLOT_NICE" -p "$BASHPID" >/dev/null
	while ((rounds == 0 || r < rounds)); do
		left=$((end - $(date +%s)))
		((left >= 2)) || break
		bytes=$max
		# half of what the last pace allows: the churn slows flows
		((pace * left / 2 >= bytes)) || bytes=$((pace * left / 2))
		r=$((r + 1))
		port=$((PORT0 + 2 * n + r % 2))
		if ((next < 0)); then
			ip netns exec "$RCV" nc -l -p "$port" 0<>"$hold" > "$dir/rcv.$port" &
			next=$!
		fi
		rpid=$next next=-1
		if ! wait_for 30 listening in_rcv "$port"; then
			echo "$bytes 0 no-listener -" >> "$dir/flows.$tag.$n"
			kill "$rpid" 2>/dev/null
			wait "$rpid"
			continue
		fi
		t=${EPOCHREALTIME/./}
		head -c "$bytes" /dev/zero | ip netns exec "$SND" nc "$RCV_ADDR" "$port" &
		spid=$!
		: > "$dir/started.$n"
		if ((rounds == 0 || r < rounds)); then
			ip netns exec "$RCV" nc -l -p "$((PORT0 + 2 * n + (r + 1) % 2))" 0<>"$hold" \
				> "$dir/rcv.$((PORT0 + 2 * n + (r + 1) % 2))" &
			next=$!
		fi
		rc_s=0 rc_r=0
		wait "$spid" || rc_s=$?
		# A sender that is done saw its receiver close; one that failed may
		# leave a receiver that never got its connection.
		if [ "$rc_s" -ne 0 ]; then
			wait_for 5 gone "$rpid" || kill "$rpid" 2>/dev/null
		fi
		wait "$rpid" || rc_r=$?
		got=$(wc -c < "$dir/rcv.$port")
		pace=$((got * 1000000 / (${EPOCHREALTIME/./} - t)))
		echo "$bytes $got $rc_s $rc_r" >> "$dir/flows.$tag.$n"
		if [ "$got" != "$bytes" ] || [ "$rc_s" != 0 ] || [ "$rc_r" != 0 ]; then
			{
				echo "$EPOCHREALTIME slot $n round $r port $port: sent $bytes received $got rc $rc_s/$rc_r"
				in_snd ss -tanH "( dport = :$port )"
				in_rcv ss -tanH "( sport = :$port )"
				echo "RCV:"; in_rcv nstat -az | grep -v ' 0 '
				echo "SND:"; in_snd nstat -az | grep -v ' 0 '
			} >> "$dir/fail.log" 2>&1
		fi
	done
	# the receiver of a connection that will not come
	if ((next >= 0)); then
		kill "$next" 2>/dev/null
		wait "$next"
	fi
}

# start_slots COUNT BYTES TAG END PACE [ROUNDS]
start_slots() {
	local n
	rm -f "$dir"/started.*
	slot_pids=()
	for ((n = 1; n <= $1; n++)); do
		slot "$n" "$2" "$3" "$4" "$5" "${6:-0}" &
		slot_pids+=($!)
	done
}
slots_running() {
	local p
	for p in "${slot_pids[@]}"; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

# check_flows TAG WHAT SLOTS: every connection of the phase delivered its bytes.
check_flows() {
	local tag=$1 what=$2 slots=$3 n bad total bytes
	cat "$dir"/flows."$tag".* > "$dir/flows.$tag"
	total=$(wc -l < "$dir/flows.$tag")
	bytes=$(awk '{ s += $2 } END { print s + 0 }' "$dir/flows.$tag")
	bad=$(awk '$1 != $2 || $3 != 0 || $4 != 0' "$dir/flows.$tag" | wc -l)
	info "$what: $total connections, $slots at a time, $bytes bytes received"
	awk '$1 != $2 || $3 != 0 || $4 != 0 { print "# sent " $1 " received " $2 " nc rc " $3 "/" $4 }' \
		"$dir/flows.$tag" | head -n "$MAX_REPORTS"
	check_cmp "$what: every connection delivered all its bytes, nc exited 0 at both ends" "$bad" -eq 0
	if [ -s "$dir/fail.log" ]; then
		sed 's/^/# /' "$dir/fail.log"
		rm "$dir/fail.log"
	fi
	for n in $(seq 1 "$slots"); do
		[ -s "$dir/flows.$tag.$n" ] || { not_ok "$what: slot $n ran no connection"; return; }
	done
}

# Connections reset or aborted since the namespaces were made, on either end.
resets=(TcpEstabResets TcpExtTCPAbortOnData TcpExtTCPAbortOnTimeout TcpExtTCPAbortOnClose
	TcpExtTCPAbortOnMemory TcpExtTCPAbortOnLinger)
resets_now() {
	local ns s=0
	for ns in "$SND" "$RCV"; do
		ip netns exec "$ns" nstat -az > "$dir/nstat"
		s=$((s + $(nstat_sum "$dir/nstat" "${resets[@]}")))
	done
	echo "$s"
}

# The states of a sender's socket while its flow runs: nc shuts its side
# down as soon as it has written the last byte, which the socket buffer
# takes long before it is acked.
FLOWING="state established state fin-wait-1 state fin-wait-2"
# Sender sockets of flows, and how many of them are on bpf_bic or bpf_bic_2611.
on_bic() {
	# shellcheck disable=SC2086	# FLOWING is words
	in_snd ss -tinH $FLOWING dst "$RCV_ADDR" | awk '/rtt:/ { n++
		for (i = 1; i <= NF; i++) if ($i == "bpf_bic" || $i == "bpf_bic_2611") { b++; break } }
		END { print n + 0, b + 0 }'
}

# events_dropped of the object whose .bss map has id $1.
dropped() {
	bpftool map dump id "$1" |
		awk -F '[:,]' '/"events_dropped":/ { gsub(/ /, "", $2); print $2 }'
}

# --- ring buffer full -----------------------------------------------------
check "register bpf_bic, traced" ccctl register --trace
bss=$(bss_map_id bic)
net_up "$RING_RATE" "$DELAY" "$RING_QUEUE"
route_up
in_rcv ip route replace "${SND_ADDR%.*}.0/24" dev veth-r quickack 1
in_rcv sysctl -qw net.ipv4.tcp_rmem="4096 8388608 8388608"
in_snd sysctl -qw net.ipv4.tcp_wmem="4096 8388608 8388608"
bictrace -o "$dir/trace.csv" 2>"$dir/trace.err" &
tracer=$!
check "bictrace attached" wait_for 10 test -s "$dir/trace.csv"
kill -STOP "$tracer"
d0=$(dropped "$bss")
t0=$(date +%s) cpu0=$(cpu_ticks)
info "ring phase starts at $((t0 - start_time))s"
SLOT_NICE=0
# A slow guest may keep flows from slow start (CPU- rather than cwnd-limited:
# fewer events): another round then, up to a minute in all.
rounds=0
while :; do
	rounds=$((rounds + 1))
	start_slots "$RING_SLOTS" "$RING_BYTES" ring $((t0 + 600)) "$RING_BYTES" 1
	wait "${slot_pids[@]}"
	d1=$(dropped "$bss")
	if [ "$d1" -gt "$d0" ] || [ "$(date +%s)" -ge $((t0 + 60)) ]; then break; fi
done
info "ring phase: $((d1 - d0)) events dropped, $rounds round(s) of flows," \
	"$(( $(date +%s) - t0 ))s, guest CPU $(cpu_busy "$cpu0") busy"
check_cmp "with bictrace stopped the ring filled and bpf_bic counted the dropped events" "$d1" -gt "$d0"
check_flows ring "ring phase" "$RING_SLOTS"
check_cmp "ring phase: no connection reset or aborted" "$(resets_now)" -eq 0
kill -CONT "$tracer"
rows=-1
# drained once the CSV stops growing
for _ in $(seq 1 50); do
	sleep 0.2
	r=$(wc -l < "$dir/trace.csv")
	[ "$r" -gt 1 ] && [ "$r" -eq "$rows" ] && break
	rows=$r
done
kill -INT "$tracer"
rc=0
wait "$tracer" || rc=$?
check_cmp "bictrace exits 0 on SIGINT" "$rc" -eq 0
check_cmp "bictrace wrote one line on stderr" "$(grep -c '' "$dir/trace.err")" -eq 1
check "... naming bpf_bic's ring" \
	grep -qx 'bictrace: reading the events of bpf_bic (ring map [0-9]*)' "$dir/trace.err"
rows=$(($(wc -l < "$dir/trace.csv") - 1))
info "bictrace drained $rows records"
check_cmp "bictrace drained exactly one full ring" "$rows" -eq "$RING_RECS"
check "the CSV has bictrace's header" test "$(head -n 1 "$dir/trace.csv")" = \
	"ts_ns,saddr,sport,daddr,dport,event,cwnd,ssthresh,last_max_cwnd,cnt,ret,epoch_ms"
check_cmp "every CSV row has 12 fields" \
	"$(awk -F, 'NF != 12' "$dir/trace.csv" | wc -l)" -eq 0
check "the CSV ends with a whole line" test -z "$(tail -c 1 "$dir/trace.csv")"
cp "$dir/trace.csv" /out/t57.ring.csv

# --- soak ----------------------------------------------------------------
net_down
net_up "$RATE" "$DELAY" "$QUEUE"
route_up
static_neigh
sink_route
check "register bpf_bic_2611 beside it" ccctl register --variant 2611
check "register spare, which no flow uses" ccctl register --variant fixed --name spare
if has_struct_ops_links; then
	kinds=(swap migrate spare netem link)
else
	kinds=(migrate spare netem link)
	skip "swap bpf_bic under the soak" "$NO_LINK_WHY"
fi
on=bpf_bic variant=fixed spare=yes netem_i=0 moved=0 not_bic=0 samples=0
t0=$(date +%s) cpu0=$(cpu_ticks)
deadline=$((t0 + SOAK_SECS))
info "soak starts at $((t0 - start_time))s"
SLOT_NICE=10		# the flows' processes yield to the churn's
start_slots "$SLOTS" "$SOAK_BYTES" soak "$deadline" "$SOAK_PACE"
# The churn starts once every slot has started a flow.
for _ in $(seq 1 300); do
	[ "$(find "$dir" -name 'started.*' | wc -l)" -lt "$SLOTS" ] || break
	sleep 0.1
done
info "$SLOTS flows started after $(( $(date +%s) - t0 ))s"
i=0
# One action a second on the clock: after a slow one the next ones start
# at once until the loop is back on time.
next=${EPOCHREALTIME/./}
while [ "$(date +%s)" -lt "$deadline" ] || slots_running; do
	next=$((next + 1000000))
	kind=${kinds[i % ${#kinds[@]}]}
	case $kind in
	swap)
		if [ "$variant" = fixed ]; then variant=2611; else variant=fixed; fi
		act swap ccctl swap bpf_bic --variant "$variant" --name bpf_bic
		;;
	migrate)
		if [ "$on" = bpf_bic ]; then to=bpf_bic_2611; else to=bpf_bic; fi
		if act migrate ccctl migrate "$on" "$to"; then
			m=$(sed -n 's/^moved \([0-9]*\) .*/\1/p' "$dir/act.out")
			moved=$((moved + ${m:-0}))
		fi
		on=$to
		;;
	spare)
		if [ "$spare" = yes ]; then
			act spare ccctl unregister spare && spare=no
		else
			act spare ccctl register --variant fixed --name spare && spare=yes
		fi
		;;
	netem)
		act netem netem "${NETEMS[netem_i++ % ${#NETEMS[@]}]}"
		;;
	link)
		act link flap
		;;
	esac
	# Now and then: every flow is on one of the two BIC names.
	if ! ((i % 5)); then
		read -r n b <<<"$(on_bic)"
		samples=$((samples + 1))
		not_bic=$((not_bic + n - b))
	fi
	i=$((i + 1))
	now=${EPOCHREALTIME/./}
	((now >= next)) || sleep "$(printf '0.%06d' $((next - now)))"
done
soak_took=$(( $(date +%s) - t0 ))
wait "${slot_pids[@]}"
resets_soak=$(resets_now)
info "soak: ${soak_took}s (SOAK_SECS=$SOAK_SECS), $i churn actions, guest CPU $(cpu_busy "$cpu0") busy"
for kind in "${kinds[@]}"; do
	info "churn $kind: ${done_n[$kind]:-0} done, ${fail_n[$kind]:-0} failed"
done
info "migrations moved $moved sockets in all"
info "slowest churn action: $((slowest / 1000)) ms ($slowest_what)"
# One a second when the guest keeps up, fewer when other TCG guests share
# the host's cores (docs/testing.md).  Half the clock's pace is the floor.
check_cmp "churn: an action at least every other second" "$((2 * i))" -ge "$soak_took"
fails=0
for kind in "${kinds[@]}"; do
	check_cmp "churn $kind ran" "${done_n[$kind]:-0}" -ge 1
	fails=$((fails + ${fail_n[$kind]:-0}))
done
check_cmp "every churn command succeeded" "$fails" -eq 0
check_cmp "migrations moved sockets" "$moved" -gt 0
check_cmp "every flow sampled ($samples samples) was on bpf_bic or bpf_bic_2611" "$not_bic" -eq 0
check_flows soak "soak" "$SLOTS"
check_cmp "soak: no connection reset or aborted" "$resets_soak" -eq 0
# what each churn command did and took, for a look afterwards
cp "$dir/churn.log" /out/t57.churn.log
in_snd nstat -az TcpRetransSegs TcpExtTCPTimeouts TcpOutRsts | awk '/^[A-Z]/ { print "# sender: " $1, $2 }'

# --- leaks ----------------------------------------------------------------
# The namespaces go once every connection has closed on both ends, over a
# clean path: a socket still in LAST-ACK when its namespace went would
# retransmit its FIN into nothing for a minute or two (seen: one TCPv6
# receiver socket, its last ACK lost to netem), an orphan, not a leak.
# TIME-WAIT sockets go with their namespace.
netem "delay ${DELAY}ms"
closed() {
	[ -z "$(ip netns exec "$1" ss -tanH state connected exclude time-wait)" ]
}
check "every connection closed on both ends" wait_for 30 bash -c \
	"$(declare -f closed); closed $SND && closed $RCV"
# ccctl refuses to unregister an algorithm a route names (t_82): the route
# stays, without its congctl.
in_snd ip route replace "${RCV_ADDR%.*}.0/24" dev veth-s
[ "$spare" = no ] || check "unregister spare" ccctl unregister spare
check "unregister bpf_bic_2611" ccctl unregister bpf_bic_2611
check "unregister bpf_bic" ccctl unregister bpf_bic
net_down
info "leak check starts at $(( $(date +%s) - start_time ))s"
same() {
	counts > "$dir/after"
	cmp -s "$dir/before" "$dir/after"
}
wait_for 30 same
info "$(printf '%-24s %10s %10s' what before after)"
paste -d ' ' "$dir/before" "$dir/after" | while read -r name a _ b; do
	info "$(printf '%-24s %10s %10s' "$name" "$a" "$b")"
done
paste -d ' ' "$dir/before" "$dir/after" | while read -r name a _ b; do
	check "leak: $name back to its count ($a)" test "$a" = "$b"
done
check "dmesg has no WARNING/BUG/Oops/INFO or lockdep report" dmesg_clean
info "t_57 took $(( $(date +%s) - start_time ))s"
