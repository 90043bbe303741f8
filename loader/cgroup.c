// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl assign and unassign: congestion control per cgroup v2, the way
 * large deployments choose it per workload rather than per host.
 *
 * Each assignment is its own copy of bpf/assign.bpf.c, with the algorithm's
 * name in its .rodata, attached to one cgroup through a BPF link (cgroup
 * links: 5.7) and pinned at PIN_ROOT/NAME/cgroup-ID.  Pinned beside the
 * registration, it is found from either side: unregister sees that a cgroup
 * still names the algorithm, list shows the cgroups of each.  The id is the
 * cgroup's (on cgroup2 its directory's inode number): it is what the kernel
 * reports for the link, and a path is found again by walking the cgroup2
 * mount for it.  When a cgroup is removed the kernel detaches its links;
 * the pin of such a link is stale and is removed by the next ccctl that
 * holds the lock.
 *
 * Assignments do not nest: a socket of a cgroup runs the programs of every
 * ancestor too, the outermost last, so the outer cgroup's algorithm would
 * win over the inner one's.  Rather than a rule nobody expects, ccctl
 * refuses an assignment inside or around another.
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
#include "ccctl.h"
#include "cgroup.h"
#include "names.h"
#include "assign.skel.h"

#define PIN_PREFIX	"cgroup-"

/* One assignment as pinned: its algorithm, cgroup id and pin path. */
struct assignment {
	char ca[CA_NAME_MAX];
	unsigned long long id;
	char pin[128];
};

/* Where the cgroup2 hierarchy is mounted (the first mount of it), or NULL. */
static const char *cgroup2_root(void)
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
static int cgroup_path(unsigned long long id, char *path)
{
	const char *root = cgroup2_root();

	if (!root)
		return -ENOENT;
	walk_id = id;
	walk_found = path;
	return nftw(root, walk_one, 16, FTW_PHYS | FTW_MOUNT) == 1 ? 0 : -ENOENT;
}

/*
 * The cgroup at path: its id, and its path under the cgroup2 mount, which
 * is where ccctl finds assignments again (list, unregister) and what it
 * compares to see that they do not nest, whichever mount (another cgroup2
 * mount, a bind mount) path goes through.  One line says what is wrong when
 * path is not a cgroup v2 directory, or not one ccctl could find again.
 */
static int cgroup_resolve(const char *path, char *real, unsigned long long *id)
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

/* The cgroup id the pinned link at pin is attached to; 0 once its cgroup is gone. */
static unsigned long long link_cgroup(const char *pin)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	int fd;

	fd = bpf_obj_get(pin);
	if (fd < 0)
		return 0;
	if (bpf_link_get_info_by_fd(fd, &info, &len) || info.type != BPF_LINK_TYPE_CGROUP)
		info.cgroup.cgroup_id = 0;
	close(fd);
	return info.cgroup.cgroup_id;
}

/*
 * Call fn for every assignment pinned (of algorithm ca, or of any with
 * NULL), live or not; stops at fn's first non-zero return.
 */
static int each_pin(const char *ca, int (*fn)(void *ctx, const struct assignment *a),
		    void *ctx)
{
	struct dirent *de, *pe;
	struct assignment a;
	char dir[64];
	DIR *d, *p;
	int err = 0;

	d = opendir(PIN_ROOT);
	while (!err && d && (de = readdir(d))) {
		if (!valid_name(de->d_name) || (ca && strcmp(ca, de->d_name)))
			continue;
		snprintf(dir, sizeof(dir), PIN_ROOT "/%.15s", de->d_name);
		p = opendir(dir);
		while (!err && p && (pe = readdir(p))) {
			if (strncmp(pe->d_name, PIN_PREFIX, strlen(PIN_PREFIX)))
				continue;
			memset(&a, 0, sizeof(a));
			snprintf(a.ca, sizeof(a.ca), "%.15s", de->d_name);
			a.id = strtoull(pe->d_name + strlen(PIN_PREFIX), NULL, 10);
			snprintf(a.pin, sizeof(a.pin), "%s/%.40s", dir, pe->d_name);
			err = fn(ctx, &a);
		}
		if (p)
			closedir(p);
	}
	if (d)
		closedir(d);
	return err;
}

/* An assignment whose link still holds its cgroup. */
static bool live(const struct assignment *a)
{
	return a->id && link_cgroup(a->pin) == a->id;
}

struct each_ctx {
	int (*fn)(void *ctx, const char *path);
	void *ctx;
};

