// SPDX-License-Identifier: GPL-2.0
/* Opening, preparing and loading a tcp_congestion_ops object with libbpf. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "algos.h"
#include "bic_event.h"
#include "btf_util.h"
#include "common.h"
#include "kfeatures.h"
#include "names.h"
#include "object.h"
#include "algo_skels.h"	/* build/bpf: the skeleton of each variant's object */

/*
 * The objects built into ccctl, the table's shipped ones (bpf/algos.h):
 * bic.bpf.c with each of its undo rules, as the skeletons embed them,
 * opened under the skeletons' object names (the names of their maps derive
 * from it).  The first is the default.
 */
#define VARIANT(object, variant)	{ #variant, #object, object##__elf_bytes },
#define NO_VARIANT()
#define VARIANT_ROW(name, object, undo, bic, model)	object

static const struct variant {
	const char *name;	/* --variant */
	const char *object;
	const void *(*elf)(size_t *sz);
} variants[] = {
	ALGOS(VARIANT_ROW, VARIANT, NO_VARIANT)
};

static const struct variant *variant_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(variants); i++)
		if (!strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

bool variant_known(const char *name)
{
	return variant_find(name);
}

const char *variant_default(void)
{
	return variants[0].name;
}

const char *variant_names(const char *sep, const char *last)
{
	static char buf[2][128];
	static int which;
	char *b = buf[which++ % 2];
	size_t i, n = 0;

	b[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(variants); i++)
		n += snprintf(b + n, sizeof(buf[0]) - n, "%s%s",
			      !i ? "" : i + 1 == ARRAY_SIZE(variants) ? last : sep,
			      variants[i].name);
	return b;
}

/*
 * The skeleton's shadow of tcp_congestion_ops is the value the map will be
 * created with, but bpftool types the name array as opaque padding
 * (__unsupported_N), so the member is looked up in the object's BTF.
 */
static char *ops_name(struct bpf_object *obj, struct bpf_map *ops, void *shadow)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *t;

	t = btf__type_by_id(btf, bpf_map__btf_value_type_id(ops));
	if (!t || !btf_is_struct(t) || strcmp(btf__name_by_offset(btf, t->name_off),
					      "tcp_congestion_ops"))
		return NULL;
	m = btf_member_by_name(btf, t, "name");
	if (!m || btf__resolve_size(btf, m->type) != CA_NAME_MAX)
		return NULL;
	return (char *)shadow + m->offset / 8;
}

static int open_file(struct ca_obj *ca, const char *file)
{
	ca->obj = bpf_object__open_file(file, NULL);
	if (!ca->obj) {
		if (errno == ENOENT || errno == EACCES)
			return fail(-errno, "cannot open %s", file);
		return fail(-errno, "%s is not a usable BPF object", file);
	}
	return 0;
}

static int open_variant(struct ca_obj *ca, const struct variant *v)
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

/* ops is the congestion control --ops names, by its own name or its map's. */
static bool ops_named(struct bpf_map *ops, const char *name, const char *want)
{
	return !strcmp(name, want) || !strcmp(bpf_map__name(ops), want);
}

/*
 * The object's tcp_congestion_ops and the name it will register under.
 *
 * An object can hold several (the kernel selftests' bpf_dctcp.o holds
 * bpf_dctcp_nouse, which no kernel registers, before bpf_dctcp), and none
 * of them is the obvious one: not the first, which is only where the
 * compiler put it.  Nor all of them: one register would then be several
 * registrations, names and pins, some made and some not when one fails,
 * and --name could rename only one.  So one is taken only when it is the
 * only one or --ops names it, and the refusal names them all.  --ops takes
 * the object's own names (the algorithm's, or its map's: the variable in
 * the source), before --name renames the one taken; swap takes the same.
 * The others' maps are not created, so libbpf loads none of their programs.
 */
