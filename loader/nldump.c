// SPDX-License-Identifier: GPL-2.0
/* A netlink dump read to its end (nldump.h). */
#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include "common.h"
#include "nldump.h"

/* Reads of a dump that changes under each before nl_dump() gives up. */
#define NL_DUMP_TRIES	8

/*
 * The answer to one request, to its NLMSG_DONE: fn for each message of
 * d->type; *intr when the kernel marked any message NLM_F_DUMP_INTR.
 */
static int read_dump(int fd, const struct nl_dump *d, bool *intr)
{
	long buf[8192];		/* the kernel sends a dump in skbs of 32 KiB at most */
	struct nlmsghdr *h;
	ssize_t n;
	int err;

	*intr = false;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(-errno, "cannot read %s from %s", d->what, d->from);
		if (n == 0)
			return fail(0, "%s's list of %s ended early", d->from, d->what);
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				*intr = true;
			/* A dump that failed part way ends with its error. */
			if (h->nlmsg_type == NLMSG_DONE) {
				err = h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) ?
				      *(int *)NLMSG_DATA(h) : 0;
				return err < 0 ? fail(err, "%s could not list all %s", d->from, d->what) : 0;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				/* No such family here: nothing of it either. */
				if (err == -EAFNOSUPPORT)
					return 0;
				return fail(err, "%s refused to list %s", d->from, d->what);
			}
			if (h->nlmsg_type != d->type)
				continue;
			err = d->fn(h, d->ctx);
			if (err)
				return err;
		}
	}
}

int nl_dump(int fd, const void *req, size_t len, const struct nl_dump *d)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	bool intr;
	int err, tries;

	for (tries = 1;; tries++) {
		if (sendto(fd, req, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
			return fail(-errno, "cannot ask %s for %s", d->from, d->what);
		err = read_dump(fd, d, &intr);
		if (err || !intr)
			return err;
		/* What it lists changed while it listed: the whole list again. */
		if (tries == NL_DUMP_TRIES)
			return fail(-EAGAIN, "%s's list of %s changed while it was read, %d times",
				    d->from, d->what, tries);
		err = d->restart ? d->restart(d->ctx) : 0;
		if (err)
			return err;
	}
}
