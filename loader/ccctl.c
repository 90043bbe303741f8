// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl: register BIC as a TCP congestion control, swap the implementation
 * behind a registered name, and move live connections between algorithms.
 *
 * A registration is a struct_ops link pinned at /sys/fs/bpf/ccctl/NAME/link
 * or, on kernels without struct_ops links (before 6.4), the struct_ops map
 * itself, registered by writing its value and pinned at .../NAME/map: the
 * pin keeps the algorithm alive after ccctl exits, and it is how later runs
 * find it again.  Every command either completes or leaves the kernel as it
 * found it, and reports what went wrong in one line.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bic_event.h"
#include "ccctl.h"
#include "cgroup.h"
#include "features.h"
#include "names.h"
#include "netns.h"
#include "sockdiag.h"
#include "sysctl.h"
#include "bic.skel.h"
#include "bic_2611.skel.h"
#include "bic_restore.skel.h"
#include "migrate.skel.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define LOCK_WAIT_S	5	/* how long a second ccctl waits for the first */

enum {
	OPT_VARIANT	= 1 << 0,
	OPT_NAME	= 1 << 1,
	OPT_OBJECT	= 1 << 2,
	OPT_JSON	= 1 << 3,
	OPT_TRACE	= 1 << 4,
	OPT_CGROUP	= 1 << 5,
	OPT_FROM	= 1 << 6,
};

enum {
	NEED_BTF	= 1 << 0,	/* loads BPF that is checked against vmlinux BTF */
	NEED_BPFFS	= 1 << 1,	/* reads or writes pins */
	NEED_FEATURES	= 1 << 2,	/* depends on what the kernel supports */
	NEED_LOCK	= 1 << 3,	/* changes registrations: one ccctl at a time */
};

/* Long-only options get keys outside the character range. */
enum { KEY_VARIANT = 0x100, KEY_NAME, KEY_OBJECT, KEY_TRACE, KEY_CGROUP, KEY_FROM };

static struct env {
	const char *variant;
	const char *name;
	const char *object;
	const char *cgroup;
	const char *from;
	bool json;
	bool trace;
	bool verbose;
	unsigned int opts;	/* OPT_* given on the command line */
	const char *args[3];	/* COMMAND and its operands */
	int nargs;		/* all positional arguments, even those not kept */
} env;

/* What the running kernel supports, probed once for commands that care. */
static struct kernel_features kf;

static const struct argp_option opts[] = {
	{ "variant", KEY_VARIANT, "fixed|2611|restore", 0,
	  "BIC implementation to load (default: fixed)", 0 },
	{ "name", KEY_NAME, "NAME", 0, "Load the algorithm under NAME instead of its own", 0 },
	{ "object", KEY_OBJECT, "FILE", 0, "Load tcp_congestion_ops from a BPF object FILE", 0 },
	{ "trace", KEY_TRACE, NULL, 0,
	  "register/swap: record BIC events for bictrace (default: off)", 0 },
	{ "cgroup", KEY_CGROUP, "PATH", 0, "assign/unassign: the cgroup v2 directory", 0 },
	{ "from", KEY_FROM, "OLD", 0,
	  "set-default: in every network namespace whose default is OLD", 0 },
	{ "json", 'j', NULL, 0, "list/status/features: print JSON", 0 },
	{ "verbose", 'v', NULL, 0, "Let libbpf print its log", 0 },
	{},
};

static const char doc[] =
	"Manage BIC TCP congestion control as BPF struct_ops.\v"
	"Commands:\n"
	"  register [--variant V] [--name NAME] [--object FILE] [--trace]\n"
	"                       load, register and pin under " PIN_ROOT "\n"
	"  unregister NAME      unregister; connections using NAME keep running\n"
	"  list, status [NAME]  registered algorithms and the sockets using them\n"
	"  set-default NAME [--from OLD]\n"
	"                       default algorithm of this network namespace, or\n"
	"                       of every one whose default is OLD\n"
	"  swap NAME [--variant V] [--name NAME] [--object FILE] [--trace]\n"
	"                       replace the implementation behind NAME; running\n"
	"                       connections keep the one they have\n"
	"  migrate FROM TO      switch connections (in every network namespace)\n"
	"                       from algorithm FROM to algorithm TO\n"
	"  assign NAME --cgroup PATH\n"
	"                       new connections of the cgroup's processes get NAME\n"
	"  unassign --cgroup PATH\n"
	"                       new connections of the cgroup get the default again\n"
	"  features             what this kernel supports (struct_ops links, swap)\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/*
		 * getopt has printed the one line that matters about a bad
		 * option; argp's "Try --help" line would be a second.
		 */
		state->err_stream = NULL;
		break;
	case KEY_VARIANT:
		env.variant = arg;
		env.opts |= OPT_VARIANT;
		break;
	case KEY_NAME:
		env.name = arg;
		env.opts |= OPT_NAME;
		break;
	case KEY_OBJECT:
		env.object = arg;
		env.opts |= OPT_OBJECT;
		break;
	case KEY_TRACE:
		env.trace = true;
		env.opts |= OPT_TRACE;
		break;
	case KEY_CGROUP:
		env.cgroup = arg;
		env.opts |= OPT_CGROUP;
		break;
	case KEY_FROM:
		env.from = arg;
		env.opts |= OPT_FROM;
		break;
	case 'j':
		env.json = true;
		env.opts |= OPT_JSON;
		break;
	case 'v':
		env.verbose = true;
		break;
	case ARGP_KEY_ARG:
		if (env.nargs < (int)(sizeof(env.args) / sizeof(env.args[0])))
			env.args[env.nargs] = arg;
		env.nargs++;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "COMMAND [ARG...]",
	.doc = doc,
};

