/* SPDX-License-Identifier: GPL-2.0 */
/* The lookups in BTF that ccctl and bictrace make, each written once. */
#ifndef __CCCTL_BTF_UTIL_H
#define __CCCTL_BTF_UTIL_H

#include <stdbool.h>
#include <bpf/btf.h>

/*
 * The running kernel's BTF, read once per run and kept until the run ends
 * (NULL, errno set, if it cannot be read).  Reading and indexing it is
 * most of a command's time under emulation, and libbpf reads it once more
 * inside every load that needs it, where ccctl cannot hand it over.
 */
const struct btf *vmlinux_btf(void);

/* The member of struct t called name, or NULL. */
const struct btf_member *btf_member_by_name(const struct btf *btf, const struct btf_type *t,
					    const char *name);

/* The struct called sname has a member called mname. */
bool btf_struct_has_member(const struct btf *btf, const char *sname, const char *mname);

/* A member of a struct as a reader was compiled with it. */
struct btf_field {
	const char *name;
	__u32 offset;		/* bytes */
};

/*
 * The struct called sname is size bytes with exactly the n members of
 * fields, in their order, at their offsets (none a bit-field).
 */
bool btf_struct_is(const struct btf *btf, const char *sname, __u32 size,
		   const struct btf_field *fields, int n);

/*
 * Where variable var of data section sec (".rodata") lives in the section:
 * its offset and size, or -ENOENT.
 */
int btf_datasec_var(const struct btf *btf, const char *sec, const char *var,
		    __u32 *offset, __u32 *size);

/* The name of the first variable of data section sec named prefix...; NULL: none. */
const char *btf_datasec_var_prefixed(const struct btf *btf, const char *sec, const char *prefix);

#endif /* __CCCTL_BTF_UTIL_H */
