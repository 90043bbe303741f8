// SPDX-License-Identifier: GPL-2.0
/*
 * BIC TCP (Xu, Harfoush, Rhee, INFOCOM 2004) as a BPF tcp_congestion_ops.
 *
 * All window arithmetic lives in bic_math.h; this file only wires it to the
 * socket and records what it did.  It carries one of three undo rules
 * (bic_math.h): the seed's, max(cwnd, Wmax); with -DBIC_LEGACY_UNDO=1 (and a
 * different -DBIC_CA_NAME) the pre-2.6.11.7 one; with -DBIC_RESTORE_UNDO=1
 * the complete undo, which snapshots BIC at each reduction and puts it back
 * when the kernel finds the reduction spurious.  -DBIC_NO_LINK=1 builds the
 * form for kernels without struct_ops links.
 *
 * Tracing is chosen at load time: bic_trace is false unless the loader sets
 * it (ccctl register --trace) or the object is built with -DBIC_TRACE=1 (for
 * bpftool, which cannot set it), and when it is false the verifier drops
 * every bic_emit() as dead code: an untraced bpf_bic does BIC's work and
 * nothing else.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>

#include "bpf_tcp_helpers.h"
#include "bic_math.h"
#include "bic_event.h"

#ifndef BIC_CA_NAME
#define BIC_CA_NAME "bpf_bic"
#endif

#ifndef BIC_LEGACY_UNDO
#define BIC_LEGACY_UNDO 0
#endif

#ifndef BIC_RESTORE_UNDO
#define BIC_RESTORE_UNDO 0
#endif

_Static_assert(!(BIC_LEGACY_UNDO && BIC_RESTORE_UNDO), "one undo rule per object");

#ifndef BIC_NO_LINK
#define BIC_NO_LINK 0
#endif

#ifndef BIC_TRACE
#define BIC_TRACE 0
#endif

/*
 * A source that includes this one to build a variant of it (make bench's
 * eval/bpf/bic_1e.bpf.c) sets BIC_OWN_OPS to 1 and brings its own
 * cong_avoid program, pkts_acked if any, and ops table; the rest, and
 * bic_cong_avoid(), are this file's.
 */
#ifndef BIC_OWN_OPS
#define BIC_OWN_OPS 0
#endif

/* tcp_congestion_ops.name is char[TCP_CA_NAME_MAX], NUL included. */
_Static_assert(sizeof(BIC_CA_NAME) <= 16, "BIC_CA_NAME too long");

char _license[] SEC("license") = "GPL";

extern __u32 tcp_slow_start(struct tcp_sock *tp, __u32 acked) __ksym;
extern void tcp_cong_avoid_ai(struct tcp_sock *tp, __u32 w, __u32 acked) __ksym;

extern unsigned long CONFIG_HZ __kconfig;

struct bic_priv {
	struct bic bic;
	__u32 traced_cwnd;	/* cwnd in the last BIC_EV_CWND, to emit only changes */
#if BIC_RESTORE_UNDO
	struct bic_undo undo;	/* BIC before the last reduction */
#endif
};

_Static_assert(sizeof(struct bic_priv) <= ICSK_CA_PRIV_SIZE,
	       "struct bic_priv does not fit in icsk_ca_priv");

/* Read only after load: the verifier prunes on its value. */
const volatile bool bic_trace = BIC_TRACE;

/* Not created at all when untraced (ccctl; bpftool creates every map). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

struct bic_stats bic_stats;

/*
 * Never written: it puts struct bic_event in the object's BTF, where
 * bictrace checks it (name, size, members) before it reads a ring called
 * "events", so that no other tool's ring of that name is read as BIC's.
 */
struct bic_event bic_event_layout;

static __always_inline void bic_emit(const struct sock *sk, const struct bic_priv *p,
				     __u32 type, __u32 ret)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bic_event *e;

	if (!bic_trace)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&bic_stats.events_dropped, 1);
		return;
	}

	e->ts_ns = bpf_ktime_get_ns();
	e->family = sk->__sk_common.skc_family;
	if (e->family == AF_INET6) {
		__builtin_memcpy(e->saddr, &sk->__sk_common.skc_v6_rcv_saddr, 16);
		__builtin_memcpy(e->daddr, &sk->__sk_common.skc_v6_daddr, 16);
	} else {
		/* The ring's memory is not zeroed: every byte is written. */
		__builtin_memset(e->saddr, 0, 16);
		__builtin_memset(e->daddr, 0, 16);
		__builtin_memcpy(e->saddr, &sk->__sk_common.skc_rcv_saddr, 4);
		__builtin_memcpy(e->daddr, &sk->__sk_common.skc_daddr, 4);
	}
	e->pad = 0;
	e->sport = sk->__sk_common.skc_num;
	e->dport = bpf_ntohs(sk->__sk_common.skc_dport);
	e->type = type;
	e->cwnd = tp->snd_cwnd;
	e->ssthresh = tp->snd_ssthresh;
	e->last_max_cwnd = p->bic.last_max_cwnd;
	e->cnt = p->bic.cnt;
	e->ret = ret;
	e->epoch_ms = bic_epoch_ms(&p->bic, tcp_jiffies32, (__u32)CONFIG_HZ);
	bpf_ringbuf_submit(e, 0);
}