static int each_live(void *ctx, const struct assignment *a)
{
	struct each_ctx *e = ctx;
	char path[PATH_MAX];

	if (!live(a) || cgroup_path(a->id, path))
		return 0;
	return e->fn(e->ctx, path);
}

int cgroup_each_assigned(const char *ca, int (*fn)(void *ctx, const char *path), void *ctx)
{
	struct each_ctx e = { fn, ctx };

	return each_pin(ca, each_live, &e);
}

static int unpin(const struct assignment *a)
{
	int fd, err = 0;

	/* Detach, not only unpin, so that no stray fd keeps it attached. */
	fd = bpf_obj_get(a->pin);
	if (fd >= 0) {
		err = bpf_link_detach(fd);
		close(fd);
	}
	if (err && err != -ENOLINK)
		return fail(err, "cannot detach %s", a->pin);
	/* A detached link's pin is stale: the next ccctl to take the lock drops it. */
	fault_point("unassign:detached");
	if (unlink(a->pin) && errno != ENOENT)
		return fail(-errno, "cannot remove %s", a->pin);
	return 0;
}

static int clear_one(void *ctx, const struct assignment *a)
{
	bool all = *(bool *)ctx;

	if (all || !live(a))
		unpin(a);
	return 0;
}

void cgroup_clear_stale(const char *ca, bool all)
{
	each_pin(ca, clear_one, &all);
}

/* What an assignment to cgroup real (id) meets among those there are. */
struct conflict {
	const char *real;
	unsigned long long id;
	struct assignment found;
	char path[PATH_MAX];
};

/* Whether path is dir itself or below it. */
static bool within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int find_conflict(void *ctx, const struct assignment *a)
{
	struct conflict *c = ctx;

	if (!live(a) || cgroup_path(a->id, c->path))
		return 0;
	if (a->id != c->id && !within(c->real, c->path) && !within(c->path, c->real))
		return 0;
	c->found = *a;
	return 1;
}

int cgroup_assign(const char *ca, const char *path)
{
	struct conflict c = {};
	char real[PATH_MAX], pin[PATH_MAX];
	struct bpf_link *link = NULL;
	struct assign *skel;
	int cg, err;

	err = cgroup_resolve(path, real, &c.id);
	if (err)
		return err;
	c.real = real;
	if (each_pin(NULL, find_conflict, &c)) {
		if (c.found.id != c.id)
			return fail(0, "cannot assign %s to %s: it %s %s, which is assigned to %s "
				    "(assignments cannot nest)", ca, real,
				    within(real, c.path) ? "is inside" : "contains", c.path,
				    c.found.ca);
		if (!strcmp(c.found.ca, ca))
			return fail(0, "%s is already assigned to %s", ca, real);
		return fail(0, "%s is already assigned to %s; unassign it first", real,
			    c.found.ca);
	}

	cg = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0)
		return fail(-errno, "cannot open %s", real);
	skel = assign__open();
	if (!skel) {
		err = fail(-errno, "cannot open the assignment program");
		goto out;
	}
	snprintf((char *)skel->rodata->ca, sizeof(skel->rodata->ca), "%s", ca);
	err = assign__load(skel);
	if (err) {
		err = fail(err, "cannot load the assignment program");
		goto out;
	}
	link = bpf_program__attach_cgroup(skel->progs.assign_ca, cg);
	if (!link) {
		err = fail(-errno, "cannot attach to %s", real);
		goto out;
	}
	/* Until it is pinned, the link goes with ccctl: nothing is left half done. */
	fault_point("assign:attached");
	snprintf(pin, sizeof(pin), PIN_ROOT "/%s/" PIN_PREFIX "%llu", ca, c.id);
	err = bpf_link__pin(link, pin);
	if (err) {
		err = fail(err, "cannot pin %s", pin);
		goto out;
	}
	fault_point("assign:pinned");
	printf("assigned %s to %s\n", ca, real);
out:
	bpf_link__destroy(link);
	assign__destroy(skel);
	close(cg);
	return err;
}

static int find_id(void *ctx, const struct assignment *a)
{
	struct conflict *c = ctx;

	if (a->id != c->id || !live(a))
		return 0;
	c->found = *a;
	return 1;
}

int cgroup_unassign(const char *path)
{
	struct conflict c = {};
	char real[PATH_MAX];
	int err;

	err = cgroup_resolve(path, real, &c.id);
	if (err)
		return err;
	if (!each_pin(NULL, find_id, &c))
		return fail(0, "nothing is assigned to %s", real);
	err = unpin(&c.found);
	if (err)
		return err;
	printf("unassigned %s from %s\n", c.found.ca, real);
	return 0;
}
