/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BIC TCP window arithmetic, kept free of any kernel or BPF access so that
 * the BPF struct_ops program, the host unit test, the drill model and the
 * kernel module all run byte-for-byte the same code.
 *
 * Three undo rules live here: the seed's (bic_undo_cwnd(), bpf_bic), the
 * 2.6.11 bug it fixed (bic_undo_cwnd_2611(), bpf_bic_2611) and the complete
 * undo (bic_undo_restore(), bpf_bic_restore).  The kernel's own tcp_bic
 * undoes with tcp_reno_undo_cwnd(), max(cwnd, prior_cwnd).
 *
 * The includer must already provide __u32/__s32 (vmlinux.h, <linux/types.h>
 * or the kernel's linux/types.h); this header includes nothing so that it
 * cannot drag a second, conflicting set of type definitions into a BPF
 * object built against vmlinux.h.
 */
#ifndef __BIC_MATH_H
#define __BIC_MATH_H

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#define BICTCP_BETA_SCALE	1024	/* beta is a fraction of this */
#define BICTCP_B		4	/* binary search goes to (max + min) / B */
#define ACK_RATIO_SHIFT		4	/* delayed_ack is packets per ACK << 4 */

/*
 * Deviation from net/ipv4/tcp_bic.c: its six module parameters (beta,
 * max_increment, low_window, smooth_part, fast_convergence,
 * initial_ssthresh) are fixed here at the kernel's defaults, BIC_* below
 * (initial_ssthresh 0: no initial ssthresh is set).  A BPF struct_ops
 * program has no module parameters, and a constant keeps every product of
 * cwnd below within the bounds the model and the tests check (model -w
 * refuses windows past BIC_CWND_MAX); another value means another build
 * of every user of this header.
 */
#define BIC_BETA		819	/* 819 / 1024 ~= 0.8 multiplicative decrease */
#define BIC_MAX_INCREMENT	16	/* cap on growth per RTT during search */
#define BIC_LOW_WINDOW		14	/* below this BIC behaves like Reno */
#define BIC_SMOOTH_PART		20	/* RTTs spent crawling from Wmax - B to Wmax */
#define BIC_FAST_CONVERGENCE	1
#define BIC_INITIAL_CNT_MAX	20	/* 5% per RTT until a first loss sets Wmax */

/*
 * The largest cwnd whose products below stay in 32 bits: Wmax after a loss
 * multiplies cwnd by BICTCP_BETA_SCALE + BIC_BETA, as the kernel's
 * tcp_bic does (2,330,421 packets); above it ssthresh and Wmax wrap.
 */
#define BIC_CWND_MAX		(0xffffffffU / (BICTCP_BETA_SCALE + BIC_BETA))

struct bic {
	__u32 cnt;		/* grow cwnd by one every cnt ACKed packets */
	__u32 last_max_cwnd;	/* Wmax: cwnd at the last reduction */
	__u32 last_cwnd;	/* cwnd cnt was last computed for */
	__u32 last_time;	/* jiffies when cnt was last computed */
	__u32 epoch_start;	/* jiffies at start of the growth epoch, 0 = none */
	__u32 delayed_ack;	/* EWMA of packets per ACK << ACK_RATIO_SHIFT */
};

/* Wrappers around tcp_congestion_ops copy this into icsk_ca_priv. */
_Static_assert(sizeof(struct bic) == 24, "struct bic layout changed");

/* Named so that it cannot collide with the kernel's type-checking max(). */
static __always_inline __u32 bic_max_u32(__u32 a, __u32 b)
{
	return a > b ? a : b;
}

static __always_inline void bic_reset(struct bic *ca)
{
	ca->cnt = 0;
	ca->last_max_cwnd = 0;
	ca->last_cwnd = 0;
	ca->last_time = 0;
	ca->epoch_start = 0;
	/* Assume a delayed-ACK receiver (two packets per ACK) until measured. */
	ca->delayed_ack = 2 << ACK_RATIO_SHIFT;
}

/* Below Wmax: close the gap by binary search, but never faster than linear. */
static __always_inline __u32 bic_search_cnt(__u32 cwnd, __u32 last_max_cwnd)
{
	__u32 dist = (last_max_cwnd - cwnd) / BICTCP_B;

	if (dist > BIC_MAX_INCREMENT)
		return cwnd / BIC_MAX_INCREMENT;
	if (dist <= 1U)
		return (cwnd * BIC_SMOOTH_PART) / BICTCP_B;
	return cwnd / dist;
}

/* At or above Wmax: creep past the old maximum, then accelerate to linear. */
static __always_inline __u32 bic_probe_cnt(__u32 cwnd, __u32 last_max_cwnd)
{
	if (cwnd < last_max_cwnd + BICTCP_B)
		return (cwnd * BIC_SMOOTH_PART) / BICTCP_B;
	if (cwnd < last_max_cwnd + BIC_MAX_INCREMENT * (BICTCP_B - 1))
		return (cwnd * (BICTCP_B - 1)) / (cwnd - last_max_cwnd);
	return cwnd / BIC_MAX_INCREMENT;
}

/*
 * Recompute ca->cnt for @cwnd at time @now (tcp_jiffies32).  @hz is the
 * kernel's HZ, passed in because the BPF side only learns it at load time.
 */
static __always_inline void bic_update(struct bic *ca, __u32 cwnd, __u32 now, __u32 hz)
{
	/*
	 * cnt only depends on cwnd, so skip the divisions unless cwnd moved or
	 * cnt is stale.  The signed compare keeps this right across jiffies
	 * wrap and makes a clock that appears to go backwards count as fresh.
	 */
	if (ca->last_cwnd == cwnd && (__s32)(now - ca->last_time) <= (__s32)(hz / 32))
		return;

	ca->last_cwnd = cwnd;
	ca->last_time = now;

	if (ca->epoch_start == 0)
		ca->epoch_start = now;

	/* Reno-compatible: one packet per RTT, and no delayed-ACK correction. */
	if (cwnd <= BIC_LOW_WINDOW) {
		ca->cnt = cwnd;
		return;
	}

	if (cwnd < ca->last_max_cwnd)
		ca->cnt = bic_search_cnt(cwnd, ca->last_max_cwnd);
	else
		ca->cnt = bic_probe_cnt(cwnd, ca->last_max_cwnd);

	/* No loss seen yet, so Wmax means nothing: don't grow painfully slowly. */
	if (ca->last_max_cwnd == 0 && ca->cnt > BIC_INITIAL_CNT_MAX)
		ca->cnt = BIC_INITIAL_CNT_MAX;

	/* cnt counts ACKed packets; convert so each ACK carries its real weight. */
	ca->cnt = (ca->cnt << ACK_RATIO_SHIFT) / ca->delayed_ack;
	if (ca->cnt == 0)
		ca->cnt = 1;
}

/*
 * Age of the growth epoch in ms for traces, -1 if none is running: an epoch
 * starts at the first window update after a reduction.  jiffies wrap, and
 * the unsigned difference stays right across the wrap.
 */
static __always_inline __s32 bic_epoch_ms(const struct bic *ca, __u32 now, __u32 hz)
{
	if (ca->epoch_start == 0)
		return -1;
	return (__u64)(now - ca->epoch_start) * 1000 / hz;
}

/* Called on a congestion event with the cwnd in force; returns ssthresh. */
static __always_inline __u32 bic_recalc_ssthresh(struct bic *ca, __u32 cwnd)
{
	ca->epoch_start = 0;

	/*
	 * Losing below the previous Wmax means a competing flow is taking
	 * bandwidth: remember a lower Wmax so we yield to it sooner.
	 */
	if (cwnd < ca->last_max_cwnd && BIC_FAST_CONVERGENCE)
		ca->last_max_cwnd = (cwnd * (BICTCP_BETA_SCALE + BIC_BETA)) /
				    (2 * BICTCP_BETA_SCALE);
	else
		ca->last_max_cwnd = cwnd;

	if (cwnd <= BIC_LOW_WINDOW)
		return bic_max_u32(cwnd >> 1U, 2U);
	return bic_max_u32((cwnd * BIC_BETA) / BICTCP_BETA_SCALE, 2U);
}

/* Delayed-ACK ratio EWMA: ratio = (15 * ratio + sample) / 16. */
static __always_inline void bic_acked(struct bic *ca, __u32 pkts_acked)
{
	ca->delayed_ack += pkts_acked - (ca->delayed_ack >> ACK_RATIO_SHIFT);
}

/*
 * A spurious reduction is undone by going back to Wmax, where the binary
 * search left off.  This is the behaviour after the 2.6.11.7 stable fix
 * "[TCP] Fix BIC congestion avoidance algorithm error".
 */
static __always_inline __u32 bic_undo_cwnd(const struct bic *ca, __u32 cwnd)
{
	return bic_max_u32(cwnd, ca->last_max_cwnd);
}

/*
 * The complete undo (bpf_bic_restore): a spurious congestion event is taken
 * back whole, as RFC 9438 section 4.9 asks of CUBIC and Linux's H-TCP does:
 * BIC's search state returns to what it was before the reduction (Wmax, the
 * epoch and cnt), and cwnd to max(cwnd, the cwnd before it).  The
 * kernel restores ssthresh itself (prior_ssthresh).
 *
 * When the snapshot is taken and dropped follows the kernel's own undo
 * bookkeeping (tcp_input.c, 6.1 to 7.3), which does the same for cwnd:
 *
 * - Every ssthresh() call takes it.  The kernel sets prior_cwnd at every
 *   ssthresh() call and nowhere else (tcp_init_cwnd_reduction(),
 *   tcp_enter_loss()), and its undo restores that prior_cwnd: snapshot and
 *   prior_cwnd always describe the same reduction.  A second reduction
 *   inside one undo episode never calls ssthresh(): an RTO in Recovery or
 *   CWR before high_seq is acked, or in Loss after a retransmission, keeps
 *   ssthresh, prior_cwnd and undo_marker, and Recovery entered from CWR
 *   keeps ssthresh.  So the snapshot is that of the episode's first
 *   reduction, and a loss that starts a new episode (tcp_init_undo())
 *   always calls ssthresh() and replaces it, as the new episode replaces
 *   undo_marker.  A loss a tail loss probe reveals (tcp_process_tlp_ack())
 *   reduces without a new episode and replaces prior_cwnd and the snapshot
 *   alike.
 * - A real loss or a real RTO (no undo) leaves it: the kernel keeps
 *   undo_marker past the recovery, and a late D-SACK can still undo it
 *   (tcp_try_undo_dsack() in Open and Disorder), with the same snapshot.
 * - The Loss reset (set_state TCP_CA_Loss, after ssthresh()) clears BIC
 *   and keeps the snapshot: it is what a spurious RTO's undo restores.
 * - ECN: tcp_enter_cwr() calls ssthresh() with undo_marker and
 *   prior_ssthresh zeroed, and any ECE ACK zeroes prior_ssthresh
 *   (tcp_fastretrans_alert()): tcp_undo_cwnd_reduction() calls undo_cwnd()
 *   only when prior_ssthresh is set, so a reduction ECN asked for is never
 *   undone and its snapshot never used; the next ssthresh() replaces it.
 * - An undo uses the snapshot up.  The kernel zeroes undo_marker in the
 *   same step, and only tcp_init_undo() sets it again, always beside an
 *   ssthresh() call, so a second undo_cwnd() without a new reduction does
 *   not happen; if it did there would be nothing to restore, and cwnd is
 *   kept.
 *
 * delayed_ack measures the receiver, not the search, and is kept as it is
 * (samples from an Open spell between a recovery and a late D-SACK undo
 * stay) unless the Loss reset replaced it with its guess since the
 * snapshot: then the measurement comes back with the rest.
 *
 * cnt's cache (last_cwnd, last_time) comes back empty: cnt is a function of
 * cwnd, Wmax and delayed_ack, which are back, so the next update computes
 * the count the search would use.  A restored cache would make that update
 * hinge on whether the episode outlasted the HZ/32 gate, which the undo
 * cannot know (and the drills could not predict).
 */
struct bic_undo {
	struct bic saved;	/* BIC before the reduction */
	__u32 prior_cwnd;	/* cwnd before the reduction */
	__u8 valid;		/* saved is there to restore */
	__u8 reset;		/* the Loss reset has run since it was saved */
};

_Static_assert(sizeof(struct bic_undo) == 32, "struct bic_undo layout changed");

/* ssthresh() of the complete undo: save BIC, then reduce as BIC does. */
static __always_inline __u32 bic_recalc_ssthresh_saved(struct bic *ca, struct bic_undo *u,
							 __u32 cwnd)
{
	u->saved = *ca;
	u->prior_cwnd = cwnd;
	u->valid = 1;
	u->reset = 0;
	return bic_recalc_ssthresh(ca, cwnd);
}

/* The Loss reset of the complete undo: BIC's reset, the snapshot kept. */
static __always_inline void bic_reset_saved(struct bic *ca, struct bic_undo *u)
{
	bic_reset(ca);
	u->reset = 1;
}

/* undo_cwnd() of the complete undo: BIC as before the reduction. */
static __always_inline __u32 bic_undo_restore(struct bic *ca, struct bic_undo *u, __u32 cwnd)
{
	__u32 delayed_ack = ca->delayed_ack;

	if (!u->valid)
		return cwnd;
	*ca = u->saved;
	ca->last_cwnd = 0;		/* recompute cnt at the next update */
	if (!u->reset)
		ca->delayed_ack = delayed_ack;
	u->valid = 0;
	return bic_max_u32(cwnd, u->prior_cwnd);
}

/*
 * Pre-fix 2.6.11 behaviour: the Reno rule of doubling ssthresh, which for
 * BIC's beta of 0.8 lands well above Wmax, straight into max probing.
 * Deliberately buggy; kept ONLY to reproduce that bug side by side with
 * bic_undo_cwnd().  Do not use it for real traffic.
 */
static __always_inline __u32 bic_undo_cwnd_2611(__u32 cwnd, __u32 ssthresh)
{
	return bic_max_u32(cwnd, ssthresh << 1);
}

#endif /* __BIC_MATH_H */
