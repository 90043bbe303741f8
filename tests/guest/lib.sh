# shellcheck shell=bash
# Helpers shared by the guest tests: their results (tap.sh, beside this
# file), the two-namespace test network, and readers for the algorithm's
# state.

BIC_DIR=${BIC_DIR:-/opt/bic}
# Where a run's results go: run-all.sh's, an evaluation driver's, and a
# test's run alone.
RESULTS=${RESULTS:-/tmp/bic-results}
# shellcheck source=tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
SND=bic-snd RCV=bic-rcv
SND_ADDR=198.18.0.1 RCV_ADDR=198.18.0.2	# RFC 2544 benchmarking range

# goodput JSON: whole bits per second the receiver got, from iperf3 -J.
goodput() {
	jq '.end.sum_received.bits_per_second | floor' "$1"
}

# kernel_at_least X.Y: the guest runs Linux X.Y or later.
kernel_at_least() {
	local rel major minor
	rel=$(uname -r)
	major=${rel%%.*}
	rel=${rel#*.}
	minor=${rel%%[!0-9]*}
	[ "$major" -gt "${1%%.*}" ] || { [ "$major" -eq "${1%%.*}" ] && [ "$minor" -ge "${1#*.}" ]; }
}

# Struct_ops links (BPF_F_LINK maps, pinned registrations, BPF_LINK_UPDATE
# for a swap in place) arrived in 6.4.  Tests take this from the kernel
# version, independently of ccctl's own probe, which t_50_ccctl_basic checks
# against it.
LINK_SINCE=6.4
has_struct_ops_links() { kernel_at_least "$LINK_SINCE"; }
# shellcheck disable=SC2034	# the reason the tests give for what they skip
NO_LINK_WHY="no struct_ops links before Linux $LINK_SINCE"

in_snd() { ip netns exec "$SND" "$@"; }
in_rcv() { ip netns exec "$RCV" "$@"; }

# ss_count CA [NETNS...]: the sockets on CA as ss sees them, one namespace
# at a time: in each NETNS given, or in the sender's and the receiver's.
ss_count() {
	local ca=$1 ns n=0
	shift
	[ $# -gt 0 ] || set -- "$SND" "$RCV"
	for ns in "$@"; do
		n=$((n + $(ip netns exec "$ns" ss -taniH | grep -cw -- "$ca")))
	done
	echo "$n"
}

# net_up RATE DELAY_MS_EACH_WAY QUEUE_PKTS [EXTRA NETEM ARGS for the data path]
# Sender and receiver namespaces over one veth pair, where netem sees (and
# drops, reorders, delays) single MSS-sized packets: offloads off is not
# enough, since TCP builds GSO packets for any device and software-segments
# them only after the qdisc, where a queue limit counts them as one packet
# each; gso_max_segs 1 keeps TCP from building them.
#
# The bottleneck (RATE, a QUEUE_PKTS drop-tail queue) is a netem child of the
# delay line, not the root qdisc itself: a packet the sender's root qdisc
# refuses goes back to TCP as local congestion (CWR: no loss, no
# retransmission), while one the child drops, after the root took it, is lost
# in the network as at a real router.
# Both delay lines take any number of packets: netem's default limit of
# 1,000 would drop ACKs, or data, on a path holding more than that.
net_up() (
	set -e
	local rate=$1 delay=$2 limit=$3
	shift 3
	net_down
	ip netns add "$SND"
	ip netns add "$RCV"
	ip link add veth-s netns "$SND" type veth peer veth-r netns "$RCV"
	in_snd ip addr add "$SND_ADDR/24" dev veth-s
	in_rcv ip addr add "$RCV_ADDR/24" dev veth-r
	for end in "$SND veth-s" "$RCV veth-r"; do
		set -- "${end% *}" "${end#* }" "$@"
		ip -n "$1" link set lo up
		ip netns exec "$1" ethtool -K "$2" tso off gso off gro off >/dev/null
		ip -n "$1" link set "$2" gso_max_segs 1
		ip -n "$1" link set "$2" up
		shift 2
	done
	in_snd tc qdisc add dev veth-s root handle 1: netem delay "${delay}ms" limit 100000 "$@"
	in_snd tc qdisc add dev veth-s parent 1:1 handle 10: netem rate "$rate" limit "$limit"
	in_rcv tc qdisc add dev veth-r root netem delay "${delay}ms" limit 100000
)

net_down() {
	ip netns del "$SND" 2>/dev/null || true
	ip netns del "$RCV" 2>/dev/null || true
}

modules_up() {
	local m
	for m in veth sch_netem tcp_diag; do
		modprobe "$m" || return 1
	done
}

# ca_register OBJECT DIR: bpftool registers OBJECT's struct_ops the way this
# kernel can: through links pinned in DIR (6.4+) or, before 6.4, as the
# object's pre-6.4 form (nolink/ beside it) by writing its map, whose id is
# noted under DIR's name for ca_unregister.
NOLINK_REGS=/tmp/bic-nolink-regs
ca_register() {
	local obj=$1 dir=$2 out
	mkdir -p "$dir"
	if has_struct_ops_links; then
		bpftool struct_ops register "$obj" "$dir" >/dev/null
		return
	fi
	# "Registered tcp_congestion_ops bic_ops id 12", on stderr
	out=$(bpftool struct_ops register "${obj%/*}/nolink/${obj##*/}" 2>&1) || return 1
	echo "$dir ${out##* id }" >> "$NOLINK_REGS"
}

# ca_unregister DIR: undo every ca_register into DIR or below it.
ca_unregister() {
	local dir=$1 d id rc=0
	if [ -s "$NOLINK_REGS" ]; then
		while read -r d id; do
			case $d in
			"$dir" | "$dir"/*) bpftool struct_ops unregister id "$id" >/dev/null 2>&1 || rc=1 ;;
			*) echo "$d $id" ;;
			esac
		done < "$NOLINK_REGS" > "$NOLINK_REGS.left"
		mv "$NOLINK_REGS.left" "$NOLINK_REGS"
	fi
	rm -rf "$dir"
	return "$rc"
}

ca_available() {
	grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control
}

# Id of the .bss map of the loaded object $1 (libbpf names it with at most
# 8 bytes of the object name: bic_restore.bss is bic_rest.bss).
bss_map_id() {
	bpftool -j map show | jq -r --arg n "$1" \
		'[.[] | select(.name == ($n + ".bss") or .name == ($n[0:8] + ".bss"))] |
		last | .id // empty'
}

# bic_stat FIELD [OBJNAME]: one counter or field of the global bic_stats.
bic_stat() {
	local id
	id=$(bss_map_id "${2:-bic}") || return 1
	[ -n "$id" ] || return 1
	bpftool -j map dump id "$id" |
		jq -r --arg f "$1" '.[0].formatted.value[".bss"][] | select(.bic_stats) |
			.bic_stats | getpath($f | split("."))'
}

# dmesg_clean: no kernel warning, BUG, oops or stack trace; no "INFO:" either,
# which hung tasks, RCU stalls and lockdep's notes print (lockdep's reports
# of possible deadlocks are WARNINGs).
dmesg_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|INFO:' >&2
}

# no_pins: ccctl has nothing pinned (its directory may stay, empty).
no_pins() { [ -z "$(find /sys/fs/bpf/ccctl -mindepth 1 2>/dev/null)" ]; }

# struct_ops_maps: how many struct_ops maps the kernel has.
struct_ops_maps() {
	local o
	o=$(ccobserve --objects)
	o=${o#maps=}
	echo "${o%% *}"
}

# What a refused ccctl command must not change: struct_ops maps, links,
# ccctl's pins, the kernel's list of algorithms.  (A map's id goes the
# moment its last reference does, so a dead process's maps are gone here.)
# The maps and links are counted by ccobserve, as bpftool struct_ops list
# and bpftool link show list them, in one process that reads no BTF:
# bpftool reads the kernel's BTF to name a struct_ops map's type.
ccctl_state() {
	echo "$(ccobserve --objects)" \
		"pins=$(find /sys/fs/bpf/ccctl -mindepth 1 2>/dev/null | sort | tr '\n' ' ')" \
		"available=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
}

# refused DESC PATTERN COMMAND...: the command fails with one line on
# stderr that has PATTERN (grep's) in it, and leaves the state as it was:
# ccctl_state's, or what the function named by REFUSED_STATE prints (a
# test's cheaper or wider view).  The line is left in ERR.
refused() {
	local desc=$1 pat=$2 state=${REFUSED_STATE:-ccctl_state} before rc=0
	shift 2
	before=$($state)
	ERR=$("$@" 2>&1 >/dev/null) || rc=$?
	info "$desc: $ERR"
	check_cmp "$desc: exits non-zero" "$rc" -ne 0
	check_cmp "$desc: one line on stderr" "$(printf '%s' "$ERR" | grep -c '')" -eq 1
	check "$desc: says '$pat'" grep -q -- "$pat" <<<"$ERR"
	check_cmp "$desc: leaves no state behind" "$($state)" = "$before"
}

# undo_rows CSV: the line numbers of an ackdrill CSV's undo rows, where
# ssthresh (field 8) goes up with no reduction under way (ca_state, field
# 9, Open or Disorder); 2147483647 is the initial "infinite" ssthresh.
undo_rows() {
	awk -F, 'NR > 2 && pss != 2147483647 && $8 > pss && $9 < 3 { print NR }
		{ pss = $8 }' "$1"
}

# first_diff A B: the first line where A and B differ (0 if none).
first_diff() {
	local line
	line=$(cmp "$1" "$2" 2>/dev/null | awk '{ print $NF }')
	echo "${line:-0}"
}

# drill [-t] SCRIPT ALGO CSV KEEP [-6]: ackdrill runs SCRIPT on ALGO into
# CSV (over IPv6 with -6), and one result says whether CSV is byte for byte
# the model's rows for SCRIPT and ALGO, expect/NAME.ALGO.csv beside SCRIPT
# (the guest tree's drill/expect, drill/wmax/expect).  A CSV that differs is
# copied into KEEP.  -t: the result ends with the ackdrill run's ms.
drill() {
	local timed='' name over='' want start ms=''
	[ "$1" = -t ] && { timed=yes; shift; }
	name=$(basename "$1" .ad)
	want=$(dirname "$1")/expect/$name.$2.csv
	[ $# -gt 4 ] && over=" over IPv6"
	start=${EPOCHREALTIME/./}
	if ! ackdrill "${@:5}" -o "$3" "$1" "$2"; then
		not_ok "$name on $2$over: ackdrill failed"
		return
	fi
	[ -n "$timed" ] && ms=" ($(( (${EPOCHREALTIME/./} - start) / 1000 )) ms)"
	if cmp -s "$3" "$want"; then
		ok "$name on $2$over: $(( $(wc -l < "$3") - 1 )) rows, all as the model predicted$ms"
	else
		not_ok "$name on $2$over: differs from the model at line $(first_diff "$3" "$want")$ms"
		diff "$want" "$3" | head -6 | sed 's/^/# /'
		mkdir -p "$4" && cp "$3" "$4/"
	fi
}

# read_stat PID: the process's pid, comm, state and parent into STAT_PID,
# STAT_COMM, STAT_STATE and STAT_PPID, with builtins only (a fork costs
# ~10 ms under TCG); false once it is gone.
# shellcheck disable=SC2034	# the callers read them
read_stat() {
	local line rest
	read -r line 2>/dev/null < "/proc/$1/stat" || return 1
	STAT_PID=${line%% *}
	rest=${line#*(}
	STAT_COMM=${rest%) *}
	read -r STAT_STATE STAT_PPID _ <<< "${line##*) }"
}

# leaves KIND REASON: this test leaves items of guest_state's KIND
# (tests/guest/run-all.sh: sysctl, netns, pin, mount, cgroup, process) as
# they are, for REASON: the runner prints them instead of failing the test
# and keeps them, as it fails one for leaving any other kind.
LEAVES=/tmp/bic-leaves
leaves() { echo "$1 $2" >> "$LEAVES"; }

# gone PID: the process has ended (a zombie, not yet waited for, has).
gone() { ! read_stat "$1" || [ "$STAT_STATE" = Z ]; }

# children PID: the processes whose parent is PID, one a line.
children() {
	local p
	for p in /proc/[0-9]*; do
		read_stat "${p#/proc/}" && [ "$STAT_PPID" = "$1" ] && echo "$STAT_PID"
	done
}

# cpu_ticks: "BUSY TOTAL", the guest's CPU ticks so far (busy: all but idle
# and iowait; guest time is already inside user).  cpu_busy START: the
# fraction of the CPU busy since cpu_ticks gave START, e.g. 0.93.
cpu_ticks() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}
cpu_busy() {
	local b0 t0 b1 t1
	read -r b0 t0 <<< "$1"
	read -r b1 t1 <<< "$(cpu_ticks)"
	awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) 'BEGIN { printf "%.2f", t ? b / t : 0 }'
}

# cgroup_links: how many cgroup BPF links (ccctl assign's) the kernel has.
cgroup_links() {
	bpftool link show | grep -cE '^[0-9]+: cgroup '
}

# in_cgroup CGROUP COMMAND...: run the command as a process of the cgroup.
in_cgroup() {
	# shellcheck disable=SC2016	# expanded by the inner bash
	bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$@"
}

# wait_for SECONDS COMMAND...: poll every 0.2 s until the command succeeds;
# fail once SECONDS have passed on the microsecond clock (a one-second
# clock let the bound be up to a second short).
wait_for() {
	local end=$(( ${EPOCHREALTIME/./} + $1 * 1000000 ))
	shift
	until "$@"; do
		(( ${EPOCHREALTIME/./} < end )) || return 1
		sleep 0.2
	done
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

# listening NETNS_CMD PORT: something in that namespace listens on PORT.
listening() {
	[ -n "$("$1" ss -ltnH "sport = :$2")" ]
}

# flow_run CA SECONDS TAG [IPERF3 ARGS]: one iperf3 flow snd -> rcv with
# congestion control CA.  Leaves iperf3's JSON in /out/TAG.json and ss -ti
# samples of the sender in /out/TAG.ss; returns iperf3's status, or 1 if a
# trace failed.  What else it records is set by the environment:
#   BICTRACE=off	no bictrace; otherwise a bpf_* CA is traced by it
#			into /out/TAG.csv
#   PROBE=on		the kernel's tcp_probe traces it into /out/TAG.probe.csv
#			(any CA; needs lib_trace.sh)
#   SS=mid		one ss sample halfway through instead of four a second
#			(each headed "t=N"), which cost real time under TCG
flow_run() {
	local ca=$1 secs=$2 tag=$3 tracer="" client rc=0
	shift 3
	in_rcv iperf3 -s -1 -D -p 5201
	case ${BICTRACE:-on}:$ca in
	on:bpf_*)
		bictrace -o "/out/$tag.csv" &
		tracer=$!
		wait_for 5 test -s "/out/$tag.csv"	# header: rings attached
		;;
	esac
	wait_for 5 listening in_rcv 5201
	if [ "${PROBE:-off}" = on ]; then
		probe_start 5201 || return 1
	fi
	in_snd iperf3 -c "$RCV_ADDR" -p 5201 -C "$ca" -t "$secs" -J "$@" > "/out/$tag.json" &
	client=$!
	if [ "${SS:-}" = mid ]; then
		sleep $((secs / 2))
		in_snd ss -tinH dst "$RCV_ADDR" > "/out/$tag.ss"
	else
		# One shell in the sender's namespace takes every sample: ip netns
		# exec unshares and remounts /sys each time it runs.
		# shellcheck disable=SC2016	# expanded by the inner bash
		in_snd bash -c 'for ((i = 0; i < $1 * 4; i++)); do
			echo "t=$i"
			ss -tinH dst "$2" 2>/dev/null
			sleep 0.25
		done' _ "$secs" "$RCV_ADDR" >> "/out/$tag.ss"
	fi
	wait "$client" || rc=$?
	if [ "${PROBE:-off}" = on ]; then
		probe_stop "/out/$tag.probe.csv" || rc=1
	fi
	if [ -n "$tracer" ]; then
		kill -INT "$tracer"
		wait "$tracer" || true
	fi
	return "$rc"
}

# data_port CSV: source port of the busiest flow in a trace (the iperf3 data
# connection, not its control connection).
data_port() {
	awk -F, 'NR > 1 && $3 != "" { n[$3]++ } END { for (p in n) if (n[p] > best) { best = n[p]; port = p } print port }' "$1"
}

# no_output COMMAND...: true when the command prints nothing.
no_output() {
	[ -z "$("$@")" ]
}

# nstat_sum FILE COUNTER...: sum of nstat counters (absent ones count 0).
nstat_sum() {
	local f=$1
	shift
	awk -v names="$*" 'BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		want[$1] { s += $2 } END { print s + 0 }' "$f"
}

# snd_resets: connections the sender's stack reset or aborted, ever (the
# namespace is the test's own).
snd_resets() {
	in_snd nstat -az > /tmp/snd.nstat
	nstat_sum /tmp/snd.nstat TcpEstabResets TcpExtTCPAbortOnData TcpExtTCPAbortOnTimeout
}
