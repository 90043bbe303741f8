// SPDX-License-Identifier: GPL-2.0
/*
 * tcphold: TCP connections that stay open, on a congestion control of the
 * caller's choosing, for guest tests that count sockets per algorithm.
 * ADDR is IPv4 or IPv6.
 *
 *   tcphold listen ADDR PORT [CA]
 *	accept on ADDR:PORT and hold every connection until its peer goes;
 *	with CA the listener gets TCP_CONGESTION CA, which the connections
 *	it accepts inherit (without it: the namespace's default)
 *   tcphold connect ADDR PORT N CA
 *	open N connections to ADDR:PORT, each with TCP_CONGESTION set to CA
 *	before connect() ("-": the namespace's default), and hold them until
 *	SIGTERM or SIGINT, then reset them (SO_LINGER 0: no FIN_WAIT or
 *	TIME_WAIT, so the peer's socket goes at once as well)
 *
 * Each raises its soft RLIMIT_NOFILE as far as it needs (connect: N and a
 * few) or can (listen: the hard limit); the hard limit is the caller's to
 * raise.  Running out of descriptors is an error, not a silent cap.
 *
 * Each prints one line on stdout when it is ready ("listening",
 * "connected N") and, on failure, one line on stderr and exits 1.  No data
 * is ever sent.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tool.h"

#define SPARE_FDS	16	/* stdio, the epoll and listening sockets, libc */
#define EVENTS		64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* Raise the soft descriptor limit to want (RLIM_INFINITY: the hard limit). */
static rlim_t raise_nofile(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit: %s", strerror(errno));
	if (want == RLIM_INFINITY || want > rl.rlim_max)
		want = rl.rlim_max;
	if (want > rl.rlim_cur) {
		rl.rlim_cur = want;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			die("setrlimit: %s", strerror(errno));
	}
	return rl.rlim_cur;
}

static void set_ca(int fd, const char *ca)
{
	if (strcmp(ca, "-") &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ca, strlen(ca)))
		die("congestion control %s: %s", ca, strerror(errno));
}

static int do_listen(const struct sockaddr_storage *ss, socklen_t len, const char *ca)
{
	struct epoll_event ev = { .events = EPOLLIN }, evs[EVENTS];
	int lfd, efd, n, i, fd, one = 1;
	rlim_t limit;
	char buf[256];

	limit = raise_nofile(RLIM_INFINITY);
	lfd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	set_ca(lfd, ca);
	if (bind(lfd, (const struct sockaddr *)ss, len) || listen(lfd, SOMAXCONN))
		die("listen: %s", strerror(errno));
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (efd < 0)
		die("epoll_create1: %s", strerror(errno));
	ev.data.fd = lfd;
	if (epoll_ctl(efd, EPOLL_CTL_ADD, lfd, &ev))
		die("epoll_ctl: %s", strerror(errno));
	printf("listening\n");
	fflush(stdout);

	while (!stop) {
		n = epoll_wait(efd, evs, EVENTS, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait: %s", strerror(errno));
		}
		for (i = 0; i < n; i++) {
			fd = evs[i].data.fd;
			if (fd != lfd) {
				/* A peer gone (EOF or reset): close its end. */
				if (read(fd, buf, sizeof(buf)) <= 0)
					close(fd);
				continue;
			}
			fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0) {
				if (errno == EMFILE || errno == ENFILE)
					die("accept: %s (descriptor limit %llu)", strerror(errno),
					    (unsigned long long)limit);
				continue;
			}
			ev.data.fd = fd;
			if (epoll_ctl(efd, EPOLL_CTL_ADD, fd, &ev))
				die("epoll_ctl: %s", strerror(errno));
		}
	}
	return 0;
}

static int do_connect(const struct sockaddr_storage *ss, socklen_t len, const char *count,
		      const char *ca)
{
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	sigset_t stops, waiting;
	rlim_t limit;
	char *end;
	long n, i;
	int *fds;

	/* The signals wait for sigsuspend(), so that none slips in before it. */
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	sigprocmask(SIG_BLOCK, &stops, &waiting);

	n = strtol(count, &end, 10);
	if (*end || n <= 0 || n > 1 << 20)
		die("bad connection count '%s'", count);
	limit = raise_nofile(n + SPARE_FDS);
	if (limit < (rlim_t)n + SPARE_FDS)
		die("%ld connections need %ld descriptors, the hard limit is %llu",
		    n, n + SPARE_FDS, (unsigned long long)limit);
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		die("out of memory");
	for (i = 0; i < n; i++) {
		fds[i] = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[i] < 0)
			die("socket: %s", strerror(errno));
		set_ca(fds[i], ca);
		if (connect(fds[i], (const struct sockaddr *)ss, len))
			die("connect: %s", strerror(errno));
		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	}
	printf("connected %ld\n", n);
	fflush(stdout);
	while (!stop)
		sigsuspend(&waiting);
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sockaddr_storage ss;
	socklen_t len;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "listen")) {
		len = parse_sockaddr(argv[2], argv[3], &ss);
		return do_listen(&ss, len, argc == 5 ? argv[4] : "-");
	}
	if (argc == 6 && !strcmp(argv[1], "connect")) {
		len = parse_sockaddr(argv[2], argv[3], &ss);
		return do_connect(&ss, len, argv[4], argv[5]);
	}
	die("usage: tcphold listen ADDR PORT [CA] | connect ADDR PORT N CA");
	return 1;
}
