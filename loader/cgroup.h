/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup v2 paths and ids, for ccctl's per-cgroup assignments (assign.c). */
#ifndef __CCCTL_CGROUP_H
#define __CCCTL_CGROUP_H

#include <stdbool.h>

/* Where the cgroup2 hierarchy is mounted (its first mount), or NULL. */
const char *cgroup2_root(void);

/* The path (PATH_MAX) of the cgroup with that id under cgroup2_root(); -ENOENT if gone. */
int cgroup_path(unsigned long long id, char *path);

/*
 * The cgroup at path: its id, and its path under the cgroup2 mount (real,
 * PATH_MAX), whichever mount (another cgroup2 mount, a bind mount) path goes
 * through.  One line says what is wrong when path is not a cgroup v2
 * directory, or not one ccctl could find again.
 */
int cgroup_resolve(const char *path, char *real, unsigned long long *id);

/* path is dir itself or below it. */
bool cgroup_within(const char *path, const char *dir);

/*
 * Call fn with the path of every cgroup that algorithm ca is assigned to,
 * stopping at fn's first non-zero return, which it returns.  Assignments
 * whose cgroup is gone are not shown (pins_clear_stale() removes them).
 */
int cgroup_each_assigned(const char *ca, int (*fn)(void *ctx, const char *path), void *ctx);

#endif /* __CCCTL_CGROUP_H */
