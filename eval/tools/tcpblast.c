// SPDX-License-Identifier: GPL-2.0
/*
 * tcpblast: one TCP connection that carries a fixed number of bytes as fast
 * as the machine allows, timed in nanoseconds, for the per-ACK cost
 * benchmark; or one that sends for a fixed time, for the design point's
 * cells (make bench).
 *
 *   tcpblast sink ADDR PORT
 *	accept one connection, read it to its end (the peer's close or
 *	reset), close, exit
 *   tcpblast send ADDR PORT BYTES CA
 *	connect with TCP_CONGESTION set to CA, write BYTES, shut down the
 *	sending side and wait for the peer's close; then print one line:
 *	"ns N segs_in N segs_out N bytes_acked N retrans N ca NAME"
 *   tcpblast for ADDR PORT SECS CA
 *	connect with TCP_CONGESTION set to CA, write for SECS seconds from
 *	the connection's start, then reset it (what the send buffer still
 *	held is dropped, not sent); print "bytes_acked N retrans N ca NAME"
 *
 * The time runs on CLOCK_MONOTONIC from before connect() to the peer's
 * close, which comes only once every byte has been read and acknowledged.
 * segs_in is the number of segments the sender took in (TCP_INFO): on a
 * bulk transfer, its ACKs.  Errors are one line on stderr and exit 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>	/* the tcp_info of today, not glibc's */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "tool.h"

#define CHUNK	(64 * 1024)

static char buf[CHUNK];

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int sink(struct sockaddr_in sin)
{
	int lfd, fd, one = 1;
	ssize_t n;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) || listen(lfd, 1))
		die("listen: %s", strerror(errno));
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		die("accept: %s", strerror(errno));
	close(lfd);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0 && errno != ECONNRESET)
		die("read: %s", strerror(errno));
	close(fd);
	return 0;
}

/* A TCP socket on congestion control CA. */
static int ca_socket(const char *ca)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ca, strlen(ca)))
		die("TCP_CONGESTION %s: %s", ca, strerror(errno));
	return fd;
}

static int send_bytes(struct sockaddr_in sin, const char *bytes, const char *ca)
{
	unsigned long long left, t0, t1;
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	char *end;
	ssize_t n;
	int fd;

	left = strtoull(bytes, &end, 10);
	if (*end || !left)
		die("bad byte count '%s'", bytes);
	fd = ca_socket(ca);

	t0 = mono_ns();
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die("connect: %s", strerror(errno));
	while (left) {
		n = write(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
		if (n < 0)
			die("write: %s", strerror(errno));
		left -= n;
	}
	if (shutdown(fd, SHUT_WR))
		die("shutdown: %s", strerror(errno));
	n = read(fd, buf, sizeof(buf));
	if (n)
		die("peer %s instead of closing", n < 0 ? strerror(errno) : "sent data");
	t1 = mono_ns();

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		die("TCP_INFO: %s", strerror(errno));
	printf("ns %llu segs_in %u segs_out %u bytes_acked %llu retrans %u ca %s\n",
	       t1 - t0, ti.tcpi_segs_in, ti.tcpi_segs_out,
	       (unsigned long long)ti.tcpi_bytes_acked, ti.tcpi_total_retrans, ca);
	close(fd);
	return 0;
}

static int send_for(struct sockaddr_in sin, const char *secs, const char *ca)
{
	struct linger abort = { .l_onoff = 1, .l_linger = 0 };
	unsigned long long until;
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	char *end;
	long s;
	int fd;

	s = strtol(secs, &end, 10);
	if (*end || s <= 0)
		die("bad seconds '%s'", secs);
	fd = ca_socket(ca);

	until = mono_ns() + s * 1000000000ULL;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die("connect: %s", strerror(errno));
	/* a write blocks for at most one chunk's worth of acknowledgements */
	while (mono_ns() < until)
		if (write(fd, buf, sizeof(buf)) < 0)
			die("write: %s", strerror(errno));

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		die("TCP_INFO: %s", strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof(abort)))
		die("SO_LINGER: %s", strerror(errno));
	close(fd);
	printf("bytes_acked %llu retrans %u ca %s\n",
	       (unsigned long long)ti.tcpi_bytes_acked, ti.tcpi_total_retrans, ca);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "sink"))
		return sink(parse_addr(argv[2], argv[3]));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return send_bytes(parse_addr(argv[2], argv[3]), argv[4], argv[5]);
	if (argc == 6 && !strcmp(argv[1], "for"))
		return send_for(parse_addr(argv[2], argv[3]), argv[4], argv[5]);
	die("usage: tcpblast sink ADDR PORT | tcpblast send ADDR PORT BYTES CA | "
	    "tcpblast for ADDR PORT SECS CA");
	return 1;
}
