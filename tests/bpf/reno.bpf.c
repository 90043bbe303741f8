// SPDX-License-Identifier: GPL-2.0
/*
 * Reno as a BPF tcp_congestion_ops: every op is the kernel's own Reno
 * called as a kfunc.  t_84 registers it under many names; make bench
 * registers it as it is, so that against the native reno the difference
 * is what entering BPF costs, one trampoline per op the kernel calls
 * (and eval/bpf/reno_acked.bpf.c, the same with a second entry per ACK).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "reno_ops.h"

char _license[] SEC("license") = "GPL";

RENO_SSTHRESH(bpf_reno_ssthresh)
RENO_CONG_AVOID(bpf_reno_cong_avoid)
RENO_UNDO_CWND(bpf_reno_undo_cwnd)

SEC(".struct_ops.link")
struct tcp_congestion_ops reno_ops = {
	.ssthresh	= (void *)bpf_reno_ssthresh,
	.cong_avoid	= (void *)bpf_reno_cong_avoid,
	.undo_cwnd	= (void *)bpf_reno_undo_cwnd,
	.name		= "bpf_reno",
};
