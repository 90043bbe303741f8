// SPDX-License-Identifier: GPL-2.0
/*
 * Counting TCP sockets per congestion control through NETLINK_SOCK_DIAG,
 * the interface ss reads: unlike a BPF TCP iterator it loads nothing, and it
 * does not resume its walk through tcp_seek_last_pos(), which in 6.12 and
 * 6.1 can make a TCP iterator skip the sockets of one bucket of the
 * established hash table (see migrate.c), so it sees every
 * socket.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include "common.h"
#include "nldump.h"
#include "sockdiag.h"

/*
 * The states of the sockets the TCP tables hold, TCP_ESTABLISHED (1) to
 * TCP_CLOSING (11), less TIME_WAIT (6), whose sockets have no congestion
 * control; asking for SYN_RECV brings the request sockets (no algorithm
 * either, so they carry no INET_DIAG_CONG) along with full SYN_RECV ones.
 * Not TCP_BOUND_INACTIVE (6.8+: bound, unconnected sockets, which are in
 * neither table).
 */
#define DIAG_STATES	(0xffeU & ~(1U << 6))

struct ca_walk {
	void (*fn)(const char *ca, void *ctx);
	void *ctx;
};

/* One socket of the dump: its congestion control, if it has one, to fn. */
static int visit_socket(struct nlmsghdr *h, void *ctx)
{
	struct inet_diag_msg *msg = NLMSG_DATA(h);
	int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg));
	struct ca_walk *w = ctx;
	struct rtattr *a;
	char ca[16];

	for (a = (struct rtattr *)(msg + 1); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type != INET_DIAG_CONG)
			continue;
		snprintf(ca, sizeof(ca), "%.*s", (int)RTA_PAYLOAD(a), (const char *)RTA_DATA(a));
		w->fn(ca, w->ctx);
	}
	return 0;
}

/*
 * The callers count (per namespace, adding up): what an interrupted dump
 * gave them cannot be taken back here, so such a dump is an error.
 */
static int no_restart(void *ctx)
{
	(void)ctx;
	return fail(-EAGAIN, "sock_diag's list of TCP sockets changed while it was read");
}

static int dump_family(int fd, int family, struct ca_walk *w)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.r = {
			.sdiag_family = family,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_ext = 1 << (INET_DIAG_CONG - 1),
			.idiag_states = DIAG_STATES,
		},
	};
	struct nl_dump d = {
		.from = "sock_diag", .what = "TCP sockets", .type = SOCK_DIAG_BY_FAMILY,
		.fn = visit_socket, .ctx = w, .restart = no_restart,
	};

	return nl_dump(fd, &req, sizeof(req), &d);
}

int sockdiag_each_ca(void (*fn)(const char *ca, void *ctx), void *ctx)
{
	struct ca_walk w = { .fn = fn, .ctx = ctx };
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return fail(-errno, "cannot open a sock_diag socket");
	err = dump_family(fd, AF_INET, &w);
	if (!err)
		err = dump_family(fd, AF_INET6, &w);
	close(fd);
	return err;
}

int temp_listener(const char *ca)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd, one = 1, err = 0;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(-errno, "cannot open a TCP socket");
	/* IP_FREEBIND: the namespace's lo may be down, without 127.0.0.1. */
	if (setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &one, sizeof(one)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ca, strlen(ca)) ||
	    bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 1))
		err = fail(-errno, "cannot open a listening socket on 127.0.0.1");
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}
