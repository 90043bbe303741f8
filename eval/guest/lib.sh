# shellcheck shell=bash
# Helpers only the evaluation's guest sides use, beside the tests' own
# (tests/guest/lib.sh, /opt/bic/tests/lib.sh in the guest), which a driver
# sources first: the bottleneck's drops, the guest's uptime as a clock, and
# what a sender's connections had acked over a window.

# queue_drops: packets the bottleneck queue (net_up's netem child 10:)
# dropped, from tc -s.
queue_drops() {
	in_snd tc -s qdisc show dev veth-s | awk '
		$1 == "qdisc" { mine = ($3 == "10:") }
		mine && $1 == "Sent" {
			for (i = 1; i < NF; i++)
				if ($i == "(dropped") { sub(",", "", $(i + 1)); print $(i + 1) }
		}'
}

# uptime_s: the guest's uptime in seconds, the drivers' clock.
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# sleep_until T0 OFFSET: sleep until OFFSET seconds after uptime T0.
sleep_until() {
	sleep "$(awk -v t0="$1" -v o="$2" -v now="$(uptime_s)" 'BEGIN { d = t0 + o - now; print (d > 0 ? d : 0) }')"
}

# acked_bytes: "peer_addr:port bytes_acked" of the busiest connection of the
# sender to each peer address and port (an iperf3 data connection, not its
# control one).
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

# acked_window T0 FROM UNTIL: acked_bytes FROM and UNTIL seconds after
# uptime T0, into /tmp/acked.1 and /tmp/acked.2, and the seconds between
# the two readings into ACKED_DT.  window_bps PEER: what the sender's
# busiest connection to PEER (addr:port) had acked in that window, in bit/s.
acked_window() {
	local ts1
	sleep_until "$1" "$2"
	ts1=$(uptime_s)
	acked_bytes > /tmp/acked.1
	sleep_until "$1" "$3"
	ACKED_DT=$(awk -v a="$ts1" -v b="$(uptime_s)" 'BEGIN { print b - a }')
	acked_bytes > /tmp/acked.2
}
window_bps() {
	awk -v k="$1" -v dt="$ACKED_DT" '
		FNR == NR && $1 == k { b1 = $2 } FNR != NR && $1 == k { b2 = $2 }
		END { printf "%.0f\n", (b2 - b1) * 8 / dt }' /tmp/acked.1 /tmp/acked.2
}
