/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every file of ccctl and bictrace shares: how a failure is reported,
 * where the test build can be killed, and what libbpf may print.  Nothing
 * here knows a command.
 */
#ifndef __CCCTL_COMMON_H
#define __CCCTL_COMMON_H

#include <stdbool.h>

/* The tool's name, the prefix of each of its messages ("ccctl: ..."). */
extern const char *prog_name;

/* --json was given: failures are reported as JSON objects too. */
extern bool json_output;

/*
 * Report a failure in one line on stderr, "PROG: MESSAGE[: ERROR]", or
 * {"error":"MESSAGE[: ERROR]"} under --json, and return a negative error
 * (-EINVAL when err is 0) for the caller to pass up: every failure is
 * reported once, where it is found.  MESSAGE is whole however long; with
 * no memory to format it, its first 252 bytes and "...".
 */
int fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s with each control character as \xNN: one line, malloc'd (NULL: no memory). */
char *one_line(const char *s);

/*
 * A step a kill -9 or a crash could interrupt.  Nothing happens here;
 * linked with faults.o (ccctl-faults, t_56) the process kills itself at the
 * step CCCTL_FAULT names.
 */
void fault_point(const char *step);

/* libbpf's log on stderr with verbose, else none: it would bury the one line. */
void libbpf_print_setup(bool verbose);

/* The process has capability cap in its effective set (what the kernel checks). */
bool has_cap(int cap);

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* __CCCTL_COMMON_H */
