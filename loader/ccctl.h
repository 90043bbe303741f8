/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccctl's commands, as main.c dispatches them: one file per thing they
 * touch (reg.c registrations, list.c listing, migrate.c connections,
 * assign.c cgroups, default.c the default, feature.c the kernel), none of
 * which calls another or main.c.
 */
#ifndef __CCCTL_H
#define __CCCTL_H

#include <stdbool.h>
#include "kfeatures.h"

/* What the command line gave, checked against the command's rules. */
struct cmd_args {
	const char *args[3];	/* COMMAND and its operands */
	int nargs;		/* all positional arguments, even those not kept */
	const char *variant;
	const char *name;
	const char *object;
	const char *ops;	/* --ops: which of the object's congestion controls */
	const char *cgroup;
	const char *from;
	bool trace;
	bool json;
	bool verbose;
	bool all;
	struct kernel_features kf;	/* probed for commands that need it */
};

int do_register(const struct cmd_args *a);
int do_unregister(const struct cmd_args *a);
int do_swap(const struct cmd_args *a);
int do_list(const struct cmd_args *a);
int do_set_default(const struct cmd_args *a);
int do_migrate(const struct cmd_args *a);
int do_assign(const struct cmd_args *a);
int do_unassign(const struct cmd_args *a);
int do_features(const struct cmd_args *a);

#endif /* __CCCTL_H */
