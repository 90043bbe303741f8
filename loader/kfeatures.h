/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel can do with struct_ops congestion control, found
 * out once per ccctl run, by asking the kernel rather than its version.
 */
#ifndef __CCCTL_KFEATURES_H
#define __CCCTL_KFEATURES_H

#include <stdbool.h>

/*
 * BPF_F_LINK, the struct_ops map flag of uapi 6.4: the build host's
 * <linux/bpf.h> (bookworm's, 6.1) predates it.
 */
#define STRUCT_OPS_F_LINK	(1U << 13)

/* The release that brought each feature, for messages that say what to run. */
#define STRUCT_OPS_LINK_SINCE	"6.4"

struct kernel_features {
	/* struct_ops maps created with BPF_F_LINK and registered by a link */
	bool struct_ops_link;
	/* BPF_LINK_UPDATE moves a struct_ops link to another map (swap) */
	bool struct_ops_update;
};

/*
 * Probe what f holds; whether links can be updated only with update (it
 * reads the kernel's BTF).
 */
int probe_features(struct kernel_features *f, bool update);

#endif /* __CCCTL_KFEATURES_H */
