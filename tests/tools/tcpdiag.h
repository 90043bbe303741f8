/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tools' view of a namespace's TCP sockets, as ss has it (the
 * tests' ccobserve, the evaluation's linkmon): one sock_diag dump of the
 * states ss shows by default, each socket's requested attribute handed to
 * a callback.
 */
#ifndef __TCPDIAG_H
#define __TCPDIAG_H

#include <errno.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>

/* all but SYN_RECV (3), TIME_WAIT (6), CLOSE (7) and LISTEN (10) */
#define SS_STATES	((1U << 1) | (1U << 2) | (1U << 4) | (1U << 5) | (1U << 8) | \
			 (1U << 9) | (1U << 11))

typedef void (*tcp_diag_fn)(const struct inet_diag_msg *msg, const struct rtattr *a, void *ctx);

/*
 * tcp_diag: over FD (a NETLINK_SOCK_DIAG socket), dump FAMILY's TCP
 * sockets with attribute EXT (INET_DIAG_INFO, INET_DIAG_CONG, ...) and
 * call fn for each socket's EXT attribute.  False if the dump failed.
 */
static __attribute__((unused))
bool tcp_diag(int fd, int family, int ext, tcp_diag_fn fn, void *ctx)
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
			.idiag_ext = 1 << (ext - 1),
			.idiag_states = SS_STATES,
		},
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	long buf[8192];
	struct inet_diag_msg *msg;
	struct nlmsghdr *h;
	struct rtattr *a;
	ssize_t n;
	int len;

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return false;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return h->nlmsg_len < NLMSG_LENGTH(sizeof(int)) ||
				       *(int *)NLMSG_DATA(h) >= 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return false;
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				continue;
			msg = NLMSG_DATA(h);
			len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg));
			for (a = (struct rtattr *)(msg + 1); RTA_OK(a, len); a = RTA_NEXT(a, len))
				if (a->rta_type == ext)
					fn(msg, a, ctx);
		}
	}
}

#endif /* __TCPDIAG_H */
