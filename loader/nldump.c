// SPDX-License-Identifier: GPL-2.0
/* A netlink dump read to its end (nldump.h). */
#include <errno.h>
#include <sys/socket.h>
#include "common.h"
#include "nldump.h"

int nl_dump(int fd, const void *req, size_t len, const struct nl_dump *d)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	long buf[8192];		/* the kernel sends a dump in skbs of 32 KiB at most */
	struct nlmsghdr *h;
	ssize_t n;
	int err;

	if (sendto(fd, req, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return fail(-errno, "cannot ask %s for %s", d->from, d->what);
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(-errno, "cannot read %s from %s", d->what, d->from);
		if (n == 0)
			return fail(0, "%s's list of %s ended early", d->from, d->what);
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
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
