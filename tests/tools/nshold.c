// SPDX-License-Identifier: GPL-2.0
/*
 * nshold: a network namespace that only one thread, or only an open file
 * descriptor, keeps alive (t_81), with its default congestion control set:
 * the ways of holding a namespace that no /proc/PID/ns/net and no mount
 * shows.
 *
 * usage: nshold thread|fd CA	(CA "-": the default it inherits, the
 *				initial namespace's)
 *   thread	a second thread unshares its network namespace; the process's
 *		own (the main thread's) stays the caller's
 *	fd	the process unshares, keeps the new namespace's descriptor
 *		open and goes back to the caller's
 * Prints "ready" once the namespace's default is CA (an algorithm the
 * initial namespace allows), then waits for SIGTERM.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"

static const char *ca;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static int ready;

/* The default of the calling thread's network namespace becomes ca ("-": stays). */
static void set_default(void)
{
	int fd;

	if (!strcmp(ca, "-"))
		return;
	fd = open("/proc/sys/net/ipv4/tcp_congestion_control", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, ca, strlen(ca)) != (ssize_t)strlen(ca))
		die("cannot make %s the default of the new namespace: %s", ca, strerror(errno));
	close(fd);
}

static void *holder(void *arg __attribute__((unused)))
{
	if (unshare(CLONE_NEWNET))
		die("unshare: %s", strerror(errno));
	set_default();
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_signal(&done);
	pthread_mutex_unlock(&lock);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int self, held;

	if (argc != 3 || (strcmp(argv[1], "thread") && strcmp(argv[1], "fd")))
		die("usage: nshold thread|fd CA");
	ca = argv[2];
	if (!strcmp(argv[1], "thread")) {
		if (pthread_create(&t, NULL, holder, NULL))
			die("cannot start a thread");
		pthread_mutex_lock(&lock);
		while (!ready)
			pthread_cond_wait(&done, &lock);
		pthread_mutex_unlock(&lock);
	} else {
		self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0 || unshare(CLONE_NEWNET))
			die("unshare: %s", strerror(errno));
		set_default();
		held = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (held < 0 || setns(self, CLONE_NEWNET))
			die("cannot go back to the first namespace: %s", strerror(errno));
		close(self);
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
