// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP socket iterator of ccctl migrate.
 *
 * migrate_ca moves every socket whose congestion control is from_ca over to
 * to_ca.  A TCP iterator runs with each socket locked, which is what makes
 * bpf_setsockopt() on someone else's connection safe; nothing else short of
 * the owning process can switch a running connection.  It counts in moved
 * the sockets it switched, in failed those bpf_setsockopt() refused, and
 * keeps the first refusal's error in first_err.  Counting users is not its
 * job: ccctl counts them through sock_diag, as ss -ti does.
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

/*
 * The full socket behind one iterator step and, in cur, the name of its
 * algorithm; NULL for the last call of an iteration (no socket) and for
 * request and TIME_WAIT sockets, which have no congestion control.
 */
static __always_inline struct tcp_sock *iter_tcp_ca(struct bpf_iter__tcp *ctx,
						     char cur[TCP_CA_NAME_MAX])
{
	struct sock_common *skc = ctx->sk_common;
	struct tcp_sock *tp;

	if (!skc)
		return NULL;
	tp = bpf_skc_to_tcp_sock(skc);
	if (!tp)
		return NULL;
	if (bpf_getsockopt(tp, SOL_TCP, TCP_CONGESTION, cur, TCP_CA_NAME_MAX))
		return NULL;
	return tp;
}

SEC("iter/tcp")
int migrate_ca(struct bpf_iter__tcp *ctx)
{
	char cur[TCP_CA_NAME_MAX] = {};
	struct tcp_sock *tp;
	int err;

	tp = iter_tcp_ca(ctx, cur);
	if (!tp || bpf_strncmp(cur, sizeof(cur), (const char *)from_ca))
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
