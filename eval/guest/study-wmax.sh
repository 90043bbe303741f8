#!/bin/bash
# A check of make study's rebuilt Wmax (eval/guest/study.sh flow_metrics):
# flows of both BPF variants over a reordering path traced by tcp_probe and
# by bictrace at once.  At every ssthresh call bictrace records the cwnd
# BIC was asked with and the last_max_cwnd it left, which the congestion
# events rebuilt from tcp_probe alone must match (nearly: see below).
#
# usage: study-wmax.sh [REORDER% [QUEUE [SECS]]]
set -uo pipefail
# The tests' libraries, from their one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=../../tests/guest/lib_trace.sh
. "$(dirname "$0")/../tests/lib_trace.sh"
# study.sh's functions, flow_metrics among them; nothing of its matrix.
# shellcheck source=study.sh
STUDY_LIB=1 . "$(dirname "$0")/study.sh"

reo=${1:-2} q=${2:-41} secs=${3:-20}
SKIP=5
tap_begin "$RESULTS"
modules_up
check "registered bpf_bic and bpf_bic_2611" \
	eval 'ccctl register --trace > /dev/null && ccctl register --trace --variant 2611 > /dev/null'

for ca in bpf_bic bpf_bic_2611; do
	tag=wmax-$ca
	net_up 10mbit 50 "$q" reorder "$reo%"
	PROBE=on SS=mid check "$ca: flow traced by tcp_probe and bictrace" flow_run "$ca" "$secs" "$tag"
	port=$(data_port "/out/$tag.probe.csv")
	flow_metrics "/out/$tag.probe.csv" "$port" $((83 + q)) "/tmp/$tag.events" > /dev/null
	# Each ssthresh call bictrace saw against the event rebuilt from
	# tcp_probe within 1 ms after it: the cwnd it was asked with (one
	# packet apart where two cwnds give the same ssthresh) and the Wmax
	# it left, the same to that packet's share.  A call followed at once
	# by a Loss reset is an RTO's, which leaves Wmax 0 either way.
	awk -F, -v p="$port" '
		FNR == NR { split($0, a, " "); t[++n] = a[1]; c[n] = a[2]; w[n] = a[3]; next }
		FNR > 1 && $3 == p && $6 == "loss" && pend && $1 - pts < 1e6 { pend = 0; rto++ }
		FNR > 1 && $3 == p && $6 == "ssthresh" {
			if (pend) miss++
			pend = 0
			while (i < n && t[i + 1] < $1) i++
			if (i < n && t[i + 1] - $1 < 1e6) {
				i++
				d = c[i] - $7; e = w[i] - $9
				if (d * d <= 1 && e * e <= 1) same++
				else { diff++; print "# differ at " $1 ": bictrace " $7 "/" $9 ", rebuilt " c[i] "/" w[i] > "/dev/stderr" }
			} else { pend = 1; pts = $1 }
		}
		END { if (pend) miss++; print same + 0, diff + 0, rto + 0, miss + 0 }' \
		"/tmp/$tag.events" "/out/$tag.csv" > "/tmp/$tag.cmp"
	read -r same diff rto miss < "/tmp/$tag.cmp"
	info "$ca: of bictrace's ssthresh calls, $same rebuilt alike, $diff not, $rto at an RTO, $miss missed"
	check_cmp "$ca: bictrace saw ssthresh calls" "$((same + diff))" -ge 1
	# The last sample before an event can trail the cwnd TCP asked
	# with by a packet where both give one ssthresh: at the fast
	# convergence threshold that changes the rebuilt Wmax.
	check_cmp "$ca: at most 1 in 10 rebuilt events differ from bictrace's" \
		"$((10 * diff))" -le "$((same + diff))"
	check_cmp "$ca: no ssthresh call outside an RTO went unseen" "$miss" -eq 0
done

net_down
ccctl unregister bpf_bic > /dev/null
ccctl unregister bpf_bic_2611 > /dev/null
summary
