// SPDX-License-Identifier: GPL-2.0
/*
 * bictrace: stream the per-connection BIC events of every loaded bpf_bic
 * object (its "events" ring buffer) as CSV, until a deadline or a signal.
 *
 * The algorithm is usually registered by bpftool or ccctl, which keep no
 * file descriptor around to share, so the ring buffers are found among the
 * maps the kernel holds: a ring buffer map called "events" is read only
 * where every program that holds it is a struct_ops program whose BTF
 * carries struct bic_event exactly as bictrace reads it (bic_event.h).
 * Other tools call their rings "events" too (libbpf-tools do), and a ring
 * has one reader: reading theirs would take their records and print them
 * as BIC's.  Each ring read is named on stderr, by the name ccctl
 * registered it under where it did.  A ring buffer nobody reads keeps what
 * earlier connections left in it until it fills; the trace starts when
 * bictrace does, so those records are skipped.
 *
 * Tracing is a load-time choice (ccctl register --trace).  An untraced
 * object loaded by ccctl has no ring buffer; one loaded by bpftool has one
 * that stays empty, recognised by the bic_trace switch in the .rodata of the
 * programs that hold the ring, and skipped.
 */
#include <argp.h>
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bic_event.h"
#include "btf_util.h"
#include "common.h"
#include "registration.h"

#define MAX_RINGS 16

static struct env {
	double duration;
	const char *output;
	__u64 since_ns;		/* CLOCK_MONOTONIC, as bpf_ktime_get_ns() */
} env;

static volatile sig_atomic_t exiting;

static const char *const ev_names[] = {
	[BIC_EV_CWND] = "cwnd",
	[BIC_EV_SSTHRESH] = "ssthresh",
	[BIC_EV_UNDO] = "undo",
	[BIC_EV_LOSS] = "loss",
	[BIC_EV_INIT] = "init",
};

static const struct argp_option opts[] = {
	{ "duration", 'd', "SEC", 0, "Stop after SEC seconds (default: until signalled)", 0 },
	{ "output", 'o', "FILE", 0, "Write CSV to FILE instead of stdout", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'd':
		env.duration = strtod(arg, &end);
		if (*end || env.duration <= 0)
			argp_error(state, "invalid duration '%s'", arg);
		break;
	case 'o':
		env.output = arg;
		break;
	case ARGP_KEY_ARG:
		argp_usage(state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.doc = "Stream BIC congestion-control events of loaded bpf_bic objects as CSV.",
};

static void sig_handler(int sig)
{
	exiting = 1;
}

static int handle_event(void *ctx, void *data, size_t len)
{
	const struct bic_event *e = data;
	FILE *out = ctx;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], epoch[16] = "";
	const char *type = "?";
	int af;

	if (len < sizeof(*e) || e->ts_ns < env.since_ns)
		return 0;
	if (e->type < sizeof(ev_names) / sizeof(ev_names[0]) && ev_names[e->type])
		type = ev_names[e->type];
	af = e->family == AF_INET6 ? AF_INET6 : AF_INET;
	inet_ntop(af, e->saddr, src, sizeof(src));
	inet_ntop(af, e->daddr, dst, sizeof(dst));
	/* No epoch running is an empty field, as CSV readers expect of "none". */
	if (e->epoch_ms >= 0)
		snprintf(epoch, sizeof(epoch), "%d", e->epoch_ms);
	fprintf(out, "%llu,%s,%u,%s,%u,%s,%u,%u,%u,%u,%u,%s\n",
		(unsigned long long)e->ts_ns, src, e->sport, dst, e->dport, type,
		e->cwnd, e->ssthresh, e->last_max_cwnd, e->cnt, e->ret, epoch);
	return 0;
}

/*
 * The bic_trace switch in .rodata map @fd: 1 on, 0 off, -1 not there.  Its
 * BTF is @obj_btf where the map's is @obj_btf_id (the object's own maps),
 * else read from the kernel.
 */
static int rodata_switch(int fd, const struct bpf_map_info *info, const struct btf *obj_btf,
			 __u32 obj_btf_id)
{
	__u32 zero = 0, off, size;
	const struct btf *btf;
	struct btf *own = NULL;
	int on = -1;
	char *val;

	if (info->type != BPF_MAP_TYPE_ARRAY || !info->btf_id || !strstr(info->name, ".rodata"))
		return -1;
	btf = info->btf_id == obj_btf_id ? obj_btf :
	      (own = btf__load_from_kernel_by_id(info->btf_id));
	val = calloc(1, info->value_size);
	if (!btf || !val || bpf_map_lookup_elem(fd, &zero, val))
		goto out;
	if (btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) !=
	    (__s32)info->btf_value_type_id)
		goto out;
	if (!btf_datasec_var(btf, ".rodata", "bic_trace", &off, &size) && size == 1 &&
	    off < info->value_size)
		on = !!val[off];
out:
	free(val);
	btf__free(own);
	return on;
}

