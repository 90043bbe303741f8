// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side tests for bpf/bic_math.h.
 *
 * Every expectation is a constant worked out by hand in the comment next to
 * it, never recomputed with the formula under test, so a typo in the header
 * cannot cancel itself out here.
 *
 * Build: cc -Wall -Wextra -Werror -O2 -o test_bic_math test_bic_math.c
 */
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "../../bpf/bic_math.h"
#include "unit.h"

#define HZ	250	/* the guest kernel's; HZ / 32 = 7 jiffies */
#define T0	1000	/* arbitrary "now" for tests that don't care */

static void expect_eq(unsigned long long actual, unsigned long long expected,
		      const char *expr, const char *file, int line)
{
	unit_check(actual == expected, "%s:%d: %s is %llu, expected %llu",
		   file, line, expr, actual, expected);
}

#define EXPECT_EQ(actual, expected) \
	expect_eq((actual), (expected), #actual, __FILE__, __LINE__)

static struct bic bic_with(__u32 last_max_cwnd, __u32 delayed_ack)
{
	struct bic ca;

	bic_reset(&ca);
	ca.last_max_cwnd = last_max_cwnd;
	ca.delayed_ack = delayed_ack;
	return ca;
}

/* cnt after one update from fresh state; last_cwnd == 0 so the gate is open. */
static __u32 cnt_for(__u32 last_max_cwnd, __u32 cwnd, __u32 delayed_ack)
{
	struct bic ca = bic_with(last_max_cwnd, delayed_ack);

	bic_update(&ca, cwnd, T0, HZ);
	return ca.cnt;
}

static struct bic gated(__u32 last_cwnd, __u32 last_time)
{
	struct bic ca = bic_with(0, 32);

	ca.last_cwnd = last_cwnd;
	ca.last_time = last_time;
	ca.epoch_start = 900;
	ca.cnt = 12345;		/* sentinel: survives only if the update is skipped */
	return ca;
}

static void test_reset(void)
{
	struct bic ca = { 1, 2, 3, 4, 5, 6 };

	bic_reset(&ca);
	EXPECT_EQ(ca.cnt, 0);
	EXPECT_EQ(ca.last_max_cwnd, 0);
	EXPECT_EQ(ca.last_cwnd, 0);
	EXPECT_EQ(ca.last_time, 0);
	EXPECT_EQ(ca.epoch_start, 0);
	EXPECT_EQ(ca.delayed_ack, 32);	/* 2 << 4 */
	EXPECT_EQ(sizeof(struct bic), 24);	/* 6 * 4 bytes */
}

static void test_update_gate(void)
{
	struct bic ca;

	/* now - last_time = 1007 - 1000 = 7 <= 7: skipped. */
	ca = gated(100, 1000);
	bic_update(&ca, 100, 1007, HZ);
	EXPECT_EQ(ca.cnt, 12345);
	EXPECT_EQ(ca.last_time, 1000);

	/* 1008 - 1000 = 8 > 7: recomputed.  cwnd 100 >= 0 + 48 so linear
	 * 100 / 16 = 6, under the cap of 20, then (6 << 4) / 32 = 96 / 32 = 3.
	 */
	ca = gated(100, 1000);
	bic_update(&ca, 100, 1008, HZ);
	EXPECT_EQ(ca.cnt, 3);
	EXPECT_EQ(ca.last_time, 1008);
	EXPECT_EQ(ca.epoch_start, 900);	/* epoch already running: kept */

	/* Across the wrap: 3 - 0xfffffffc = 7 (mod 2^32) <= 7: skipped. */
	ca = gated(100, 0xfffffffc);
	bic_update(&ca, 100, 3, HZ);
	EXPECT_EQ(ca.cnt, 12345);
	EXPECT_EQ(ca.last_time, 0xfffffffc);

	/* 4 - 0xfffffffc = 8 > 7: recomputed, cnt 3 as above. */
	ca = gated(100, 0xfffffffc);
	bic_update(&ca, 100, 4, HZ);
	EXPECT_EQ(ca.cnt, 3);
	EXPECT_EQ(ca.last_time, 4);

	/* 990 - 1000 = -10 as s32 <= 7: skipped (unsigned would be 4294967286). */
	ca = gated(100, 1000);
	bic_update(&ca, 100, 990, HZ);
	EXPECT_EQ(ca.cnt, 12345);

	/* Same jiffy but cwnd moved 100 -> 101: 101 / 16 = 6, 96 / 32 = 3. */
	ca = gated(100, 1000);
	bic_update(&ca, 101, 1000, HZ);
	EXPECT_EQ(ca.cnt, 3);
	EXPECT_EQ(ca.last_cwnd, 101);

	/* HZ is an input: at HZ=1000 the window is 1000 / 32 = 31 jiffies. */
	ca = gated(100, 1000);
	bic_update(&ca, 100, 1031, 1000);
	EXPECT_EQ(ca.cnt, 12345);
	bic_update(&ca, 100, 1032, 1000);
	EXPECT_EQ(ca.cnt, 3);
}

static void test_update_low_window(void)
{
	struct bic ca;

	/* cwnd 14 <= 14: cnt = cwnd, no 4x delayed-ACK scaling (would be 3). */
	ca = bic_with(0, 64);
	bic_update(&ca, 14, T0, HZ);
	EXPECT_EQ(ca.cnt, 14);
	EXPECT_EQ(ca.epoch_start, T0);	/* was 0: epoch starts now */
	EXPECT_EQ(ca.last_cwnd, 14);
	EXPECT_EQ(ca.last_time, T0);

	/* Low window wins over binary search (14 * 20 / 4 = 70 otherwise). */
	EXPECT_EQ(cnt_for(100, 14, 16), 14);

	/* Running epoch is not restarted. */
	ca = bic_with(0, 32);
	ca.epoch_start = 500;
	bic_update(&ca, 14, T0, HZ);
	EXPECT_EQ(ca.epoch_start, 500);
}

/* delayed_ack 16 is one packet per ACK: the final scaling is the identity. */
static void test_update_binary_increase(void)
{
	/* dist = (200 - 100) / 4 = 25 > 16: linear, 100 / 16 = 6. */
	EXPECT_EQ(cnt_for(200, 100, 16), 6);
	/* dist = (1068 - 1000) / 4 = 17 > 16: 1000 / 16 = 62 (not 1000 / 17 = 58). */
	EXPECT_EQ(cnt_for(1068, 1000, 16), 62);
	/* dist = (1060 - 1000) / 4 = 15: 1000 / 15 = 66 (15 * 66 = 990). */
	EXPECT_EQ(cnt_for(1060, 1000, 16), 66);
	/* dist = (140 - 100) / 4 = 10: 100 / 10 = 10. */
	EXPECT_EQ(cnt_for(140, 100, 16), 10);
	/* dist = (108 - 100) / 4 = 2: 100 / 2 = 50. */
	EXPECT_EQ(cnt_for(108, 100, 16), 50);
	/* dist = (107 - 100) / 4 = 1: smooth, 100 * 20 / 4 = 2000 / 4 = 500. */
	EXPECT_EQ(cnt_for(107, 100, 16), 500);
	/* dist = (101 - 100) / 4 = 0: smooth too, 500. */
	EXPECT_EQ(cnt_for(101, 100, 16), 500);
}

static void test_update_max_probing(void)
{
	/* 100 < 100 + 4: smooth, 100 * 20 / 4 = 500. */
	EXPECT_EQ(cnt_for(100, 100, 16), 500);
	/* 103 < 104: 103 * 20 / 4 = 2060 / 4 = 515. */
	EXPECT_EQ(cnt_for(100, 103, 16), 515);
	/* 104 < 100 + 16 * 3 = 148: 104 * 3 / (104 - 100) = 312 / 4 = 78. */
	EXPECT_EQ(cnt_for(100, 104, 16), 78);
	/* 147 < 148: 147 * 3 / 47 = 441 / 47 = 9 (47 * 9 = 423). */
	EXPECT_EQ(cnt_for(100, 147, 16), 9);
	/* 200 >= 148: linear, 200 / 16 = 12 (middle branch would be 600 / 100 = 6). */
	EXPECT_EQ(cnt_for(100, 200, 16), 12);
}

static void test_update_initial_cap(void)
{
	/* No Wmax yet: 400 / 16 = 25 > 20, capped to 20. */
	EXPECT_EQ(cnt_for(0, 400, 16), 20);
	/* 336 / 16 = 21 -> 20. */
	EXPECT_EQ(cnt_for(0, 336, 16), 20);
	/* 320 / 16 = 20, not above the cap. */
	EXPECT_EQ(cnt_for(0, 320, 16), 20);
	/* 100 / 16 = 6, untouched. */
	EXPECT_EQ(cnt_for(0, 100, 16), 6);
	/* Wmax = 1 is known: 400 >= 1 + 48, 400 / 16 = 25 stays 25. */
	EXPECT_EQ(cnt_for(1, 400, 16), 25);
	/* Cap before scaling: 25 -> 20, (20 << 4) / 32 = 320 / 32 = 10.
	 * Scaling first would give 25 * 16 / 32 = 12.
	 */
	EXPECT_EQ(cnt_for(0, 400, 32), 10);
}

static void test_update_delayed_ack(void)
{
	/* Raw cnt 500 (100 at Wmax 100), then (500 << 4) = 8000 / delayed_ack. */
	EXPECT_EQ(cnt_for(100, 100, 16), 500);	/* 8000 / 16 = 500 */
	EXPECT_EQ(cnt_for(100, 100, 32), 250);	/* 8000 / 32 = 250 */
	EXPECT_EQ(cnt_for(100, 100, 48), 166);	/* 48 * 166 = 7968, 48 * 167 = 8016 */
	EXPECT_EQ(cnt_for(100, 100, 15), 533);	/* 15 * 533 = 7995 */
}

static void test_update_cnt_floor(void)
{
	/* dist 225 > 16: 100 / 16 = 6; (6 << 4) / 128 = 96 / 128 = 0 -> 1. */
	EXPECT_EQ(cnt_for(1000, 100, 128), 1);
	/* 15 < 0 + 48: 15 * 3 / 15 = 3; 48 / 64 = 0 -> 1. */
	EXPECT_EQ(cnt_for(0, 15, 64), 1);
}

static void test_recalc_ssthresh(void)
{
	struct bic ca;

	/* Fast convergence, 100 < 120:
	 * Wmax = 100 * 1843 / 2048 = 184300 / 2048 = 89 (2048 * 90 = 184320).
	 * ssthresh = 100 * 819 / 1024 = 81900 / 1024 = 79 (1024 * 80 = 81920).
	 */
	ca = bic_with(120, 32);
	ca.epoch_start = 900;
	ca.cnt = 7;
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 100), 79);
	EXPECT_EQ(ca.last_max_cwnd, 89);
	EXPECT_EQ(ca.epoch_start, 0);
	EXPECT_EQ(ca.cnt, 7);		/* untouched */
	EXPECT_EQ(ca.delayed_ack, 32);	/* untouched */

	/* 100 > 80: no fast convergence, Wmax = 100. */
	ca = bic_with(80, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 100), 79);
	EXPECT_EQ(ca.last_max_cwnd, 100);

	/* 100 == 100 is not below Wmax: Wmax = 100. */
	ca = bic_with(100, 32);
	bic_recalc_ssthresh(&ca, 100);
	EXPECT_EQ(ca.last_max_cwnd, 100);

	/* Large: 1000 * 1843 = 1843000 / 2048 = 899 (2048 * 900 = 1843200);
	 * 1000 * 819 = 819000 / 1024 = 799 (1024 * 800 = 819200).
	 */
	ca = bic_with(2000, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 1000), 799);
	EXPECT_EQ(ca.last_max_cwnd, 899);

	/* At low_window Reno halving: 14 >> 1 = 7. */
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 14), 7);
	EXPECT_EQ(ca.last_max_cwnd, 14);

	/* Just above: 15 * 819 = 12285 / 1024 = 11 (1024 * 12 = 12288). */
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 15), 11);

	/* Floor of 2: 4 >> 1 = 2, 3 >> 1 = 1 -> 2, 2 >> 1 = 1 -> 2, 1 >> 1 = 0 -> 2. */
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 4), 2);
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 3), 2);
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 2), 2);
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 1), 2);

	/* Fast convergence at a tiny window: 3 * 1843 = 5529 / 2048 = 2. */
	ca = bic_with(10, 32);
	EXPECT_EQ(bic_recalc_ssthresh(&ca, 3), 2);
	EXPECT_EQ(ca.last_max_cwnd, 2);
}

