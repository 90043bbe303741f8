#!/bin/bash
# Tracing is a load-time switch, off by default.  Untraced, bpf_bic's
# programs as the kernel runs them (bpftool prog dump xlated) call no ring
# buffer helper at all: the verifier removed bic_emit(), so the per-ACK path
# is BIC's work only; ccctl then creates no ring buffer either.  Traced
# (ccctl register/swap --trace, or the trace/ objects for bpftool), the same
# programs reserve and submit records and bictrace reads them.  bictrace
# refuses in one line when nothing loaded is traced, whether ccctl loaded it
# (no ring) or bpftool did (a ring no program writes), and --trace is refused
# where it means nothing.  The checks are exact: helper calls present or
# absent, ring buffer maps counted, one line on stderr.
#
# bictrace reads BIC's rings only: beside another tool's tracer whose ring
# is also called "events" (tests/bpf/foreign_ring.bpf.c, one record per
# exec, every byte but the timestamp 0xf0) it refuses when no BIC is
# traced, and with one it prints none of the other's records; it names on
# stderr each ring it reads, by ccctl's name for it where ccctl registered
# it.  A flow over IPv6 is traced with its IPv6 addresses.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up

# rings: how many "events" ring buffers the kernel holds.
rings() {
	bpftool -j map show | jq '[.[] | select(.type == "ringbuf" and .name == "events")] | length'
}
# A struct_ops object's maps outlive its pins by an RCU grace period or
# more, longer with two CPUs: its ring is waited for, not assumed gone.
ring_gone() { [ "$(rings)" -eq 0 ]; }

# ringbuf_calls PROGNAME: calls to bpf_ringbuf_* in the newest program of
# that name, as the verifier left it.
ringbuf_calls() {
	local id
	id=$(bpftool -j prog show | jq --arg n "$1" '[.[] | select(.name == $n)] | last | .id')
	bpftool prog dump xlated id "$id" | grep -c 'call bpf_ringbuf_'
}

refused "--trace on a command without it" "list takes no --trace" ccctl list --trace
refused "bictrace with nothing loaded" "no traced bpf_bic loaded" bictrace -d 1

check "ccctl register, untraced by default" ccctl register
check_cmp "an untraced registration has no ring buffer" "$(rings)" -eq 0
check_cmp "untraced cong_avoid calls no ring buffer helper" \
	"$(ringbuf_calls bpf_bic_cong_avoid)" -eq 0
check_cmp "untraced ssthresh calls no ring buffer helper" \
	"$(ringbuf_calls bpf_bic_ssthresh)" -eq 0
refused "bictrace with only an untraced ccctl registration" \
	"no traced bpf_bic loaded (ccctl register --trace)" bictrace -d 1

# bpftool creates every map of the object: a ring that nothing writes.
check "bpftool registers the untraced bic_2611.bpf.o" \
	ca_register "$BIC_DIR/bpf/bic_2611.bpf.o" /sys/fs/bpf/t54
check_cmp "bpftool made its ring buffer" "$(rings)" -eq 1
refused "bictrace with only untraced objects, one from bpftool" \
	"bpf_bic is loaded without tracing" bictrace -d 1
ca_unregister /sys/fs/bpf/t54
check "its ring goes with its pins" wait_for 10 ring_gone
check "bpftool registers the traced trace/bic_2611.bpf.o" \
	ca_register "$BIC_DIR/bpf/trace/bic_2611.bpf.o" /sys/fs/bpf/t54
check "bictrace takes its ring" sh -c 'bictrace -d 0.5 -o /tmp/t54.csv 2> /tmp/t54.err'
check "... and says it is of an object ccctl did not register" \
	grep -qx 'bictrace: reading the events of a BIC object ccctl did not register (ring map [0-9]*)' \
	/tmp/t54.err
ca_unregister /sys/fs/bpf/t54
check "the traced object's ring goes with its pins" wait_for 10 ring_gone

# Another tool's ring called "events", written at every exec.
check "bpftool loads and attaches a foreign tracer with a ring called events" \
	bpftool prog loadall "$BIC_DIR/bpf/test/foreign_ring.bpf.o" /sys/fs/bpf/t54_foreign autoattach
ls / > /dev/null
refused "bictrace beside only another tool's ring" "no traced bpf_bic loaded" bictrace -d 1

# bpf_bic itself turned traced: in place where the kernel can swap.
if has_struct_ops_links; then
	check "ccctl swap bpf_bic --trace" ccctl swap bpf_bic --trace
else
	check "ccctl unregister bpf_bic (no swap before 6.4)" ccctl unregister bpf_bic
	check "ccctl register --trace" ccctl register --trace
fi
check_cmp "traced cong_avoid reserves and submits (2 ring buffer calls)" \
	"$(ringbuf_calls bpf_bic_cong_avoid)" -eq 2
check_cmp "traced ssthresh reserves and submits (2 ring buffer calls)" \
	"$(ringbuf_calls bpf_bic_ssthresh)" -eq 2
check "bictrace beside the foreign ring" sh -c 'bictrace -d 0.5 -o /tmp/t54.csv 2> /tmp/t54.err'
check_cmp "... names one ring on stderr" "$(grep -c '' /tmp/t54.err)" -eq 1
check "... bpf_bic's, by its name" \
	grep -qx 'bictrace: reading the events of bpf_bic (ring map [0-9]*)' /tmp/t54.err
net_up 10mbit 5 100
in_snd ip -6 addr add fd54::1/64 dev veth-s nodad
in_rcv ip -6 addr add fd54::2/64 dev veth-r nodad
check "a 3 s flow on bpf_bic, traced by bictrace" flow_run bpf_bic 3 t54
v4_rcv=$RCV_ADDR RCV_ADDR=fd54::2
check "a 2 s flow on bpf_bic over IPv6, traced by bictrace" flow_run bpf_bic 2 t54v6
RCV_ADDR=$v4_rcv
net_down
port=$(data_port /out/t54.csv)
for ev in init cwnd; do
	check_cmp "bictrace recorded the flow's $ev events" \
		"$(awk -F, -v p="$port" -v e="$ev" '$3 == p && $6 == e' /out/t54.csv | wc -l)" -ge 1
done
for csv in /out/t54.csv /out/t54v6.csv; do
	check_cmp "$csv: no row of the foreign ring's records" \
		"$(grep -c '240\.240\.240\.240\|,61680,' "$csv")" -eq 0
done
port=$(data_port /out/t54v6.csv)
check_cmp "the IPv6 flow's rows carry its addresses (fd54::1 to fd54::2)" \
	"$(awk -F, -v p="$port" '$3 == p && ($2 != "fd54::1" || $4 != "fd54::2")' /out/t54v6.csv |
	   wc -l)" -eq 0
check_cmp "... and there are some" \
	"$(awk -F, -v p="$port" '$3 == p' /out/t54v6.csv | wc -l)" -ge 1
rm -r /sys/fs/bpf/t54_foreign
foreign_gone() { [ "$(rings)" -eq 1 ]; }
check "the foreign tracer goes with its pins" wait_for 10 foreign_gone
check "ccctl unregister bpf_bic" ccctl unregister bpf_bic
check "its ring buffer went with it" wait_for 10 ring_gone
