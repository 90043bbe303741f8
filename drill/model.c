// SPDX-License-Identifier: GPL-2.0
/*
 * model: predict a drill's rows on the host, before any guest runs it.
 *
 *   model [-o CSV] SCRIPT ALGO
 *
 * (model -w, the same congestion control after one loss at windows no guest
 * carries, is wmax.c; model.h is what the two share.)
 *
 * The receiver is the guest's own (engine.c); the sender is a model of
 * Linux TCP (net/ipv4/tcp_input.c, tcp_output.c, tcp_recovery.c, as in
 * 6.1 to 7.3) restricted to what a drill exercises, with the window
 * arithmetic of bic_math.h for the BICs and the kernel's Reno for the
 * others, each with its undo rule: ALGO is a row of the table of
 * algorithms (bpf/algos.h) that says the model predicts it.  The sysctls
 * ackdrill sets are assumed: SACK with RACK loss detection at reordering 1
 * (a hole is lost at the first SACK above it), no TLP, F-RTO on, one MSS
 * per skb, and ECN (RFC 3168) as the script says: ECE on an ACK makes the
 * sender enter CWR or keeps a reduction from being undone, and CWR goes on
 * the first new segment after a reduction.
 *
 * Time is a model too: jiffies stand still between ACKs (the guest harness
 * keeps BIC's HZ/32 recompute gate shut there) and jump past it at `wait
 * gate` and at a retransmission timeout.  Where the kernel's answer would
 * hinge on real time in a way the harness cannot control, the model stops
 * with the reason rather than guess: the script has to avoid it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

/* TCP_SKB_CB(skb)->sacked bits */
#define S_SACKED	0x01	/* TCPCB_SACKED_ACKED */
#define S_RETRANS_OUT	0x02	/* TCPCB_SACKED_RETRANS */
#define S_LOST		0x04
#define S_EVER		0x80	/* TCPCB_EVER_RETRANS */
#define S_RETRANS	(S_RETRANS_OUT | S_EVER)

/* tcp_ack flags, as the kernel names them */
#define F_DATA_ACKED	0x04
#define F_RETRANS_DATA_ACKED 0x08
#define F_SYN_ACKED	0x10
#define F_DATA_SACKED	0x20
#define F_SND_UNA_ADVANCED 0x400
#define F_DSACKING_ACK	0x800
#define F_ECE		0x40
#define F_WIN_UPDATE	0x02
#define F_ORIG_SACK_ACKED 0x200
#define F_LOST_RETRANS	0x8000
#define F_ACKED		(F_DATA_ACKED | F_SYN_ACKED)
#define F_FORWARD_PROGRESS (F_ACKED | F_DATA_SACKED)
#define MAX_REORDERING	300	/* net.ipv4.tcp_max_reordering */
#define F_NOT_DUP	(F_WIN_UPDATE | F_ACKED)
#define F_CA_ALERT	(F_DATA_SACKED | F_ECE | F_DSACKING_ACK)

enum { REXMIT_NONE, REXMIT_LOST, REXMIT_NEW };

static uint32_t in_flight(const struct model *m)
{
	return m->packets_out - (m->sacked_out + m->lost_out) + m->retrans_out;
}

static bool in_cwnd_reduction(const struct model *m)
{
	return m->ca_state == CA_CWR || m->ca_state == CA_RECOVERY;
}

void unmodelled(struct model *m, const char *why)
{
	if (!m->why)
		m->why = why;
}

/* --- the congestion control ------------------------------------------------ */

bool is_bic(const struct model *m)
{
	return m->algo->bic;
}

void ca_init(struct model *m)
{
	bic_reset(&m->bic);
}

uint32_t ca_ssthresh(struct model *m)
{
	m->reduced = true;
	if (algo_restores(m->algo))
		return bic_recalc_ssthresh_saved(&m->bic, &m->undo, m->cwnd);
	if (is_bic(m))
		return bic_recalc_ssthresh(&m->bic, m->cwnd);
	return bic_max_u32(m->cwnd >> 1, 2);
}