static int find_ops(struct ca_obj *ca, const struct ca_spec *spec)
{
	struct bpf_map *map, *chosen = NULL;
	char all[512] = "", *name, *chosen_name = NULL;
	int count = 0, matches = 0;
	size_t n = 0;
	const char *why;

	bpf_object__for_each_map(map, ca->obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		name = ops_name(ca->obj, map, bpf_map__initial_value(map, NULL));
		if (!name)
			continue;
		count++;
		if (n < sizeof(all))
			n += snprintf(all + n, sizeof(all) - n, "%s%s", n ? ", " : "",
				      name_shown(name));
		if (spec->ops ? ops_named(map, name, spec->ops) : !chosen) {
			matches++;
			chosen = map;
			chosen_name = name;
		}
	}
	if (!count)
		return fail(0, "%s holds no tcp_congestion_ops", ca->what);
	if (spec->ops && !matches)
		return fail(0, "%s holds no congestion control named '%s' (it holds %s)",
			    ca->what, name_shown(spec->ops), all);
	if (spec->ops && matches > 1)
		return fail(0, "%s holds %d congestion controls that --ops '%s' could mean (%s)",
			    ca->what, matches, name_shown(spec->ops), all);
	if (count > 1 && !spec->ops)
		return fail(0, "%s holds %d congestion controls (%s); choose one with --ops NAME",
			    ca->what, count, all);

	bpf_object__for_each_map(map, ca->obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS && map != chosen &&
		    bpf_map__set_autocreate(map, false))
			return fail(0, "cannot prepare %s", ca->what);
	ca->ops = chosen;
	ca->name = chosen_name;
	/* Every later message shows it: the same rule as for names given. */
	why = spec->name ? NULL : name_problem(ca->name);
	if (why)
		return fail(0, "%s names its tcp_congestion_ops '%s': %s (%s; "
			    "--name gives it another)", ca->what, name_shown(ca->name),
			    why, NAME_RULE);
	return 0;
}

/*
 * Where an object keeps its tracing switch, bic.bpf.c's "const volatile bool
 * bic_trace": the byte in its .rodata map's initial value; NULL if it has
 * none.
 */
static bool *trace_switch(struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bpf_map *map;
	__u32 off, size;
	const char *name;
	size_t len;
	char *data;

	if (btf_datasec_var(btf, ".rodata", "bic_trace", &off, &size) || size != sizeof(bool))
		return NULL;
	bpf_object__for_each_map(map, obj) {
		name = bpf_map__name(map);
		if (!bpf_map__is_internal(map) || strlen(name) < 7 ||
		    strcmp(name + strlen(name) - 7, ".rodata"))
			continue;
		data = bpf_map__initial_value(map, &len);
		if (data && off + size <= len)
			return (bool *)(data + off);
	}
	return NULL;
}

/*
 * Tracing on only when asked for: an untraced object gets no ring buffer at
 * all (the verifier has dropped the code that would write it).
 */
static int set_trace(struct ca_obj *ca, bool trace)
{
	bool *on = trace_switch(ca->obj);
	struct bpf_map *ring;

	if (!on)
		return trace ? fail(0, "%s has no tracing switch (bic_trace): "
				    "cannot --trace it", ca->what) : 0;
	*on = trace;
	ring = bpf_object__find_map_by_name(ca->obj, "events");
	if (ring && bpf_map__set_autocreate(ring, trace))
		return fail(0, "cannot prepare %s", ca->what);
	return 0;
}

/*
 * A buffer per program for its verifier log.  libbpf loads a program
 * without a log and, only if the kernel refuses it, again with the log
 * into this buffer; so a program whose buffer has text is the one the
 * verifier rejected, where bpf_object__load() says only EACCES or EINVAL.
 * libbpf prints no log it was given a buffer for: --verbose has ccctl
 * print it.  Untouched, calloc's pages cost nothing; a longer log keeps
 * its end (6.4+) or fails with ENOSPC, still the verifier's refusal.
 */
#define VERIFIER_LOG_SIZE	(4U << 20)

