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
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up

# rings: how many "events" ring buffers the kernel holds.
rings() {
	bpftool -j map show | jq '[.[] | select(.type == "ringbuf" and .name == "events")] | length'
}

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
check "bpftool registers the traced trace/bic_2611.bpf.o" \
	ca_register "$BIC_DIR/bpf/trace/bic_2611.bpf.o" /sys/fs/bpf/t54
check "bictrace takes its ring" bictrace -d 0.5 -o /tmp/t54.csv
ca_unregister /sys/fs/bpf/t54

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
net_up 10mbit 5 100
check "a 3 s flow on bpf_bic, traced by bictrace" flow_run bpf_bic 3 t54
net_down
port=$(data_port /out/t54.csv)
for ev in init cwnd; do
	check_cmp "bictrace recorded the flow's $ev events" \
		"$(awk -F, -v p="$port" -v e="$ev" '$3 == p && $6 == e' /out/t54.csv | wc -l)" -ge 1
done
check "ccctl unregister bpf_bic" ccctl unregister bpf_bic
ring_gone() { [ "$(rings)" -eq 0 ]; }
check "its ring buffer went with it" wait_for 10 ring_gone
