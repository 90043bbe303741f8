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
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "names.h"
#include "netns.h"

#ifndef NSFS_MAGIC
#define NSFS_MAGIC	0x6e736673
#endif
#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE	_IO(0xb7, 0x3)	/* <linux/nsfs.h>, 4.11 */
#endif

struct netns_walk {
	int (*fn)(void *ctx, const char *netns);
	void *ctx;
	int self;		/* our own namespace, to come back to */
	ino_t self_mnt;		/* our own mount namespace */
	ino_t *seen;		/* network namespaces visited (nsfs inodes) */
	int nr_seen;
	ino_t *mnt_seen;	/* mount namespaces whose mounts were read */
	int nr_mnt_seen;
};

/* Add ino to a set; 1 if it was new, 0 if there already, -ENOMEM. */
static int set_add(ino_t **set, int *n, ino_t ino)
{
	ino_t *s;
	int i;

	for (i = 0; i < *n; i++)
		if ((*set)[i] == ino)
			return 0;
	s = realloc(*set, (*n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	*set = s;
	(*set)[(*n)++] = ino;
	return 1;
}

/*
 * Enter the network namespace at path and run fn there.  What is gone by
 * now (a process that exited, a mount taken down) is passed over; what is
 * there but no network namespace is passed over and, where named (an entry
 * in a directory of namespaces), said in one line.
 */
static int visit_netns(struct netns_walk *w, const char *path, bool named)
{
	struct statfs fs;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstatfs(fd, &fs) || fs.f_type != NSFS_MAGIC || fstat(fd, &st) ||
	    ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWNET) {
		if (named) {
			char *shown = one_line(path);

			fprintf(stderr, "%s: skipped %s: not a network namespace\n",
				prog_name, shown ?: "an entry");
			free(shown);
		}
		close(fd);
		return 0;
	}
	err = set_add(&w->seen, &w->nr_seen, st.st_ino);
	if (err <= 0) {
		close(fd);
		return err ? fail(err, "cannot walk network namespaces") : 0;
	}
	err = setns(fd, CLONE_NEWNET);
	close(fd);
	if (err)
		return fail(-errno, "cannot enter network namespace %s", path);
	err = w->fn(w->ctx, path);
	if (setns(w->self, CLONE_NEWNET))
		err = fail(-errno, "cannot return to ccctl's network namespace");
	return err;
}

/* Each entry of dir (skipping . and ..), as fmt of dir and the entry's name. */
static int visit_dir(struct netns_walk *w, const char *dir, const char *fmt, bool named)
{
	char path[PATH_MAX];
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), fmt, dir, de->d_name);
		err = visit_netns(w, path, named);
	}
	closedir(d);
	return err;
}

/* mountinfo escapes blanks, newlines and backslashes in paths as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/*
 * The nsfs mounts of process pid's mount namespace, read once per mount
 * namespace: "ip netns add" makes one under /run/netns, container runtimes
 * elsewhere (/run/docker/netns, ...).  Our own are opened as they are
 * named; another mount namespace's through /proc/PID/root.
 */
static int visit_mounts(struct netns_walk *w, const char *pid)
{
	char path[PATH_MAX], line[PATH_MAX + 256], *mnt, *sep, *end;
	struct stat st;
	bool ours;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/ns/mnt", pid);
	if (stat(path, &st) || set_add(&w->mnt_seen, &w->nr_mnt_seen, st.st_ino) <= 0)
		return 0;
	ours = st.st_ino == w->self_mnt;
	snprintf(path, sizeof(path), "/proc/%s/mountinfo", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTIONS */
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep, " - nsfs ", 8))
			continue;
		mnt = line;
		for (int i = 0; i < 4 && mnt; i++)
			mnt = strchr(mnt, ' ') ? strchr(mnt, ' ') + 1 : NULL;
		end = mnt ? strchr(mnt, ' ') : NULL;
		if (!end)
			continue;
		*end = '\0';
		unescape(mnt);
		if (ours)
			snprintf(path, sizeof(path), "%s", mnt);
		else
			snprintf(path, sizeof(path), "/proc/%s/root%s", pid, mnt);
		err = visit_netns(w, path, false);
	}
	fclose(f);
	return err;
}

/*
 * Every network namespace of a process: its threads' (a thread can have one
 * of its own) and those it holds open.  /proc/PID/ns/net first, the name
 * messages show.
 */
static int visit_process(struct netns_walk *w, const char *pid)
{
	char dir[64], path[PATH_MAX], link[64];
	struct dirent *de;
	ssize_t n;
	int err;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/ns/net", pid);
	err = visit_netns(w, path, false);
	snprintf(dir, sizeof(dir), "/proc/%s/task", pid);
	if (!err)
		err = visit_dir(w, dir, "%s/%s/ns/net", false);
	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	d = err ? NULL : opendir(dir);
	while (!err && d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 5 || strncmp(link, "net:[", 5))
			continue;
		err = visit_netns(w, path, false);
	}
	if (d)
		closedir(d);
	return err ?: visit_mounts(w, pid);
}

/*
 * A TCP iterator or sock_diag sees the sockets of one network namespace, the
 * one it was created in, while an algorithm serves them all: run fn in every
 * network namespace that something keeps alive and that ccctl can reach,
 * however it is held: by a process or one of its threads, by an open file
 * descriptor, or by an nsfs bind mount in any mount namespace (a process's
 * /proc/PID/mountinfo).  /run/netns is read besides, so that an entry
 * there that is no namespace (a leftover plain file) is named.  A
 * namespace held only by a descriptor passed over a socket in flight, or by
 * a mount in a mount namespace no process is in, is out of reach.
 */
int for_each_netns(int (*fn)(void *ctx, const char *netns), void *ctx)
{
	struct netns_walk w = { .fn = fn, .ctx = ctx };
	struct dirent *de;
	struct stat st;
	int err;
	DIR *d;

	w.self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (w.self < 0)
		return fail(-errno, "cannot open /proc/self/ns/net");
	if (!stat("/proc/self/ns/mnt", &st))
		w.self_mnt = st.st_ino;
	err = visit_netns(&w, "/proc/self/ns/net", false);
	d = err ? NULL : opendir("/proc");
	while (!err && d && (de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			err = visit_process(&w, de->d_name);
	if (d)
		closedir(d);
	if (!err)
		err = visit_dir(&w, "/run/netns", "%s/%s", true);
	free(w.seen);
	free(w.mnt_seen);
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
