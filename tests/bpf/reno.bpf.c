// SPDX-License-Identifier: GPL-2.0
/*
 * Reno as a BPF tcp_congestion_ops: every op is the kernel's own Reno
 * called as a kfunc.  t_84 registers it under many names; make bench
 * registers it as it is, so that against the native reno the difference
 * is what entering BPF costs, one trampoline per op the kernel calls.
 * -DRENO_ACKED=1 (make bench's too) adds a pkts_acked that does nothing,
 * as a second entry per ACK (bpf_bic has two: cong_avoid and pkts_acked).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "reno_ops.h"

#ifndef RENO_ACKED
#define RENO_ACKED 0
#endif

char _license[] SEC("license") = "GPL";

RENO_SSTHRESH(bpf_reno_ssthresh)
RENO_CONG_AVOID(bpf_reno_cong_avoid)
RENO_UNDO_CWND(bpf_reno_undo_cwnd)

#if RENO_ACKED
SEC("struct_ops")
void BPF_PROG(bpf_reno_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
}
#endif

SEC(".struct_ops.link")
struct tcp_congestion_ops reno_ops = {
	.ssthresh	= (void *)bpf_reno_ssthresh,
	.cong_avoid	= (void *)bpf_reno_cong_avoid,
	.undo_cwnd	= (void *)bpf_reno_undo_cwnd,
#if RENO_ACKED
	.pkts_acked	= (void *)bpf_reno_pkts_acked,
	.name		= "bpf_reno_acked",
#else
	.name		= "bpf_reno",
#endif
};
