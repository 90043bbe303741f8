// SPDX-License-Identifier: GPL-2.0
/*
 * Routes that name a congestion control: "ip route ... congctl NAME" puts
 * RTAX_CC_ALGO among the route's metrics, and connections that the route
 * carries start on NAME instead of the namespace's default.  The kernel
 * keeps only a key, the hash of the name; when NAME is unregistered the
 * route stays and its connections quietly get the default (a dump then
 * leaves RTAX_CC_ALGO out, the key naming nothing).  Read through an
 * rtnetlink dump of each family, every table, in the caller's namespace.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include "common.h"
#include "nldump.h"
#include "route.h"

#define ROUTE_DESC_MAX	256

struct route_walk {
	const char *ca;
	int family;		/* of the dump under way */
	int (*fn)(void *ctx, const char *route);
	void *ctx;
};

/* The route types "ip route" names before the destination; unicast is none. */
static const char *const route_types[] = {
	[RTN_LOCAL] = "local",		[RTN_BROADCAST] = "broadcast",
	[RTN_ANYCAST] = "anycast",	[RTN_MULTICAST] = "multicast",
	[RTN_BLACKHOLE] = "blackhole",	[RTN_UNREACHABLE] = "unreachable",
	[RTN_PROHIBIT] = "prohibit",	[RTN_THROW] = "throw",
	[RTN_NAT] = "nat",
};

/* Whether a route's metrics (RTA_METRICS, nested RTAX_* attributes) name ca. */
static bool names_ca(struct rtattr *metrics, const char *ca)
{
	int len = RTA_PAYLOAD(metrics);
	size_t n = strlen(ca);
	struct rtattr *a;

	for (a = RTA_DATA(metrics); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type != RTAX_CC_ALGO)
			continue;
		/* A NUL-terminated string, as rtnetlink_put_metrics() puts it. */
		return RTA_PAYLOAD(a) > n && !memcmp(RTA_DATA(a), ca, n) &&
		       !((const char *)RTA_DATA(a))[n];
	}
	return false;
}

/* Append to buf (size bytes, at *pos) what fmt says, cut at the end. */
__attribute__((format(printf, 4, 5)))
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += n;
}

/*
 * The route as "ip route" shows it, enough to find it again: type, destination,
 * gateway, device, metric and table.
 */
static void describe(const struct rtmsg *rtm, struct rtattr *tb[], char *buf, size_t size)
{
	unsigned int full = rtm->rtm_family == AF_INET6 ? 128 : 32;
	char addr[INET6_ADDRSTRLEN];
	unsigned int table = rtm->rtm_table;
	size_t pos = 0;

	buf[0] = '\0';
	if (rtm->rtm_type < ARRAY_SIZE(route_types) && route_types[rtm->rtm_type])
		append(buf, size, &pos, "%s ", route_types[rtm->rtm_type]);
	if (!tb[RTA_DST])
		append(buf, size, &pos, "default");
	else if (inet_ntop(rtm->rtm_family, RTA_DATA(tb[RTA_DST]), addr, sizeof(addr)))
		append(buf, size, &pos, rtm->rtm_dst_len == full ? "%s" : "%s/%u",
		       addr, rtm->rtm_dst_len);
	if (tb[RTA_GATEWAY] &&
	    inet_ntop(rtm->rtm_family, RTA_DATA(tb[RTA_GATEWAY]), addr, sizeof(addr)))
		append(buf, size, &pos, " via %s", addr);
	/* The caller is in the route's namespace, where the index means this device. */
	if (tb[RTA_OIF]) {
		char dev[IF_NAMESIZE];

		if (if_indextoname(*(__u32 *)RTA_DATA(tb[RTA_OIF]), dev))
			append(buf, size, &pos, " dev %s", dev);
		else
			append(buf, size, &pos, " dev #%u", *(__u32 *)RTA_DATA(tb[RTA_OIF]));
	}
	if (tb[RTA_PRIORITY] && *(__u32 *)RTA_DATA(tb[RTA_PRIORITY]))
		append(buf, size, &pos, " metric %u", *(__u32 *)RTA_DATA(tb[RTA_PRIORITY]));
	/* rtm_table is 8 bits: a table past 255 is in RTA_TABLE only. */
	if (tb[RTA_TABLE])
		table = *(__u32 *)RTA_DATA(tb[RTA_TABLE]);
	if (table == RT_TABLE_MAIN)
		append(buf, size, &pos, " (table main)");
	else if (table == RT_TABLE_LOCAL)
		append(buf, size, &pos, " (table local)");
	else if (table == RT_TABLE_DEFAULT)
		append(buf, size, &pos, " (table default)");
	else
		append(buf, size, &pos, " (table %u)", table);
}

/* One route of the dump: fn's answer if it names the algorithm, else 0. */
static int visit_route(struct nlmsghdr *h, void *ctx)
{
	struct rtattr *tb[RTA_MAX + 1] = {}, *a;
	struct rtmsg *rtm = NLMSG_DATA(h);
	struct route_walk *w = ctx;
	char desc[ROUTE_DESC_MAX];
	int len;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)) || rtm->rtm_family != w->family)
		return 0;
	len = RTM_PAYLOAD(h);
	for (a = RTM_RTA(rtm); RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type <= RTA_MAX)
			tb[a->rta_type] = a;
	if (!tb[RTA_METRICS] || !names_ca(tb[RTA_METRICS], w->ca))
		return 0;
	describe(rtm, tb, desc, sizeof(desc));
	return w->fn(w->ctx, desc);
}

/*
 * Every route of one family, all tables: a dump request with no table and
 * no strict checking is not filtered.  Messages of another family are
 * skipped: a kernel without IPv6 answers an AF_INET6 dump with every
 * family's routes.
 */
static int dump_family(struct route_walk *w, int fd, int family)
{
	struct {
		struct nlmsghdr nlh;
		struct rtmsg rtm;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = RTM_GETROUTE,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.rtm = { .rtm_family = family },
	};
	/* No restart: the caller's fn keeps nothing (route.h). */
	struct nl_dump d = {
		.from = "rtnetlink", .what = "routes", .type = RTM_NEWROUTE,
		.fn = visit_route, .ctx = w,
	};

	w->family = family;
	return nl_dump(fd, &req, sizeof(req), &d);
}

int route_each_congctl(const char *ca, int (*fn)(void *ctx, const char *route), void *ctx)
{
	struct route_walk w = { .ca = ca, .fn = fn, .ctx = ctx };
	int fd, err;

	/* Opened here, so that it is the caller's namespace the dump reads. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return fail(-errno, "cannot open an rtnetlink socket");
	err = dump_family(&w, fd, AF_INET);
	if (!err)
		err = dump_family(&w, fd, AF_INET6);
	close(fd);
	return err;
}
