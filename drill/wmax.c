// SPDX-License-Identifier: GPL-2.0
/*
 * model -w [-c|-r] [-k K] ALGO WMAX...: what the drills would show after a
 * single loss at cwnd WMAX on a path that only the window limits, for
 * windows no guest can carry.  The receiver ACKs every K segments in order
 * and nothing else is lost: every ACK in congestion avoidance is then the
 * same event, one that m_ack() takes in Open with no SACK, and that the
 * kernel answers with pkts_acked(K) and cong_avoid(K) and nothing else
 * that moves cwnd.  So this runs exactly those two of the model's calls
 * per ACK, bic_math.h inside them, and skips only ACKs that provably
 * change nothing but cwnd_cnt: BIC's delayed-ACK EWMA at its fixed point
 * for K, its count computed for this cwnd (jiffies stand still, as in the
 * drills; past the HZ/32 gate it would compute the same count from the
 * same inputs), and cwnd_cnt + K still short of it.
 *
 * The slow start and the recovery are not run ACK by ACK: they are what
 * `until cwnd WMAX every K` and `drop 1` leave, which the drills check on
 * the kernel (drill/wmax/, t_71): BIC's EWMA at its fixed point for K
 * (every ACK of the slow start was one in Open acking K), one ssthresh()
 * at cwnd WMAX as the first loss of the flow, and the ACK that ends the
 * recovery: cwnd set to ssthresh with cwnd_cnt 0, then cong_avoid(K)
 * without pkts_acked (the state was Recovery when it acked).  ACK 0 is
 * that one; a round is then floor(cwnd / K) ACKs, cwnd as the round
 * starts (in flight equals cwnd in Open: write_xmit fills it).
 * tests/unit/test_drill_wmax.sh holds these ACKs against the rows of the
 * drills where both run.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

struct wmax_run {
	uint32_t rounds_09, rounds_1;	/* rounds until cwnd >= 0.9 WMAX, >= WMAX */
	uint64_t acks;			/* ACKs after ACK 0 until cwnd >= WMAX */
};

enum { WMAX_TABLE, WMAX_CHANGES, WMAX_ROUNDS };

static bool ewma_fixed(const struct model *m, uint32_t k)
{
	struct bic b = m->bic;

	if (!is_bic(m))
		return true;
	bic_acked(&b, k);
	return b.delayed_ack == m->bic.delayed_ack;
}

/* One ACK of K segments in Open, as m_ack() takes it. */
static void wmax_ack(struct model *m, uint32_t k)
{
	ca_pkts_acked(m, k);
	ca_cong_avoid(m, k);
}

/* ACKs that would only add K to cwnd_cnt, from here: 0 if not provably so. */
static uint64_t wmax_idle_acks(const struct model *m, uint32_t k)
{
	uint32_t w = m->cwnd;

	if (m->cwnd < m->ssthresh)
		return 0;
	if (is_bic(m)) {
		if (!ewma_fixed(m, k) || m->bic.last_cwnd != m->cwnd ||
		    (int32_t)(m->jiffies - m->bic.last_time) > HZ / 32)
			return 0;
		w = m->bic.cnt;
	}
	if (m->cwnd_cnt >= w)
		return 0;
	/* the ACK that reaches w is not idle */
	return (w - m->cwnd_cnt - 1) / k;
}

static int wmax_run(struct model *m, uint32_t wmax, uint32_t k, int mode, struct wmax_run *r)
{
	uint64_t ack = 0, left, skip;
	uint32_t i, round = 0, prev;
	bool settled = false;

	memset(r, 0, sizeof(*r));
	m->cwnd = INIT_CWND;
	m->ssthresh = INF_SSTHRESH;
	m->cwnd_cnt = 0;
	m->ca_state = CA_OPEN;
	m->is_cwnd_limited = true;
	ca_init(m);
	/* the slow start's ACKs, each acking K in Open, as many as reach wmax */
	for (i = 0; i < wmax / k && !ewma_fixed(m, k); i++)
		ca_pkts_acked(m, k);
	if (!ewma_fixed(m, k)) {
		unmodelled(m, "BIC's EWMA still moving when the slow start reached WMAX");
		return -1;
	}
	/*
	 * The loss: the ACK that shows it SACKs and acks nothing, in Open
	 * (pkts_acked(0) lowers the EWMA), then ssthresh() at wmax and
	 * Recovery; its end: cwnd = ssthresh.
	 */
	m->cwnd = wmax;
	ca_pkts_acked(m, 0);
	m->ssthresh = ca_ssthresh(m);
	m->cwnd_cnt = 0;
	m->cwnd = m->ssthresh;
	ca_cong_avoid(m, k);		/* ACK 0 */
	if (mode == WMAX_CHANGES)
		printf("0 %u\n", m->cwnd);
	while (m->cwnd < wmax) {
		if (m->cwnd < k) {
			unmodelled(m, "cwnd after the loss is below K: no round holds an ACK of K segments");
			return -1;
		}
		round++;
		for (left = m->cwnd / k; left && m->cwnd < wmax; ) {
			/*
			 * The EWMA back at its fixed point: BIC's count, computed
			 * with the lowered one, is recomputed once the HZ/32 gate
			 * opens, as it does many times a round on a path of these
			 * sizes; the drills make it certain with `wait gate`.
			 */
			if (!settled && ewma_fixed(m, k)) {
				m->jiffies += HZ / 32 + 2;
				settled = true;
			}
			skip = wmax_idle_acks(m, k);
			if (skip > left)
				skip = left;
			m->cwnd_cnt += skip * k;
			ack += skip;
			left -= skip;
			if (!left)
				break;
			prev = m->cwnd;
			wmax_ack(m, k);
			ack++;
			left--;
			if (mode == WMAX_CHANGES && m->cwnd != prev)
				printf("%llu %u\n", (unsigned long long)ack, m->cwnd);
			if (m->why)
				return -1;
		}
		if (mode == WMAX_ROUNDS)
			printf("%u %llu %u\n", round, (unsigned long long)ack, m->cwnd);
		if (!r->rounds_09 && (uint64_t)m->cwnd * 10 >= (uint64_t)wmax * 9)
			r->rounds_09 = round;
	}
	r->rounds_1 = round;
	r->acks = ack;
	return 0;
}

