// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver side of a drill, shared by the guest tool and the host model:
 * it runs a script against any struct sender and writes the rows.
 *
 * The receiver follows RFC 2018 and 2883: the first SACK block holds the
 * segment that arrived last, the others the next most recent ranges; a
 * duplicate is reported first as a D-SACK block.  The timestamp echoed is
 * that of the last segment that advanced the cumulative ACK (RFC 7323).
 * With ECN (RFC 3168, as Linux's receiver: tcp_ecn_accept_cwr, then
 * __tcp_ecn_check_ce) a segment with CWR ends the echo, a CE-marked one
 * starts it, and every ACK carries ECE while it lasts.
 */
#include <stdlib.h>
#include <string.h>

#include "drill.h"

struct peer {
	const struct script *sc;
	struct sender *snd;
	FILE *csv;

	uint32_t queue[DRILL_MAX_SEGS];	/* transmitted, not yet seen: segment numbers */
	uint32_t qts[DRILL_MAX_SEGS];
	uint8_t qretx[DRILL_MAX_SEGS];	/* a retransmission */
	uint8_t qecn[DRILL_MAX_SEGS];	/* ECN_* as it will arrive */
	uint32_t qhead, qtail;
	uint32_t held[DRILL_MAX_SEGS], heldts[DRILL_MAX_SEGS], nheld;
	uint8_t heldecn[DRILL_MAX_SEGS];

	uint8_t got[DRILL_MAX_SEGS];	/* received at least once */
	uint32_t stamp[DRILL_MAX_SEGS];	/* when it was last received */
	uint32_t clock;
	uint32_t rcv_nxt, rcv_max;	/* rcv_max: highest segment seen + 1 */
	uint32_t ts_recent;
	int dsack;			/* segment to report as duplicate, -1 none */
	bool demand_cwr;		/* CE seen, no CWR since: ACKs carry ECE */

	uint32_t snd_max;		/* highest segment transmitted + 1 */
	uint32_t pending;		/* delivered, not yet acknowledged */
	uint32_t app_limit;
	uint32_t step;
	uint32_t new_segs, retx_segs;	/* transmitted since the last row */
	uint32_t cwr_segs;		/* ... of them with CWR */
	struct ack last;
	struct tcpstat st;		/* as of the last row */

	/* the HZ/32 gate guard */
	uint32_t ewma;			/* BIC's delayed_ack, as it must be */
	uint32_t plateau_cwnd, plateau_ewma;
	uint64_t plateau_us, plateau_ticks;
	uint32_t loss_ewma;		/* as the last RTO found it */
	bool gate_risk;
};

/*
 * BIC recomputes its per-ACK count when cwnd changed, or when more than
 * HZ/32 jiffies (28 ms at HZ=250) went by since it last did.  The model
 * takes jiffies to stand still between ACKs, so in the guest, whenever an
 * ACK meets the cwnd of the ACK before it and the delayed-ACK EWMA (the one
 * other input) has moved since that cwnd was first met, the gate must not
 * have opened in between: less than GATE_SAFE_US of monotonic time and at
 * most one times(2) tick (10 ms at USER_HZ 100, i.e. fewer than 5 jiffies
 * at HZ=250, whatever jiffies lagged).  Otherwise the run is void and
 * ackdrill runs it again in a new namespace.  `wait gate` is the opposite
 * case, made certain by sleeping well past the gate.
 */
#define GATE_SAFE_US	20000
#define EWMA_INIT	(2 << 4)

/*
 * Without `app N` the application stays this far ahead of the sender's
 * window and of what is outstanding: always more to send, and yet every
 * byte written is known, so that the model can write the same.
 */
#define APP_SLACK	64

/* A segment's ECN bits on its way to the receiver. */
#define ECN_ECT		0x01	/* ECN-capable transport: ECT(0) or ECT(1) */
#define ECN_CWR		0x02	/* TCP CWR */
#define ECN_CE		0x04	/* marked Congestion Experienced on the way */

static int fail(struct peer *p, const struct op *op, const char *why)
{
	fprintf(stderr, "ackdrill: %s:%d: %s\n", p->sc->name, op ? op->line : 0, why);
	return -1;
}

/* Move everything the sender transmitted into the arrival queue. */
static int drain(struct peer *p)
{
	struct seg s;
	int r;

	while ((r = p->snd->next_seg(p->snd, &s)) == 1) {
		if (s.idx >= DRILL_MAX_SEGS - 1 || p->qtail == DRILL_MAX_SEGS)
			return fail(p, NULL, "more segments than a drill may send");
		p->qretx[p->qtail] = s.idx < p->snd_max;
		if (s.idx >= p->snd_max) {
			if (s.idx != p->snd_max)
				return fail(p, NULL, "sender skipped a segment");
			p->snd_max++;
			p->new_segs++;
		} else {
			p->retx_segs++;
		}
		p->qecn[p->qtail] = (s.ect ? ECN_ECT : 0) | (s.cwr ? ECN_CWR : 0);
		if (s.cwr)
			p->cwr_segs++;
		p->queue[p->qtail] = s.idx;
		p->qts[p->qtail++] = s.tsval;
	}
	return r;
}