/* libbpf's own messages would bury the one line that says what went wrong. */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

static int verbose_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return vfprintf(stderr, fmt, args);
}

/* Print "ccctl: MESSAGE[: ERROR]" and return a negative error for the caller to pass up. */
int fail(int err, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	fputs("ccctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err) {
		libbpf_strerror(err, buf, sizeof(buf));
		fprintf(stderr, ": %s", buf);
	}
	fputc('\n', stderr);
	return err ? -abs(err) : -EINVAL;
}

#ifdef CCCTL_FAULTS
/*
 * The test build (ccctl-faults) dies at the step CCCTL_FAULT names, as a
 * kill -9 or a crash there would: the tests check that every step leaves a
 * state the next command can work from.
 */
void fault_point(const char *step)
{
	const char *want = getenv("CCCTL_FAULT");

	if (want && !strcmp(want, step))
		kill(getpid(), SIGKILL);
}
#else
void fault_point(const char *step)
{
}
#endif

/* --- the system ccctl runs on --------------------------------------------- */

/*
 * One ccctl at a time changes registrations: a second one waits for the
 * first, up to LOCK_WAIT_S, then gives up in one line.  The lock is
 * flock() on the pin directory, which the kernel drops when its holder
 * exits, killed or not; the fd stays open until ccctl exits.
 */
static int lock_pins(void)
{
	int fd, i;

	if (mkdir(PIN_ROOT, 0700) && errno != EEXIST)
		return fail(-errno, "cannot create %s", PIN_ROOT);
	fd = open(PIN_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(-errno, "cannot open %s", PIN_ROOT);
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK)
			return fail(-errno, "cannot lock %s", PIN_ROOT);
		if (i == LOCK_WAIT_S * 10)
			return fail(0, "busy: another ccctl has been changing registrations "
				    "for %d s (it holds a lock on %s)", LOCK_WAIT_S, PIN_ROOT);
		usleep(100 * 1000);
	}
	return 0;
}

/* Effective capabilities are what the kernel checks; a uid of 0 says little. */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

static int check_system(unsigned int needs)
{
	struct statfs fs;
	int err;

	if (!has_cap(CAP_SYS_ADMIN) || !has_cap(CAP_NET_ADMIN))
		return fail(0, "must run as root (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)");
	/* libbpf would fall back to files in /boot that describe no running kernel. */
	if ((needs & NEED_BTF) && access(VMLINUX_BTF, R_OK))
		return fail(0, "kernel has no BTF (no %s): struct_ops needs CONFIG_DEBUG_INFO_BTF",
			    VMLINUX_BTF);
	if ((needs & NEED_BPFFS) && (statfs(BPF_FS, &fs) || fs.f_type != BPF_FS_MAGIC))
		return fail(0, "no BPF filesystem at %s (mount -t bpf bpf %s)", BPF_FS, BPF_FS);
	if (needs & NEED_FEATURES) {
		err = probe_features(&kf);
		if (err)
			return fail(err, "cannot probe the kernel's struct_ops support");
	}
	return 0;
}

/* An argument with a control character is refused before anything parses it. */
static int check_args(int argc, char **argv)
{
	int i, c;

	for (i = 1; i < argc; i++) {
		c = control_char(argv[i]);
		if (c)
			return fail(0, "argument %d has a control character (0x%02x): "
				    "arguments must be printable", i, c);
	}
	return 0;
}

/*
 * Where the registration of algorithm NAME is pinned: its link, or its map
 * where the kernel has no struct_ops links.  Names are short, so are these.
 */
struct pin {
	char dir[64];
	char link[64];
	char map[64];
};

static void pin_paths(const char *name, struct pin *p)
{
	snprintf(p->dir, sizeof(p->dir), PIN_ROOT "/%.15s", name);
	snprintf(p->link, sizeof(p->link), PIN_ROOT "/%.15s/link", name);
	snprintf(p->map, sizeof(p->map), PIN_ROOT "/%.15s/map", name);
}

static int map_id(int fd, __u32 *id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int err;

	err = bpf_map_get_info_by_fd(fd, &info, &len);
	if (err)
		return err;
	*id = info.id;
	return 0;
}

/*
 * The build host's <linux/bpf.h> predates struct_ops link info (6.4); the
 * kernel reports the map as the first word of bpf_link_info's union.
 */
static int link_ids(int fd, __u32 *link_id, __u32 *map_id)
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

/* A registration ccctl pinned: an fd of the link or of the map, and where. */
struct reg {
	int fd;
	bool is_link;
	struct pin pin;
	const char *path;	/* the pin fd came from */
};

/* Open what is pinned for NAME without reporting; -errno if nothing is. */
static int reg_get(const char *name, struct reg *r)
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

static int open_registered(const char *name, struct reg *r)
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

/* --- one loadable tcp_congestion_ops -------------------------------------- */

/*
 * The objects built into ccctl: bic.bpf.c with each of its undo rules, as
 * the skeletons embed them, opened under the skeletons' object names (the
 * names of their maps derive from it).
 */
static const struct variant {
	const char *name;	/* --variant */
	const char *object;
	const void *(*elf)(size_t *sz);
} variants[] = {
	{ "fixed", "bic", bic__elf_bytes },		/* bpf_bic: the seed */
	{ "2611", "bic_2611", bic_2611__elf_bytes },	/* bpf_bic_2611: the bug */
	{ "restore", "bic_restore", bic_restore__elf_bytes }, /* bpf_bic_restore */
};