/* struct bic_event as this bictrace reads it, member by member. */
#define EV_FIELD(f) { #f, offsetof(struct bic_event, f) }
static const struct btf_field ev_fields[] = {
	EV_FIELD(ts_ns), EV_FIELD(saddr), EV_FIELD(daddr), EV_FIELD(family),
	EV_FIELD(sport), EV_FIELD(dport), EV_FIELD(pad), EV_FIELD(type),
	EV_FIELD(cwnd), EV_FIELD(ssthresh), EV_FIELD(last_max_cwnd), EV_FIELD(cnt),
	EV_FIELD(ret), EV_FIELD(epoch_ms),
};

/* An object's BTF carries struct bic_event as bictrace reads it. */
static bool btf_writes_bic_events(const struct btf *btf)
{
	return btf_struct_is(btf, "bic_event", sizeof(struct bic_event), ev_fields,
			     sizeof(ev_fields) / sizeof(ev_fields[0]));
}

enum ring_kind { RING_FOREIGN, RING_UNTRACED, RING_TRACED };

/*
 * What ring buffer @ring_id is: BIC's if every program holding it is a
 * struct_ops program whose BTF carries struct bic_event (their BTF's id to
 * *btf_id), written unless a program's bic_trace switch is off; anyone
 * else's otherwise.
 */
static enum ring_kind ring_kind(__u32 ring_id, __u32 *btf_id)
{
	struct bpf_prog_info info;
	struct bpf_map_info minfo;
	__u32 id = 0, ids[16], n, len, i, checked = 0;
	enum ring_kind kind = RING_FOREIGN;
	struct btf *btf = NULL;		/* checked's, read once */
	bool holds, off = false;
	int fd, mfd, holders = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
		info.map_ids = (__u64)(unsigned long)ids;
		len = sizeof(info);
		n = bpf_prog_get_info_by_fd(fd, &info, &len) ? 0 : info.nr_map_ids;
		close(fd);
		if (n > sizeof(ids) / sizeof(ids[0]))
			n = sizeof(ids) / sizeof(ids[0]);
		for (i = 0, holds = false; i < n; i++)
			holds |= ids[i] == ring_id;
		if (!holds)
			continue;
		holders++;
		if (info.type != BPF_PROG_TYPE_STRUCT_OPS || !info.btf_id)
			goto out;
		if (info.btf_id != checked) {
			btf__free(btf);
			btf = btf__load_from_kernel_by_id(info.btf_id);
			if (!btf || !btf_writes_bic_events(btf))
				goto out;
			checked = info.btf_id;
		}
		for (i = 0; i < n; i++) {
			mfd = bpf_map_get_fd_by_id(ids[i]);
			if (mfd < 0)
				continue;
			memset(&minfo, 0, sizeof(minfo));
			len = sizeof(minfo);
			off |= !bpf_map_get_info_by_fd(mfd, &minfo, &len) &&
			       !rodata_switch(mfd, &minfo, btf, checked);
			close(mfd);
		}
	}
	*btf_id = checked;
	if (holders)
		kind = off ? RING_UNTRACED : RING_TRACED;
