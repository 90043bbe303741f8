// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl migrate FROM TO: move live connections from one algorithm to
 * another, in every network namespace, with a TCP iterator
 * (bpf/migrate.bpf.c) that calls bpf_setsockopt(TCP_CONGESTION) on each.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "ccctl.h"
#include "common.h"
#include "netns.h"
#include "sockdiag.h"
#include "sysctl.h"
#include "migrate.skel.h"

/* Passes of migrate_ca over one namespace before ccctl gives up on it. */
#define MIGRATE_PASSES	8

struct migrate_run {
	struct bpf_link *link;
	struct migrate *skel;
	const char *from, *to;
};

struct ca_count {
	const char *ca;
	unsigned long n;
};

static void count_ca(const char *ca, void *ctx)
{
	struct ca_count *c = ctx;

	if (!strcmp(ca, c->ca))
		c->n++;
}

/*
 * One namespace's sockets; the test build can die once some have moved.
 *
 * In 6.12 and 6.1 the BPF TCP iterator can skip every socket of one bucket
 * of the established hash table.  bpf_iter_tcp_batch() starts each batch
 * with tcp_seek_last_pos() (net/ipv4/tcp_ipv4.c), whose
 * "while (offset-- && rc && bucket == st->bucket)" in the listening case
 * leaves offset at -1 when no listener is left to walk; it then falls
 * through to the established table with st->bucket = 0, and the same loop
 * there skips the whole first bucket holding a socket of the namespace
 * whenever that bucket's index is the bucket it was entered with: 0 in a
 * namespace with no listener, L + 1 after the last listener's bucket L.
 * migrate_ca never sees those sockets.  7.3 resumes batches by socket
 * cookie and does not skip.  So count what is left on FROM through
 * sock_diag, which walks the tables its own way, and while some is, open
 * one more listener on loopback (on TO, so that migrate_ca leaves it
 * alone) and run again: a listener in a later listening bucket moves the
 * bucket that is skipped.  The listeners close when the namespace is done.
 */
static int migrate_netns(void *ctx, const char *netns)
{
	struct migrate_run *m = ctx;
	int lfd[MIGRATE_PASSES];
	struct ca_count left;
	int err, n = 0;

	for (;;) {
		err = run_iter(m->link);
		if (!err && m->skel->bss->moved)
			fault_point("migrate:some-moved");
		/* What could not be moved is do_migrate()'s to report. */
		if (err || m->skel->bss->failed)
			break;
		left = (struct ca_count){ .ca = m->from };
		err = sockdiag_each_ca(count_ca, &left);
		if (err || !left.n)
			break;
		if (n == MIGRATE_PASSES) {
			err = fail(0, "%lu sockets in network namespace %s are still on %s after %d passes",
				   left.n, netns, m->from, n + 1);
			break;
		}
		lfd[n] = temp_listener(m->to);
		if (lfd[n] < 0) {
			err = lfd[n];
			break;
		}
		n++;
	}
	while (n--)
		close(lfd[n]);
	return err;
}

int do_migrate(const struct cmd_args *a)
{
	const char *from = a->args[1], *to = a->args[2];
	struct migrate_run m = { .from = from, .to = to };
	struct migrate *skel;
	int err;

	if (!strcmp(from, to))
		return fail(0, "nothing to migrate: FROM and TO are both %s", from);
	/* bpf_setsockopt() does not load modules: TO must be there already. */
	if (!ca_available(to))
		return fail(0, "%s is not a registered congestion control", to);

	skel = migrate__open();
	if (!skel)
		return fail(-errno, "cannot open the TCP iterator object");
	memcpy((char *)skel->rodata->from_ca, from, strlen(from));
	memcpy((char *)skel->rodata->to_ca, to, strlen(to));
	err = migrate__load(skel);
	if (err) {
		err = fail(err, "cannot load the TCP iterator");
		goto out;
	}
	m.skel = skel;
	m.link = bpf_program__attach_iter(skel->progs.migrate_ca, NULL);
	if (!m.link) {
		err = fail(-errno, "cannot attach the TCP iterator");
		goto out;
	}
	err = for_each_netns(migrate_netns, &m);
	if (err)
		goto out;

	if (skel->bss->failed) {
		err = fail(skel->bss->first_err,
			   "moved %llu sockets from %s to %s, %llu could not be moved",
			   (unsigned long long)skel->bss->moved, from, to,
			   (unsigned long long)skel->bss->failed);
		goto out;
	}
	printf("moved %llu sockets from %s to %s\n",
	       (unsigned long long)skel->bss->moved, from, to);
out:
	bpf_link__destroy(m.link);
	migrate__destroy(skel);
	return err;
}