#define VARIANT_NAMES	"fixed, 2611 or restore"

static const struct variant *variant_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		if (!strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

struct ca_obj {
	struct bpf_object *obj;
	struct bpf_map *ops;	/* its tcp_congestion_ops */
	char *name;		/* .name in the value ops is created with */
	char what[PATH_MAX + 16];
};

/*
 * The skeleton's shadow of tcp_congestion_ops is the value the map will be
 * created with, but bpftool types the name array as opaque padding
 * (__unsupported_N), so the member is looked up in the object's BTF.
 */
static char *ops_name(struct bpf_object *obj, struct bpf_map *ops, void *shadow)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *t;
	const struct btf_member *m;
	int i;

	t = btf__type_by_id(btf, bpf_map__btf_value_type_id(ops));
	if (!t || !btf_is_struct(t) || strcmp(btf__name_by_offset(btf, t->name_off),
					      "tcp_congestion_ops"))
		return NULL;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), "name"))
			continue;
		if (btf__resolve_size(btf, m->type) != CA_NAME_MAX)
			return NULL;
		return (char *)shadow + m->offset / 8;
	}
	return NULL;
}

static int ca_open_file(struct ca_obj *ca)
{
	ca->obj = bpf_object__open_file(env.object, NULL);
	if (!ca->obj) {
		if (errno == ENOENT || errno == EACCES)
			return fail(-errno, "cannot open %s", env.object);
		return fail(-errno, "%s is not a usable BPF object", env.object);
	}
	return 0;
}

static int ca_open_variant(struct ca_obj *ca, const struct variant *v)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = v->object);
	const void *elf;
	size_t size;

	elf = v->elf(&size);
	ca->obj = bpf_object__open_mem(elf, size, &opts);
	if (!ca->obj)
		return fail(-errno, "cannot open the embedded %s", ca->what);
	return 0;
}

/* The object's tcp_congestion_ops and the name it will register under. */
static int ca_find_ops(struct ca_obj *ca)
{
	struct bpf_map *map;
	const char *why;

	bpf_object__for_each_map(map, ca->obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		ca->ops = map;
		ca->name = ops_name(ca->obj, map, bpf_map__initial_value(map, NULL));
		if (!ca->name)
			continue;
		/* Every later message shows it: the same rule as for names given. */
		why = env.name ? NULL : name_problem(ca->name);
		if (why)
			return fail(0, "%s names its tcp_congestion_ops '%s': %s (%s; "
				    "--name gives it another)", ca->what, name_shown(ca->name),
				    why, NAME_RULE);
		return 0;
	}
	return fail(0, "%s holds no tcp_congestion_ops", ca->what);
}

/*
 * Where an object keeps its tracing switch, bic.bpf.c's "const volatile bool
 * bic_trace": the byte in its .rodata map's initial value, found through the
 * object's BTF; NULL if it has none.
 */
static bool *trace_switch(struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *v;
	const struct btf_type *sec, *var;
	struct bpf_map *map;
	const char *name;
	size_t size;
	char *data;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	if (id < 0)
		return NULL;
	sec = btf__type_by_id(btf, id);
	bpf_object__for_each_map(map, obj) {
		name = bpf_map__name(map);
		if (!bpf_map__is_internal(map) || strlen(name) < 7 ||
		    strcmp(name + strlen(name) - 7, ".rodata"))
			continue;
		data = bpf_map__initial_value(map, &size);
		for (i = 0, v = btf_var_secinfos(sec); data && i < btf_vlen(sec); i++, v++) {
			var = btf__type_by_id(btf, v->type);
			if (!strcmp(btf__name_by_offset(btf, var->name_off), "bic_trace") &&
			    v->size == sizeof(bool) && v->offset + v->size <= size)
				return (bool *)(data + v->offset);
		}
	}
	return NULL;
}

/*
 * Tracing on only when asked for: an untraced object gets no ring buffer at
 * all (the verifier has dropped the code that would write it).
 */
static int ca_set_trace(struct ca_obj *ca)
{
	bool *on = trace_switch(ca->obj);
	struct bpf_map *ring;

	if (!on)
		return env.trace ? fail(0, "%s has no tracing switch (bic_trace): "
					"cannot --trace it", ca->what) : 0;
	*on = env.trace;
	ring = bpf_object__find_map_by_name(ca->obj, "events");
	if (ring && bpf_map__set_autocreate(ring, env.trace))
		return fail(0, "cannot prepare %s", ca->what);
	return 0;
}

static int ca_open(struct ca_obj *ca)
{
	const struct variant *v = variant_find(env.variant ?: "fixed");
	__u32 flags;
	int err;

	if (env.object) {
		snprintf(ca->what, sizeof(ca->what), "%s", env.object);
		err = ca_open_file(ca);
	} else {
		snprintf(ca->what, sizeof(ca->what), "variant %s", v->name);
		err = ca_open_variant(ca, v);
	}
	if (!err)
		err = ca_find_ops(ca);
	if (err)
		return err;

	if (env.name) {
		memset(ca->name, 0, CA_NAME_MAX);
		memcpy(ca->name, env.name, strlen(env.name));
	}

	/*
	 * SEC(".struct_ops") and SEC(".struct_ops.link") differ only in
	 * BPF_F_LINK on the map: take an object of either style the way this
	 * kernel can register it, through a link wherever there are links.
	 */
	flags = bpf_map__map_flags(ca->ops);
	flags = kf.struct_ops_link ? flags | STRUCT_OPS_F_LINK : flags & ~STRUCT_OPS_F_LINK;
	err = bpf_map__set_map_flags(ca->ops, flags);
	if (err)
		return fail(err, "cannot prepare %s", ca->what);
	return ca_set_trace(ca);
}

