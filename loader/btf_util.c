// SPDX-License-Identifier: GPL-2.0
/* BTF lookups: the kernel's BTF, a struct's member, a data section's variable. */
#include <errno.h>
#include <string.h>
#include "btf_util.h"

const struct btf *vmlinux_btf(void)
{
	static struct btf *vmlinux;
	static int err;

	if (!vmlinux && !err) {
		vmlinux = btf__load_vmlinux_btf();
		if (!vmlinux)
			err = errno;
	}
	if (!vmlinux)
		errno = err;
	return vmlinux;
}

const struct btf_member *btf_member_by_name(const struct btf *btf, const struct btf_type *t,
					    const char *name)
{
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_composite(t))
		return NULL;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return m;
	return NULL;
}

bool btf_struct_has_member(const struct btf *btf, const char *sname, const char *mname)
{
	__s32 id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);

	return id >= 0 && btf_member_by_name(btf, btf__type_by_id(btf, id), mname);
}

bool btf_struct_is(const struct btf *btf, const char *sname, __u32 size,
		   const struct btf_field *fields, int n)
{
	__s32 id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;
	int i;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	if (t->size != size || btf_vlen(t) != n)
		return false;
	for (i = 0, m = btf_members(t); i < n; i++, m++)
		if (btf_member_bitfield_size(t, i) ||
		    btf_member_bit_offset(t, i) != fields[i].offset * 8 ||
		    strcmp(btf__name_by_offset(btf, m->name_off), fields[i].name))
			return false;
	return true;
}

static bool same_name(const char *name, const char *arg)
{
	return !strcmp(name, arg);
}

static bool name_starts(const char *name, const char *arg)
{
	return !strncmp(name, arg, strlen(arg));
}

/* The first variable of data section sec whose name match()es arg; NULL: none. */
static const struct btf_var_secinfo *datasec_find(const struct btf *btf, const char *sec,
						  bool (*match)(const char *name, const char *arg),
						  const char *arg, const char **name)
{
	const struct btf_var_secinfo *v;
	const struct btf_type *t;
	__s32 id;
	int i;

	id = btf ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -ENOENT;
	if (id < 0)
		return NULL;
	t = btf__type_by_id(btf, id);
	for (i = 0, v = btf_var_secinfos(t); i < btf_vlen(t); i++, v++) {
		*name = btf__name_by_offset(btf, btf__type_by_id(btf, v->type)->name_off);
		if (match(*name, arg))
			return v;
	}
	return NULL;
}

int btf_datasec_var(const struct btf *btf, const char *sec, const char *var,
		    __u32 *offset, __u32 *size)
{
	const struct btf_var_secinfo *v;
	const char *name;

	v = datasec_find(btf, sec, same_name, var, &name);
	if (!v)
		return -ENOENT;
	*offset = v->offset;
	*size = v->size;
	return 0;
}

const char *btf_datasec_var_prefixed(const struct btf *btf, const char *sec, const char *prefix)
{
	const char *name;

	return datasec_find(btf, sec, name_starts, prefix, &name) ? name : NULL;
}