static int app(struct peer *p)
{
	uint32_t lead = p->app_limit;
	struct tcpstat st;

	if (!lead) {
		if (p->snd->info(p->snd, &st))
			return -1;
		lead = (st.cwnd > st.unacked ? st.cwnd : st.unacked) + APP_SLACK;
	}
	return p->snd->app_write(p->snd, p->last.ack + lead);
}

/* One CSV row of the sender's state after event; -1 if it cannot be read. */
static int row(struct peer *p, const char *event)
{
	struct tcpstat st;
	int i;

	if (p->snd->info(p->snd, &p->st))
		return -1;
	fprintf(p->csv, "%u,%s,%u,", p->step++, event, p->last.ack);
	for (i = 0; i < p->last.nsacks; i++)
		fprintf(p->csv, "%s%s%u-%u", i ? " " : "", i == 0 && p->last.dsack ? "d" : "",
			p->last.sacks[i].start, p->last.sacks[i].end);
	st = p->st;
	fprintf(p->csv, ",%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u", p->new_segs, p->retx_segs,
		st.cwnd, st.ssthresh, st.ca_state, st.unacked, st.sacked, st.lost, st.retrans,
		st.total_retrans, st.retransmits);
	if (p->sc->ecn)
		fprintf(p->csv, ",%u,%u", p->last.ece, p->cwr_segs);
	fputc('\n', p->csv);
	p->new_segs = p->retx_segs = p->cwr_segs = 0;
	return 0;
}

static void receive(struct peer *p, uint32_t idx, uint32_t tsval, uint8_t ecn)
{
	if (ecn & ECN_CWR)
		p->demand_cwr = false;
	if (ecn & ECN_CE)
		p->demand_cwr = true;
	if (idx < p->rcv_nxt || p->got[idx]) {
		p->dsack = idx;
		return;
	}
	if (idx == p->rcv_nxt)
		p->ts_recent = tsval;
	p->got[idx] = 1;
	p->stamp[idx] = ++p->clock;
	while (p->got[p->rcv_nxt])
		p->rcv_nxt++;
	if (idx + 1 > p->rcv_max)
		p->rcv_max = idx + 1;
}

/* Build the ACK: D-SACK first, then out-of-order ranges, most recent first. */
static void build_ack(struct peer *p, struct ack *a)
{
	int max = p->sc->ts ? 3 : 4;
	struct { struct sack_block b; uint32_t stamp; } runs[64];
	int nruns = 0, i, j;
	uint32_t s;

	memset(a, 0, sizeof(*a));
	a->ack = p->rcv_nxt;
	a->tsecr = p->ts_recent;
	a->ece = p->sc->ecn && p->demand_cwr;
	if (p->dsack >= 0) {
		a->dsack = true;
		a->sacks[a->nsacks].start = p->dsack;
		a->sacks[a->nsacks++].end = p->dsack + 1;
		p->dsack = -1;
	}
	for (s = p->rcv_nxt; s < p->rcv_max && nruns < 64; ) {
		uint32_t e, latest = 0;

		if (!p->got[s]) {
			s++;
			continue;
		}
		for (e = s; e < p->rcv_max && p->got[e]; e++)
			if (p->stamp[e] > latest)
				latest = p->stamp[e];
		runs[nruns].b.start = s;
		runs[nruns].b.end = e;
		runs[nruns++].stamp = latest;
		s = e;
	}
	/* Insertion sort, newest first: a handful of runs at most. */
	for (i = 1; i < nruns; i++)
		for (j = i; j > 0 && runs[j].stamp > runs[j - 1].stamp; j--) {
			typeof(runs[0]) t = runs[j];

			runs[j] = runs[j - 1];
			runs[j - 1] = t;
		}
	for (i = 0; i < nruns && a->nsacks < max; i++)
		a->sacks[a->nsacks++] = runs[i].b;
}

/*
 * pre: the state the ACK found; p->st: the state it left; loss_undone: the
 * kernel's count of undone timeouts went up while it took the ACK.
 */