static int ca_load(struct ca_obj *ca)
{
	int err;

	err = bpf_object__load(ca->obj);
	if (err)
		return fail(err, "cannot load %s (%s)", ca->name, ca->what);
	return 0;
}

static void ca_close(struct ca_obj *ca)
{
	bpf_object__close(ca->obj);
}

/* --- commands ---------------------------------------------------------------- */

/* Pin fd at the registration's path, creating its directory (lock_pins() made PIN_ROOT). */
static int pin_reg(int fd, const char *name, const char *path)
{
	struct pin pin;
	int err;

	pin_paths(name, &pin);
	if (mkdir(pin.dir, 0700) && errno != EEXIST)
		return fail(-errno, "cannot create %s", pin.dir);
	fault_point("register:dir-made");
	err = bpf_obj_pin(fd, path);
	if (err) {
		rmdir(pin.dir);
		return fail(err, "cannot pin %s at %s", name, path);
	}
	return 0;
}

static int register_failed(const char *name)
{
	if (errno == EEXIST)
		return fail(0, "%s is already registered", name);
	return fail(-errno, "cannot register %s", name);
}

/* 6.4+: a struct_ops link registers the map; pinned, it outlives ccctl. */
static int register_link(const struct ca_obj *ca)
{
	struct bpf_link *link;
	struct pin pin;
	__u32 link_id, map;
	int err;

	link = bpf_map__attach_struct_ops(ca->ops);
	if (!link)
		return register_failed(ca->name);
	fault_point("register:registered");
	pin_paths(ca->name, &pin);
	err = pin_reg(bpf_link__fd(link), ca->name, pin.link);
	fault_point("register:pinned");
	if (!err && !link_ids(bpf_link__fd(link), &link_id, &map))
		printf("registered %s: map %u, link %u, pinned at %s\n",
		       ca->name, map, link_id, pin.link);
	/* Closes our fd only: a pinned link stays, an unpinned one unregisters. */
	bpf_link__destroy(link);
	return err;
}

/*
 * Before 6.4: writing the map's value registers it, and the kernel keeps
 * the map for as long as it stays registered; deleting the element
 * unregisters.  The pin is how ccctl finds it again, so it comes first: a
 * ccctl killed between the two leaves a pinned map that registers nothing
 * (the next register or unregister clears it), where the other order would
 * leave a registration that nothing points to.
 */
static int register_map(const struct ca_obj *ca)
{
	int fd = bpf_map__fd(ca->ops);
	struct bpf_link *reg;
	struct pin pin;
	__u32 id;
	int err;

	/* Ours, pinned already: the pin below would only say it exists. */
	if (ca_available(ca->name))
		return fail(0, "%s is already registered", ca->name);
	pin_paths(ca->name, &pin);
	err = pin_reg(fd, ca->name, pin.map);
	if (err)
		return err;
	fault_point("register:pinned");

	/* libbpf writes the value it prepared at load; its "link" is the map fd. */
	reg = bpf_map__attach_struct_ops(ca->ops);
	if (!reg) {
		err = register_failed(ca->name);
		unlink(pin.map);
		rmdir(pin.dir);
		return err;
	}
	bpf_link__disconnect(reg);
	bpf_link__destroy(reg);
	fault_point("register:registered");

	if (!map_id(fd, &id))
		printf("registered %s: map %u, no link (kernel before %s), pinned at %s\n",
		       ca->name, id, STRUCT_OPS_LINK_SINCE, pin.map);
	return 0;
}

/*
 * What a ccctl killed mid-command leaves: a pin of NAME while the kernel
 * has no algorithm of that name, so the pin registers nothing (a detached
 * link, a map never written or already deleted), or an empty directory;
 * and assignments to a cgroup that is gone, or of an algorithm that is.
 * Every command that takes the lock clears them all first: holding the
 * lock, it knows no other ccctl is half-way through making one.
 */
static void clear_stale(void)
{
	struct dirent *de;
	struct reg r;
	DIR *d;

	d = opendir(PIN_ROOT);
	while (d && (de = readdir(d))) {
		if (!valid_name(de->d_name))
			continue;
		if (ca_available(de->d_name)) {
			cgroup_clear_stale(de->d_name, false);
			continue;
		}
		cgroup_clear_stale(de->d_name, true);
		if (!reg_get(de->d_name, &r)) {
			close(r.fd);
			unlink(r.path);
		}
		rmdir(r.pin.dir);
	}
	if (d)
		closedir(d);
}

static int cmd_register(void)
{
	struct ca_obj ca = {};
	int err;

	err = ca_open(&ca);
	if (!err)
		err = ca_load(&ca);
	fault_point("register:loaded");
	if (!err)
		err = kf.struct_ops_link ? register_link(&ca) : register_map(&ca);
	ca_close(&ca);
	return err;
}

/*
 * The kernel lets an algorithm that is a namespace's default be unregistered:
 * the namespace then goes on giving new sockets an algorithm no longer listed,
 * which no set-default by name can bring back.  Refuse it in every namespace.
 */
static int refuse_default(void *ctx, const char *netns)
{
	const char *name = ctx;

	if (!ca_is_default(name))
		return 0;
	if (!strcmp(netns, "/proc/self/ns/net"))
		return fail(0, "%s is the default congestion control; set-default another first",
			    name);
	return fail(0, "%s is the default congestion control of network namespace %s; "
		    "set-default another there first", name, netns);
}