static void test_acked(void)
{
	struct bic ca;
	int i;

	ca = bic_with(0, 32);
	bic_acked(&ca, 2);
	EXPECT_EQ(ca.delayed_ack, 32);	/* 32 + 2 - (32 >> 4 = 2) */

	ca = bic_with(0, 32);
	bic_acked(&ca, 1);
	EXPECT_EQ(ca.delayed_ack, 31);	/* 32 + 1 - 2 */

	ca = bic_with(0, 32);
	bic_acked(&ca, 4);
	EXPECT_EQ(ca.delayed_ack, 34);	/* 32 + 4 - 2 */

	ca = bic_with(0, 32);
	bic_acked(&ca, 64);
	EXPECT_EQ(ca.delayed_ack, 94);	/* stretch ACK: 32 + 64 - 2 */

	/* SACK-only ACKs (0 packets) decay it until >> 4 reaches 0. */
	ca = bic_with(0, 16);
	bic_acked(&ca, 0);
	EXPECT_EQ(ca.delayed_ack, 15);	/* 16 + 0 - 1 */
	bic_acked(&ca, 0);
	EXPECT_EQ(ca.delayed_ack, 15);	/* 15 + 0 - 0 */

	/* One packet per ACK from 40: -1 per step while >= 32 (40 >> 4 = 2). */
	ca = bic_with(0, 40);
	for (i = 0; i < 8; i++)
		bic_acked(&ca, 1);
	EXPECT_EQ(ca.delayed_ack, 32);	/* 40 - 8 */
	bic_acked(&ca, 1);
	EXPECT_EQ(ca.delayed_ack, 31);	/* 32 + 1 - 2 */
	bic_acked(&ca, 1);
	EXPECT_EQ(ca.delayed_ack, 31);	/* 31 + 1 - 1: fixed point */
}

