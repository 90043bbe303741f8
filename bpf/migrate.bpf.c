// SPDX-License-Identifier: GPL-2.0
/*
 * TCP socket iterators for ccctl.
 *
 * migrate_ca moves every socket whose congestion control is from_ca over to
 * to_ca.  A TCP iterator runs with each socket locked, which is what makes
 * bpf_setsockopt() on someone else's connection safe; nothing else short of
 * the owning process can switch a running connection.
 *
 * dump_ca writes one TCP_CA_NAME_MAX record per socket with the name of its
 * algorithm, so that ccctl can count users the way ss -ti sees them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* vmlinux.h carries no macros. */
#define SOL_TCP		6
#define TCP_CONGESTION	13
#define TCP_CA_NAME_MAX	16

char _license[] SEC("license") = "GPL";

/* bpf_strncmp() only takes a constant string, i.e. one in frozen .rodata. */
const volatile char from_ca[TCP_CA_NAME_MAX];
const volatile char to_ca[TCP_CA_NAME_MAX];

/* One iterator reads at a time, so plain counters do. */
__u64 moved;
__u64 failed;
int first_err;

SEC("iter/tcp")
int migrate_ca(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	char cur[TCP_CA_NAME_MAX] = {};
	struct tcp_sock *tp;
	int err;

	/* The last call of an iteration has no socket. */
	if (!skc)
		return 0;
	/* Request and TIME_WAIT sockets have no congestion control to switch. */
	tp = bpf_skc_to_tcp_sock(skc);
	if (!tp)
		return 0;

	if (bpf_getsockopt(tp, SOL_TCP, TCP_CONGESTION, cur, sizeof(cur)))
		return 0;
	if (bpf_strncmp(cur, sizeof(cur), (const char *)from_ca))
		return 0;

	/*
	 * Listeners are moved too: their children start with the listener's
	 * algorithm, and a listener left behind would keep from_ca in use.
	 */
	err = bpf_setsockopt(tp, SOL_TCP, TCP_CONGESTION, (void *)to_ca, sizeof(to_ca));
	if (!err)
		moved++;
	else if (!failed++)
		first_err = err;
	return 0;
}

SEC("iter/tcp")
int dump_ca(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	char cur[TCP_CA_NAME_MAX] = {};
	struct tcp_sock *tp;

	if (!skc)
		return 0;
	tp = bpf_skc_to_tcp_sock(skc);
	if (!tp)
		return 0;

	if (bpf_getsockopt(tp, SOL_TCP, TCP_CONGESTION, cur, sizeof(cur)))
		return 0;
	bpf_seq_write(ctx->meta->seq, cur, sizeof(cur));
	return 0;
}
