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
 * they are how later runs find them again.  LOCK_FILE, which nothing
 * removes, is the lock that lets one ccctl at a time change them, or any
 * other state: defaults, sockets' algorithms.
 */
#ifndef __CCCTL_PINS_H
#define __CCCTL_PINS_H

#include <stdbool.h>
#include <stddef.h>
#include "names.h"

#define BPF_FS		"/sys/fs/bpf"
#define PIN_ROOT	BPF_FS "/ccctl"
/*
 * Not on bpffs, which holds no plain files, and not PIN_ROOT, a directory
 * that bpf-bic-apply stop removes (flock does not stop rmdir: two ccctl
 * would each hold "the" lock on inodes of their own); in a directory of
 * its own in /run, which only root writes (a file in the world-writable
 * /run/lock could be made and held by anyone) and which bpf-bic.service,
 * whose /run is read-only, gets writable as a RuntimeDirectory.
 */
#define LOCK_DIR	"/run/ccctl"
#define LOCK_FILE	LOCK_DIR "/lock"
/*
 * A descriptor of LOCK_FILE, inherited from a caller that holds the lock
 * for a transaction of several ccctl runs (bpf-bic-apply): used instead of
 * waiting for that very caller.
 */
#define LOCK_FD_ENV	"CCCTL_LOCK_FD"

/* The BPF filesystem at BPF_FS is there and no other hides it; reported. */
int pins_check_fs(void);

/*
 * Take the lock, LOCK_FILE (made if need be), waiting for another ccctl up
 * to a few seconds; held until exit.  Reported.
 */
int pins_lock(void);

/* The paths of a registration of NAME.  Names are short, so are these. */
struct pin {
	char dir[64];
	char link[64];
	char map[64];
};

void pin_paths(const char *name, struct pin *p);

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