static void test_undo(void)
{
	struct bic ca = bic_with(89, 32);

	EXPECT_EQ(bic_undo_cwnd(&ca, 79), 89);		/* max(79, 89) */
	EXPECT_EQ(bic_undo_cwnd(&ca, 120), 120);	/* max(120, 89) */
	ca = bic_with(0, 32);
	EXPECT_EQ(bic_undo_cwnd(&ca, 5), 5);		/* max(5, 0) */

	EXPECT_EQ(bic_undo_cwnd_2611(79, 79), 158);	/* max(79, 79 << 1 = 158) */
	EXPECT_EQ(bic_undo_cwnd_2611(200, 79), 200);	/* max(200, 158) */
	EXPECT_EQ(bic_undo_cwnd_2611(158, 79), 158);	/* max(158, 158) */
}

/*
 * The complete undo.  BIC mid-search (Wmax 120, an epoch at 900, cnt 6
 * cached for cwnd 100 at 990) loses below Wmax: fast convergence makes Wmax
 * 100 * 1843 / 2048 = 89 and the epoch ends.  The undo puts all of it
 * back and cwnd to the 100 it had; delayed_ack keeps what it measured
 * since, for no Loss reset replaced it.
 */
static void test_undo_restore_fast_retransmit(void)
{
	struct bic ca = bic_with(120, 20), before;
	struct bic_undo u = { 0 };

	ca.epoch_start = 900;
	ca.cnt = 6;
	ca.last_cwnd = 100;
	ca.last_time = 990;
	before = ca;

	EXPECT_EQ(bic_recalc_ssthresh_saved(&ca, &u, 100), 79);	/* as the seed's */
	EXPECT_EQ(ca.last_max_cwnd, 89);
	EXPECT_EQ(ca.epoch_start, 0);
	EXPECT_EQ(u.valid, 1);
	EXPECT_EQ(u.prior_cwnd, 100);
	bic_acked(&ca, 4);				/* 20 + 4 - 1 = 23 */
	EXPECT_EQ(ca.delayed_ack, 23);

	EXPECT_EQ(bic_undo_restore(&ca, &u, 79), 100);	/* max(79, 100) */
	EXPECT_EQ(ca.last_max_cwnd, 120);
	EXPECT_EQ(ca.epoch_start, 900);
	EXPECT_EQ(ca.cnt, 6);
	EXPECT_EQ(ca.last_cwnd, 0);			/* the cache emptied */
	EXPECT_EQ(ca.delayed_ack, 23);			/* kept, not 20 */
	EXPECT_EQ(u.valid, 0);
	before.delayed_ack = 23;
	before.last_cwnd = 0;
	EXPECT_EQ(memcmp(&ca, &before, sizeof(ca)), 0);

	/*
	 * The next update recomputes, though the gate (HZ/32 after 990) is
	 * shut: 100 / ((120 - 100) / 4) = 20, (20 << 4) / 23 = 13, not the
	 * stale 6 of the cache.
	 */
	bic_update(&ca, 100, 991, HZ);
	EXPECT_EQ(ca.cnt, 13);
	EXPECT_EQ(ca.last_time, 991);
	EXPECT_EQ(ca.epoch_start, 900);			/* the epoch goes on */

	/* Used up: a second undo restores nothing and keeps cwnd. */
	ca.last_max_cwnd = 7;
	EXPECT_EQ(bic_undo_restore(&ca, &u, 50), 50);
	EXPECT_EQ(ca.last_max_cwnd, 7);

	/* A cwnd that grew past the old one since is kept. */
	ca = before;
	bic_recalc_ssthresh_saved(&ca, &u, 100);
	EXPECT_EQ(bic_undo_restore(&ca, &u, 130), 130);	/* max(130, 100) */
	EXPECT_EQ(ca.last_max_cwnd, 120);
}

