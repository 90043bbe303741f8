// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl assign and unassign: congestion control per cgroup v2, the way
 * large deployments choose it per workload rather than per host.
 *
 * Each assignment is its own copy of bpf/assign.bpf.c, with the algorithm's
 * name in its .rodata, attached to one cgroup through a BPF link (cgroup
 * links: 5.7) and pinned beside the registration (pins.h), so that it is
 * found from either side: unregister sees that a cgroup still names the
 * algorithm, list shows the cgroups of each.  When a cgroup is removed the
 * kernel detaches its links; the pin of such a link is stale and is removed
 * by the next ccctl that holds the lock.
 *
 * unassign --all removes every assignment, each found by its pin, and an
 * assign that is already so succeeds with a line saying so: a script can
 * apply and undo a file of assignments without reading cgroup paths back.
 *
 * Assignments do not nest: a socket of a cgroup runs the programs of every
 * ancestor too, the outermost last, so the outer cgroup's algorithm would
 * win over the inner one's.  Rather than a rule nobody expects, ccctl
 * refuses an assignment inside or around another.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "ccctl.h"
#include "cgroup.h"
#include "common.h"
#include "pins.h"
#include "registration.h"
#include "assign.skel.h"

/* What an assignment to cgroup real (id) meets among those there are. */
struct conflict {
	const char *real;
	unsigned long long id;
	struct assignment found;
	char path[PATH_MAX];
};

static int find_conflict(void *ctx, const struct assignment *a)
{
	struct conflict *c = ctx;

	if (!assignment_live(a) || cgroup_path(a->id, c->path))
		return 0;
	if (a->id != c->id && !cgroup_within(c->real, c->path) &&
	    !cgroup_within(c->path, c->real))
		return 0;
	c->found = *a;
	return 1;
}

static int refuse_conflict(const char *ca, const char *real, const struct conflict *c)
{
	if (c->found.id != c->id)
		return fail(0, "cannot assign %s to %s: it %s %s, which is assigned to %s "
			    "(assignments cannot nest)", ca, real,
			    cgroup_within(real, c->path) ? "is inside" : "contains", c->path,
			    c->found.ca);
	return fail(0, "%s is already assigned to %s; unassign it first", real, c->found.ca);
}

static int attach(const char *ca, const char *real, unsigned long long id)
{
	struct bpf_link *link = NULL;
	char pin[PATH_MAX];
	struct assign *skel;
	int cg, err;

	cg = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0)
		return fail(-errno, "cannot open %s", real);
	skel = assign__open();
	if (!skel) {
		err = fail(-errno, "cannot open the assignment program");
		goto out;
	}
	snprintf((char *)skel->rodata->ca, sizeof(skel->rodata->ca), "%s", ca);
	err = assign__load(skel);
	if (err) {
		err = fail(err, "cannot load the assignment program");
		goto out;
	}
	link = bpf_program__attach_cgroup(skel->progs.assign_ca, cg);
	if (!link) {
		err = fail(-errno, "cannot attach to %s", real);
		goto out;
	}
	/* Until it is pinned, the link goes with ccctl: nothing is left half done. */
	fault_point("assign:attached");
	assignment_path(ca, id, pin, sizeof(pin));
	err = bpf_link__pin(link, pin);
	if (err) {
		err = fail(err, "cannot pin %s", pin);
		goto out;
	}
	fault_point("assign:pinned");
	printf("assigned %s to %s\n", ca, real);
out:
	bpf_link__destroy(link);
	assign__destroy(skel);
	close(cg);
	return err;
}

int do_assign(const struct cmd_args *a)
{
	const char *ca = a->args[1];
	struct conflict c = {};
	char real[PATH_MAX];
	struct reg r;
	int err;

	/* Only what ccctl registered: unregister must know a cgroup names it. */
	err = reg_open(ca, &r);
	if (err)
		return err;
	close(r.fd);
	err = cgroup_resolve(a->cgroup, real, &c.id);
	if (err)
		return err;
	c.real = real;
	if (!each_assignment(NULL, find_conflict, &c))
		return attach(ca, real, c.id);
	/*
	 * Already so: nothing to do, and said in a line of its own.  The
	 * cgroup is compared by its id, not its path, so that a script (the
	 * boot script's start) can assign what its file says however often
	 * it runs, without reading paths back out of list.
	 */
	if (c.found.id == c.id && !strcmp(c.found.ca, ca)) {
		printf("%s is already assigned to %s\n", ca, real);
		return 0;
	}
	return refuse_conflict(ca, real, &c);
}

static int find_id(void *ctx, const struct assignment *a)
{
	struct conflict *c = ctx;

	if (a->id != c->id || !assignment_live(a))
		return 0;
	c->found = *a;
	return 1;
}

/* unassign --all: each assignment removed; the first failure's error. */
struct remove_all {
	char path[PATH_MAX];
	int err;
};

static int remove_one(void *ctx, const struct assignment *a)
{
	struct remove_all *r = ctx;
	int err;

	/* The lock's clear-up has removed those whose cgroup is gone. */
	if (cgroup_path(a->id, r->path))
		snprintf(r->path, sizeof(r->path), "cgroup %llu (gone)", a->id);
	err = assignment_remove(a);
	if (err) {
		/* Reported; the others are still to go. */
		r->err = r->err ?: err;
		return 0;
	}
	printf("unassigned %s from %s\n", a->ca, r->path);
	return 0;
}

/*
 * Every assignment ccctl pinned, found by its pin rather than by a path
 * given back to it: what removes them all (the boot script's stop) never
 * has to carry a cgroup's name, which may hold any byte, through list's
 * output.  Nothing assigned is nothing to do.
 */
static int unassign_all(void)
{
	struct remove_all r = {};

	each_assignment(NULL, remove_one, &r);
	return r.err;
}

int do_unassign(const struct cmd_args *a)
{
	struct conflict c = {};
	char real[PATH_MAX];
	int err;

	if (a->all)
		return unassign_all();
	err = cgroup_resolve(a->cgroup, real, &c.id);
	if (err)
		return err;
	if (!each_assignment(NULL, find_id, &c))
		return fail(0, "nothing is assigned to %s", real);
	err = assignment_remove(&c.found);
	if (err)
		return err;
	printf("unassigned %s from %s\n", c.found.ca, real);
	return 0;
}
