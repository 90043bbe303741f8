/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-cgroup congestion control: ccctl assign and unassign.  An assignment
 * is a sock_ops program (bpf/assign.bpf.c) attached to a cgroup v2 through
 * a link pinned beside the algorithm's registration, at
 * PIN_ROOT/NAME/cgroup-ID, ID being the cgroup's id (its inode number).
 */
#ifndef __CCCTL_CGROUP_H
#define __CCCTL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

/* Attach the program that puts new connections of cgroup path on ca. */
int cgroup_assign(const char *ca, const char *path);

/* Detach whatever is assigned to cgroup path. */
int cgroup_unassign(const char *path);

/*
 * Call fn with the path of every cgroup that algorithm ca is assigned to,
 * stopping at fn's first non-zero return, which it returns.  Assignments
 * whose cgroup is gone are not shown (cgroup_clear_stale() removes them).
 */
int cgroup_each_assigned(const char *ca, int (*fn)(void *ctx, const char *path), void *ctx);

/*
 * Unpin the assignments of ca whose cgroup is gone (the kernel detached
 * their links with it), or, with all, every assignment of ca: for an
 * algorithm no longer registered.  Only under ccctl's lock.
 */
void cgroup_clear_stale(const char *ca, bool all);

#endif /* __CCCTL_CGROUP_H */
