/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF stand-ins for the include/net/tcp.h inlines a congestion control
 * needs.  They are static inlines in the kernel, so no kfunc exists for them.
 */
#ifndef __BPF_TCP_HELPERS_H
#define __BPF_TCP_HELPERS_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* vmlinux.h carries no macros. */
#ifndef ICSK_CA_PRIV_SIZE
#define ICSK_CA_PRIV_SIZE	(13 * sizeof(__u64))
#endif
#ifndef AF_INET6
#define AF_INET6		10
#endif

/* On 64-bit, jiffies_64 and jiffies are one variable. */
#define tcp_jiffies32 ((__u32)bpf_jiffies64())

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static __always_inline void *inet_csk_ca(const struct sock *sk)
{
	return (void *)inet_csk(sk)->icsk_ca_priv;
}

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

/* icsk_ca_state is a bitfield; a plain load would not be CO-RE relocatable. */
static __always_inline __u8 inet_csk_ca_state(const struct sock *sk)
{
	return BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state);
}

static __always_inline bool tcp_in_slow_start(const struct tcp_sock *tp)
{
	return tp->snd_cwnd < tp->snd_ssthresh;
}

/* Same order of tests as the 6.12 kernel (is_cwnd_limited wins first). */
static __always_inline bool tcp_is_cwnd_limited(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (BPF_CORE_READ_BITFIELD(tp, is_cwnd_limited))
		return true;

	/* In slow start, let cwnd reach twice what was actually in flight. */
	if (tcp_in_slow_start(tp))
		return tp->snd_cwnd < 2 * tp->max_packets_out;

	return false;
}

#endif /* __BPF_TCP_HELPERS_H */