static void ca_set_state(struct model *m, uint32_t state)
{
	if (algo_restores(m->algo) && state == CA_LOSS)
		bic_reset_saved(&m->bic, &m->undo);
	else if (is_bic(m) && state == CA_LOSS)
		bic_reset(&m->bic);
	m->ca_state = state;
}

static uint32_t ca_undo_cwnd(struct model *m)
{
	switch (m->algo->undo) {
	case UNDO_WMAX:
		return bic_undo_cwnd(&m->bic, m->cwnd);
	case UNDO_2611:
		return bic_undo_cwnd_2611(m->cwnd, m->ssthresh);
	case UNDO_RESTORE:
		return bic_undo_restore(&m->bic, &m->undo, m->cwnd);
	case UNDO_PRIOR:
		break;
	}
	return bic_max_u32(m->cwnd, m->prior_cwnd);	/* tcp_reno_undo_cwnd */
}

void ca_pkts_acked(struct model *m, uint32_t pkts)
{
	if (is_bic(m) && m->ca_state == CA_OPEN)
		bic_acked(&m->bic, pkts);
}

static uint32_t slow_start(struct model *m, uint32_t acked)
{
	uint32_t cwnd = m->cwnd + acked < m->ssthresh ? m->cwnd + acked : m->ssthresh;

	acked -= cwnd - m->cwnd;
	m->cwnd = cwnd;
	return acked;
}

static void cong_avoid_ai(struct model *m, uint32_t w, uint32_t acked)
{
	if (m->cwnd_cnt >= w) {
		m->cwnd_cnt = 0;
		m->cwnd++;
	}
	m->cwnd_cnt += acked;
	if (m->cwnd_cnt >= w) {
		uint32_t delta = m->cwnd_cnt / w;

		m->cwnd_cnt -= delta * w;
		m->cwnd += delta;
	}
}

static bool is_cwnd_limited(const struct model *m)
{
	if (m->is_cwnd_limited)
		return true;
	if (m->cwnd < m->ssthresh)
		return m->cwnd < 2 * m->max_packets_out;
	return false;
}

void ca_cong_avoid(struct model *m, uint32_t acked)
{
	if (!is_cwnd_limited(m))
		return;
	if (m->cwnd < m->ssthresh) {
		acked = slow_start(m, acked);
		if (!acked)
			return;
	}
	if (is_bic(m)) {
		/*
		 * Back at the cwnd cnt was computed for, across a reduction: a
		 * whole loss episode went by, and whether that took HZ/32 is up
		 * to the guest's speed.  A `wait gate` settles it.
		 */
		if (m->reduced && m->bic.last_cwnd == m->cwnd &&
		    (int32_t)(m->jiffies - m->bic.last_time) <= HZ / 32)
			unmodelled(m, "cwnd is back at the value of BIC's last count across a "
				   "reduction: the HZ/32 gate is the guest's to decide (wait gate)");
		if (m->bic.last_cwnd != m->cwnd || (int32_t)(m->jiffies - m->bic.last_time) > HZ / 32)
			m->reduced = false;
		bic_update(&m->bic, m->cwnd, m->jiffies, HZ);
		cong_avoid_ai(m, m->bic.cnt, acked);
	} else {
		cong_avoid_ai(m, m->cwnd, acked);
	}
}

/* --- transmission (tcp_output.c) ------------------------------------------ */

/*
 * TSval: only its order matters.  The model's jiffies move only at waits,
 * so one tick per ACK stands in for the time an ACK exchange takes; the
 * comparisons the kernel makes (an echo against the first retransmission,
 * or against a retransmitted segment's own stamp) are between segments
 * sent a round or a timeout apart, milliseconds in the guest.
 */
static uint32_t ts_now(const struct model *m)
{
	return m->jiffies * (1000 / HZ) + m->acks;
}

#define O_ECT	0x01
#define O_CWR	0x02

/*
 * tcp_ecn_send: a new data segment goes out ECT(0), with CWR if a reduction
 * queued it; a retransmission goes out not ECN-capable.
 */
static void emit(struct model *m, uint32_t idx, bool new_data)
{
	uint8_t ecn = 0;

	if (m->sc->ecn && new_data) {
		ecn = O_ECT;
		if (m->queue_cwr) {
			m->queue_cwr = false;
			ecn |= O_CWR;
		}
	}
	m->xmit[idx] = ++m->clock;
	m->tsval[idx] = ts_now(m);
	m->outecn[m->nout] = ecn;
	m->out[m->nout++] = idx;
}

