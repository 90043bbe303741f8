/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The algorithms, each once: every congestion control the project builds,
 * drills or models, and what the parts that handle it need to know.
 *
 * C includes it: ccctl's built-in variants (loader/object.c), the drill
 * model (drill/model.c) and ackdrill.  What cannot include it takes it
 * from build/algos.mk and build/algos.tsv, which mk/algos.c writes from
 * it: make (the objects and their flags, the skeletons, the drill's
 * algorithms, and ccctl's variants written into bpf-bic-apply and the
 * bash completion as make installs them); tests/unit/test_algos.sh holds
 * the man pages, bpf-bic.conf and the drill's tests to it.
 *
 * ALGOS(A, SHIPPED, NONE) calls A(name, object, undo, bic, model) once an
 * algorithm, in this order:
 *
 *   name	the algorithm as the kernel lists it
 *		(tcp_available_congestion_control)
 *   object	the BPF object the table builds for it:
 *		SHIPPED(O, V): build/bpf/O.bpf.o, bpf/bic.bpf.c built with
 *		its undo rule's flag and its name (-DBIC_CA_NAME), in every
 *		form (nolink/, trace/, trace/nolink/), which make install
 *		ships and ccctl holds, from the skeleton O.skel.h, as
 *		--variant V;
 *		NONE(): none; the kernel's own, a module (kmod/), or make
 *		bench's eval/bpf source, which mk/bpf.mk builds by a rule of
 *		its own
 *   undo	what its undo gives back: UNDO_*, below
 *   bic	1 for a BIC: the delayed-ACK EWMA and the HZ/32 gate of its
 *		count, which ackdrill's gate guard watches
 *   model	1 if the drill model predicts its rows (make writes them for
 *		t_70 to compare with); ackdrill drills every algorithm here
 *		and no other
 *
 * The first row is the seed: its object is a SHIPPED one, ccctl's default
 * variant, and the only one built without -DBIC_CA_NAME, under the name
 * bic.bpf.c gives itself.
 */
#ifndef __ALGOS_H
#define __ALGOS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The undo rules (bic_math.h): the cwnd an undo of a spurious congestion
 * event gives back, and the flag that builds bic.bpf.c with the rule
 * (NULL: bic.bpf.c has no such rule).  UNDO_RESTORE also puts back BIC's
 * state before the reduction: Wmax, the search's epoch, and the EWMA a
 * Loss reset replaced.
 */
#define ALGO_UNDOS(U)								\
	U(UNDO_WMAX,	"max(cwnd, Wmax)",		"")			\
	U(UNDO_2611,	"max(cwnd, 2 ssthresh)",	"-DBIC_LEGACY_UNDO=1")	\
	U(UNDO_RESTORE,	"max(cwnd, prior_cwnd)",	"-DBIC_RESTORE_UNDO=1")	\
	U(UNDO_PRIOR,	"max(cwnd, prior_cwnd)",	NULL)

#define ALGOS(A, SHIPPED, NONE)								\
	/* name		   object			  undo		bic model */	\
	A(bpf_bic,	   SHIPPED(bic, fixed),		  UNDO_WMAX,	1, 1)		\
	A(bic_ref,	   NONE(),			  UNDO_WMAX,	1, 1)		\
	A(bic,		   NONE(),			  UNDO_PRIOR,	1, 1)		\
	A(bpf_bic_2611,	   SHIPPED(bic_2611, 2611),	  UNDO_2611,	1, 1)		\
	A(bpf_bic_restore, SHIPPED(bic_restore, restore), UNDO_RESTORE, 1, 1)		\
	A(reno,		   NONE(),			  UNDO_PRIOR,	0, 1)		\
	A(bpf_bic_1e,	   NONE(),			  UNDO_WMAX,	1, 0)

#define ALGO_UNDO_ENUM(undo, rule, cflags)	undo,
enum algo_undo { ALGO_UNDOS(ALGO_UNDO_ENUM) };

/* One row of the table. */
struct algo {
	const char *name;
	const char *object;	/* NULL: none */
	const char *variant;	/* ccctl's --variant; NULL: none */
	enum algo_undo undo;
	bool bic;
	bool model;
};

#define ALGO_SHIPPED(object, variant)	#object, #variant
#define ALGO_NONE()			NULL, NULL
#define ALGO_ROW(name, object, undo, bic, model) \
	{ #name, object, undo, bic, model },

/* Every row, in the table's order; *n of them. */
static inline const struct algo *algo_table(size_t *n)
{
	static const struct algo table[] = {
		ALGOS(ALGO_ROW, ALGO_SHIPPED, ALGO_NONE)
	};

	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

/* The row of the algorithm the kernel lists as name; NULL if none. */
static inline const struct algo *algo_find(const char *name)
{
	const struct algo *table;
	size_t i, n;

	table = algo_table(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* Its undo puts BIC's state back, not only cwnd. */
static inline bool algo_restores(const struct algo *a)
{
	return a->undo == UNDO_RESTORE;
}

#endif /* __ALGOS_H */
