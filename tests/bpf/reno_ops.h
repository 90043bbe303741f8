/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own Reno, op by op, as struct_ops programs that call it
 * through its kfuncs (6.0+): for objects whose tcp_congestion_ops is not
 * the point, the tests' (t_83's objects, reno.bpf.c) and make bench's
 * price of entering BPF (reno.bpf.c, eval/bpf/reno_acked.bpf.c).
 * RENO_SSTHRESH(prog) defines the program prog, which answers as
 * tcp_reno_ssthresh() does, and so on for the other two.
 */
#ifndef __RENO_OPS_H
#define __RENO_OPS_H

extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern void tcp_reno_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

#define RENO_SSTHRESH(prog)						\
SEC("struct_ops")							\
__u32 BPF_PROG(prog, struct sock *sk)					\
{									\
	return tcp_reno_ssthresh(sk);					\
}

#define RENO_CONG_AVOID(prog)						\
SEC("struct_ops")							\
void BPF_PROG(prog, struct sock *sk, __u32 ack, __u32 acked)		\
{									\
	tcp_reno_cong_avoid(sk, ack, acked);				\
}

#define RENO_UNDO_CWND(prog)						\
SEC("struct_ops")							\
__u32 BPF_PROG(prog, struct sock *sk)					\
{									\
	return tcp_reno_undo_cwnd(sk);					\
}

#endif /* __RENO_OPS_H */
