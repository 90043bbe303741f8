// SPDX-License-Identifier: GPL-2.0
/*
 * For t_83 only: one object holding two tcp_congestion_ops, as the kernel
 * selftests' bpf_dctcp.o does.  Both are Reno, each op the kernel's own
 * Reno called as a kfunc, under two names; neither comes first on purpose.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "reno_ops.h"

char _license[] SEC("license") = "GPL";

RENO_SSTHRESH(t83_a_ssthresh)
RENO_CONG_AVOID(t83_a_cong_avoid)
RENO_UNDO_CWND(t83_a_undo_cwnd)
RENO_SSTHRESH(t83_b_ssthresh)
RENO_CONG_AVOID(t83_b_cong_avoid)
RENO_UNDO_CWND(t83_b_undo_cwnd)

SEC(".struct_ops.link")
struct tcp_congestion_ops t83_a_ops = {
	.ssthresh	= (void *)t83_a_ssthresh,
	.cong_avoid	= (void *)t83_a_cong_avoid,
	.undo_cwnd	= (void *)t83_a_undo_cwnd,
	.name		= "bpf_t83_a",
};

SEC(".struct_ops.link")
struct tcp_congestion_ops t83_b_ops = {
	.ssthresh	= (void *)t83_b_ssthresh,
	.cong_avoid	= (void *)t83_b_cong_avoid,
	.undo_cwnd	= (void *)t83_b_undo_cwnd,
	.name		= "bpf_t83_b",
};
