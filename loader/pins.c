// SPDX-License-Identifier: GPL-2.0
/* ccctl's pins: their layout, their lock, and what is left of killed runs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include "common.h"
#include "pins.h"
#include "registration.h"

#define LOCK_WAIT_S	5	/* how long a second ccctl waits for the first */
#define ASSIGN_PREFIX	"cgroup-"

/*
 * Pins live on the BPF filesystem at BPF_FS, and only while it is the one
 * they were made on is ccctl's state all there.  A second bpffs mounted
 * over it (a second "mount -t bpf", a container runtime's setup run on the
 * host) hides them: list would show nothing and stop would undo nothing
 * while everything stays registered.  Mounts of the same bpffs (bind
 * mounts, propagation) share its device and hide nothing.
 */
int pins_check_fs(void)
{
	char line[4096], mnt[256], fstype[32], dev[32], first[32] = "";
	bool hidden = false;
	struct statfs fs;
	FILE *f;

	if (statfs(BPF_FS, &fs) || fs.f_type != BPF_FS_MAGIC)
		return fail(0, "no BPF filesystem at %s (mount -t bpf bpf %s)", BPF_FS, BPF_FS);
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return fail(-errno, "cannot read /proc/self/mountinfo");
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTIONS */
		if (!sep || sscanf(line, "%*s %*s %31s %*s %255s", dev, mnt) != 2 ||
		    sscanf(sep + 3, "%31s", fstype) != 1)
			continue;
		if (strcmp(mnt, BPF_FS) || strcmp(fstype, "bpf"))
			continue;
		if (!*first)
			snprintf(first, sizeof(first), "%s", dev);
		else if (strcmp(first, dev))
			hidden = true;
		if (hidden)
			break;
	}
	fclose(f);
	if (hidden)
		return fail(0, "a second BPF filesystem (device %s) is mounted over the one at %s "
			    "(device %s), hiding what ccctl pinned there; umount %s once, or "
			    "run ccctl where the first is seen", dev, BPF_FS, first, BPF_FS);
	return 0;
}

/*
 * The descriptor LOCK_FD_ENV names, if it is open on LOCK_FILE itself (the
 * same inode); -1 otherwise.
 */
static int inherited_lock(void)
{
	const char *env = getenv(LOCK_FD_ENV);
	struct stat a, b;
	char *end;
	long fd;

	if (!env || !*env)
		return -1;
	errno = 0;
	fd = strtol(env, &end, 10);
	if (errno || *end || fd < 0 || fd > 1024 || fstat(fd, &a) || stat(LOCK_FILE, &b) ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return -1;
	return fd;
}

/*
 * flock() on LOCK_FILE, which the kernel drops when its holder exits,
 * killed or not; the fd stays open until ccctl exits.  An inherited
 * descriptor whose open file holds it already locks at once (flock locks
 * belong to the open file, which the caller and ccctl then share).
 */
int pins_lock(void)
{
	int fd, i;

	fd = inherited_lock();
	if (fd < 0 && mkdir(LOCK_DIR, 0755) && errno != EEXIST)
		return fail(-errno, "cannot create %s", LOCK_DIR);
	if (fd < 0)
		fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(-errno, "cannot open %s", LOCK_FILE);
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK)
			return fail(-errno, "cannot lock %s", LOCK_FILE);
		if (i == LOCK_WAIT_S * 10)
			return fail(0, "busy: another ccctl has been changing state for %d s "
				    "(it holds a lock on %s)", LOCK_WAIT_S, LOCK_FILE);
		usleep(100 * 1000);
	}
	return 0;
}

void pin_paths(const char *name, struct pin *p)
{
	snprintf(p->dir, sizeof(p->dir), PIN_ROOT "/%.15s", name);
	snprintf(p->link, sizeof(p->link), PIN_ROOT "/%.15s/link", name);
	snprintf(p->map, sizeof(p->map), PIN_ROOT "/%.15s/map", name);
}

/* Unreported, an unreadable PIN_ROOT is the command's to report, or none. */
static int walk_names(int (*fn)(void *ctx, const char *name), void *ctx, bool report)
{
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(PIN_ROOT);
	if (!d)
		return errno == ENOENT || !report ? 0 : fail(-errno, "cannot read %s", PIN_ROOT);
	while (!err && (de = readdir(d)))
		if (valid_name(de->d_name))
			err = fn(ctx, de->d_name);
	closedir(d);
	return err;
}

int each_pinned_name(int (*fn)(void *ctx, const char *name), void *ctx)
{
	return walk_names(fn, ctx, true);
}

void assignment_path(const char *ca, unsigned long long id, char *buf, size_t size)
{
	snprintf(buf, size, PIN_ROOT "/%.15s/" ASSIGN_PREFIX "%llu", ca, id);
}

struct assign_walk {
	const char *ca;
	int (*fn)(void *ctx, const struct assignment *a);
	void *ctx;
};

static int each_assignment_of(void *ctx, const char *name)
{
	struct assign_walk *w = ctx;
	struct assignment a;
	struct dirent *de;
	struct pin pin = {};
	int err = 0;
	DIR *d;

	if (w->ca && strcmp(w->ca, name))
		return 0;
	pin_paths(name, &pin);
	d = opendir(pin.dir);
	while (!err && d && (de = readdir(d))) {
		if (strncmp(de->d_name, ASSIGN_PREFIX, strlen(ASSIGN_PREFIX)))
			continue;
		memset(&a, 0, sizeof(a));
		snprintf(a.ca, sizeof(a.ca), "%.15s", name);
		a.id = strtoull(de->d_name + strlen(ASSIGN_PREFIX), NULL, 10);
		snprintf(a.pin, sizeof(a.pin), "%s/%.40s", pin.dir, de->d_name);
		err = w->fn(w->ctx, &a);
	}
	if (d)
		closedir(d);
	return err;
}

int each_assignment(const char *ca, int (*fn)(void *ctx, const struct assignment *a),
		    void *ctx)
{
	struct assign_walk w = { ca, fn, ctx };

	return walk_names(each_assignment_of, &w, false);
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

bool assignment_live(const struct assignment *a)
{
	return a->id && link_cgroup(a->pin) == a->id;
}

int assignment_remove(const struct assignment *a)
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

static int clear_assignment(void *ctx, const struct assignment *a)
{
	bool all = *(bool *)ctx;

	if (all || !assignment_live(a))
		assignment_remove(a);
	return 0;
}

/*
 * A registration's pin is stale once the kernel says the registration is
 * gone (reg_live()), and then so are all its assignments, as they are
 * where nothing is pinned; an unreadable pin is left alone.  The directory goes once it is empty.
 */
static int clear_name(void *ctx, const char *name)
{
	struct reg r;
	bool all;
	int err;

	err = reg_get(name, &r);
	all = err == -ENOENT || (!err && !reg_live(&r, NULL, NULL));
	each_assignment(name, clear_assignment, &all);
	if (!err && all)
		unlink(r.path);
	if (!err)
		close(r.fd);
	rmdir(r.pin.dir);
	return 0;
}

void pins_clear_stale(void)
{
	walk_names(clear_name, NULL, false);
}
