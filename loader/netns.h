/* SPDX-License-Identifier: GPL-2.0 */
/* Network namespaces walked one by one, and a TCP iterator run in one. */
#ifndef __CCCTL_NETNS_H
#define __CCCTL_NETNS_H

struct bpf_link;

/*
 * Run fn in every network namespace a process or an "ip netns" bind mount
 * keeps alive, ccctl's own first, with the namespace's path; stops at the
 * first error, which it returns, and comes back to ccctl's namespace.
 */
int for_each_netns(int (*fn)(void *ctx, const char *netns), void *ctx);

/* Run the TCP iterator of link once, in the caller's namespace. */
int run_iter(struct bpf_link *link);

#endif /* __CCCTL_NETNS_H */
