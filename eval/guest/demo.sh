#!/bin/bash
# make demo: register bpf_bic the way a user would, run one flow over the
# 1 Mbit / 100 ms path, and summarise what the algorithm did.  The trace and
# iperf3's report come back to the host in build/demo/.
set -uo pipefail
# The tests' library, from its one place: tests/guest, in the guest
# /opt/bic/tests beside this /opt/bic/eval (mk/guest.mk).
# shellcheck source=../../tests/guest/lib.sh
. "$(dirname "$0")/../tests/lib.sh"

tap_begin "$RESULTS"
modules_up
if has_struct_ops_links; then
	echo "# bpftool struct_ops register trace/bic.bpf.o /sys/fs/bpf/demo (traced for bictrace)"
else
	echo "# bpftool struct_ops register trace/nolink/bic.bpf.o ($NO_LINK_WHY; traced for bictrace)"
fi
check "bpf_bic registered" ca_register "$BIC_DIR/bpf/trace/bic.bpf.o" /sys/fs/bpf/demo
echo "# available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"

net_up 1mbit 50 30
echo "# iperf3 -C bpf_bic for 20 s over netem (1 Mbit/s, 100 ms RTT, 30-packet queue)"
check "flow ran" flow_run bpf_bic 20 demo
check "kernel ran the flow on bpf_bic" grep -q 'bpf_bic.*cwnd:' /out/demo.ss

port=$(data_port /out/demo.csv)
awk -F, -v p="$port" '$3 == p' /out/demo.csv > /tmp/demo.flow
bps=$(goodput /out/demo.json)
check_cmp "goodput at least 80% of the link" "$bps" -ge 800000

echo "# --- what bpf_bic did on the data connection (port $port)"
awk -F, '
	NR == 1 { t0 = $1 }
	{ t = ($1 - t0) / 1e9 }
	$6 == "cwnd" { if ($7 > max) max = $7; n++ }
	$6 == "ssthresh" { printf "#  %6.2fs loss at cwnd %3d -> ssthresh %3d, Wmax %3d\n", t, $7, $11, $9 }
	$6 == "undo" { printf "#  %6.2fs undo: cwnd %3d -> %3d (Wmax %3d)\n", t, $7, $11, $9 }
	$6 == "loss" { printf "#  %6.2fs RTO: state reset\n", t }
	END { printf "#  %d cwnd changes, peak cwnd %d packets\n", n, max }' /tmp/demo.flow
echo "#  goodput $((bps / 1000)) kbit/s"
echo "# trace: build/demo/demo.csv, one row per BIC event (make plots draws figures)"

net_down
ca_unregister /sys/fs/bpf/demo
summary
