// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2 as ccctl's assignments see it: where the hierarchy is mounted,
 * a cgroup's id (its directory's inode number on cgroup2, which is what the
 * kernel reports for a cgroup link) and its path under that mount, found
 * again from the id by walking the mount, and the live assignments of an
 * algorithm by path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cgroup.h"
#include "common.h"
#include "pins.h"

/* Where the cgroup2 hierarchy is mounted (the first mount of it), or NULL. */
const char *cgroup2_root(void)
{
	static char root[PATH_MAX];
	struct mntent *m;
	FILE *f;

	if (root[0])
		return root;
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return NULL;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup2") && realpath(m->mnt_dir, root))
			break;
		root[0] = '\0';
	}
	endmntent(f);
	return root[0] ? root : NULL;
}

/* nftw() takes no context: the id sought and where its path goes. */
static unsigned long long walk_id;
static char *walk_found;

static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (flag != FTW_D || st->st_ino != walk_id)
		return 0;
	snprintf(walk_found, PATH_MAX, "%s", path);
	return 1;
}

/* The path of the cgroup with that id under the cgroup2 mount; -ENOENT if gone. */
int cgroup_path(unsigned long long id, char *path)
{
	const char *root = cgroup2_root();
	bool found;

	if (!root)
		return -ENOENT;
	walk_id = id;
	walk_found = path;
	found = nftw(root, walk_one, 16, FTW_PHYS | FTW_MOUNT) == 1;
	walk_found = NULL;
	return found ? 0 : -ENOENT;
}

/*
 * The cgroup at path: its id, and its path under the cgroup2 mount, which
 * is where ccctl finds assignments again (list, unregister) and what it
 * compares to see that they do not nest, whichever mount (another cgroup2
 * mount, a bind mount) path goes through.  One line says what is wrong when
 * path is not a cgroup v2 directory, or not one ccctl could find again.
 */
int cgroup_resolve(const char *path, char *real, unsigned long long *id)
{
	struct statfs fs;
	struct stat st;

	if (!cgroup2_root())
		return fail(0, "no cgroup2 file system is mounted "
			    "(mount -t cgroup2 none /sys/fs/cgroup)");
	if (!realpath(path, real))
		return fail(-errno, "cannot find cgroup %s", path);
	if (statfs(real, &fs) || stat(real, &st))
		return fail(-errno, "cannot read %s", real);
	if (fs.f_type != CGROUP2_SUPER_MAGIC || !S_ISDIR(st.st_mode))
		return fail(0, "%s is not a cgroup (a directory of the cgroup2 file system)", path);
	*id = st.st_ino;
	if (cgroup_path(*id, real))
		return fail(0, "cgroup %s is not under %s, where ccctl looks for cgroups",
			    path, cgroup2_root());
	return 0;
}

/* Whether path is dir itself or below it. */
bool cgroup_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

struct each_ctx {
	int (*fn)(void *ctx, const char *path);
	void *ctx;
};

static int each_live(void *ctx, const struct assignment *a)
{
	struct each_ctx *e = ctx;
	char path[PATH_MAX];

	if (!assignment_live(a) || cgroup_path(a->id, path))
		return 0;
	return e->fn(e->ctx, path);
}

int cgroup_each_assigned(const char *ca, int (*fn)(void *ctx, const char *path), void *ctx)
{
	struct each_ctx e = { fn, ctx };

	return each_assignment(ca, each_live, &e);
}