/* A cgroup that names an algorithm would quietly fall back to the default. */
static int refuse_assigned(void *ctx, const char *cgroup)
{
	return fail(0, "%s is assigned to cgroup %s; ccctl unassign --cgroup %s first",
		    (const char *)ctx, cgroup, cgroup);
}

static int cmd_unregister(void)
{
	const char *name = env.args[1];
	struct reg r;
	__u32 zero = 0;
	int err;

	err = open_registered(name, &r);
	if (err)
		return err;
	err = for_each_netns(refuse_default, (void *)name);
	if (!err)
		err = cgroup_each_assigned(name, refuse_assigned, (void *)name);
	if (err)
		goto out;

	/*
	 * Detach, rather than only unpin, so that no stray fd keeps it
	 * registered; a map that is no longer registered (ENOENT) is only
	 * unpinned.
	 */
	if (r.is_link) {
		err = bpf_link_detach(r.fd);
		if (err == -EOPNOTSUPP)
			err = 0;
	} else {
		/* Never written (ENOENT), or deleted and not yet freed (EINPROGRESS). */
		err = bpf_map_delete_elem(r.fd, &zero);
		if (err == -ENOENT || err == -EINPROGRESS)
			err = 0;
	}
	if (err) {
		err = fail(err, "cannot unregister %s", name);
		goto out;
	}
	fault_point("unregister:unregistered");
	if (unlink(r.path)) {
		err = fail(-errno, "cannot remove %s", r.path);
		goto out;
	}
	fault_point("unregister:unpinned");
	rmdir(r.pin.dir);
	printf("unregistered %s\n", name);
out:
	close(r.fd);
	return err;
}

struct ca_entry {
	char name[CA_NAME_MAX];
	__u32 map_id;
	__u32 link_id;		/* 0: registered through its map, no link */
	unsigned long sockets;
	bool is_default;
	char pinned[64];
	char **cgroups;		/* the cgroups it is assigned to */
	int ncgroups;
};

struct ca_list {
	struct ca_entry *e;
	int n;
};

static void count_socket(const char *ca, void *ctx)
{
	struct ca_list *l = ctx;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].name, ca))
			l->e[i].sockets++;
}

static int count_netns(void *ctx, const char *netns)
{
	return sockdiag_each_ca(count_socket, ctx);
}

/* sock_diag, not a TCP iterator: see migrate_netns(). */
static int count_sockets(struct ca_list *l)
{
	return for_each_netns(count_netns, l);
}

static int add_cgroup(void *ctx, const char *path)
{
	struct ca_entry *e = ctx;
	char **c;

	c = realloc(e->cgroups, (e->ncgroups + 1) * sizeof(*c));
	if (c)
		e->cgroups = c;
	if (!c || !(c[e->ncgroups] = strdup(path)))
		return fail(-ENOMEM, "cannot list the cgroups of %s", e->name);
	e->ncgroups++;
	return 0;
}

static int read_registered(struct ca_list *l, const char *only)
{
	struct ca_entry *e;
	struct dirent *de;
	struct reg r;
	int err = 0;
	DIR *d;

	d = opendir(PIN_ROOT);
	if (!d && errno != ENOENT)
		return fail(-errno, "cannot read %s", PIN_ROOT);
	while (d && (de = readdir(d))) {
		if (!valid_name(de->d_name) || (only && strcmp(only, de->d_name)))
			continue;
		if (reg_get(de->d_name, &r))
			continue;	/* not one of ours */
		if (!ca_available(de->d_name)) {
			close(r.fd);	/* stale: see clear_stale() */
			continue;
		}
		e = realloc(l->e, (l->n + 1) * sizeof(*e));
		if (!e) {
			close(r.fd);
			err = fail(-ENOMEM, "cannot list %s", PIN_ROOT);
			break;
		}
		l->e = e;
		e = &l->e[l->n++];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%.15s", de->d_name);
		e->is_default = ca_is_default(e->name);
		snprintf(e->pinned, sizeof(e->pinned), "%s", r.path);
		err = cgroup_each_assigned(e->name, add_cgroup, e);
		if (err) {
			close(r.fd);
			break;
		}
		/* Unreadable info shows as id 0, like a detached link. */
		if (r.is_link)
			link_ids(r.fd, &e->link_id, &e->map_id);
		else
			map_id(r.fd, &e->map_id);
		close(r.fd);
	}
	if (d)
		closedir(d);
	if (!err && only && !l->n)
		err = fail(0, "%s is not registered by ccctl", only);
	return err;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_list(const struct ca_list *l)
{
	const struct ca_entry *e;
	bool assigned = false;
	int i, j;

	if (!env.json)
		printf("%-15s %7s %7s %7s %-7s %s\n",
		       "NAME", "MAP_ID", "LINK_ID", "SOCKETS", "DEFAULT", "PINNED");
	else
		putchar('[');
	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		assigned |= e->ncgroups > 0;
		if (!env.json) {
			printf("%-15s %7u %7u %7lu %-7s %s\n", e->name, e->map_id, e->link_id,
			       e->sockets, e->is_default ? "yes" : "no", e->pinned);
			continue;
		}
		printf("%s{\"name\":", i ? "," : "");
		json_string(e->name);
		printf(",\"map_id\":%u,\"link_id\":%u,\"sockets\":%lu,\"default\":%s,\"pinned\":",
		       e->map_id, e->link_id, e->sockets, e->is_default ? "true" : "false");
		json_string(e->pinned);
		printf(",\"cgroups\":[");
		for (j = 0; j < e->ncgroups; j++) {
			if (j)
				putchar(',');
			json_string(e->cgroups[j]);
		}
		printf("]}");
	}
	if (env.json) {
		printf("]\n");
		return;
	}
	/* Only when there are any: the table above is what scripts have parsed. */
	if (assigned)
		printf("\n%-15s %s\n", "ASSIGNED", "CGROUP");
	for (i = 0; i < l->n; i++)
		for (j = 0; j < l->e[i].ncgroups; j++)
			printf("%-15s %s\n", l->e[i].name, l->e[i].cgroups[j]);
}

