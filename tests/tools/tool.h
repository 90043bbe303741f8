/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest tools share, the tests' and the evaluation's (eval/tools):
 * a failure is one line on stderr, headed by the tool's name, and exit 1;
 * an address and port from argv.
 */
#ifndef __TOOL_H
#define __TOOL_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

extern char *program_invocation_short_name;

static __attribute__((noreturn, format(printf, 1, 2), unused))
void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static __attribute__((unused))
struct sockaddr_in parse_addr(const char *addr, const char *port)
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

/* An IPv4 or IPv6 address and a port from argv, into *ss; its length. */
static __attribute__((unused))
socklen_t parse_sockaddr(const char *addr, const char *port, struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (!strchr(addr, ':')) {
		*(struct sockaddr_in *)ss = parse_addr(addr, port);
		return sizeof(struct sockaddr_in);
	}
	/* The port checked as for IPv4, with an address that always parses. */
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = parse_addr("0.0.0.0", port).sin_port;
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) != 1)
		die("bad IPv6 address '%s'", addr);
	return sizeof(*sin6);
}

#endif /* __TOOL_H */