static void gate_guard(struct peer *p, const struct tcpstat *pre, uint32_t acked,
		       bool loss_undone, uint64_t us, uint64_t ticks)
{
	if (pre->ca_state == 0)		/* pkts_acked counts in Open only */
		p->ewma += acked - (p->ewma >> 4);
	/*
	 * bpf_bic_restore's undo of a timeout puts back the EWMA the Loss
	 * reset replaced.  The kernel counts every undo of a Loss, and calls
	 * the algorithm's undo_cwnd() for each but where ECN zeroed
	 * prior_ssthresh (tcp_undo_cwnd_reduction()), which no script's
	 * timeout meets.
	 */
	if (loss_undone)
		p->ewma = p->loss_ewma;
	/*
	 * Inside a reduction BIC is not called at all: a cwnd first met there
	 * starts its clock at the first ACK outside it, whose cong_avoid
	 * computes the count (the model refuses a script where it might not).
	 */
	if (p->st.ca_state == 2 || p->st.ca_state == 3) {
		p->plateau_cwnd = 0;
		return;
	}
	if (pre->cwnd != p->plateau_cwnd) {
		p->plateau_cwnd = pre->cwnd;
		p->plateau_ewma = p->ewma;
		p->plateau_us = us;
		p->plateau_ticks = ticks;
		return;
	}
	/* BIC's count is recomputed only by data acked. */
	if (!acked)
		return;
	if (p->ewma != p->plateau_ewma &&
	    (us - p->plateau_us >= GATE_SAFE_US || ticks - p->plateau_ticks > 1)) {
		if (!p->gate_risk)
			fprintf(stderr, "ackdrill: %s: step %u came %llu us after cwnd %u was "
				"first met: BIC's HZ/32 gate may have opened\n", p->sc->name,
				p->step - 1, (unsigned long long)(us - p->plateau_us), pre->cwnd);
		p->gate_risk = true;
	}
	if (p->st.ca_state == 4)	/* TCP_CA_Loss: BIC starts over */
		p->ewma = EWMA_INIT;
}

static int send_ack(struct peer *p)
{
	uint64_t us0 = 0, ticks0 = 0, us1, ticks1, undos0 = 0, undos1 = 0;
	bool guard = p->snd->now && p->snd->has_gate, undo_asked;
	struct tcpstat pre = p->st;
	uint32_t acked;
	struct ack a;

	build_ack(p, &a);
	/* An ACK that finds bpf_bic_restore in Loss: did the kernel undo the timeout? */
	undo_asked = guard && p->snd->restores && pre.ca_state == 4;
	if (undo_asked && p->snd->loss_undos(p->snd, &undos0))
		return -1;
	if (p->snd->now)
		p->snd->now(p->snd, &us0, &ticks0);
	if (p->snd->ack(p->snd, &a))
		return -1;
	if (p->snd->now)
		p->snd->now(p->snd, &us1, &ticks1);
	if (undo_asked && p->snd->loss_undos(p->snd, &undos1))
		return -1;
	acked = a.ack - p->last.ack;
	p->last = a;
	if (app(p) || drain(p) < 0 || row(p, "ack"))
		return -1;
	if (guard) {
		/* The kernel took the ACK between the two readings. */
		if (pre.cwnd != p->plateau_cwnd)
			us1 = us0, ticks1 = ticks0;
		gate_guard(p, &pre, acked, undos1 != undos0, us1, ticks1);
	}
	return 0;
}

static int cwnd_now(struct peer *p, uint32_t *cwnd)
{
	struct tcpstat st;

	if (p->snd->info(p->snd, &st))
		return -1;
	*cwnd = st.cwnd;
	return 0;
}

/*
 * Deliver n queued segments, an ACK after every k.  A round (carry) leaves
 * the segments short of k for the next round, as a delayed-ACK receiver
 * would, so that every ACK covers k; otherwise the last ones get an ACK.
 * With until_cwnd, stop after the first ACK that leaves cwnd at or above it.
 * Returns 1 when that happened.
 */
static int deliver(struct peer *p, const struct op *op, uint32_t n, uint32_t k,
		   bool carry, uint32_t until_cwnd)
{
	uint32_t i, cwnd;

	for (i = 0; i < n; i++) {
		if (p->qhead == p->qtail)
			return fail(p, op, "nothing queued to deliver: the sender is silent");
		receive(p, p->queue[p->qhead], p->qts[p->qhead], p->qecn[p->qhead]);
		p->qhead++;
		if (++p->pending < k && (carry || i + 1 < n))
			continue;
		p->pending = 0;
		if (send_ack(p))
			return -1;
		if (until_cwnd) {
			if (cwnd_now(p, &cwnd))
				return -1;
			if (cwnd >= until_cwnd)
				return 1;
		}
	}
	return 0;
}

