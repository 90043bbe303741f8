// SPDX-License-Identifier: GPL-2.0
/*
 * bic_ref: BIC TCP as an ordinary kernel module, the native reference the
 * BPF struct_ops version is measured against.
 *
 * The window arithmetic is bic_math.h, the very header bic.bpf.c compiles,
 * so any difference the guest tests see between bic_ref and bpf_bic comes
 * from the BPF plumbing, not from the algorithm.  The glue below mirrors
 * bic.bpf.c call for call; the kernel's own tcp_bic.c (6.1 to 7.3) differs
 * only in its undo, max(cwnd, prior_cwnd), as the drills show ACK by ACK.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <net/tcp.h>

#include "bic_math.h"

static void bic_ref_init(struct sock *sk)
{
	bic_reset(inet_csk_ca(sk));
}

static void bic_ref_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bic *ca = inet_csk_ca(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;

	/* ACKs left over once slow start reaches ssthresh count as CA growth. */
	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	bic_update(ca, tcp_snd_cwnd(tp), tcp_jiffies32, HZ);
	tcp_cong_avoid_ai(tp, ca->cnt, acked);
}

static u32 bic_ref_ssthresh(struct sock *sk)
{
	return bic_recalc_ssthresh(inet_csk_ca(sk), tcp_snd_cwnd(tcp_sk(sk)));
}

static void bic_ref_set_state(struct sock *sk, u8 new_state)
{
	/* After an RTO the old Wmax says nothing about the path any more. */
	if (new_state == TCP_CA_Loss)
		bic_reset(inet_csk_ca(sk));
}

static u32 bic_ref_undo_cwnd(struct sock *sk)
{
	return bic_undo_cwnd(inet_csk_ca(sk), tcp_snd_cwnd(tcp_sk(sk)));
}

static void bic_ref_acked(struct sock *sk, const struct ack_sample *sample)
{
	/* Recovery ACKs cover holes, not the receiver's ACK policy. */
	if (inet_csk(sk)->icsk_ca_state == TCP_CA_Open)
		bic_acked(inet_csk_ca(sk), sample->pkts_acked);
}

static struct tcp_congestion_ops bic_ref __read_mostly = {
	.init		= bic_ref_init,
	.ssthresh	= bic_ref_ssthresh,
	.cong_avoid	= bic_ref_cong_avoid,
	.set_state	= bic_ref_set_state,
	.undo_cwnd	= bic_ref_undo_cwnd,
	.pkts_acked	= bic_ref_acked,
	.owner		= THIS_MODULE,
	.name		= "bic_ref",
};

static int __init bic_ref_register(void)
{
	BUILD_BUG_ON(sizeof(struct bic) > ICSK_CA_PRIV_SIZE);
	return tcp_register_congestion_control(&bic_ref);
}

static void __exit bic_ref_unregister(void)
{
	tcp_unregister_congestion_control(&bic_ref);
}

module_init(bic_ref_register);
module_exit(bic_ref_unregister);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("BIC TCP reference module sharing bic_math.h with bpf_bic");
