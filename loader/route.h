/* SPDX-License-Identifier: GPL-2.0 */
/* Routes that name a congestion control (ip route ... congctl NAME). */
#ifndef __CCCTL_ROUTE_H
#define __CCCTL_ROUTE_H

/*
 * Call fn for every route of the caller's network namespace, IPv4 and
 * IPv6, in every table, whose congctl (RTAX_CC_ALGO) is ca, with the route
 * as "ip route" would show it, table included ("10.0.0.0/24 dev veth0
 * (table main)").  Stops at fn's first non-zero return, which it returns;
 * a failure to read the routes is reported.  A dump the routes changed
 * under is read again (nldump.h), so fn may be given a route twice: it
 * must keep nothing of what it is given (reg.c's stops at the first).
 */
int route_each_congctl(const char *ca, int (*fn)(void *ctx, const char *route), void *ctx);

#endif /* __CCCTL_ROUTE_H */
