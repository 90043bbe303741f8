# shellcheck shell=bash
# The kernel's tcp:tcp_probe tracepoint as a cwnd tracer that works for any
# congestion control, BPF or native, so two algorithms can be compared with
# one instrument.  Its CSV has bictrace's columns (event "probe", no BIC
# state) plus the smoothed RTT, so the same tools read both.  The
# tcp:tcp_cong_state_set tracepoint adds a row (event "ca_state") whenever
# the connection changes congestion state, which is what dates a congestion
# event: tcp_probe's ssthresh is tcp_current_ssthresh(), not the raw
# snd_ssthresh (see probe_losses).
#
# Two more kinds of row, when asked for: "undo", from a kprobe on
# tcp_undo_cwnd_reduction() (every undo of the kernel goes through it; no
# tracepoint marks one) if undo_probe_add made it, and "mark", a line a
# script wrote to trace_marker (its text in the last column), which dates
# something the script did on the trace's own clock.

TRACEFS=${TRACEFS:-/sys/kernel/tracing}
PROBE_CSV_HEADER="ts_ns,saddr,sport,daddr,dport,event,cwnd,ssthresh,last_max_cwnd,cnt,ret,epoch_ms,srtt_us,ca_state"
PROBE_EVENTS="tcp_probe tcp_cong_state_set"

# probe_start PORT: record every ACK the sender side of connections to PORT
# receives, and their congestion state changes.  The mono clock is
# CLOCK_MONOTONIC, bictrace's bpf_ktime_get_ns, so both traces of one flow
# share a time axis.
probe_start() {
	local ev
	echo 0 > "$TRACEFS/tracing_on"
	echo mono > "$TRACEFS/trace_clock"
	echo 8192 > "$TRACEFS/buffer_size_kb"
	for ev in $PROBE_EVENTS; do
		[ -d "$TRACEFS/events/tcp/$ev" ] || return 1
		echo "dport == $1" > "$TRACEFS/events/tcp/$ev/filter"
		echo 1 > "$TRACEFS/events/tcp/$ev/enable"
	done
	if [ -d "$TRACEFS/events/$UNDO_EVENT" ]; then
		echo 1 > "$TRACEFS/events/$UNDO_EVENT/enable"
	fi
	: > "$TRACEFS/trace"
	echo 1 > "$TRACEFS/tracing_on"
}

# undo_probe_add: the kprobe behind the "undo" rows, on this kernel's
# tcp_undo_cwnd_reduction(sk, ...): the socket's local port (skc_num, at
# offset 14 of struct sock_common) and its remote one (skc_dport, 12, in
# network order), which probe_csv turns round.  Fails where the function
# was inlined away.
UNDO_EVENT=bicstudy/undo
undo_probe_add() {
	[ -d "$TRACEFS/events/$UNDO_EVENT" ] ||
		echo "p:$UNDO_EVENT tcp_undo_cwnd_reduction sport=+14(%di):u16 dport=+12(%di):u16" \
			>> "$TRACEFS/kprobe_events"
}

# probe_stop CSV: stop recording and write what was recorded as CSV.  Fails
# if the ring buffer overflowed, since a trace with holes would compare wrong.
probe_stop() {
	local overrun ev
	echo 0 > "$TRACEFS/tracing_on"
	for ev in $PROBE_EVENTS; do
		echo 0 > "$TRACEFS/events/tcp/$ev/enable"
	done
	if [ -d "$TRACEFS/events/$UNDO_EVENT" ]; then
		echo 0 > "$TRACEFS/events/$UNDO_EVENT/enable"
	fi
	probe_csv < "$TRACEFS/trace" > "$1"
	overrun=$(awk '$1 == "overrun:" { s += $2 } END { print s + 0 }' \
		"$TRACEFS"/per_cpu/cpu*/stats)
	[ "$overrun" -eq 0 ] || { echo "# tcp_probe lost $overrun events" >&2; return 1; }
}

