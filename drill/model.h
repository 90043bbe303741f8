/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drill model's sender, which its two programs share: model.c, the
 * ACK model (model SCRIPT ALGO: a drill's rows, ACK by ACK), and wmax.c
 * (model -w: one loss at Wmax, round by round), which runs the ACK
 * model's congestion control and nothing else of it.  Both are the one
 * binary, build/drill/model.
 */
#ifndef __MODEL_H
#define __MODEL_H

#include <linux/types.h>

#include "algos.h"
#include "bic_math.h"
#include "drill.h"

#define HZ		250
#define INF_SSTHRESH	0x7fffffffu
#define INIT_CWND	10

enum { CA_OPEN, CA_DISORDER, CA_CWR, CA_RECOVERY, CA_LOSS };

struct model {
	struct sender ops;
	const struct script *sc;
	const struct algo *algo;	/* its row of bpf/algos.h */
	const char *why;		/* set when the model cannot go on */
	uint32_t step;			/* rows written, for messages */

	uint8_t sk[DRILL_MAX_SEGS];	/* per segment: the sacked bits */
	uint64_t xmit[DRILL_MAX_SEGS];	/* per segment: when last sent */
	uint32_t tsval[DRILL_MAX_SEGS];	/* per segment: its TSval when last sent */
	uint32_t tsecr;			/* echoed by the ACK being processed */
	uint64_t clock;			/* transmissions so far */
	uint32_t out[DRILL_MAX_SEGS], nout, outpos;	/* transmitted, not yet read */
	uint8_t outecn[DRILL_MAX_SEGS];	/* ... and their ECN bits, O_* */
	bool queue_cwr;			/* TCP_ECN_QUEUE_CWR: CWR on the next new segment */

	uint32_t una, nxt, written;	/* segment numbers */
	uint32_t cwnd, ssthresh, cwnd_cnt, ca_state;
	uint32_t packets_out, sacked_out, lost_out, retrans_out;
	uint32_t total_retrans, retransmits, lost_total, delivered;
	uint32_t prior_cwnd, prior_ssthresh, high_seq, undo_marker;
	int undo_retrans;
	bool undo_set;			/* undo_marker != 0 */
	uint32_t retrans_stamp;		/* TSval of the first retransmission, 0 none */
	uint32_t prr_delivered, prr_out;
	bool is_cwnd_limited;
	uint32_t max_packets_out, cwnd_usage_seq;
	bool frto;
	/* RACK: the most recently sent segment known delivered */
	uint64_t rack_xmit;
	uint32_t rack_end;
	bool rack_advanced;

	uint32_t reordering;		/* tp->reordering: the sysctl's 1 at first */
	bool reord_seen;
	uint32_t jiffies;
	uint32_t acks;			/* ACKs taken so far */
	struct bic bic;
	struct bic_undo undo;		/* bpf_bic_restore's snapshot */
	bool reduced;			/* ssthresh() since BIC last computed cnt */
};

/* model.c: the model cannot go on (m->why: the first reason given). */
void unmodelled(struct model *m, const char *why);

/* model.c: the congestion control, called where the kernel calls it */
bool is_bic(const struct model *m);
void ca_init(struct model *m);
uint32_t ca_ssthresh(struct model *m);
void ca_pkts_acked(struct model *m, uint32_t pkts);
void ca_cong_avoid(struct model *m, uint32_t acked);

/* The table's row of algorithm name into *algo: 0; -1, with the message, if the model has none. */
int find_algo(const char *name, const struct algo **algo);

/* wmax.c: model -w ... (argv[1] is -w) */
int wmax_main(int argc, char **argv);

#endif /* __MODEL_H */