/*
 * A spurious RTO: ssthresh() saves, the Loss reset clears BIC (Wmax 0, the
 * default delayed_ack 32), and the undo brings back everything, the
 * measured delayed_ack 20 too, and cwnd 100 where the seed's rule gives
 * max(1, Wmax 0) = 1.
 */
static void test_undo_restore_rto(void)
{
	struct bic ca = bic_with(120, 20), before;
	struct bic_undo u = { 0 };

	ca.epoch_start = 900;
	before = ca;
	bic_recalc_ssthresh_saved(&ca, &u, 100);
	bic_reset_saved(&ca, &u);
	EXPECT_EQ(ca.last_max_cwnd, 0);
	EXPECT_EQ(ca.delayed_ack, 32);
	EXPECT_EQ(bic_undo_cwnd(&ca, 1), 1);		/* the seed's rule here */
	EXPECT_EQ(bic_undo_restore(&ca, &u, 1), 100);
	before.last_cwnd = 0;
	EXPECT_EQ(memcmp(&ca, &before, sizeof(ca)), 0);	/* delayed_ack 20 too */
}

/*
 * Each ssthresh() takes a new snapshot, as the kernel sets prior_cwnd at
 * each: the undo after two reductions restores the state between them.
 */
static void test_undo_restore_second_reduction(void)
{
	struct bic ca = bic_with(120, 32), between;
	struct bic_undo u = { 0 };

	bic_recalc_ssthresh_saved(&ca, &u, 100);	/* Wmax 89 */
	between = ca;
	EXPECT_EQ(bic_recalc_ssthresh_saved(&ca, &u, 79), 63);	/* 79 * 819 / 1024 */
	EXPECT_EQ(ca.last_max_cwnd, 71);		/* 79 < 89: 79 * 1843 / 2048 */
	EXPECT_EQ(bic_undo_restore(&ca, &u, 63), 79);
	between.last_cwnd = 0;
	EXPECT_EQ(memcmp(&ca, &between, sizeof(ca)), 0);
}

