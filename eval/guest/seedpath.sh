#!/bin/bash
# The seed's own path, looked at closely: make bench's first cell (1 Mbit/s,
# 100 ms RTT, 30-packet queue, 15 s of iperf3), flow by flow, for the
# algorithms in SEED_ORDER in that order (commas between; default:
# bpf_bic,bic_ref,bic_ref,bpf_bic; loss1:CA runs bench's loss1 cell
# instead, to put a flow where the matrix puts it), with what the cell itself records
# (goodput, utilization, the first 0.5 s at 90%) and more: the sender's nstat counters (retransmissions, RTOs,
# undos) and the netem queue's drops, and with SEED_PROBE=on the kernel's
# tcp_probe trace of every ACK (the same instrument for every algorithm)
# in /out/seed-N-CA.probe.csv.  bpf_bic is registered as make bench does
# (bpftool, untraced).  Raw numbers go to /out/seed.tsv.
#
# usage: seedpath.sh	(SEED_ORDER, SEED_PROBE, SEED_SECS from the environment)
set -uo pipefail
# The tests' libraries, from their one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=../../tests/guest/lib_trace.sh
. "$(dirname "$0")/../tests/lib_trace.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

order=${SEED_ORDER:-bpf_bic,bic_ref,bic_ref,bpf_bic}
read -ra order <<<"${order//,/ }"	# commas pass through a kernel command line
secs=${SEED_SECS:-15}
TSV=/out/seed.tsv
COUNTERS="TcpRetransSegs TcpExtTCPTimeouts TcpExtTCPLossProbes TcpExtTCPLossProbeRecovery
TcpExtTCPSackRecovery TcpExtTCPFullUndo TcpExtTCPPartialUndo TcpExtTCPDSACKUndo
TcpExtTCPLossUndo TcpExtTCPSpuriousRTOs TcpExtTCPLostRetransmit TcpExtTCPSlowStartRetrans"

tap_begin "$RESULTS"
printf 'flow\tca\tmetric\tvalue\n' > "$TSV"
res() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$TSV"; }

modules_up
check "bic_ref loaded" bic_ref_up
check "bpf_bic registered" ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/seed

# events CSV: the congestion events of the trace's data connection as
# "SECS:CWND->SSTHRESH" (SECS since its first ACK), from probe_losses.
events() {
	local port t0
	port=$(data_port "$1")
	t0=$(awk -F, -v p="$port" 'NR > 1 && $3 == p { print $1; exit }' "$1")
	probe_losses "$1" "$port" |
		awk -v t0="$t0" '{ printf "%s%.2f:%s->%s", (NR > 1 ? " " : ""), ($3 - t0) / 1e9, $1, $2 }'
}

# flow N CA [CELL]: one flow as bench.sh's single() runs it in CELL (util1,
# the default, or loss1: 10 Mbit/s, 150 packets, 1% random loss), and what
# it cost.
flow() {
	local n=$1 ca=$2 cell=${3:-util1} tag=seed-$1-$2 bps t90 c rc=0 rate=1000000
	case $cell in
	util1) net_up 1mbit 50 30 || return 1 ;;
	loss1) net_up 10mbit 50 150 loss 1% || return 1; rate=10000000; tag=$tag-loss1 ;;
	*) return 1 ;;
	esac
	server 5201 -J -i 0.5 > "/out/$tag.srv.json" || return 1
	[ "${SEED_PROBE:-off}" = on ] && { probe_start 5201 || return 1; }
	in_snd timeout $((secs + 30)) iperf3 -c "$RCV_ADDR" -p 5201 -C "$ca" -t "$secs" -J \
		> "/out/$tag.json" || rc=1
	if [ "${SEED_PROBE:-off}" = on ]; then
		probe_stop "/out/$tag.probe.csv" || rc=1
	fi
	reap 5201
	[ "$rc" -eq 0 ] || return 1
	in_snd nstat -asz > "/out/$tag.nstat"
	bps=$(goodput "/out/$tag.json")
	t90=$(jq -r --argjson r "$rate" \
		'[.intervals[].sum | select(.bits_per_second >= 0.9 * $r) | .end][0] // "none"' \
		"/out/$tag.srv.json" 2>/dev/null) || t90=n/a
	res "$n" "$ca" cell "$cell"
	res "$n" "$ca" bps "$bps"
	res "$n" "$ca" intervals "$(jq -r '[.intervals[].sum.bits_per_second / 1000 | floor] | join(" ")' \
		"/out/$tag.srv.json" 2>/dev/null)"
	res "$n" "$ca" util "$(awk -v b="$bps" -v r="$rate" 'BEGIN { printf "%.3f", b / r }')"
	res "$n" "$ca" t90 "$t90"
	res "$n" "$ca" netem_drops "$(queue_drops)"
	for c in $COUNTERS; do
		res "$n" "$ca" "$c" "$(nstat_sum "/out/$tag.nstat" "$c")"
	done
	[ "${SEED_PROBE:-off}" = on ] && res "$n" "$ca" events "$(events "/out/$tag.probe.csv")"
	info "flow $n $ca ($cell): $bps bit/s, 90% after ${t90}s, $(queue_drops) dropped," \
		"$(nstat_sum "/out/$tag.nstat" TcpRetransSegs) retransmitted," \
		"$(nstat_sum "/out/$tag.nstat" TcpExtTCPTimeouts) RTOs"
	[ "$bps" -gt 0 ]
}

n=0
for f in "${order[@]}"; do
	n=$((n + 1))
	case $f in
	*:*) check "flow $n: $f" flow "$n" "${f#*:}" "${f%%:*}" ;;
	*) check "flow $n: $f" flow "$n" "$f" ;;
	esac
done
net_down
ca_unregister /sys/fs/bpf/seed
summary
