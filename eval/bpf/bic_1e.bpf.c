// SPDX-License-Identifier: GPL-2.0
/*
 * An experiment for make bench, never registered otherwise: bpf_bic with
 * the delayed-ACK estimate updated from cong_avoid, so that an ACK enters
 * BPF once instead of twice (no pkts_acked).  The drill scripts show it is
 * not the kernel's BIC (the kernel calls pkts_acked on ACKs cong_avoid
 * never sees, and before the ACK can move the socket out of recovery).
 *
 * Everything but cong_avoid and the ops table is bpf/bic.bpf.c's, included
 * whole: BIC's arithmetic is bic_math.h's there, and cong_avoid's own work
 * is bic_cong_avoid().
 */
#define BIC_CA_NAME "bpf_bic_1e"
#define BIC_OWN_OPS 1
#include "bic.bpf.c"

SEC("struct_ops")
void BPF_PROG(bpf_bic_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	struct bic_priv *p = inet_csk_ca(sk);

	if (inet_csk_ca_state(sk) == TCP_CA_Open)
		bic_acked(&p->bic, acked);
	bic_cong_avoid(sk, p, acked);
}

SEC(".struct_ops.link")
struct tcp_congestion_ops bic_ops = {
	.init		= (void *)bpf_bic_init,
	.ssthresh	= (void *)bpf_bic_ssthresh,
	.cong_avoid	= (void *)bpf_bic_cong_avoid,
	.set_state	= (void *)bpf_bic_set_state,
	.undo_cwnd	= (void *)bpf_bic_undo_cwnd,
	.name		= BIC_CA_NAME,
};
