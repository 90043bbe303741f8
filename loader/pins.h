/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccctl's pins under /sys/fs/bpf/ccctl, the only place their layout is
 * written:
 *
 *   PIN_ROOT/NAME/link		a registration: its struct_ops link (6.4+)
 *   PIN_ROOT/NAME/map		or, before 6.4, its struct_ops map
 *   PIN_ROOT/NAME/cgroup-ID	an assignment of NAME to the cgroup whose id
 *				(inode number) is ID: its cgroup link
 *
 * The pins keep registrations and assignments alive after ccctl exits, and
 * they are how later runs find them again.  PIN_ROOT itself is the lock
 * that lets one ccctl at a time change them.
 */
#ifndef __CCCTL_PINS_H
#define __CCCTL_PINS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "names.h"

#define BPF_FS		"/sys/fs/bpf"
#define PIN_ROOT	BPF_FS "/ccctl"

/*
 * Take the lock on PIN_ROOT (made if need be), waiting for another ccctl up
 * to a few seconds; held until exit.  Reported.
 */
/* The BPF filesystem at BPF_FS is there and no other hides it; reported. */
int pins_check_fs(void);

int pins_lock(void);

/* The paths of a registration of NAME.  Names are short, so are these. */
struct pin {
	char dir[64];
	char link[64];
	char map[64];
};

void pin_paths(const char *name, struct pin *p);

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

/* Pin fd at path (pin_paths()'s link or map), making NAME's directory. Reported. */
int reg_pin(int fd, const char *name, const char *path);

/*
 * The kernel still has r registered (not a pin left by a killed ccctl);
 * its link's and map's ids to link_id and map_id, each may be NULL: 0
 * where unreadable (a detached link's map).
 */
bool reg_live(const struct reg *r, __u32 *link_id, __u32 *map_id);

/* The id of a map, and of a struct_ops link and its map. */
int map_id(int fd, __u32 *id);
int link_ids(int fd, __u32 *link_id, __u32 *map_id);

/*
 * Call fn with each NAME that has a directory under PIN_ROOT, in the order
 * the directory lists them, until fn returns non-zero, which it returns.
 * Reported when PIN_ROOT cannot be read (no PIN_ROOT is none).
 */
int each_pinned_name(int (*fn)(void *ctx, const char *name), void *ctx);

/* One assignment as pinned: its algorithm, its cgroup's id and its pin. */
struct assignment {
	char ca[CA_NAME_MAX];
	unsigned long long id;
	char pin[128];
};

/* Where the assignment of ca to cgroup id is pinned. */
void assignment_path(const char *ca, unsigned long long id, char *buf, size_t size);

/*
 * Call fn for every assignment pinned, of ca or (NULL) of any, live or not,
 * until fn returns non-zero, which it returns.
 */
int each_assignment(const char *ca, int (*fn)(void *ctx, const struct assignment *a),
		    void *ctx);

/* The assignment's link still holds its cgroup (the kernel detaches it when the cgroup goes). */
bool assignment_live(const struct assignment *a);

/* Detach and unpin an assignment.  Reported. */
int assignment_remove(const struct assignment *a);

/*
 * What a ccctl killed mid-command leaves: a pin of NAME while the kernel has
 * no algorithm of that name (a detached link, a map never written or already
 * deleted), an empty directory, assignments whose cgroup is gone or whose
 * algorithm is.  Removed by every command that takes the lock, which knows
 * that no other ccctl is half-way through making one.
 */
void pins_clear_stale(void);

#endif /* __CCCTL_PINS_H */