static int cmd_list(void)
{
	struct ca_list l = {};
	int err, i, j;

	err = read_registered(&l, env.nargs > 1 ? env.args[1] : NULL);
	if (!err && l.n)
		err = count_sockets(&l);
	if (!err)
		print_list(&l);
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < l.e[i].ncgroups; j++)
			free(l.e[i].cgroups[j]);
		free(l.e[i].cgroups);
	}
	free(l.e);
	return err;
}

static int cmd_set_default(void)
{
	const char *name = env.args[1];
	int err, changed;

	if (!env.from) {
		err = set_default(name);
		if (!err)
			printf("default congestion control: %s\n", name);
		return err;
	}
	err = replace_default(env.from, name, &changed);
	if (err)
		return err;
	printf("default congestion control: %s in %d network namespace%s that had %s\n",
	       name, changed, changed == 1 ? "" : "s", env.from);
	return 0;
}

/* The struct btf_member of @t named @name, or NULL. */
static const struct btf_member *member_by_name(const struct btf *btf, const struct btf_type *t,
					       const char *name)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return m;
	return NULL;
}

/*
 * Fill @kval with the value the kernel expects for ca->ops: the object's
 * tcp_congestion_ops laid out as vmlinux's bpf_struct_ops_tcp_congestion_ops,
 * program fds in the function slots.  libbpf builds the same thing when it
 * attaches, but only hands it to links it created itself, and the link a
 * swap goes behind is a pinned one.  Since libbpf 1.4 the map's initial
 * value (the skeleton's shadow) holds struct bpf_program pointers in the
 * function slots.
 */
static int ops_kern_value(const struct ca_obj *ca, void *kval, size_t ksize)
{
	const struct btf *btf = bpf_object__btf(ca->obj);
	const void *udata = bpf_map__initial_value(ca->ops, NULL);
	const struct btf_type *ut, *vt, *kt;
	const struct btf_member *um, *km, *data;
	struct btf *vmlinux;
	__s32 vt_id;
	int i, err = -EINVAL;

	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return -errno;
	vt_id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_tcp_congestion_ops",
				       BTF_KIND_STRUCT);
	vt = vt_id > 0 ? btf__type_by_id(vmlinux, vt_id) : NULL;
	data = vt ? member_by_name(vmlinux, vt, "data") : NULL;
	ut = btf__type_by_id(btf, bpf_map__btf_value_type_id(ca->ops));
	if (!data || !ut || !udata)
		goto out;
	kt = btf__type_by_id(vmlinux, data->type);

	memset(kval, 0, ksize);
	for (i = 0, um = btf_members(ut); i < btf_vlen(ut); i++, um++) {
		const char *mname = btf__name_by_offset(btf, um->name_off);
		const void *src = udata + um->offset / 8;
		const struct btf_type *mt;
		__s64 size;
		size_t koff;

		km = member_by_name(vmlinux, kt, mname);
		if (!km)
			goto out;
		koff = data->offset / 8 + km->offset / 8;
		mt = btf__type_by_id(btf, btf__resolve_type(btf, um->type));
		size = btf_is_ptr(mt) ? (__s64)sizeof(unsigned long) : btf__resolve_size(btf, um->type);
		if (size < 0 || koff + size > ksize)
			goto out;
		if (btf_is_ptr(mt)) {
			const struct bpf_program *prog = *(struct bpf_program *const *)src;
			unsigned long fd = prog ? bpf_program__fd(prog) : 0;

			memcpy(kval + koff, &fd, sizeof(fd));
			continue;
		}
		if (size != btf__resolve_size(vmlinux, km->type))
			goto out;
		memcpy(kval + koff, src, size);
	}
	err = 0;
out:
	btf__free(vmlinux);
	return err;
}

/*
 * Give the new map its value (which does not register it: only a link
 * does) and move the pinned link over to it, the kernel checking that the
 * name is the one the link already serves.
 */
static int swap_link(int link_fd, const struct ca_obj *ca)
{
	size_t ksize = bpf_map__value_size(ca->ops);
	int map_fd = bpf_map__fd(ca->ops);
	__u32 zero = 0;
	void *kval;
	int err;

	kval = calloc(1, ksize);
	if (!kval)
		return -ENOMEM;
	err = ops_kern_value(ca, kval, ksize);
	if (!err)
		err = bpf_map_update_elem(map_fd, &zero, kval, 0);
	fault_point("swap:prepared");
	if (!err)
		err = bpf_link_update(link_fd, map_fd, NULL);
	fault_point("swap:swapped");
	free(kval);
	return err;
}