SEC("struct_ops")
void BPF_PROG(bpf_bic_init, struct sock *sk)
{
	struct bic_priv *p = inet_csk_ca(sk);

	bic_reset(&p->bic);
#if BIC_RESTORE_UNDO
	p->undo.valid = 0;
#endif
	p->traced_cwnd = tcp_sk(sk)->snd_cwnd;
	__sync_fetch_and_add(&bic_stats.init, 1);
	bic_emit(sk, p, BIC_EV_INIT, 0);
}

static __always_inline void bic_grow(struct sock *sk, struct bic_priv *p, __u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	bic_update(&p->bic, tp->snd_cwnd, tcp_jiffies32, (__u32)CONFIG_HZ);
	tcp_cong_avoid_ai(tp, p->bic.cnt, acked);
}

/* cong_avoid's work on each ACK. */
static __always_inline void bic_cong_avoid(struct sock *sk, struct bic_priv *p, __u32 acked)
{
	__u32 cwnd;

	if (!tcp_is_cwnd_limited(sk))
		return;

	bic_grow(sk, p, acked);

	/* cong_avoid runs per ACK; only window changes are worth a record. */
	if (!bic_trace)
		return;
	cwnd = tcp_sk(sk)->snd_cwnd;
	if (cwnd == p->traced_cwnd)
		return;
	p->traced_cwnd = cwnd;
	bic_emit(sk, p, BIC_EV_CWND, 0);
}

#if !BIC_OWN_OPS
SEC("struct_ops")
void BPF_PROG(bpf_bic_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	bic_cong_avoid(sk, inet_csk_ca(sk), acked);
}
#endif

SEC("struct_ops")
__u32 BPF_PROG(bpf_bic_ssthresh, struct sock *sk)
{
	struct bic_priv *p = inet_csk_ca(sk);
	__u32 cwnd = tcp_sk(sk)->snd_cwnd;
	__u32 ret;

#if BIC_RESTORE_UNDO
	ret = bic_recalc_ssthresh_saved(&p->bic, &p->undo, cwnd);
#else
	ret = bic_recalc_ssthresh(&p->bic, cwnd);
#endif

	__sync_fetch_and_add(&bic_stats.ssthresh, 1);
	bic_stats.last_ssthresh.cwnd = cwnd;
	bic_stats.last_ssthresh.last_max_cwnd = p->bic.last_max_cwnd;
	bic_stats.last_ssthresh.ret = ret;
	bic_emit(sk, p, BIC_EV_SSTHRESH, ret);
	return ret;
}

SEC("struct_ops")
void BPF_PROG(bpf_bic_set_state, struct sock *sk, __u8 new_state)
{
	struct bic_priv *p = inet_csk_ca(sk);

	/* After an RTO the old Wmax says nothing about the path any more. */
	if (new_state != TCP_CA_Loss)
		return;

#if BIC_RESTORE_UNDO
	bic_reset_saved(&p->bic, &p->undo);
#else
	bic_reset(&p->bic);
#endif
	__sync_fetch_and_add(&bic_stats.loss_resets, 1);
	bic_emit(sk, p, BIC_EV_LOSS, 0);
}

SEC("struct_ops")
__u32 BPF_PROG(bpf_bic_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bic_priv *p = inet_csk_ca(sk);
	__u32 cwnd = tp->snd_cwnd;
	__u32 ssthresh = tp->snd_ssthresh;
	__u32 ret;

#if BIC_LEGACY_UNDO
	ret = bic_undo_cwnd_2611(cwnd, ssthresh);
#elif BIC_RESTORE_UNDO
	ret = bic_undo_restore(&p->bic, &p->undo, cwnd);
#else
	ret = bic_undo_cwnd(&p->bic, cwnd);
#endif

	__sync_fetch_and_add(&bic_stats.undo, 1);
	bic_stats.last_undo.cwnd = cwnd;
	bic_stats.last_undo.ssthresh = ssthresh;
	bic_stats.last_undo.last_max_cwnd = p->bic.last_max_cwnd;
	bic_stats.last_undo.ret = ret;
	bic_emit(sk, p, BIC_EV_UNDO, ret);
	return ret;
}

#if !BIC_OWN_OPS
SEC("struct_ops")
void BPF_PROG(bpf_bic_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct bic_priv *p = inet_csk_ca(sk);

	/* Recovery ACKs cover holes, not the receiver's ACK policy. */
	if (inet_csk_ca_state(sk) != TCP_CA_Open)
		return;

	bic_acked(&p->bic, sample->pkts_acked);
}

/*
 * Since 6.4 a struct_ops map is registered through a link (BPF_F_LINK), which
 * can be pinned and updated in place.  -DBIC_NO_LINK=1 builds the older form,
 * registered by writing the map itself: the only one 6.1 takes.
 */
#if BIC_NO_LINK
SEC(".struct_ops")
#else
SEC(".struct_ops.link")
#endif
struct tcp_congestion_ops bic_ops = {
	.init		= (void *)bpf_bic_init,
	.ssthresh	= (void *)bpf_bic_ssthresh,
	.cong_avoid	= (void *)bpf_bic_cong_avoid,
	.set_state	= (void *)bpf_bic_set_state,
	.undo_cwnd	= (void *)bpf_bic_undo_cwnd,
	.pkts_acked	= (void *)bpf_bic_pkts_acked,
	.name		= BIC_CA_NAME,
};
#endif /* !BIC_OWN_OPS */