static int set_logs(struct ca_obj *ca, bool verbose)
{
	struct bpf_program *prog;
	int n = 0;

	ca->verbose = verbose;
	bpf_object__for_each_program(prog, ca->obj)
		n++;
	ca->logs = calloc(n ?: 1, sizeof(*ca->logs));
	if (!ca->logs)
		return fail(-ENOMEM, "cannot prepare %s", ca->what);
	bpf_object__for_each_program(prog, ca->obj) {
		ca->logs[ca->nlogs] = calloc(1, VERIFIER_LOG_SIZE);
		if (!ca->logs[ca->nlogs])
			return fail(-ENOMEM, "cannot prepare %s", ca->what);
		if (bpf_program__set_log_buf(prog, ca->logs[ca->nlogs++], VERIFIER_LOG_SIZE))
			return fail(0, "cannot prepare %s", ca->what);
	}
	return 0;
}

int ca_open(struct ca_obj *ca, const struct ca_spec *spec)
{
	const struct variant *v = spec->variant ? variant_find(spec->variant) : &variants[0];
	__u32 flags;
	int err;

	if (spec->object) {
		snprintf(ca->what, sizeof(ca->what), "%s", spec->object);
		err = open_file(ca, spec->object);
	} else if (v) {
		snprintf(ca->what, sizeof(ca->what), "variant %s", v->name);
		err = open_variant(ca, v);
	} else {
		err = fail(0, "unknown variant '%s' (%s)", name_shown(spec->variant),
			   variant_names(", ", " or "));
	}
	if (!err)
		err = find_ops(ca, spec);
	if (err)
		return err;

	if (spec->name) {
		memset(ca->name, 0, CA_NAME_MAX);
		memcpy(ca->name, spec->name, strlen(spec->name));
	}

	/*
	 * SEC(".struct_ops") and SEC(".struct_ops.link") differ only in
	 * BPF_F_LINK on the map: take an object of either style the way this
	 * kernel can register it, through a link wherever there are links.
	 */
	flags = bpf_map__map_flags(ca->ops);
	flags = spec->link ? flags | STRUCT_OPS_F_LINK : flags & ~STRUCT_OPS_F_LINK;
	err = bpf_map__set_map_flags(ca->ops, flags);
	if (err)
		return fail(err, "cannot prepare %s", ca->what);
	err = set_trace(ca, spec->trace);
	if (!err)
		err = set_logs(ca, spec->verbose);
	return err;
}

/*
 * What the verifier said, in a log: the last line of its first paragraph
 * but the closing statistics (newer kernels follow the reason with a blank
 * line and an indented report), cut and made printable for a one-line
 * message.
 */
static const char *verifier_reason(const char *log)
{
	static char reason[160];
	const char *line = log, *end, *last = NULL;
	size_t len = 0, i;

	for (; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (end == line && last)
			break;
		if (end == line || isblank((unsigned char)*line) ||
		    !strncmp(line, "processed ", 10) || !strncmp(line, "verification time", 17) ||
		    !strncmp(line, "stack depth", 11))
			continue;
		last = line;
		len = end - line;
	}
	if (!last)
		return NULL;
	if (len >= sizeof(reason))
		len = sizeof(reason) - 1;
	for (i = 0; i < len; i++)
		reason[i] = isprint((unsigned char)last[i]) ? last[i] : '?';
	reason[len] = '\0';
	return reason;
}

/*
 * An object with CONFIG_* __kconfig externs (bic.bpf.c's CONFIG_HZ) takes
 * their values from the running kernel's config, which libbpf reads from
 * /boot/config-RELEASE or else /proc/config.gz; with neither it refuses the
 * load with a bare EINVAL (weak externs too).  libbpf's own LINUX_*
 * externs need no file.  Say what is missing instead, before loading.
 */
static int kconfig_readable(const struct ca_obj *ca)
{
	char path[sizeof("/boot/config-") + sizeof(((struct utsname *)0)->release)];
	const char *var;
	struct utsname u;

	var = btf_datasec_var_prefixed(bpf_object__btf(ca->obj), ".kconfig", "CONFIG_");
	if (!var || uname(&u))
		return 0;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	if (!access(path, R_OK) || !access("/proc/config.gz", R_OK))
		return 0;
	return fail(0, "cannot load %s (%s): it takes %s from the kernel's config, "
		    "and neither %s nor /proc/config.gz is readable", ca->name, ca->what, var, path);
}