static int cmd_swap(void)
{
	const char *name = env.args[1];
	struct ca_obj ca = {};
	__u32 link_id, old_map, new_map;
	struct reg r;
	int err;

	/* Before 6.4 only a new registration under another name can take over. */
	if (!kf.struct_ops_update)
		return fail(0, "cannot swap %s: this kernel cannot update a registered "
			    "struct_ops in place (BPF_LINK_UPDATE on struct_ops links, Linux %s); "
			    "register under another name (--name), then migrate %s NEWNAME",
			    name, STRUCT_OPS_LINK_SINCE, name);

	err = open_registered(name, &r);
	if (err)
		return err;
	if (!r.is_link || link_ids(r.fd, &link_id, &old_map)) {
		err = fail(0, "%s is not a struct_ops link: cannot swap %s", r.path, name);
		goto out;
	}
	err = ca_open(&ca);
	if (err)
		goto out;
	/* tcp_update_congestion_control() refuses a rename; say so before the kernel does. */
	if (strcmp(ca.name, name)) {
		err = fail(0, "cannot swap %s for %s: a swap must keep the name (add --name %s)",
			   name, ca.name, name);
		goto out;
	}
	err = ca_load(&ca);
	if (err)
		goto out;
	fault_point("swap:loaded");

	err = swap_link(r.fd, &ca);
	if (err == -EINVAL)
		err = fail(err, "kernel refused to swap %s (still registered under that name?)",
			   name);
	else if (err)
		err = fail(err, "cannot swap %s", name);
	if (err)
		goto out;

	if (!map_id(bpf_map__fd(ca.ops), &new_map))
		printf("swapped %s: map %u -> %u, link %u\n", name, old_map, new_map, link_id);
out:
	close(r.fd);
	ca_close(&ca);
	return err;
}

struct migrate_run {
	struct bpf_link *link;
	struct migrate *skel;
	const char *from, *to;
};

struct ca_count {
	const char *ca;
	unsigned long n;
};

static void count_ca(const char *ca, void *ctx)
{
	struct ca_count *c = ctx;

	if (!strcmp(ca, c->ca))
		c->n++;
}

/* Passes of migrate_ca over one namespace before ccctl gives up on it. */
#define MIGRATE_PASSES	8

/*
 * One namespace's sockets; the test build can die once some have moved.
 *
 * In 6.12 (6.12.95 here) and 6.1 the BPF TCP iterator can skip every socket of
 * one bucket of the established hash table.  bpf_iter_tcp_batch() starts
 * each batch with tcp_seek_last_pos() (net/ipv4/tcp_ipv4.c), whose
 * "while (offset-- && rc && bucket == st->bucket)" in the listening case
 * leaves offset at -1 when no listener is left to walk; it then falls
 * through to the established table with st->bucket = 0, and the same loop
 * there skips the whole first bucket holding a socket of the namespace
 * whenever that bucket's index is the bucket it was entered with: 0 in a
 * namespace with no listener, L + 1 after the last listener's bucket L.
 * migrate_ca never sees those sockets.  7.3 resumes batches by socket
 * cookie and does not skip.  So count what is left on FROM through
 * sock_diag, which walks the tables its own way, and while some is, open
 * one more listener on loopback (on TO, so that migrate_ca leaves it
 * alone) and run again: a listener in a later listening bucket moves the
 * bucket that is skipped.  The listeners close when the namespace is done.
 */
static int migrate_netns(void *ctx, const char *netns)
{
	struct migrate_run *m = ctx;
	int lfd[MIGRATE_PASSES];
	struct ca_count left;
	int err, n = 0;

	for (;;) {
		err = run_iter(m->link);
		if (!err && m->skel->bss->moved)
			fault_point("migrate:some-moved");
		/* What could not be moved is cmd_migrate()'s to report. */
		if (err || m->skel->bss->failed)
			break;
		left = (struct ca_count){ .ca = m->from };
		err = sockdiag_each_ca(count_ca, &left);
		if (err || !left.n)
			break;
		if (n == MIGRATE_PASSES) {
			err = fail(0, "%lu sockets in network namespace %s are still on %s after %d passes",
				   left.n, netns, m->from, n + 1);
			break;
		}
		lfd[n] = temp_listener(m->to);
		if (lfd[n] < 0) {
			err = lfd[n];
			break;
		}
		n++;
	}
	while (n--)
		close(lfd[n]);
	return err;
}

static int cmd_migrate(void)
{
	const char *from = env.args[1], *to = env.args[2];
	struct migrate_run m = { .from = from, .to = to };
	struct migrate *skel;
	int err;

	if (!strcmp(from, to))
		return fail(0, "nothing to migrate: FROM and TO are both %s", from);
	/* bpf_setsockopt() does not load modules: TO must be there already. */
	if (!ca_available(to))
		return fail(0, "%s is not a registered congestion control", to);

	skel = migrate__open();
	if (!skel)
		return fail(-errno, "cannot open the TCP iterator object");
	memcpy((char *)skel->rodata->from_ca, from, strlen(from));
	memcpy((char *)skel->rodata->to_ca, to, strlen(to));
	err = migrate__load(skel);
	if (err) {
		err = fail(err, "cannot load the TCP iterator");
		goto out;
	}
	m.skel = skel;
	m.link = bpf_program__attach_iter(skel->progs.migrate_ca, NULL);
	if (!m.link) {
		err = fail(-errno, "cannot attach the TCP iterator");
		goto out;
	}
	err = for_each_netns(migrate_netns, &m);
	if (err)
		goto out;

	if (skel->bss->failed) {
		err = fail(skel->bss->first_err,
			   "moved %llu sockets from %s to %s, %llu could not be moved",
			   (unsigned long long)skel->bss->moved, from, to,
			   (unsigned long long)skel->bss->failed);
		goto out;
	}
	printf("moved %llu sockets from %s to %s\n",
	       (unsigned long long)skel->bss->moved, from, to);
out:
	bpf_link__destroy(m.link);
	migrate__destroy(skel);
	return err;
}

static int cmd_assign(void)
{
	const char *name = env.args[1];
	struct reg r;
	int err;

	if (!env.cgroup)
		return fail(0, "usage: ccctl assign NAME --cgroup PATH");
	/* Only what ccctl registered: unregister must know a cgroup names it. */
	err = open_registered(name, &r);
	if (err)
		return err;
	close(r.fd);
	return cgroup_assign(name, env.cgroup);
}

