// SPDX-License-Identifier: GPL-2.0
/*
 * ackcost: the guest time each call of tcp_ack() takes on the connections
 * to one TCP port, as a histogram in ns (make bench).  tcp_ack() is where
 * an ACK meets the congestion control (pkts_acked from the retransmit
 * queue's cleaning, cong_avoid from tcp_cong_control), so under QEMU's
 * -icount, where guest ns count emulated instructions, the difference
 * between two algorithms' medians is what their per-ACK work costs, without
 * the rest of the path's run-to-run noise.  A connection's tcp_ack() calls
 * do not nest (the socket is locked), so one start time per port will do.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_core_read.h>

#define ACKCOST_SLOTS	8192	/* 8 ns each; the last holds the rest */
#define ACKCOST_SEGS	64	/* segments acked by one call; the last, more */

char _license[] SEC("license") = "GPL";

const volatile __u16 port;	/* remote port, host order */

__u64 start_ns;
__u32 start_packets;
__u64 calls;
__u64 sum_ns;
__u32 hist[ACKCOST_SEGS * ACKCOST_SLOTS];	/* [segments acked][8 ns slot] */

static __always_inline bool watched(const struct sock *sk)
{
	return sk->__sk_common.skc_dport == bpf_htons(port);
}

SEC("fentry/tcp_ack")
int BPF_PROG(ackcost_enter, struct sock *sk)
{
	if (!watched(sk))
		return 0;
	start_packets = BPF_CORE_READ((struct tcp_sock *)sk, packets_out);
	start_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit/tcp_ack")
int BPF_PROG(ackcost_exit, struct sock *sk)
{
	__u32 segs;
	__u64 d;

	if (!watched(sk) || !start_ns)
		return 0;
	d = (bpf_ktime_get_ns() - start_ns) / 8;
	start_ns = 0;
	segs = start_packets - BPF_CORE_READ((struct tcp_sock *)sk, packets_out);
	calls++;
	sum_ns += d * 8;
	if (d >= ACKCOST_SLOTS)
		d = ACKCOST_SLOTS - 1;
	if (segs >= ACKCOST_SEGS)
		segs = ACKCOST_SEGS - 1;
	/* Both are in range; the mask says so to the verifier. */
	hist[(segs * ACKCOST_SLOTS + d) & (ACKCOST_SEGS * ACKCOST_SLOTS - 1)]++;
	return 0;
}