/*
 * Spurious loss at cwnd 100, undone with both undo rules.  The fixed rule
 * resumes at Wmax, where BIC crawls (cnt 250); the 2.6.11 rule restores
 * 2 * ssthresh = 158, beyond Wmax + 48, where BIC probes linearly (cnt 4).
 */
static void test_scenario_spurious_loss(void)
{
	struct bic ca, fixed_ca, legacy_ca;
	__u32 ssthresh, fixed, legacy;

	bic_reset(&ca);
	/* No Wmax yet: 100 / 16 = 6, (6 << 4) / 32 = 3. */
	bic_update(&ca, 100, 1000, HZ);
	EXPECT_EQ(ca.cnt, 3);
	EXPECT_EQ(ca.epoch_start, 1000);

	/* Wmax 0 < 100, so no fast convergence: Wmax = 100, ssthresh 79. */
	ssthresh = bic_recalc_ssthresh(&ca, 100);
	EXPECT_EQ(ssthresh, 79);
	EXPECT_EQ(ca.last_max_cwnd, 100);
	EXPECT_EQ(ca.epoch_start, 0);

	/* Recovery brought cwnd down to ssthresh; the loss proves spurious. */
	fixed = bic_undo_cwnd(&ca, 79);			/* max(79, 100) */
	legacy = bic_undo_cwnd_2611(79, ssthresh);	/* max(79, 158) */
	EXPECT_EQ(fixed, 100);
	EXPECT_EQ(legacy, 158);

	/* 20 jiffies later (past the HZ / 32 = 7 gate since last_cwnd == 100). */
	fixed_ca = ca;
	bic_update(&fixed_ca, fixed, 1020, HZ);
	/* 100 < 100 + 4: 100 * 20 / 4 = 500, (500 << 4) / 32 = 250. */
	EXPECT_EQ(fixed_ca.cnt, 250);
	EXPECT_EQ(fixed_ca.epoch_start, 1020);

	legacy_ca = ca;
	bic_update(&legacy_ca, legacy, 1020, HZ);
	/* 158 >= 100 + 48: 158 / 16 = 9, (9 << 4) / 32 = 144 / 32 = 4. */
	EXPECT_EQ(legacy_ca.cnt, 4);
	EXPECT_EQ(legacy_ca.last_max_cwnd, 100);	/* 58 packets below cwnd */
}

