// SPDX-License-Identifier: GPL-2.0
/* A registration ccctl pinned: found, opened, and asked of the kernel (registration.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "common.h"
#include "registration.h"

/* enum bpf_struct_ops_state, which no uapi header has */
#define STRUCT_OPS_STATE_INUSE	1

int reg_get(const char *name, struct reg *r)
{
	pin_paths(name, &r->pin);
	r->is_link = true;
	r->path = r->pin.link;
	r->fd = bpf_obj_get(r->path);
	if (r->fd < 0 && errno == ENOENT) {
		r->is_link = false;
		r->path = r->pin.map;
		r->fd = bpf_obj_get(r->path);
	}
	return r->fd < 0 ? -errno : 0;
}

int reg_open(const char *name, struct reg *r)
{
	int err;

	err = reg_get(name, r);
	if (err == -ENOENT)
		return fail(0, "%s is not registered by ccctl (nothing pinned in %s)",
			    name, r->pin.dir);
	if (err)
		return fail(err, "cannot open %s", r->path);
	return 0;
}

/*
 * The build host's <linux/bpf.h> predates struct_ops link info (6.4); the
 * kernel reports the map as the first word of bpf_link_info's union.
 */
int link_ids(int fd, __u32 *link_id, __u32 *map_id)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	int err;

	err = bpf_link_get_info_by_fd(fd, &info, &len);
	if (err)
		return err;
	if (info.type != BPF_LINK_TYPE_STRUCT_OPS)
		return -EINVAL;
	*link_id = info.id;
	memcpy(map_id, &info.raw_tracepoint, sizeof(*map_id));
	return 0;
}

/*
 * Whether the kernel still has r registered, in its own words: the sysctl
 * that lists the algorithms is cut short past about 128 of them.  A link
 * serves its map until it is detached (and shows map id 0 from then on,
 * 6.9); a map registered without a link is in use (BPF_STRUCT_OPS_STATE_
 * INUSE, the second word of its value) until its element is deleted.
 * The ids read on the way go to link_id and map_id (each may be NULL).
 */
bool reg_live(const struct reg *r, __u32 *link_id, __u32 *map_id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), zero = 0, link = 0, map = 0;
	bool live = false;
	__u32 *value;

	if (r->is_link) {
		live = !link_ids(r->fd, &link, &map) && map;
	} else if (!bpf_map_get_info_by_fd(r->fd, &info, &len) &&
		   info.type == BPF_MAP_TYPE_STRUCT_OPS && info.value_size >= 2 * sizeof(*value)) {
		map = info.id;
		value = calloc(1, info.value_size);
		if (value && !bpf_map_lookup_elem(r->fd, &zero, value))
			live = value[1] == STRUCT_OPS_STATE_INUSE;
		free(value);
	}
	if (link_id)
		*link_id = link;
	if (map_id)
		*map_id = map;
	return live;
}
