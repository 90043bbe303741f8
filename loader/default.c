// SPDX-License-Identifier: GPL-2.0
/* ccctl set-default: the default algorithm of one network namespace, or of all with one. */
#include <stdio.h>
#include "ccctl.h"
#include "sysctl.h"

int do_set_default(const struct cmd_args *a)
{
	const char *name = a->args[1];
	int err, changed;

	if (!a->from) {
		err = set_default(name);
		if (!err)
			printf("default congestion control: %s\n", name);
		return err;
	}
	err = replace_default(a->from, name, &changed);
	if (err)
		return err;
	printf("default congestion control: %s in %d network namespace%s that had %s\n",
	       name, changed, changed == 1 ? "" : "s", a->from);
	return 0;
}
