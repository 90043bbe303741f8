// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel feature probes for ccctl.
 *
 * struct_ops links: a struct_ops map for tcp_congestion_ops is created with
 * BPF_F_LINK and closed again.  Kernels before 6.4 refuse any map flag on a
 * struct_ops map (EINVAL); later ones create it.  An empty map registers
 * nothing: only a value written to it, or a link made from it, would.
 *
 * In-place update: the kernel's struct bpf_struct_ops gained its update()
 * callback, which BPF_LINK_UPDATE of a struct_ops link calls, in the same
 * release.  Its BTF says whether the running kernel has it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "btf_util.h"
#include "kfeatures.h"

/* An empty struct_ops map for tcp_congestion_ops with these flags; an fd or -errno. */
static int create_ops_map(__s32 value_id, __u32 value_size, int btf_fd, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .btf_fd = btf_fd,
		    .btf_vmlinux_value_type_id = value_id,
		    .map_flags = flags);
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "ccctl_probe", sizeof(__u32), value_size, 1,
			    &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int probe_struct_ops_link(const struct btf *vmlinux, bool *has)
{
	struct btf *prog_btf;
	__s32 id;
	__s64 size;
	int err;

	id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_tcp_congestion_ops",
				    BTF_KIND_STRUCT);
	if (id < 0)
		return -ENOENT;
	size = btf__resolve_size(vmlinux, id);
	if (size <= 0)
		return -EINVAL;

	/* The kernel wants the BTF of a program object beside any struct_ops map. */
	prog_btf = btf__new_empty();
	if (!prog_btf)
		return -errno;
	err = btf__add_int(prog_btf, "int", 4, BTF_INT_SIGNED);
	if (err > 0)
		err = btf__load_into_kernel(prog_btf);

	/*
	 * The same map without the flag must be created, or an EINVAL below
	 * would say nothing about links.
	 */
	if (!err)
		err = create_ops_map(id, size, btf__fd(prog_btf), 0);
	if (!err) {
		err = create_ops_map(id, size, btf__fd(prog_btf), STRUCT_OPS_F_LINK);
		*has = !err;
		if (err == -EINVAL)
			err = 0;
	}
	btf__free(prog_btf);
	return err;
}

int probe_features(struct kernel_features *f)
{
	struct btf *vmlinux;
	int err;

	memset(f, 0, sizeof(*f));
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return -errno;
	err = probe_struct_ops_link(vmlinux, &f->struct_ops_link);
	if (!err)
		f->struct_ops_update = f->struct_ops_link &&
				       btf_struct_has_member(vmlinux, "bpf_struct_ops", "update");
	btf__free(vmlinux);
	return err;
}