out:
	btf__free(btf);
	return kind;
}

/* The name ccctl registered the object of BTF btf_id under, if it did. */
struct reg_name {
	__u32 btf_id;
	char name[16];
};

static int match_reg(void *ctx, const char *name)
{
	struct reg_name *rn = ctx;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), map_id = 0;
	struct reg r;
	int fd, found = 0;

	if (reg_get(name, &r))
		return 0;
	if (reg_live(&r, NULL, &map_id) && map_id && (fd = bpf_map_get_fd_by_id(map_id)) >= 0) {
		found = !bpf_map_get_info_by_fd(fd, &info, &len) && info.btf_id == rn->btf_id;
		close(fd);
	}
	close(r.fd);
	if (found)
		snprintf(rn->name, sizeof(rn->name), "%s", name);
	return found;
}

/*
 * Add every written ring buffer of a BIC object to @rb, each named on
 * stderr; returns how many, and counts in @untraced those of objects
 * loaded without tracing.
 */
static int attach_rings(struct ring_buffer **rb, FILE *out, int *untraced)
{
	struct bpf_map_info info;
	struct reg_name rn;
	__u32 len, id = 0, btf_id;
	enum ring_kind kind;
	int fd, n = 0;

	while (n < MAX_RINGS && !bpf_map_get_next_id(id, &id)) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_map_get_info_by_fd(fd, &info, &len) ||
		    info.type != BPF_MAP_TYPE_RINGBUF || strcmp(info.name, "events")) {
			close(fd);
			continue;
		}
		kind = ring_kind(id, &btf_id);
		if (kind != RING_TRACED) {
			*untraced += kind == RING_UNTRACED;
			close(fd);
			continue;
		}
		if (!*rb)
			*rb = ring_buffer__new(fd, handle_event, out, NULL);
		else if (ring_buffer__add(*rb, fd, handle_event, out))
			return -errno;
		if (!*rb)
			return -errno;
		n++;
		rn = (struct reg_name){ .btf_id = btf_id };
		if (each_pinned_name(match_reg, &rn) > 0) {
			fprintf(stderr, "bictrace: reading the events of %s (ring map %u)\n",
				rn.name, id);
		} else {
			fprintf(stderr, "bictrace: reading the events of a BIC object ccctl did not "
				"register (ring map %u)\n", id);
		}
	}
	return n;
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static double now(void)
{
	return mono_ns() / 1e9;
}

int main(int argc, char **argv)
{
	struct ring_buffer *rb = NULL;
	FILE *out = stdout;
	double deadline;
	int err, untraced = 0;

	prog_name = "bictrace";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	libbpf_print_setup(false);

	if (env.output && !(out = fopen(env.output, "w"))) {
		fail(-errno, "cannot write %s", env.output);
		return 1;
	}
	setvbuf(out, NULL, _IOLBF, 0);

	env.since_ns = mono_ns();
	err = attach_rings(&rb, out, &untraced);
	if (err < 0) {
		fail(err, "cannot read the ring buffers");
		return 1;
	}
	if (!err) {
		fail(0, "%s", untraced ?
		     "bpf_bic is loaded without tracing: register it with ccctl register --trace" :
		     "no traced bpf_bic loaded (ccctl register --trace)");
		return 1;
	}

	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);
	fprintf(out, "ts_ns,saddr,sport,daddr,dport,event,"
		     "cwnd,ssthresh,last_max_cwnd,cnt,ret,epoch_ms\n");

	deadline = env.duration ? now() + env.duration : 0;
	while (!exiting && (!deadline || now() < deadline)) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR) {
			fail(err, "polling ring buffer");
			break;
		}
	}
	/* Whatever is already queued belongs to the traced interval. */
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	if (out != stdout)
		fclose(out);
	return err < 0 && err != -EINTR ? 1 : 0;
}