/* tcp_ecn_queue_cwr */
static void ecn_queue_cwr(struct model *m)
{
	if (m->sc->ecn)
		m->queue_cwr = true;
}

static void cwnd_validate(struct model *m, bool limited)
{
	if (m->una >= m->cwnd_usage_seq || limited ||
	    (!m->is_cwnd_limited && m->packets_out > m->max_packets_out)) {
		m->is_cwnd_limited = limited;
		m->max_packets_out = m->packets_out;
		m->cwnd_usage_seq = m->nxt;
	}
}

/* tcp_write_xmit: new data while cwnd has room. */
static void write_xmit(struct model *m)
{
	uint32_t sent = 0;
	bool limited;

	while (m->nxt < m->written) {
		if (in_flight(m) >= m->cwnd)
			break;
		if (m->nxt >= DRILL_MAX_SEGS - 1) {
			unmodelled(m, "more segments than a drill may send");
			return;
		}
		m->sk[m->nxt] = 0;
		emit(m, m->nxt, true);
		m->nxt++;
		m->packets_out++;
		sent++;
	}
	limited = in_flight(m) >= m->cwnd;
	if (sent || limited)
		cwnd_validate(m, limited);
	if (sent && in_cwnd_reduction(m))
		m->prr_out += sent;
}

static void retransmit(struct model *m, uint32_t idx)
{
	m->sk[idx] |= S_RETRANS;
	m->retrans_out++;
	m->total_retrans++;
	if (!m->retrans_stamp)
		m->retrans_stamp = ts_now(m);
	if (m->undo_retrans < 0)
		m->undo_retrans = 0;
	m->undo_retrans++;
	emit(m, idx, false);
}

/* tcp_xmit_retransmit_queue: lost segments, in sequence order. */
static void xmit_retransmit_queue(struct model *m)
{
	uint32_t i;

	for (i = m->una; i < m->nxt; i++) {
		if ((int)(m->cwnd - in_flight(m)) <= 0)
			break;
		if (m->retrans_out >= m->lost_out)
			break;
		if (!(m->sk[i] & S_LOST))
			continue;
		if (m->sk[i] & (S_SACKED | S_RETRANS_OUT))
			continue;
		retransmit(m, i);
		if (in_cwnd_reduction(m))
			m->prr_out++;
	}
}

/* --- loss detection: RACK with a reordering window of 0 ---------------------- */

static void mark_lost(struct model *m, uint32_t i)
{
	if (m->sk[i] & S_SACKED)
		return;
	if (m->sk[i] & S_LOST) {
		if (m->sk[i] & S_RETRANS_OUT) {
			m->sk[i] &= ~S_RETRANS_OUT;
			m->retrans_out--;
			m->lost_total++;
		}
	} else {
		m->lost_out++;
		m->lost_total++;
		m->sk[i] |= S_LOST;
	}
}

/* tcp_rack_advance; `retrans` segments are ambiguous (which copy arrived?). */
static void rack_advance(struct model *m, uint32_t idx, uint8_t sacked, uint32_t from)
{
	if (m->xmit[idx] < m->rack_xmit)
		return;
	if (sacked & S_RETRANS) {
		uint32_t i;

		/*
		 * The kernel skips a retransmitted segment whose RTT sample is
		 * below min_rtt, a matter of microseconds here.  That is only
		 * harmless if nothing sent before it is still unaccounted for.
		 */
		for (i = from; i < m->nxt; i++)
			if (i != idx && i >= m->una && m->xmit[i] < m->xmit[idx] &&
			    !(m->sk[i] & (S_SACKED | S_LOST)))
				unmodelled(m, "an ACK of a retransmission overtakes a segment "
					   "sent before it: RACK would race min_rtt");
	}
	m->rack_xmit = m->xmit[idx];
	m->rack_end = idx + 1;
	m->rack_advanced = true;
}

