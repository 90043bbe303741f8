/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A registration as ccctl pinned it (pins.h: PIN_ROOT/NAME/link, or before
 * 6.4 PIN_ROOT/NAME/map), for every part that reads one: reg.c's
 * unregister and swap, list.c, assign.c, the sweep of stale pins (pins.c)
 * and bictrace, which names a ring by it.  Making one, and pinning it, is
 * reg.c's alone.
 */
#ifndef __CCCTL_REGISTRATION_H
#define __CCCTL_REGISTRATION_H

#include <stdbool.h>
#include <linux/types.h>
#include "pins.h"

/* A registration ccctl pinned: an fd of the link or of the map, and where. */
struct reg {
	int fd;
	bool is_link;
	struct pin pin;
	const char *path;	/* the pin fd came from */
};

/* Open what is pinned for NAME, unreported; -errno (-ENOENT: nothing is). */
int reg_get(const char *name, struct reg *r);

/* The same, reported: "NAME is not registered by ccctl" and the like. */
int reg_open(const char *name, struct reg *r);

/*
 * The kernel still has r registered (not a pin left by a killed ccctl);
 * its link's and map's ids to link_id and map_id, each may be NULL: 0
 * where unreadable (a detached link's map).
 */
bool reg_live(const struct reg *r, __u32 *link_id, __u32 *map_id);

/* The ids of a struct_ops link and of its map. */
int link_ids(int fd, __u32 *link_id, __u32 *map_id);

#endif /* __CCCTL_REGISTRATION_H */
