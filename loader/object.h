/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One loadable tcp_congestion_ops: a BPF object built into ccctl (a
 * variant) or read from a file, opened with libbpf, prepared for this
 * kernel and loaded; and the value the kernel expects for it.
 */
#ifndef __CCCTL_OBJECT_H
#define __CCCTL_OBJECT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct bpf_object;
struct bpf_map;

/* What to load, as the command line says it. */
struct ca_spec {
	const char *variant;	/* a built-in object (NULL: the default), or */
	const char *object;	/* a BPF object file */
	const char *ops;	/* its tcp_congestion_ops of this name (own or map's) */
	const char *name;	/* register under this name instead of its own */
	bool trace;		/* turn the object's bic_trace switch on */
	bool link;		/* the kernel registers through struct_ops links */
	bool verbose;		/* --verbose: show a rejected program's log */
};

struct ca_obj {
	struct bpf_object *obj;
	struct bpf_map *ops;	/* its tcp_congestion_ops */
	char *name;		/* .name in the value ops is created with */
	char what[PATH_MAX + 16];	/* "variant V" or the file, for messages */
	char **logs;		/* each program's verifier log, if it is rejected */
	int nlogs;
	bool verbose;		/* --verbose: a rejected program's log on stderr */
};

/* The built-in variant called name exists. */
bool variant_known(const char *name);

/* The built-in variant loaded when none is named. */
const char *variant_default(void);

/* The variants' names joined as "a, b or c" (sep ", ") or "a|b|c" (sep "|"). */
const char *variant_names(const char *sep, const char *last);

/* Open and prepare what spec names; reported. */
int ca_open(struct ca_obj *ca, const struct ca_spec *spec);

/*
 * Load it into the kernel (the verifier runs here); reported, a program the
 * verifier rejects as such, by name.
 */
int ca_load(struct ca_obj *ca);

void ca_close(struct ca_obj *ca);

/*
 * Fill kval (ksize bytes) with the value the kernel expects for ca->ops
 * once loaded: the object's tcp_congestion_ops laid out as vmlinux's
 * bpf_struct_ops_tcp_congestion_ops, program fds in the function slots.
 * Unreported: -errno.
 */
int ca_kern_value(const struct ca_obj *ca, void *kval, size_t ksize);

#endif /* __CCCTL_OBJECT_H */