int ca_load(struct ca_obj *ca)
{
	struct bpf_program *prog;
	const char *log, *why;
	int err, i = 0;

	err = kconfig_readable(ca);
	if (err)
		return err;
	err = bpf_object__load(ca->obj);
	if (!err)
		return 0;
	/* Only a program the kernel refused has a log: libbpf asked for it then. */
	bpf_object__for_each_program(prog, ca->obj) {
		log = i < ca->nlogs ? ca->logs[i] : NULL;
		i++;
		if (!log || !log[0])
			continue;
		if (ca->verbose)
			fprintf(stderr, "-- the verifier's log of program %s --\n%s"
				"-- end of the log --\n", bpf_program__name(prog), log);
		why = verifier_reason(log);
		return fail(0, "the verifier rejected program %s of %s%s%s (%s)",
			    bpf_program__name(prog), ca->what, why ? ": " : "", why ?: "",
			    ca->verbose ? "its log is above" : "--verbose shows its log");
	}
	return fail(err, "cannot load %s (%s)", ca->name, ca->what);
}

void ca_close(struct ca_obj *ca)
{
	int i;

	bpf_object__close(ca->obj);
	for (i = 0; i < ca->nlogs; i++)
		free(ca->logs[i]);
	free(ca->logs);
}

/*
 * libbpf builds the same value when it attaches, but only hands it to links
 * it created itself, and the link a swap goes behind is a pinned one.  Since
 * libbpf 1.4 the map's initial value (the skeleton's shadow) holds struct
 * bpf_program pointers in the function slots.
 */
int ca_kern_value(const struct ca_obj *ca, void *kval, size_t ksize)
{
	const struct btf *btf = bpf_object__btf(ca->obj);
	const void *udata = bpf_map__initial_value(ca->ops, NULL);
	const struct btf_type *ut, *vt, *kt;
	const struct btf_member *um, *km, *data;
	const struct btf *vmlinux;
	__s32 vt_id;
	int i;

	vmlinux = vmlinux_btf();
	if (!vmlinux)
		return -errno;
	vt_id = btf__find_by_name_kind(vmlinux, "bpf_struct_ops_tcp_congestion_ops",
				       BTF_KIND_STRUCT);
	vt = vt_id > 0 ? btf__type_by_id(vmlinux, vt_id) : NULL;
	data = vt ? btf_member_by_name(vmlinux, vt, "data") : NULL;
	ut = btf__type_by_id(btf, bpf_map__btf_value_type_id(ca->ops));
	if (!data || !ut || !udata)
		return -EINVAL;
	kt = btf__type_by_id(vmlinux, data->type);

	memset(kval, 0, ksize);
	for (i = 0, um = btf_members(ut); i < btf_vlen(ut); i++, um++) {
		const char *mname = btf__name_by_offset(btf, um->name_off);
		const void *src = udata + um->offset / 8;
		const struct btf_type *mt;
		__s64 size;
		size_t koff;

		km = btf_member_by_name(vmlinux, kt, mname);
		if (!km)
			return -EINVAL;
		koff = data->offset / 8 + km->offset / 8;
		mt = btf__type_by_id(btf, btf__resolve_type(btf, um->type));
		size = btf_is_ptr(mt) ? (__s64)sizeof(unsigned long) : btf__resolve_size(btf, um->type);
		if (size < 0 || koff + size > ksize)
			return -EINVAL;
		if (btf_is_ptr(mt)) {
			const struct bpf_program *prog = *(struct bpf_program *const *)src;
			unsigned long fd = prog ? bpf_program__fd(prog) : 0;

			memcpy(kval + koff, &fd, sizeof(fd));
			continue;
		}
		if (size != btf__resolve_size(vmlinux, km->type))
			return -EINVAL;
		memcpy(kval + koff, src, size);
	}
	return 0;
}