static void rack_mark_lost(struct model *m)
{
	uint32_t i;

	if (!m->rack_advanced)
		return;
	m->rack_advanced = false;
	for (i = m->una; i < m->nxt; i++) {
		uint8_t s = m->sk[i];

		if (s & S_SACKED)
			continue;
		if ((s & S_LOST) && !(s & S_RETRANS_OUT))
			continue;
		if (m->xmit[i] < m->rack_xmit) {
			if (m->reord_seen)
				unmodelled(m, "RACK after reordering: a window of min_rtt / 4");
			mark_lost(m, i);
		}
	}
}

/* --- undo and state changes (tcp_input.c) -------------------------------------- */

static bool any_retrans_done(const struct model *m)
{
	return m->retrans_out || (m->una < m->nxt && (m->sk[m->una] & S_EVER));
}

/* tcp_tsopt_ecr_before */
static bool ecr_before(const struct model *m, uint32_t when)
{
	return m->sc->ts && m->tsecr && (int32_t)(m->tsecr - when) < 0;
}

static bool packet_delayed(const struct model *m)
{
	if (m->retrans_stamp && ecr_before(m, m->retrans_stamp))
		return true;
	return !m->retrans_stamp;
}

static bool may_undo(const struct model *m)
{
	return m->undo_set && (!m->undo_retrans || packet_delayed(m));
}

static uint32_t current_ssthresh(const struct model *m)
{
	if (in_cwnd_reduction(m))
		return m->ssthresh;
	return bic_max_u32(m->ssthresh, (m->cwnd >> 1) + (m->cwnd >> 2));
}

static void init_undo(struct model *m)
{
	m->undo_marker = m->una;
	m->undo_set = true;
	m->undo_retrans = m->retrans_out ? (int)m->retrans_out : -1;
}

static void undo_cwnd_reduction(struct model *m, bool unmark_loss)
{
	uint32_t i;

	if (unmark_loss) {
		for (i = m->una; i < m->nxt; i++)
			m->sk[i] &= ~S_LOST;
		m->lost_out = 0;
	}
	if (m->prior_ssthresh) {
		m->cwnd = ca_undo_cwnd(m);
		if (m->prior_ssthresh > m->ssthresh) {
			m->ssthresh = m->prior_ssthresh;
			m->queue_cwr = false;	/* tcp_ecn_withdraw_cwr */
		}
	}
	m->undo_set = false;
	m->rack_advanced = true;
}

static void try_keep_open(struct model *m)
{
	uint32_t state = CA_OPEN;

	if (m->sacked_out + m->lost_out || any_retrans_done(m))
		state = CA_DISORDER;
	if (m->ca_state != state) {
		ca_set_state(m, state);
		m->high_seq = m->nxt;
	}
}

/* tcp_init_cwnd_reduction: the start of a reduction, CWR or Recovery. */
static void init_cwnd_reduction(struct model *m)
{
	m->high_seq = m->nxt;
	m->cwnd_cnt = 0;
	m->prior_cwnd = m->cwnd;
	m->prr_delivered = 0;
	m->prr_out = 0;
	m->ssthresh = ca_ssthresh(m);
	ecn_queue_cwr(m);
}

/* tcp_enter_cwr: congestion proven by ECN, so nothing of it is undone. */
static void enter_cwr(struct model *m)
{
	m->prior_ssthresh = 0;
	if (m->ca_state < CA_CWR) {
		m->undo_set = false;
		init_cwnd_reduction(m);
		ca_set_state(m, CA_CWR);
	}
}

static void try_to_open(struct model *m, int flag)
{
	if (!any_retrans_done(m))
		m->retrans_stamp = 0;
	if (flag & F_ECE)
		enter_cwr(m);
	if (m->ca_state != CA_CWR)
		try_keep_open(m);
}

static uint32_t highest_sack_end(const struct model *m)
{
	uint32_t i, fack = m->una;

	for (i = m->una; i < m->nxt; i++)
		if (m->sk[i] & S_SACKED)
			fack = i + 1;
	return fack;
}

/* tcp_check_sack_reordering */
static void check_reordering(struct model *m, uint32_t low, uint32_t fack)
{
	if (low >= fack)
		return;
	if (fack - low > m->reordering)
		m->reordering = fack - low < MAX_REORDERING ? fack - low : MAX_REORDERING;
	m->reord_seen = true;
}

