// SPDX-License-Identifier: GPL-2.0
/*
 * For t_83 only: a tcp_congestion_ops the verifier must reject.  Its
 * ssthresh reads a 4-entry table at an index it never checks (the
 * connection's cwnd), an out-of-bounds read on any kernel; the other ops
 * are the kernel's Reno, so that the one rejection is the only fault.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "reno_ops.h"

char _license[] SEC("license") = "GPL";

__u32 t83_table[4];

SEC("struct_ops")
__u32 BPF_PROG(t83_reject_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = (const struct tcp_sock *)sk;

	return t83_table[tp->snd_cwnd];
}

RENO_CONG_AVOID(t83_reject_cong_avoid)
RENO_UNDO_CWND(t83_reject_undo_cwnd)

SEC(".struct_ops.link")
struct tcp_congestion_ops t83_reject_ops = {
	.ssthresh	= (void *)t83_reject_ssthresh,
	.cong_avoid	= (void *)t83_reject_cong_avoid,
	.undo_cwnd	= (void *)t83_reject_undo_cwnd,
	.name		= "bpf_t83_reject",
};
