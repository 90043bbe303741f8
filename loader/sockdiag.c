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

static int dump_family(int fd, int family, void (*fn)(const char *ca, void *ctx), void *ctx)
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
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	long buf[8192];		/* the kernel sends a dump in skbs of 32 KiB at most */
	struct inet_diag_msg *msg;
	struct nlmsghdr *h;
	struct rtattr *a;
	char ca[16];
	ssize_t n;
	int len, err;

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return fail(-errno, "cannot ask sock_diag for TCP sockets");
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(-errno, "cannot read TCP sockets from sock_diag");
		if (n == 0)
			return fail(0, "sock_diag's list of TCP sockets ended early");
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			/* A dump that failed part way ends with its error. */
			if (h->nlmsg_type == NLMSG_DONE) {
				err = h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) ?
				      *(int *)NLMSG_DATA(h) : 0;
				return err < 0 ? fail(err, "sock_diag could not list all TCP sockets") : 0;
			}
			if (h->nlmsg_type == NLMSG_ERROR)
				return fail(((struct nlmsgerr *)NLMSG_DATA(h))->error,
					    "sock_diag refused to list TCP sockets");
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				continue;
			msg = NLMSG_DATA(h);
			len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg));
			for (a = (struct rtattr *)(msg + 1); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
				if (a->rta_type != INET_DIAG_CONG)
					continue;
				snprintf(ca, sizeof(ca), "%.*s", (int)RTA_PAYLOAD(a),
					 (const char *)RTA_DATA(a));
				fn(ca, ctx);
			}
		}
	}
}

int sockdiag_each_ca(void (*fn)(const char *ca, void *ctx), void *ctx)
{
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return fail(-errno, "cannot open a sock_diag socket");
	err = dump_family(fd, AF_INET, fn, ctx);
	if (!err)
		err = dump_family(fd, AF_INET6, fn, ctx);
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