/* A hole filled by the original: the retransmission was spurious. */
static bool try_undo_partial(struct model *m, uint32_t prior_una, uint32_t prior_fack)
{
	if (m->undo_set && packet_delayed(m)) {
		check_reordering(m, prior_una, prior_fack);
		if (m->retrans_out)
			return true;
		if (!any_retrans_done(m))
			m->retrans_stamp = 0;
		undo_cwnd_reduction(m, true);
		try_keep_open(m);
	}
	return false;
}

static bool try_undo_dsack(struct model *m)
{
	if (m->undo_set && !m->undo_retrans) {
		undo_cwnd_reduction(m, false);
		return true;
	}
	return false;
}

static bool try_undo_recovery(struct model *m)
{
	if (may_undo(m))
		undo_cwnd_reduction(m, false);
	ca_set_state(m, CA_OPEN);
	return false;
}

static bool try_undo_loss(struct model *m, bool frto_undo)
{
	if (frto_undo || may_undo(m)) {
		undo_cwnd_reduction(m, true);
		m->retransmits = 0;
		ca_set_state(m, CA_OPEN);
		return true;
	}
	return false;
}

static void end_cwnd_reduction(struct model *m)
{
	if (m->ssthresh < INF_SSTHRESH && (m->ca_state == CA_CWR || m->undo_set))
		m->cwnd = m->ssthresh;
}

/*
 * tcp_enter_recovery.  From CWR the reduction goes on (same ssthresh, same
 * PRR counts, same high_seq) and prior_ssthresh stays 0: no undo.
 */
static void enter_recovery(struct model *m, bool ece_ack)
{
	if (!any_retrans_done(m))	/* tcp_retrans_stamp_cleanup */
		m->retrans_stamp = 0;
	m->prior_ssthresh = 0;
	init_undo(m);
	if (!in_cwnd_reduction(m)) {
		if (!ece_ack)
			m->prior_ssthresh = current_ssthresh(m);
		init_cwnd_reduction(m);
	}
	ca_set_state(m, CA_RECOVERY);
}

static void identify_packet_loss(struct model *m, int *flag)
{
	uint32_t prior_retrans = m->retrans_out;

	if (m->una == m->nxt)
		return;
	rack_mark_lost(m);
	if (prior_retrans > m->retrans_out)
		*flag |= F_LOST_RETRANS;
}

static void process_loss(struct model *m, int flag, int num_dupack, int *rexmit)
{
	bool recovered = m->una >= m->high_seq;

	if ((flag & F_SND_UNA_ADVANCED) && try_undo_loss(m, false))
		return;
	if (m->frto) {
		if ((flag & F_ORIG_SACK_ACKED) && try_undo_loss(m, true))
			return;
		if (m->nxt > m->high_seq) {
			if ((flag & F_DATA_SACKED) || num_dupack)
				m->frto = false;
		} else if ((flag & F_SND_UNA_ADVANCED) && !recovered) {
			m->high_seq = m->nxt;
			if (m->nxt < m->written) {
				*rexmit = REXMIT_NEW;
				return;
			}
			m->frto = false;
		}
	}
	if (recovered) {
		try_undo_recovery(m);
		return;
	}
	*rexmit = REXMIT_LOST;
}