static int cmd_unassign(void)
{
	if (!env.cgroup)
		return fail(0, "usage: ccctl unassign --cgroup PATH");
	return cgroup_unassign(env.cgroup);
}

static int cmd_features(void)
{
	if (env.json)
		printf("{\"struct_ops_link\":%s,\"struct_ops_update\":%s}\n",
		       kf.struct_ops_link ? "true" : "false",
		       kf.struct_ops_update ? "true" : "false");
	else
		printf("struct_ops links:   %s\nswap (link update): %s\n",
		       kf.struct_ops_link ? "yes" : "no (registered through the map, Linux < "
		       STRUCT_OPS_LINK_SINCE ")",
		       kf.struct_ops_update ? "yes" : "no (Linux < " STRUCT_OPS_LINK_SINCE ")");
	return 0;
}

/* --- command line ---------------------------------------------------------- */

static const struct command {
	const char *name;
	const char *usage;
	int min_args, max_args;
	unsigned int opts;	/* OPT_* it takes */
	unsigned int needs;	/* NEED_* */
	int (*run)(void);
} commands[] = {
	{ "register", "register [--variant fixed|2611|restore] [--name NAME] [--object FILE] [--trace]",
	  0, 0, OPT_VARIANT | OPT_NAME | OPT_OBJECT | OPT_TRACE,
	  NEED_BTF | NEED_BPFFS | NEED_FEATURES | NEED_LOCK, cmd_register },
	{ "unregister", "unregister NAME", 1, 1, 0, NEED_BPFFS | NEED_LOCK, cmd_unregister },
	{ "list", "list [--json]", 0, 0, OPT_JSON, NEED_BPFFS, cmd_list },
	{ "status", "status [NAME] [--json]", 0, 1, OPT_JSON, NEED_BPFFS, cmd_list },
	{ "set-default", "set-default NAME [--from OLD]", 1, 1, OPT_FROM, 0, cmd_set_default },
	{ "swap", "swap NAME [--variant fixed|2611|restore] [--name NAME] [--object FILE] [--trace]",
	  1, 1, OPT_VARIANT | OPT_NAME | OPT_OBJECT | OPT_TRACE,
	  NEED_BTF | NEED_BPFFS | NEED_FEATURES | NEED_LOCK, cmd_swap },
	{ "migrate", "migrate FROM TO", 2, 2, 0, NEED_BTF, cmd_migrate },
	{ "assign", "assign NAME --cgroup PATH", 1, 1, OPT_CGROUP,
	  NEED_BTF | NEED_BPFFS | NEED_LOCK, cmd_assign },
	{ "unassign", "unassign --cgroup PATH", 0, 0, OPT_CGROUP, NEED_BPFFS | NEED_LOCK,
	  cmd_unassign },
	{ "features", "features [--json]", 0, 0, OPT_JSON, NEED_BTF | NEED_FEATURES,
	  cmd_features },
};

/* In OPT_* bit order. */
static const char *const opt_names[] = {
	"--variant", "--name", "--object", "--json", "--trace", "--cgroup", "--from",
};

/* Everything argp cannot know: which command, its operands, its options. */
static const struct command *parse_command(void)
{
	const struct command *cmd = NULL;
	const char *why;
	size_t i;
	int n;

	if (!env.nargs) {
		fail(0, "no command given (see ccctl --help)");
		return NULL;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, env.args[0]))
			cmd = &commands[i];
	if (!cmd) {
		fail(0, "unknown command '%s' (see ccctl --help)", env.args[0]);
		return NULL;
	}

	n = env.nargs - 1;
	if (n < cmd->min_args || n > cmd->max_args) {
		fail(0, "usage: ccctl %s", cmd->usage);
		return NULL;
	}
	for (i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++) {
		if (env.opts & ~cmd->opts & (1U << i)) {
			fail(0, "%s takes no %s option", cmd->name, opt_names[i]);
			return NULL;
		}
	}
	if (env.variant && !variant_find(env.variant)) {
		fail(0, "unknown variant '%s' (%s)", name_shown(env.variant), VARIANT_NAMES);
		return NULL;
	}
	if (env.variant && env.object) {
		fail(0, "--variant and --object both choose what to load; give one");
		return NULL;
	}
	why = env.name ? name_problem(env.name) : NULL;
	if (why) {
		fail(0, "invalid name '%s' given to --name: %s (%s)", name_shown(env.name),
		     why, NAME_RULE);
		return NULL;
	}
	why = env.from ? name_problem(env.from) : NULL;
	if (why) {
		fail(0, "invalid name '%s' given to --from: %s (%s)", name_shown(env.from),
		     why, NAME_RULE);
		return NULL;
	}
	for (i = 1; i < (size_t)env.nargs && i < sizeof(env.args) / sizeof(env.args[0]); i++) {
		why = name_problem(env.args[i]);
		if (why) {
			fail(0, "invalid algorithm name '%s': %s (%s)", name_shown(env.args[i]),
			     why, NAME_RULE);
			return NULL;
		}
	}
	return cmd;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (check_args(argc, argv))
		return 1;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	cmd = parse_command();
	if (!cmd)
		return 1;

	libbpf_set_print(env.verbose ? verbose_print : quiet_print);
	if (check_system(cmd->needs))
		return 1;
	if (cmd->needs & NEED_LOCK) {
		if (lock_pins())
			return 1;
		clear_stale();
	}

	return cmd->run() ? 1 : 0;
}
