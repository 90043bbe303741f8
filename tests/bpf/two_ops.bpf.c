// SPDX-License-Identifier: GPL-2.0
/*
 * For t_83 only: one object holding two tcp_congestion_ops, as the kernel
 * selftests' bpf_dctcp.o does.  Both are Reno, each op the kernel's own
 * Reno called as a kfunc, under two names; neither comes first on purpose.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern void tcp_reno_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

SEC("struct_ops")
__u32 BPF_PROG(t83_a_ssthresh, struct sock *sk)
{
	return tcp_reno_ssthresh(sk);
}

SEC("struct_ops")
void BPF_PROG(t83_a_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	tcp_reno_cong_avoid(sk, ack, acked);
}

SEC("struct_ops")
__u32 BPF_PROG(t83_a_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC("struct_ops")
__u32 BPF_PROG(t83_b_ssthresh, struct sock *sk)
{
	return tcp_reno_ssthresh(sk);
}

SEC("struct_ops")
void BPF_PROG(t83_b_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	tcp_reno_cong_avoid(sk, ack, acked);
}

SEC("struct_ops")
__u32 BPF_PROG(t83_b_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

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