static void fastretrans_alert(struct model *m, uint32_t prior_una, uint32_t prior_fack,
			      int num_dupack, int *flag, int *rexmit)
{
	int ack_flag = *flag;
	bool ece_ack = ack_flag & F_ECE;

	if (!m->packets_out && m->sacked_out)
		m->sacked_out = 0;

	/* ECE: the reduction is required, so none may be undone. */
	if (ece_ack)
		m->prior_ssthresh = 0;

	if (m->ca_state == CA_OPEN) {
		m->retrans_stamp = 0;
	} else if (m->una >= m->high_seq) {
		if (m->ca_state == CA_CWR) {
			/* held until something above high_seq is acked: CWR got there */
			if (m->una != m->high_seq) {
				end_cwnd_reduction(m);
				ca_set_state(m, CA_OPEN);
			}
		} else if (m->ca_state == CA_RECOVERY) {
			if (try_undo_recovery(m))
				return;
			end_cwnd_reduction(m);
		}
	}

	switch (m->ca_state) {
	case CA_RECOVERY:
		if ((*flag & F_SND_UNA_ADVANCED) && try_undo_partial(m, prior_una, prior_fack))
			return;
		if (try_undo_dsack(m))
			try_to_open(m, ack_flag);
		identify_packet_loss(m, flag);
		if (m->ca_state != CA_RECOVERY) {
			if (!m->lost_out)
				return;
			enter_recovery(m, ece_ack);
		}
		break;
	case CA_LOSS:
		process_loss(m, *flag, num_dupack, rexmit);
		identify_packet_loss(m, flag);
		if (!(m->ca_state == CA_OPEN || (*flag & F_LOST_RETRANS)))
			return;
		/* fall through */
	default:
		if (m->ca_state <= CA_DISORDER)
			try_undo_dsack(m);
		identify_packet_loss(m, flag);
		if (!m->lost_out) {
			try_to_open(m, ack_flag);
			return;
		}
		enter_recovery(m, ece_ack);
	}
	*rexmit = REXMIT_LOST;
}

/* tcp_cwnd_reduction: proportional rate reduction (RFC 6937). */
static void cwnd_reduction(struct model *m, int newly_acked_sacked, int newly_lost, int flag)
{
	int delta = (int)m->ssthresh - (int)in_flight(m);
	int sndcnt;

	if (newly_acked_sacked <= 0 || !m->prior_cwnd)
		return;
	m->prr_delivered += newly_acked_sacked;
	if (delta < 0) {
		uint64_t dividend = (uint64_t)m->ssthresh * m->prr_delivered + m->prior_cwnd - 1;

		sndcnt = (int)(dividend / m->prior_cwnd) - (int)m->prr_out;
	} else {
		sndcnt = (int)m->prr_delivered - (int)m->prr_out;
		if (sndcnt < newly_acked_sacked)
			sndcnt = newly_acked_sacked;
		if ((flag & F_SND_UNA_ADVANCED) && !newly_lost)
			sndcnt++;
		if (sndcnt > delta)
			sndcnt = delta;
	}
	if (sndcnt < (m->prr_out ? 0 : 1))
		sndcnt = m->prr_out ? 0 : 1;
	m->cwnd = in_flight(m) + sndcnt;
}

/* --- tcp_ack ------------------------------------------------------------ */

static void sacktag_one(struct model *m, uint32_t i, int *flag, uint32_t *sack_delivered)
{
	uint8_t s = m->sk[i];

	if (s & S_SACKED)
		return;
	rack_advance(m, i, s, m->una);
	if (s & S_RETRANS_OUT) {
		if (s & S_LOST) {
			s &= ~(S_LOST | S_RETRANS_OUT);
			m->lost_out--;
			m->retrans_out--;
		}
	} else {
		if (!(s & S_EVER)) {
			if (i + 1 <= m->high_seq)
				*flag |= F_ORIG_SACK_ACKED;
		}
		if (s & S_LOST) {
			s &= ~S_LOST;
			m->lost_out--;
		}
	}
	m->sk[i] = s | S_SACKED;
	*flag |= F_DATA_SACKED;
	m->sacked_out++;
	(*sack_delivered)++;
}

static void sacktag(struct model *m, const struct ack *a, uint32_t prior_una, int *flag,
		    uint32_t *sack_delivered)
{
	uint32_t i, highest = highest_sack_end(m);
	int b = 0;

	if (a->dsack) {
		const struct sack_block *d = &a->sacks[0];

		if (d->end > prior_una) {
			unmodelled(m, "a D-SACK above the cumulative ACK");
			return;
		}
		*flag |= F_DSACKING_ACK;
		(*sack_delivered) += d->end - d->start;
		if (m->undo_set && m->undo_retrans > 0 && d->end > m->undo_marker) {
			m->undo_retrans -= d->end - d->start;
			if (m->undo_retrans < 0)
				m->undo_retrans = 0;
		}
		b = 1;
	}
	for (; b < a->nsacks; b++) {
		for (i = a->sacks[b].start; i < a->sacks[b].end; i++) {
			if (i < m->una)
				continue;
			if (i >= m->nxt) {
				unmodelled(m, "a SACK of a segment never sent");
				return;
			}
			if (!(m->sk[i] & S_SACKED) && !(m->sk[i] & S_RETRANS) && i + 1 < highest)
				unmodelled(m, "reordering (a SACK below the highest SACKed)");
			sacktag_one(m, i, flag, sack_delivered);
		}
	}
}

