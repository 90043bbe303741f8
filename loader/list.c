// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl list and status: the algorithms ccctl registered, what holds them
 * (pins, links, maps), the sockets on each in every network namespace, and
 * the cgroups each is assigned to; as a table or as JSON, from one set of
 * fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ccctl.h"
#include "cgroup.h"
#include "common.h"
#include "json.h"
#include "netns.h"
#include "pins.h"
#include "registration.h"
#include "sockdiag.h"
#include "sysctl.h"

struct ca_entry {
	char name[CA_NAME_MAX];
	__u32 map_id;
	__u32 link_id;		/* 0: registered through its map, no link */
	unsigned long sockets;
	bool is_default;
	char pinned[64];
	char **cgroups;		/* the cgroups it is assigned to */
	int ncgroups;
};

struct ca_list {
	const char *only;	/* status NAME */
	struct ca_entry *e;
	int n;
};

/* The fields of list, in the table's order; the cgroups are JSON only. */
enum { F_NAME, F_MAP_ID, F_LINK_ID, F_SOCKETS, F_DEFAULT, F_PINNED, F_CGROUPS, NR_FIELDS };

static const struct field fields[NR_FIELDS] = {
	[F_NAME] = { "name", "NAME", -15, FIELD_STR },
	[F_MAP_ID] = { "map_id", "MAP_ID", 7, FIELD_UINT },
	[F_LINK_ID] = { "link_id", "LINK_ID", 7, FIELD_UINT },
	[F_SOCKETS] = { "sockets", "SOCKETS", 7, FIELD_UINT },
	[F_DEFAULT] = { "default", "DEFAULT", -7, FIELD_BOOL },
	[F_PINNED] = { "pinned", "PINNED", 0, FIELD_STR },
	[F_CGROUPS] = { "cgroups", NULL, 0, FIELD_STRV },
};

/* After the table, only when there are any: the table is what scripts have parsed. */
static const struct field assigned_fields[] = {
	{ "name", "ASSIGNED", -15, FIELD_STR },
	{ "cgroup", "CGROUP", 0, FIELD_STR },
};

static void count_socket(const char *ca, void *ctx)
{
	struct ca_list *l = ctx;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].name, ca))
			l->e[i].sockets++;
}

static int count_netns(void *ctx, const char *netns)
{
	return sockdiag_each_ca(count_socket, ctx);
}

static int add_cgroup(void *ctx, const char *path)
{
	struct ca_entry *e = ctx;
	char **c;

	c = realloc(e->cgroups, (e->ncgroups + 1) * sizeof(*c));
	if (c)
		e->cgroups = c;
	if (!c || !(c[e->ncgroups] = strdup(path)))
		return fail(-ENOMEM, "cannot list the cgroups of %s", e->name);
	e->ncgroups++;
	return 0;
}

static int add_registered(void *ctx, const char *name)
{
	struct ca_list *l = ctx;
	__u32 link_id, map_id;
	struct ca_entry *e;
	struct reg r;
	int err;

	if (l->only && strcmp(l->only, name))
		return 0;
	if (reg_get(name, &r))
		return 0;	/* not one of ours */
	if (!reg_live(&r, &link_id, &map_id)) {
		close(r.fd);	/* stale: see pins_clear_stale() */
		return 0;
	}
	e = realloc(l->e, (l->n + 1) * sizeof(*e));
	if (!e) {
		close(r.fd);
		return fail(-ENOMEM, "cannot list %s", PIN_ROOT);
	}
	l->e = e;
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%.15s", name);
	e->is_default = ca_is_default(e->name);
	snprintf(e->pinned, sizeof(e->pinned), "%s", r.path);
	e->link_id = link_id;
	e->map_id = map_id;
	close(r.fd);
	err = cgroup_each_assigned(e->name, add_cgroup, e);
	return err;
}

static void print_list(const struct ca_list *l, bool json)
{
	struct value v[NR_FIELDS] = {}, av[2] = {};
	const struct ca_entry *e;
	bool assigned = false;
	struct table t;
	int i, j;

	table_begin(&t, stdout, fields, NR_FIELDS, json);
	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		assigned |= e->ncgroups > 0;
		v[F_NAME].s = e->name;
		v[F_MAP_ID].u = e->map_id;
		v[F_LINK_ID].u = e->link_id;
		v[F_SOCKETS].u = e->sockets;
		v[F_DEFAULT].b = e->is_default;
		v[F_PINNED].s = e->pinned;
		v[F_CGROUPS].v = (const char *const *)e->cgroups;
		v[F_CGROUPS].nv = e->ncgroups;
		table_row(&t, v);
	}
	table_end(&t);
	if (json || !assigned)
		return;
	putchar('\n');
	table_begin(&t, stdout, assigned_fields, ARRAY_SIZE(assigned_fields), false);
	for (i = 0; i < l->n; i++) {
		for (j = 0; j < l->e[i].ncgroups; j++) {
			av[0].s = l->e[i].name;
			av[1].s = l->e[i].cgroups[j];
			table_row(&t, av);
		}
	}
	table_end(&t);
}

int do_list(const struct cmd_args *a)
{
	struct ca_list l = { .only = a->nargs > 1 ? a->args[1] : NULL };
	int err, i, j;

	err = each_pinned_name(add_registered, &l);
	if (!err && l.only && !l.n)
		err = fail(0, "%s is not registered by ccctl", l.only);
	/* sock_diag, not a TCP iterator: see migrate.c. */
	if (!err && l.n)
		err = for_each_netns(count_netns, &l);
	if (!err)
		print_list(&l, a->json);
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < l.e[i].ncgroups; j++)
			free(l.e[i].cgroups[j]);
		free(l.e[i].cgroups);
	}
	free(l.e);
	return err;
}
