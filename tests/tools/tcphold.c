// SPDX-License-Identifier: GPL-2.0
/*
 * tcphold: TCP connections that stay open, on a congestion control of the
 * caller's choosing, for guest tests that count sockets per algorithm.
 *
 *   tcphold listen ADDR PORT
 *	accept on ADDR:PORT and hold every connection until its peer goes
 *   tcphold connect ADDR PORT N CA
 *	open N connections to ADDR:PORT, each with TCP_CONGESTION set to CA
 *	before connect() ("-": the namespace's default), and hold them until
 *	SIGTERM or SIGINT, then reset them (SO_LINGER 0: no FIN_WAIT or
 *	TIME_WAIT, so the peer's socket goes at once as well)
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
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CONNS	1024

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static int die(const char *fmt, ...)
{
	va_list ap;

	fputs("tcphold: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static struct sockaddr_in parse_addr(const char *addr, const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char *end;
	long p;

	p = strtol(port, &end, 10);
	if (*end || p <= 0 || p > 65535)
		die("bad port '%s'", port);
	sin.sin_port = htons(p);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		die("bad IPv4 address '%s'", addr);
	return sin;
}

static int do_listen(struct sockaddr_in sin)
{
	struct pollfd fds[MAX_CONNS + 1];
	int n = 1, one = 1, i;
	char buf[256];

	fds[0].fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fds[0].fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(fds[0].fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fds[0].fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fds[0].fd, MAX_CONNS))
		die("listen: %s", strerror(errno));
	fds[0].events = POLLIN;
	printf("listening\n");
	fflush(stdout);

	while (!stop) {
		if (poll(fds, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		/* A peer gone (EOF or reset): close its end and compact. */
		for (i = n - 1; i > 0; i--) {
			if (!fds[i].revents)
				continue;
			if (read(fds[i].fd, buf, sizeof(buf)) > 0)
				continue;
			close(fds[i].fd);
			fds[i] = fds[--n];
		}
		if (fds[0].revents & POLLIN) {
			int fd = accept4(fds[0].fd, NULL, NULL, SOCK_CLOEXEC);

			if (fd < 0)
				continue;
			if (n > MAX_CONNS) {
				close(fd);
				continue;
			}
			fds[n].fd = fd;
			fds[n++].events = POLLIN;
		}
	}
	return 0;
}

static int do_connect(struct sockaddr_in sin, const char *count, const char *ca)
{
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	int fds[MAX_CONNS], n, i;
	sigset_t stops, waiting;
	char *end;

	/* The signals wait for sigsuspend(), so that none slips in before it. */
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	sigprocmask(SIG_BLOCK, &stops, &waiting);

	n = strtol(count, &end, 10);
	if (*end || n <= 0 || n > MAX_CONNS)
		die("bad connection count '%s'", count);
	for (i = 0; i < n; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[i] < 0)
			die("socket: %s", strerror(errno));
		if (strcmp(ca, "-") &&
		    setsockopt(fds[i], IPPROTO_TCP, TCP_CONGESTION, ca, strlen(ca)))
			die("congestion control %s: %s", ca, strerror(errno));
		if (connect(fds[i], (struct sockaddr *)&sin, sizeof(sin)))
			die("connect: %s", strerror(errno));
		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	}
	printf("connected %d\n", n);
	fflush(stdout);
	while (!stop)
		sigsuspend(&waiting);
	for (i = 0; i < n; i++)
		close(fds[i]);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (argc == 4 && !strcmp(argv[1], "listen"))
		return do_listen(parse_addr(argv[2], argv[3]));
	if (argc == 6 && !strcmp(argv[1], "connect"))
		return do_connect(parse_addr(argv[2], argv[3]), argv[4], argv[5]);
	die("usage: tcphold listen ADDR PORT | connect ADDR PORT N CA");
	return 1;
}
