// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the test build only (ccctl-faults): the process dies at the
 * step CCCTL_FAULT names, as a kill -9 or a crash there would, and t_56
 * checks that every step leaves a state the next command can work from.
 * This definition takes the place of common.c's weak one.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

void fault_point(const char *step)
{
	const char *want = getenv("CCCTL_FAULT");

	if (want && !strcmp(want, step))
		kill(getpid(), SIGKILL);
}
