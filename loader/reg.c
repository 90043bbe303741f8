// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl register, unregister and swap: an algorithm's registration.
 *
 * A registration is a struct_ops link pinned at PIN_ROOT/NAME/link or, on
 * kernels without struct_ops links (before 6.4), the struct_ops map itself,
 * registered by writing its value and pinned at PIN_ROOT/NAME/map (pins.h).
 * Every command either completes or leaves the kernel as it found it, and
 * reports what went wrong in one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ccctl.h"
#include "cgroup.h"
#include "common.h"
#include "netns.h"
#include "object.h"
#include "pins.h"
#include "registration.h"
#include "route.h"
#include "sysctl.h"

static void spec_of(const struct cmd_args *a, struct ca_spec *s)
{
	*s = (struct ca_spec){
		.variant = a->variant,
		.object = a->object,
		.ops = a->ops,
		.name = a->name,
		.trace = a->trace,
		.link = a->kf.struct_ops_link,
		.verbose = a->verbose,
	};
}

/* Pin fd at path (pin_paths()'s link or map), making NAME's directory.  Reported. */
static int reg_pin(int fd, const char *name, const char *path)
{
	struct pin pin = {};
	int err;

	pin_paths(name, &pin);
	/* Under the lock: bpf-bic-apply stop removes PIN_ROOT under it too. */
	if (mkdir(PIN_ROOT, 0700) && errno != EEXIST)
		return fail(-errno, "cannot create %s", PIN_ROOT);
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

/* The id of a map. */
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
	struct pin pin = {};
	__u32 link_id, map;
	int err;

	link = bpf_map__attach_struct_ops(ca->ops);
	if (!link)
		return register_failed(ca->name);
	fault_point("register:registered");
	pin_paths(ca->name, &pin);
	err = reg_pin(bpf_link__fd(link), ca->name, pin.link);
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
	struct pin pin = {};
	__u32 id;
	int err;

	/* Ours, pinned already: the pin below would only say it exists. */
	if (ca_available(ca->name))
		return fail(0, "%s is already registered", ca->name);
	pin_paths(ca->name, &pin);
	err = reg_pin(fd, ca->name, pin.map);
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

int do_register(const struct cmd_args *a)
{
	struct ca_obj ca = {};
	struct ca_spec spec;
	int err;

	spec_of(a, &spec);
	err = ca_open(&ca, &spec);
	/* Before the load: a name that does not fit is refused at once. */
	if (!err)
		err = ca_check_room(ca.name);
	if (!err)
		err = ca_load(&ca);
	fault_point("register:loaded");
	if (!err)
		err = a->kf.struct_ops_link ? register_link(&ca) : register_map(&ca);
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

/*
 * A route whose congctl names an algorithm would quietly fall back to the
 * default too, in whichever namespace it is; set-default --from leaves
 * routes alone.
 */
static int refuse_route(void *ctx, const char *route)
{
	const char *const *rn = ctx;	/* name, netns */

	if (!strcmp(rn[1], "/proc/self/ns/net"))
		return fail(0, "%s is the congctl of route %s; ip route change or delete it first",
			    rn[0], route);
	return fail(0, "%s is the congctl of route %s in network namespace %s; "
		    "ip route change or delete it there first", rn[0], route, rn[1]);
}

static int refuse_routes(void *ctx, const char *netns)
{
	const char *rn[] = { ctx, netns };

	return route_each_congctl(ctx, refuse_route, rn);
}

/* One walk over the namespaces: each one's default, then its routes. */
static int refuse_in_netns(void *ctx, const char *netns)
{
	return refuse_default(ctx, netns) ?: refuse_routes(ctx, netns);
}

/*
 * Detach, rather than only unpin, so that no stray fd keeps it registered;
 * a map that is no longer registered is only unpinned.
 */
static int unregister(const struct reg *r)
{
	__u32 zero = 0;
	int err;

	if (r->is_link) {
		err = bpf_link_detach(r->fd);
		return err == -EOPNOTSUPP ? 0 : err;
	}
	/* Never written (ENOENT), or deleted and not yet freed (EINPROGRESS). */
	err = bpf_map_delete_elem(r->fd, &zero);
	return err == -ENOENT || err == -EINPROGRESS ? 0 : err;
}

int do_unregister(const struct cmd_args *a)
{
	const char *name = a->args[1];
	struct reg r;
	int err;

	err = reg_open(name, &r);
	if (err)
		return err;
	err = for_each_netns(refuse_in_netns, (void *)name);
	if (!err)
		err = cgroup_each_assigned(name, refuse_assigned, (void *)name);
	if (err)
		goto out;

	err = unregister(&r);
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
	err = ca_kern_value(ca, kval, ksize);
	if (!err)
		err = bpf_map_update_elem(map_fd, &zero, kval, 0);
	fault_point("swap:prepared");
	if (!err)
		err = bpf_link_update(link_fd, map_fd, NULL);
	fault_point("swap:swapped");
	free(kval);
	return err;
}

int do_swap(const struct cmd_args *a)
{
	const char *name = a->args[1];
	__u32 link_id, old_map, new_map;
	struct ca_obj ca = {};
	struct ca_spec spec;
	struct reg r;
	int err;

	/* Before 6.4 only a new registration under another name can take over. */
	if (!a->kf.struct_ops_update)
		return fail(0, "cannot swap %s: this kernel cannot update a registered "
			    "struct_ops in place (BPF_LINK_UPDATE on struct_ops links, Linux %s); "
			    "register under another name (--name), then migrate %s NEWNAME",
			    name, STRUCT_OPS_LINK_SINCE, name);

	err = reg_open(name, &r);
	if (err)
		return err;
	if (!r.is_link || link_ids(r.fd, &link_id, &old_map)) {
		err = fail(0, "%s is not a struct_ops link: cannot swap %s", r.path, name);
		goto out;
	}
	spec_of(a, &spec);
	err = ca_open(&ca, &spec);
	if (err)
		goto out;
	/*
	 * tcp_update_congestion_control() refuses a rename; say so before the
	 * kernel does.  Keeping the name keeps what names it valid: a
	 * namespace's default, a cgroup's assignment and a route's congctl
	 * (which the kernel keeps as the name's hash) all go on to the new one.
	 */
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
