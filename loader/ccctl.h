/* SPDX-License-Identifier: GPL-2.0 */
/* What ccctl's files share. */
#ifndef __CCCTL_H
#define __CCCTL_H

#define BPF_FS		"/sys/fs/bpf"
#define PIN_ROOT	BPF_FS "/ccctl"	/* every pin of ccctl's is below */

/*
 * Print "ccctl: MESSAGE[: ERROR]" on stderr and return a negative error
 * (-EINVAL when err is 0) for the caller to pass up: every failure is
 * reported once, where it is found.
 */
int fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* __CCCTL_H */
