/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ackdrill: a scripted TCP peer for congestion control, ACK by ACK.
 *
 * One engine (engine.c) plays the receiver: it takes the data segments a
 * sender transmits, delivers, drops or holds them as a script says, and
 * answers with cumulative ACKs, SACK and D-SACK blocks.  After every ACK it
 * writes one CSV row of the sender's state.  The sender behind it is either
 * the guest kernel's TCP over a tun device (ackdrill.c) or a model of Linux
 * TCP running bic_math.h on the host (model.c); for the same script both
 * must write the same rows.
 */
#ifndef __DRILL_H
#define __DRILL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define DRILL_MAX_OPS	512
#define DRILL_MAX_SEGS	(1 << 18)	/* segments one run may send */
#define APP_LIMIT_MAX	1024	/* largest `app N` */

enum op_kind {
	OP_DELIVER,	/* deliver n segments, an ACK after every k */
	OP_ROUNDS,	/* n times: deliver what is queued at the round's start */
	OP_UNTIL,	/* rounds until cwnd >= n (checked after each ACK) */
	OP_DROP,	/* the next n (0: all) queued segments are lost */
	OP_HOLD,	/* the next n (0: all) queued segments are held back */
	OP_DROP_RETX,	/* the first queued retransmission is lost */
	OP_RELEASE,	/* deliver the first n held segments (0: all), one ACK each */
	OP_WAIT_RTO,	/* wait for the sender's retransmission timer */
	OP_WAIT_GATE,	/* sleep past BIC's HZ/32 recompute gate */
	OP_APP,		/* application keeps at most n segments unacked (0: no limit) */
	OP_MARK,	/* the next n queued segments arrive CE-marked */
};

struct op {
	enum op_kind kind;
	uint32_t n;
	uint32_t k;	/* segments per ACK */
	int line;
};

struct script {
	const char *name;
	uint32_t mss;		/* payload bytes per segment */
	bool sack, ts;
	bool ecn;		/* ECN negotiated (RFC 3168): CE marks, ECE, CWR */
	uint32_t wscale;
	uint32_t app;		/* initial application limit, 0 = none */
	int nops;
	struct op ops[DRILL_MAX_OPS];
};

/* A data segment as the receiver sees it: segment numbers from 0. */
struct seg {
	uint32_t idx;
	uint32_t tsval;
	bool ect;		/* ECN-capable transport (IP), may be CE-marked */
	bool cwr;		/* TCP CWR: the sender has reduced its window */
};

struct sack_block {
	uint32_t start, end;	/* segments [start, end) */
};

struct ack {
	uint32_t ack;		/* next segment expected */
	int nsacks;
	bool dsack;		/* sacks[0] reports a duplicate */
	struct sack_block sacks[4];
	uint32_t tsecr;
	bool ece;		/* TCP ECE: CE seen, no CWR since */
};

/* What TCP_INFO says, the fields the rows carry. */
struct tcpstat {
	uint32_t cwnd, ssthresh, ca_state, unacked, sacked, lost, retrans;
	uint32_t total_retrans, retransmits;
};

/* The sender under test. */
struct sender {
	/* Hand one ACK to the sender; it reacts (and transmits) before this returns. */
	int (*ack)(struct sender *s, const struct ack *a);
	/* Next segment the sender transmitted, 1; none pending, 0; error, -1. */
	int (*next_seg)(struct sender *s, struct seg *out);
	/* Wait until the sender's retransmission timer fires and it transmits. */
	int (*wait_rto)(struct sender *s);
	/* Let more than HZ/32 pass before the next ACK. */
	int (*wait_gate)(struct sender *s);
	/* The application writes until it has written `segs` segments in all. */
	int (*app_write)(struct sender *s, uint32_t segs);
	int (*info)(struct sender *s, struct tcpstat *st);
	/*
	 * The guest's clocks, for the HZ/32 gate guard (engine.c): monotonic
	 * microseconds and times(2) ticks, which count jiffies.  NULL for a
	 * sender whose jiffies stand still between waits (the model).
	 */
	void (*now)(struct sender *s, uint64_t *us, uint64_t *ticks);
	/*
	 * How many times the kernel has undone a timeout (a Loss state) so
	 * far, in its own count, for the gate guard of an algorithm that
	 * restores; NULL where the guard does not run (the model).
	 */
	int (*loss_undos)(struct sender *s, uint64_t *n);
	bool has_gate;	/* the algorithm is a BIC: guard its HZ/32 gate */
	bool restores;	/* its undo brings back the EWMA a Loss reset replaced */
};

/* drill_run's answer when the guest's clock may have opened the gate. */
#define DRILL_RETRY	-2

/*
 * Both tools take [-o CSV] SCRIPT ALGO, and a tool that passes ipv6 takes -6
 * too; 0, or -1 after the usage line.
 */
int drill_args(int argc, char **argv, const char *tool, bool *ipv6, const char **out,
	       const char **script, const char **algo);
int script_load(struct script *sc, const char *path);
int drill_run(const struct script *sc, struct sender *snd, FILE *csv);

#endif /* __DRILL_H */