static int run_op(struct peer *p, const struct op *op)
{
	uint32_t i, n;
	int r;

	switch (op->kind) {
	case OP_DELIVER:
		return deliver(p, op, op->n, op->k, false, 0) < 0 ? -1 : 0;
	case OP_ROUNDS:
		for (i = 0; i < op->n; i++)
			if (deliver(p, op, p->qtail - p->qhead, op->k, true, 0) < 0)
				return -1;
		return 0;
	case OP_UNTIL:
		for (i = 0; i < 10000; i++) {
			r = deliver(p, op, p->qtail - p->qhead, op->k, true, op->n);
			if (r)
				return r < 0 ? -1 : 0;
		}
		return fail(p, op, "cwnd never got there in 10000 rounds");
	case OP_DROP:
	case OP_HOLD:
		n = op->n ? op->n : p->qtail - p->qhead;
		if (!n || p->qtail - p->qhead < n)
			return fail(p, op, "fewer segments queued than the statement names");
		for (i = 0; i < n; i++, p->qhead++)
			if (op->kind == OP_HOLD) {
				p->held[p->nheld] = p->queue[p->qhead];
				p->heldecn[p->nheld] = p->qecn[p->qhead];
				p->heldts[p->nheld++] = p->qts[p->qhead];
			}
		return 0;
	case OP_MARK:
		if (p->qtail - p->qhead < op->n)
			return fail(p, op, "fewer segments queued than the statement names");
		for (i = p->qhead; i < p->qhead + op->n; i++) {
			if (!(p->qecn[i] & ECN_ECT))
				return fail(p, op, "a segment that is not ECN-capable (a "
					    "retransmission) cannot be CE-marked");
			p->qecn[i] |= ECN_CE;
		}
		return 0;
	case OP_DROP_RETX:
		for (i = p->qhead; i < p->qtail && !p->qretx[i]; i++)
			;
		if (i == p->qtail)
			return fail(p, op, "no retransmission queued");
		memmove(p->queue + i, p->queue + i + 1, (p->qtail - i - 1) * sizeof(p->queue[0]));
		memmove(p->qts + i, p->qts + i + 1, (p->qtail - i - 1) * sizeof(p->qts[0]));
		memmove(p->qretx + i, p->qretx + i + 1, (p->qtail - i - 1) * sizeof(p->qretx[0]));
		memmove(p->qecn + i, p->qecn + i + 1, (p->qtail - i - 1) * sizeof(p->qecn[0]));
		p->qtail--;
		return 0;
	case OP_RELEASE:
		n = op->n ? op->n : p->nheld;
		if (!n || n > p->nheld)
			return fail(p, op, "fewer segments held than the statement names");
		for (i = 0; i < n; i++) {
			receive(p, p->held[i], p->heldts[i], p->heldecn[i]);
			if (send_ack(p))
				return -1;
		}
		p->nheld -= n;
		memmove(p->held, p->held + n, p->nheld * sizeof(p->held[0]));
		memmove(p->heldts, p->heldts + n, p->nheld * sizeof(p->heldts[0]));
		memmove(p->heldecn, p->heldecn + n, p->nheld * sizeof(p->heldecn[0]));
		return 0;
	case OP_WAIT_RTO:
		if (p->pending)
			return fail(p, op, "segments delivered and not acknowledged");
		if (p->qhead != p->qtail)
			return fail(p, op, "segments still queued: the timer would not be the cause");
		if (p->st.ca_state != 4)
			p->loss_ewma = p->ewma;
		if (p->snd->wait_rto(p->snd) || drain(p) < 0)
			return -1;
		p->plateau_cwnd = 0;
		if (p->qhead == p->qtail)
			return fail(p, op, "the retransmission timer sent nothing");
		return row(p, "rto");
	case OP_WAIT_GATE:
		p->plateau_cwnd = 0;	/* the next ACK recomputes, whatever cwnd */
		return p->snd->wait_gate(p->snd);
	case OP_APP:
		p->app_limit = op->n;
		return app(p) || drain(p) < 0 ? -1 : 0;
	}
	return -1;
}

int drill_run(const struct script *sc, struct sender *snd, FILE *csv)
{
	struct peer *p;
	int i, err = 0;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -1;
	p->sc = sc;
	p->snd = snd;
	p->csv = csv;
	p->dsack = -1;
	p->app_limit = sc->app;
	p->ewma = EWMA_INIT;

	fprintf(csv, "step,event,ack,sack,new,retx,cwnd,ssthresh,state,unacked,sacked,lost,"
		"retrans,total_retrans,rtos%s\n", sc->ecn ? ",ece,cwr" : "");
	if (app(p) || drain(p) < 0 || row(p, "start"))
		err = -1;
	for (i = 0; !err && i < sc->nops; i++)
		err = run_op(p, &sc->ops[i]);
	if (!err && p->gate_risk)
		err = DRILL_RETRY;
	free(p);
	return err;
}