/*
 * A count from LO to HI in ARG, into *v: 0; -1 when ARG is not a decimal
 * number (a sign, a blank or a trailing byte included), 1 when it is one
 * outside LO..HI.  The callers say which in their own words.
 */
static int count_arg(const char *arg, unsigned long lo, unsigned long hi, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(arg, &end, 10);
	if (errno || !isdigit((unsigned char)arg[0]) || *end)
		return -1;
	return *v < lo || *v > hi;
}

int wmax_main(int argc, char **argv)
{
	static struct model m;
	int mode = WMAX_TABLE, opt, i, n, rc = 2;
	unsigned long k = 2, top, *wmax = NULL;
	struct wmax_run r;
	const struct algo *algo;

	optind = 2;
	while ((opt = getopt(argc, argv, "crk:")) != -1) {
		if (opt == 'c')
			mode = WMAX_CHANGES;
		else if (opt == 'r')
			mode = WMAX_ROUNDS;
		else if (opt == 'k') {
			if (count_arg(optarg, 1, 64, &k)) {
				fprintf(stderr, "model: -k '%s': K is 1 to 64 segments an ACK\n", optarg);
				return 2;
			}
		} else
			goto usage;
	}
	if (argc - optind < 2)
		goto usage;
	if (find_algo(argv[optind], &algo))
		return 2;
	/* Reno's arithmetic has no product of cwnd that could wrap. */
	top = algo->bic ? BIC_CWND_MAX : 1U << 30;
	n = argc - optind - 1;
	wmax = calloc(n, sizeof(*wmax));
	if (!wmax) {
		fprintf(stderr, "model: out of memory\n");
		return 1;
	}
	/* Every argument checked before the first line is printed. */
	for (i = 0; i < n; i++) {
		const char *arg = argv[optind + 1 + i];

		switch (count_arg(arg, BIC_LOW_WINDOW + 1, top, &wmax[i])) {
		case -1:
			fprintf(stderr, "model: WMAX '%s' is not a number of packets\n", arg);
			goto out;
		case 1:
			fprintf(stderr, "model: WMAX %s: from %d to %lu%s\n", arg,
				BIC_LOW_WINDOW + 1, top, algo->bic ?
				" (above it BIC's 32-bit products of cwnd wrap, the kernel's too)" : "");
			goto out;
		}
	}
	if (mode == WMAX_TABLE)
		printf("algo,every,wmax,ssthresh,rounds_to_0.9,rounds_to_wmax,acks\n");
	rc = 1;
	for (i = 0; i < n; i++) {
		memset(&m, 0, sizeof(m));
		m.algo = algo;
		m.jiffies = 1000000;
		m.reordering = 1;
		if (wmax_run(&m, wmax[i], k, mode, &r)) {
			fprintf(stderr, "model: -w %s %lu: %s\n", argv[optind], wmax[i], m.why);
			goto out;
		}
		if (mode == WMAX_TABLE)
			printf("%s,%lu,%lu,%u,%u,%u,%llu\n", argv[optind], k, wmax[i], m.ssthresh,
			       r.rounds_09, r.rounds_1, (unsigned long long)r.acks);
	}
	rc = fflush(stdout) ? 1 : 0;
out:
	free(wmax);
	return rc;
usage:
	fprintf(stderr, "usage: model -w [-c|-r] [-k K] ALGO WMAX...\n");
	return 2;
}