# ftrace text lines ("task-pid [cpu] flags  SECS.USECS: EVENT: k=v ...") to
# CSV rows, in the trace's (time) order.
probe_csv() {
	echo "$PROBE_CSV_HEADER"
	awk '{
		for (i = 1; i <= NF && $i != "tcp_probe:" && $i != "tcp_cong_state_set:" &&
		     $i != "undo:" && $i != "tracing_mark_write:"; i++)
			;
		if (i > NF)
			next
		ts = $(i - 1)
		sub(/:$/, "", ts)
		delete kv
		for (j = i + 1; j <= NF; j++) {
			eq = index($j, "=")
			if (eq)
				kv[substr($j, 1, eq - 1)] = substr($j, eq + 1)
		}
		if ($i == "tracing_mark_write:") {
			m = $(i + 1)
			for (j = i + 2; j <= NF; j++)
				m = m " " $j
			printf "%.0f,,,,,mark,,,,,,,,%s\n", ts * 1e9, m
			next
		}
		if ($i == "undo:") {
			dp = kv["dport"] + 0
			printf "%.0f,,%s,,%d,undo,,,,,,,,\n", ts * 1e9, kv["sport"], (dp % 256) * 256 + int(dp / 256)
			next
		}
		if ($i == "tcp_cong_state_set:") {
			printf "%.0f,%s,%s,%s,%s,ca_state,,,,,,,,%s\n", ts * 1e9,
				kv["saddr"], kv["sport"], kv["daddr"], kv["dport"], kv["cong_state"]
			next
		}
		split(kv["src"], s, ":")
		split(kv["dest"], d, ":")
		printf "%.0f,%s,%s,%s,%s,probe,%s,%s,,,,,%s,\n", ts * 1e9, s[1], s[2], d[1], d[2],
			kv["snd_cwnd"], kv["ssthresh"], kv["srtt"]
	}'
}

# probe_losses CSV PORT: "cwnd_before ssthresh ts_ns" per congestion event
# of the flow from source port PORT.  An event is a move from Open or
# Disorder into CWR, Recovery or Loss: each such move asked the algorithm
# for ssthresh, with the cwnd of the last ACK before it (tcp_probe samples an
# ACK before TCP acts on it).  The ssthresh is the one the next ACK reports:
# inside a reduction tcp_current_ssthresh() is snd_ssthresh itself, and after
# an RTO cwnd is 1, too small to mask it.  cwnd_before may trail the cwnd the
# algorithm saw by an ACK's growth where the move came from the send path
# (a local drop's CWR).  An event that began on the very ACK that ended the
# previous reduction started from a cwnd (set by that ending) no sample saw:
# its cwnd_before is "-".  One over before the next ACK is left out.
probe_losses() {
	awk -F, -v p="$2" 'NR > 1 && $3 == p {
		if ($6 == "ca_state") {
			if ($14 >= 2 && state < 2 && seen) {
				pending = 1
				at = $1
				before = fresh ? cwnd : "-"
			} else if ($14 < 2 && state >= 2) {
				fresh = 0
			}
			state = $14
		} else if ($6 == "probe") {
			if (pending && state >= 2)
				print before, $8, at
			pending = 0
			seen = fresh = 1
			cwnd = $7
		}
	}' "$1"
}

# cwnd_per_sec CSV PORT: the cwnd of the flow from source port PORT at the
# end of each whole second since its first ACK, one per line: the trace on a
# common time grid, so traces of two runs can be compared second by second.
cwnd_per_sec() {
	awk -F, -v p="$2" 'NR > 1 && $3 == p && $6 == "probe" {
		if (!t0)
			t0 = $1
		s = int(($1 - t0) / 1e9)
		cwnd[s] = $7
		if (s > n)
			n = s
	} END {
		for (i = 0; i < n; i++) {
			if (i in cwnd)
				w = cwnd[i]
			print w
		}
	}' "$1"
}

# probe_flow CA SECS TAG [IPERF3 ARGS]: flow_run traced by tcp_probe into
# /out/TAG.probe.csv (and, for bpf_* algorithms, by bictrace into
# /out/TAG.csv, unless BICTRACE=off), with one ss sample from mid-flow in
# /out/TAG.ss.
probe_flow() {
	PROBE=on SS=mid flow_run "$@"
}

# median of the numbers on stdin, one per line; nothing for no input
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bic_ref, the native reference module, from the guest image.
bic_ref_up() {
	ca_available bic_ref || insmod "$BIC_DIR/kmod/tcp_bic_ref.ko"
}
