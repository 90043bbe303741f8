/* SPDX-License-Identifier: GPL-2.0 */
/* A netlink dump read to its end: sock_diag's sockets, rtnetlink's routes. */
#ifndef __CCCTL_NLDUMP_H
#define __CCCTL_NLDUMP_H

#include <stddef.h>
#include <linux/netlink.h>

struct nl_dump {
	const char *from;	/* who answers, for messages: "sock_diag" */
	const char *what;	/* what it lists: "TCP sockets" */
	unsigned short type;	/* the messages of the dump that fn is given */
	/* called for each of them: non-zero stops the dump, and is returned */
	int (*fn)(struct nlmsghdr *h, void *ctx);
	void *ctx;
	/*
	 * called before a dump the kernel marked interrupted is read again:
	 * non-zero stops, and is returned; NULL: fn keeps nothing of what it
	 * was given, so the dump is simply read again
	 */
	int (*restart)(void *ctx);
};

/*
 * Send the dump request req (len bytes, NLM_F_DUMP set) on the netlink
 * socket fd and give fn every message of type d->type until the dump is
 * done.  A family the kernel does not have (EAFNOSUPPORT) is an empty
 * dump.  A dump the kernel marks NLM_F_DUMP_INTR (what it lists changed
 * while it listed, as a route table does) is asked for and read again,
 * after d->restart, up to 8 times.  Returns 0, fn's or restart's non-zero
 * answer, or a negative error (reported, naming d->from and d->what).
 */
int nl_dump(int fd, const void *req, size_t len, const struct nl_dump *d);

#endif /* __CCCTL_NLDUMP_H */