/* Segments [prior_una, una) leave the retransmission queue. */
static int clean_rtx_queue(struct model *m, uint32_t prior_una, uint32_t prior_fack,
			   uint32_t *delivered)
{
	uint32_t pkts = 0, i;
	int flag = 0;

	for (i = prior_una; i < m->una; i++) {
		uint8_t s = m->sk[i];

		if (s & S_RETRANS) {
			if (s & S_RETRANS_OUT)
				m->retrans_out--;
			flag |= F_RETRANS_DATA_ACKED;
		} else if (!(s & S_SACKED)) {
			if (i < prior_fack)
				unmodelled(m, "reordering (a hole filled by an original)");
			if (i + 1 <= m->high_seq)
				flag |= F_ORIG_SACK_ACKED;
		}
		if (s & S_SACKED)
			m->sacked_out--;
		else
			(*delivered)++;
		/* tcp_skb_spurious_retrans: the echo says the original arrived */
		if (!(s & S_SACKED) && !((s & S_RETRANS) && ecr_before(m, m->tsval[i])))
			rack_advance(m, i, s, prior_una);
		if (s & S_LOST)
			m->lost_out--;
		m->packets_out--;
		m->sk[i] = 0;
		pkts++;
		flag |= F_DATA_ACKED;
	}
	ca_pkts_acked(m, pkts);
	return flag;
}

static int m_ack(struct sender *snd, const struct ack *a)
{
	struct model *m = (struct model *)snd;
	uint32_t prior_una = m->una, prior_packets = m->packets_out, prior_lost = m->lost_total;
	uint32_t prior_fack, delivered = 0, sack_delivered = 0;
	int flag = 0, num_dupack = 0, rexmit = REXMIT_NONE;

	m->tsecr = a->tsecr;
	m->acks++;
	if (a->ack > m->nxt || a->ack < m->una) {
		unmodelled(m, "an ACK outside the window");
		return 0;
	}
	prior_fack = highest_sack_end(m);
	if (a->ack > m->una) {
		flag |= F_SND_UNA_ADVANCED | F_WIN_UPDATE;
		m->retransmits = 0;
	}
	m->una = a->ack;
	if (a->nsacks)
		sacktag(m, a, prior_una, &flag, &sack_delivered);
	if (a->ece && m->sc->ecn)	/* tcp_ecn_rcv_ecn_echo */
		flag |= F_ECE;
	if (!prior_packets) {
		unmodelled(m, "an ACK with nothing outstanding");
		return 0;
	}
	flag |= clean_rtx_queue(m, prior_una, prior_fack, &delivered);
	delivered += sack_delivered;
	m->delivered += delivered;

	/* tcp_ack_is_dubious */
	if (!(flag & F_NOT_DUP) || (flag & F_CA_ALERT) || m->ca_state != CA_OPEN) {
		if (!(flag & (F_SND_UNA_ADVANCED | F_NOT_DUP | F_DSACKING_ACK)))
			num_dupack = 1;
		fastretrans_alert(m, prior_una, prior_fack, num_dupack, &flag, &rexmit);
	}

	/* tcp_cong_control */
	if (in_cwnd_reduction(m))
		cwnd_reduction(m, delivered, m->lost_total - prior_lost, flag);
	else if (flag & (m->reordering > 1 ? F_FORWARD_PROGRESS : F_DATA_ACKED))
		ca_cong_avoid(m, delivered);	/* tcp_may_raise_cwnd */

	/* tcp_xmit_recovery */
	if (rexmit == REXMIT_NEW) {
		write_xmit(m);
		if (m->nxt <= m->high_seq) {
			m->frto = false;
			xmit_retransmit_queue(m);
		}
	} else if (rexmit == REXMIT_LOST) {
		xmit_retransmit_queue(m);
	}
	/* tcp_data_snd_check */
	write_xmit(m);
	return 0;
}

