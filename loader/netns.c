// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl's walk over network namespaces, and the TCP iterator it runs in
 * each: a TCP iterator, like sock_diag, sees only the sockets of the
 * namespace it was created in, while an algorithm serves them all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "names.h"
#include "netns.h"

struct netns_walk {
	int (*fn)(void *ctx, const char *netns);
	void *ctx;
	int self;		/* our own namespace, to come back to */
	ino_t *seen;
	int nr_seen;
};

static int visit_netns(struct netns_walk *w, const char *path)
{
	struct stat st;
	ino_t *seen;
	int fd, err, i;

	/* A process may exit between readdir() and here; its namespace with it. */
	if (stat(path, &st))
		return 0;
	for (i = 0; i < w->nr_seen; i++)
		if (w->seen[i] == st.st_ino)
			return 0;
	seen = realloc(w->seen, (w->nr_seen + 1) * sizeof(*seen));
	if (!seen)
		return fail(-ENOMEM, "cannot walk network namespaces");
	w->seen = seen;
	w->seen[w->nr_seen++] = st.st_ino;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	err = setns(fd, CLONE_NEWNET);
	close(fd);
	if (err)
		return fail(-errno, "cannot enter network namespace %s", path);

	err = w->fn(w->ctx, path);
	if (setns(w->self, CLONE_NEWNET))
		err = fail(-errno, "cannot return to ccctl's network namespace");
	return err;
}

static int visit_dir(struct netns_walk *w, const char *dir, const char *fmt)
{
	char path[PATH_MAX];
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!strcmp(dir, "/proc") && !strchr("0123456789", de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), fmt, dir, de->d_name);
		err = visit_netns(w, path);
	}
	closedir(d);
	return err;
}

/*
 * A TCP iterator or sock_diag sees the sockets of one network namespace, the
 * one it was created in, while an algorithm serves them all: run fn in every namespace
 * a process or an "ip netns" bind mount keeps alive.
 */
int for_each_netns(int (*fn)(void *ctx, const char *netns), void *ctx)
{
	struct netns_walk w = { .fn = fn, .ctx = ctx };
	int err;

	w.self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (w.self < 0)
		return fail(-errno, "cannot open /proc/self/ns/net");

	err = visit_netns(&w, "/proc/self/ns/net");
	if (!err)
		err = visit_dir(&w, "/proc", "%s/%s/ns/net");
	if (!err)
		err = visit_dir(&w, "/run/netns", "%s/%s");

	free(w.seen);
	close(w.self);
	return err;
}

int run_iter(struct bpf_link *link)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0)
		return fail(fd, "cannot start a TCP iterator");
	/* migrate_ca writes nothing: reading is what runs it. */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		n = fail(-errno, "TCP iterator failed");
	close(fd);
	return n;
}
