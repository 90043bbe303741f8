// SPDX-License-Identifier: GPL-2.0
/*
 * nl_dump() (loader/nldump.c) on the host, against a kernel played by
 * sendto() and recv() wrapped at link time (-Wl,--wrap): each request is
 * answered by one dump of three messages and NLMSG_DONE, the first
 * `interrupted` dumps with NLM_F_DUMP_INTR on their messages, as the
 * kernel marks a dump whose list changed while it was read.
 *
 * - A dump not marked: fn sees its three messages, one request, no restart.
 * - Marked once: read again after restart, two requests; what fn kept
 *   after the restart is the second dump's three.
 * - Marked once with no restart (fn keeps nothing): read again all the same.
 * - Marked every time: eight requests, then one line naming what kept
 *   changing and -EAGAIN; a restart that refuses stops at the first.
 * - fn's non-zero answer stops the dump even if marked, one request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include "common.h"
#include "nldump.h"
#include "unit.h"

#define T_ITEM	42	/* the message type of the dump */

static int requests, interrupted, restarts, seen, stop_at;

ssize_t __wrap_sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen)
{
	(void)fd; (void)buf; (void)flags; (void)to; (void)tolen;
	requests++;
	return len;
}

/* One dump per request: three T_ITEM and NLMSG_DONE, in one read. */
ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags)
{
	struct nlmsghdr *h;
	int i;

	(void)fd; (void)flags;
	if (len < 4 * NLMSG_SPACE(sizeof(int)))
		return -1;
	for (i = 0; i < 4; i++) {
		h = (struct nlmsghdr *)((char *)buf + i * NLMSG_SPACE(sizeof(int)));
		memset(h, 0, NLMSG_SPACE(sizeof(int)));
		h->nlmsg_len = NLMSG_LENGTH(sizeof(int));
		h->nlmsg_type = i < 3 ? T_ITEM : NLMSG_DONE;
		h->nlmsg_flags = NLM_F_MULTI | (requests <= interrupted ? NLM_F_DUMP_INTR : 0);
	}
	return 4 * NLMSG_SPACE(sizeof(int));
}

static int count(struct nlmsghdr *h, void *ctx)
{
	(void)h; (void)ctx;
	return ++seen == stop_at ? -EEXIST : 0;
}

static int forget(void *ctx)
{
	(void)ctx;
	restarts++;
	seen = 0;
	return 0;
}

static int refuse(void *ctx)
{
	(void)ctx;
	restarts++;
	return fail(-EAGAIN, "cannot count again");
}

/* nl_dump() with the kernel marking the first `intr` dumps; its result. */
static int dump(int intr, int (*restart)(void *ctx), int stop)
{
	struct nl_dump d = {
		.from = "the test", .what = "items", .type = T_ITEM,
		.fn = count, .restart = restart,
	};
	char req[16] = "";

	requests = restarts = seen = 0;
	interrupted = intr;
	stop_at = stop;
	return nl_dump(-1, req, sizeof(req), &d);
}

/* What nl_dump() wrote on stderr, by the same call as dump(). */
static const char *dump_stderr(int intr, int (*restart)(void *ctx), int *ret)
{
	static char out[512];
	int saved;
	FILE *f;

	f = unit_stderr_catch(&saved);
	*ret = dump(intr, restart, 0);
	return unit_stderr_read(f, saved, out, sizeof(out));
}

int main(void)
{
	const char *err;
	int ret;

	ret = dump(0, forget, 0);
	unit_check(ret == 0 && seen == 3 && requests == 1 && restarts == 0,
		   "a clean dump: ret %d, %d seen, %d requests, %d restarts", ret, seen,
		   requests, restarts);
	ret = dump(1, forget, 0);
	unit_check(ret == 0 && seen == 3 && requests == 2 && restarts == 1,
		   "marked once: ret %d, %d kept, %d requests, %d restarts", ret, seen,
		   requests, restarts);
	ret = dump(1, NULL, 0);
	unit_check(ret == 0 && seen == 6 && requests == 2,
		   "marked once, no restart: ret %d, %d seen, %d requests", ret, seen, requests);
	err = dump_stderr(100, forget, &ret);
	unit_check(ret == -EAGAIN && requests == 8 && restarts == 7,
		   "marked every time: ret %d, %d requests, %d restarts", ret, requests, restarts);
	unit_check(!strcmp(err, "ccctl: the test's list of items changed while it was read, "
			   "8 times: Resource temporarily unavailable\n"),
		   "marked every time: one line, got '%s'", err);
	err = dump_stderr(1, refuse, &ret);
	unit_check(ret == -EAGAIN && requests == 1 && restarts == 1,
		   "a restart that refuses: ret %d, %d requests, %d restarts", ret, requests, restarts);
	unit_check(!strcmp(err, "ccctl: cannot count again: Resource temporarily unavailable\n"),
		   "a restart that refuses: its line alone, got '%s'", err);
	ret = dump(5, forget, 2);
	unit_check(ret == -EEXIST && requests == 1,
		   "fn stops a marked dump: ret %d, %d requests", ret, requests);
	return unit_done();
}