static int m_next_seg(struct sender *snd, struct seg *out)
{
	struct model *m = (struct model *)snd;

	if (m->why)
		return -1;
	if (m->outpos == m->nout) {
		m->outpos = m->nout = 0;
		return 0;
	}
	out->ect = m->outecn[m->outpos] & O_ECT;
	out->cwr = m->outecn[m->outpos] & O_CWR;
	out->idx = m->out[m->outpos++];
	out->tsval = m->tsval[out->idx];
	return 1;
}

/* tcp_retransmit_timer: everything outstanding is lost, the head goes again. */
static int m_wait_rto(struct sender *snd)
{
	struct model *m = (struct model *)snd;
	bool new_recovery = m->ca_state < CA_RECOVERY;
	uint32_t i;

	if (m->una == m->nxt) {
		unmodelled(m, "a timer with nothing outstanding");
		return -1;
	}
	m->jiffies += HZ;
	for (i = m->una; i < m->nxt; i++)
		mark_lost(m, i);
	if (m->ca_state <= CA_DISORDER || m->high_seq <= m->una ||
	    (m->ca_state == CA_LOSS && !m->retransmits)) {
		m->prior_ssthresh = current_ssthresh(m);
		m->prior_cwnd = m->cwnd;
		m->ssthresh = ca_ssthresh(m);
		init_undo(m);
	}
	m->cwnd = in_flight(m) + 1;
	m->cwnd_cnt = 0;
	ca_set_state(m, CA_LOSS);
	m->high_seq = m->nxt;
	ecn_queue_cwr(m);
	m->frto = new_recovery || m->retransmits;
	m->retransmits++;
	retransmit(m, m->una);
	return 0;
}

static int m_wait_gate(struct sender *snd)
{
	struct model *m = (struct model *)snd;

	m->jiffies += HZ / 32 + 2;
	return 0;
}

static int m_app_write(struct sender *snd, uint32_t segs)
{
	struct model *m = (struct model *)snd;

	if (segs <= m->written)
		return 0;
	m->written = segs;
	write_xmit(m);
	return 0;
}

static int m_info(struct sender *snd, struct tcpstat *st)
{
	struct model *m = (struct model *)snd;

	st->cwnd = m->cwnd;
	st->ssthresh = m->ssthresh;
	st->ca_state = m->ca_state;
	st->unacked = m->packets_out;
	st->sacked = m->sacked_out;
	st->lost = m->lost_out;
	st->retrans = m->retrans_out;
	st->total_retrans = m->total_retrans;
	st->retransmits = m->retransmits;
	return 0;
}

int find_algo(const char *name, const struct algo **algo)
{
	*algo = algo_find(name);
	if (*algo && (*algo)->model)
		return 0;
	fprintf(stderr, "model: no model of '%s'\n", name);
	return -1;
}

int main(int argc, char **argv)
{
	static struct script sc;
	static struct model m = {
		.ops = {
			.ack = m_ack, .next_seg = m_next_seg, .wait_rto = m_wait_rto,
			.wait_gate = m_wait_gate, .app_write = m_app_write, .info = m_info,
		},
	};
	const char *out, *script, *algo;
	FILE *csv = stdout;
	int err;

	if (argc > 1 && !strcmp(argv[1], "-w"))
		return wmax_main(argc, argv);
	if (drill_args(argc, argv, "model", NULL, &out, &script, &algo))
		return 2;
	if (find_algo(algo, &m.algo))
		return 2;
	if (script_load(&sc, script))
		return 1;
	m.sc = &sc;
	m.cwnd = INIT_CWND;
	m.ssthresh = INF_SSTHRESH;
	m.jiffies = 1000000;
	m.reordering = 1;
	ca_init(&m);

	if (out && !(csv = fopen(out, "w"))) {
		perror(out);
		return 1;
	}
	err = drill_run(&sc, &m.ops, csv);
	if (m.why)
		fprintf(stderr, "model: %s: %s\n", sc.name, m.why);
	if (fclose(csv) || err || m.why) {
		if (out)
			unlink(out);
		return 1;
	}
	return 0;
}
