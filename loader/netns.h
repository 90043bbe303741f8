/* SPDX-License-Identifier: GPL-2.0 */
/* Network namespaces walked one by one, and TCP iterators run in them. */
#ifndef __CCCTL_NETNS_H
#define __CCCTL_NETNS_H

struct bpf_link;

/*
 * Run fn in every network namespace a process or an "ip netns" bind mount
 * keeps alive, ccctl's own first, with the namespace's path; stops at the
 * first error, which it returns, and comes back to ccctl's namespace.
 */
int for_each_netns(int (*fn)(void *ctx, const char *netns), void *ctx);

/* A TCP iterator whose records are congestion control names. */
struct iter_run {
	struct bpf_link *link;
	void (*record)(const char *ca, void *ctx);	/* per dump_ca record */
	void *ctx;
};

/* for_each_netns's fn: run the iterator of ctx (an iter_run) once. */
int run_iter(void *ctx, const char *netns);

#endif /* __CCCTL_NETNS_H */
