/* SPDX-License-Identifier: GPL-2.0 */
/* The congestion control sysctls, in the caller's network namespace. */
#ifndef __CCCTL_SYSCTL_H
#define __CCCTL_SYSCTL_H

#include <stdbool.h>

/* NAME is in tcp_available_congestion_control. */
bool ca_available(const char *name);

/* Room for NAME in the kernel's list of algorithms; reported. */
int ca_check_room(const char *name);

/* The caller is in the initial network namespace. */
bool in_initial_netns(void);

/* NAME is the default of the caller's network namespace. */
bool ca_is_default(const char *name);

/* Make name the default of the caller's network namespace; reported. */
int set_default(const char *name);

/*
 * Make to the default of every network namespace (for_each_netns()) whose
 * default is from; how many it changed in *changed.  Reported; stops at the
 * first failure.
 */
int replace_default(const char *from, const char *to, int *changed);

#endif /* __CCCTL_SYSCTL_H */