static void test_epoch_ms(void)
{
	struct bic ca = bic_with(0, 2 << ACK_RATIO_SHIFT);

	EXPECT_EQ(bic_epoch_ms(&ca, T0, HZ), -1);	/* reset: no epoch */
	bic_update(&ca, 20, T0, HZ);			/* starts one at T0 */
	EXPECT_EQ(bic_epoch_ms(&ca, T0, HZ), 0);
	EXPECT_EQ(bic_epoch_ms(&ca, T0 + 1, HZ), 4);	/* 1 jiffy = 4 ms */
	EXPECT_EQ(bic_epoch_ms(&ca, T0 + 250, HZ), 1000);
	bic_recalc_ssthresh(&ca, 20);			/* a loss ends it */
	EXPECT_EQ(bic_epoch_ms(&ca, T0 + 251, HZ), -1);
	/* started 256 jiffies before the wrap, now 16 after: 272 = 1088 ms */
	ca.epoch_start = 0xffffff00;
	EXPECT_EQ(bic_epoch_ms(&ca, 16, HZ), 1088);
}

int main(void)
{
	test_reset();
	test_update_gate();
	test_update_low_window();
	test_update_binary_increase();
	test_update_max_probing();
	test_update_initial_cap();
	test_update_delayed_ack();
	test_update_cnt_floor();
	test_recalc_ssthresh();
	test_acked();
	test_undo();
	test_undo_restore_fast_retransmit();
	test_undo_restore_rto();
	test_undo_restore_second_reduction();
	test_scenario_spurious_loss();
	test_epoch_ms();

	return unit_done();
}
