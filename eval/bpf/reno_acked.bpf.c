// SPDX-License-Identifier: GPL-2.0
/*
 * For make bench only: tests/bpf/reno.bpf.c's Reno through BPF, every op
 * the kernel's own Reno called as a kfunc, plus a pkts_acked that does
 * nothing, as a second entry per ACK (bpf_bic has two: cong_avoid and
 * pkts_acked).  Against bpf_reno the difference is that entry's cost.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "reno_ops.h"

char _license[] SEC("license") = "GPL";

RENO_SSTHRESH(bpf_reno_ssthresh)
RENO_CONG_AVOID(bpf_reno_cong_avoid)
RENO_UNDO_CWND(bpf_reno_undo_cwnd)

SEC("struct_ops")
void BPF_PROG(bpf_reno_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
}

SEC(".struct_ops.link")
struct tcp_congestion_ops reno_ops = {
	.ssthresh	= (void *)bpf_reno_ssthresh,
	.cong_avoid	= (void *)bpf_reno_cong_avoid,
	.undo_cwnd	= (void *)bpf_reno_undo_cwnd,
	.pkts_acked	= (void *)bpf_reno_pkts_acked,
	.name		= "bpf_reno_acked",
};
