// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel feature probes for ccctl.
 *
 * struct_ops links: the kernel is asked to create a struct_ops map of a
 * value type it has none of, once without and once with BPF_F_LINK.  A
 * struct_ops map's flags are checked before its value type is looked up
 * (map_alloc_check, then map_alloc): a kernel that takes the flag refuses
 * the type (ENOTSUPP), one before 6.4 refuses the flag (EINVAL).  The map
 * is never created, and no BTF is read: libbpf reads the kernel's BTF
 * again in every load, and a read is most of a register under emulation.
 *
 * In-place update: the kernel's struct bpf_struct_ops gained its update()
 * callback, which BPF_LINK_UPDATE of a struct_ops link calls, in the same
 * release.  Its BTF says whether the running kernel has it; only swap and
 * features ask.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "btf_util.h"
#include "kfeatures.h"

/* The kernel's "operation not supported" (include/linux/errno.h), not ENOTSUP. */
#define KERNEL_ENOTSUPP	524

/* No BTF has this many types (BTF_MAX_TYPE is 2^20 - 1): no struct_ops's value. */
#define NO_VALUE_TYPE	UINT32_MAX

/* What creating a struct_ops map of no known value type with these flags says. */
static int refuse_ops_map(__u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .btf_vmlinux_value_type_id = NO_VALUE_TYPE,
		    .map_flags = flags);
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "ccctl_probe", sizeof(__u32), sizeof(__u32),
			    1, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int probe_struct_ops_link(bool *has)
{
	int err;

	/*
	 * Without the flag the refusal must be the type's, or an EINVAL with
	 * it would say nothing about links.
	 */
	err = refuse_ops_map(0);
	if (err != -KERNEL_ENOTSUPP)
		return err ? err : -EPROTO;
	err = refuse_ops_map(STRUCT_OPS_F_LINK);
	*has = err == -KERNEL_ENOTSUPP;
	if (*has || err == -EINVAL)
		return 0;
	return err ? err : -EPROTO;
}

int probe_features(struct kernel_features *f, bool update)
{
	const struct btf *vmlinux;
	int err;

	memset(f, 0, sizeof(*f));
	err = probe_struct_ops_link(&f->struct_ops_link);
	if (err || !update || !f->struct_ops_link)
		return err;
	vmlinux = vmlinux_btf();
	if (!vmlinux)
		return -errno;
	f->struct_ops_update = btf_struct_has_member(vmlinux, "bpf_struct_ops", "update");
	return 0;
}
