// SPDX-License-Identifier: GPL-2.0
/*
 * algos-gen: the table of algorithms (bpf/algos.h) for what cannot include
 * it.
 *
 *   algos-gen mk	build/algos.mk, which the Makefile includes: the
 *			objects and the flags of each, ccctl's variants and
 *			the algorithms the drill model predicts
 *   algos-gen tsv	build/algos.tsv, one line an algorithm for the tests
 *			(tests/unit/test_algos.sh): name, object, variant,
 *			undo rule, bic, model ('-' for none)
 *
 * It refuses a table that the words below could not carry: a name, object
 * or variant that is not a plain word, a seed that is not a shipped
 * object, an object with an undo rule bic.bpf.c has not, or a name, object
 * or variant twice.
 */
#include <stdio.h>
#include <string.h>

#include "algos.h"

#define ALGO_UNDO_RULE(undo, rule, cflags)	[undo] = rule,
#define ALGO_UNDO_CFLAGS(undo, rule, cflags)	[undo] = cflags,

static const char *const undo_rule[] = { ALGO_UNDOS(ALGO_UNDO_RULE) };
static const char *const undo_cflags[] = { ALGO_UNDOS(ALGO_UNDO_CFLAGS) };

static int refuse(const char *name, const char *why)
{
	fprintf(stderr, "algos-gen: bpf/algos.h: %s: %s\n", name, why);
	return -1;
}

/* A word make, the shell and sed take as it is: [a-z0-9_]. */
static bool plain(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

/* What the lists below are made of: a field of a row, NULL to leave it out. */
static const char *name(const struct algo *a) { return a->name; }
static const char *object(const struct algo *a) { return a->object; }
static const char *variant(const struct algo *a) { return a->variant; }
static const char *modelled(const struct algo *a) { return a->model ? a->name : NULL; }

/* No two of the first n + 1 rows have the same field, when they have it. */
static bool unique(const struct algo *t, size_t n, const char *(*field)(const struct algo *a))
{
	size_t i;

	for (i = 0; field(&t[n]) && i < n; i++)
		if (field(&t[i]) && !strcmp(field(&t[i]), field(&t[n])))
			return false;
	return true;
}

static int check(const struct algo *t, size_t n)
{
	const char *(*words[])(const struct algo *a) = { name, object, variant };
	size_t i, w;

	for (i = 0; i < n; i++) {
		const struct algo *a = &t[i];

		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			const char *s = words[w](a);

			if (s && !plain(s))
				return refuse(s, "not a word of [a-z0-9_]");
			if (!unique(t, i, words[w]))
				return refuse(s, "in two rows");
		}
		if (!i && !a->object)
			return refuse(a->name, "the first row, the seed, has no shipped object");
		if (a->object && !undo_cflags[a->undo])
			return refuse(a->name, "bic.bpf.c has no such undo rule");
	}
	return 0;
}

/* "VAR := " and the field of each row that has it. */
static void list(const char *var, const struct algo *t, size_t n,
		 const char *(*field)(const struct algo *a))
{
	size_t i;

	printf("%s :=", var);
	for (i = 0; i < n; i++)
		if (field(&t[i]))
			printf(" %s", field(&t[i]));
	printf("\n");
}

static void make_fragment(const struct algo *t, size_t n)
{
	const char *u;
	size_t i;

	printf("# Written by mk/algos.c from bpf/algos.h, the table of algorithms: edit that.\n");
	printf("# Every algorithm, as the kernel lists it:\n");
	list("ALGO_NAMES", t, n, name);
	printf("# The objects make install ships and ccctl holds, and their variants:\n");
	list("ALGO_SHIPPED", t, n, object);
	list("ALGO_VARIANTS", t, n, variant);
	printf("# The algorithms the drill model predicts:\n");
	list("ALGO_MODELLED", t, n, modelled);
	printf("# What object O is built with, beyond BPF_CFLAGS and its form's: ALGO_CFLAGS_O.\n");
	for (i = 0; i < n; i++) {
		if (!t[i].object)
			continue;
		u = undo_cflags[t[i].undo];
		printf("ALGO_CFLAGS_%s :=%s%s", t[i].object, *u ? " " : "", u);
		if (i)
			printf(" -DBIC_CA_NAME='\"%s\"'", t[i].name);
		printf("\n");
	}
}

static void tsv(const struct algo *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%s\t%d\t%d\n", t[i].name, t[i].object ?: "-",
		       t[i].variant ?: "-", undo_rule[t[i].undo], t[i].bic, t[i].model);
}

int main(int argc, char **argv)
{
	const struct algo *t;
	size_t n;

	t = algo_table(&n);
	if (argc != 2 || (strcmp(argv[1], "mk") && strcmp(argv[1], "tsv"))) {
		fprintf(stderr, "usage: algos-gen mk|tsv\n");
		return 2;
	}
	if (check(t, n))
		return 1;
	if (!strcmp(argv[1], "mk"))
		make_fragment(t, n);
	else
		tsv(t, n);
	return fflush(stdout) ? 1 : 0;
}
