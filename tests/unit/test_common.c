// SPDX-License-Identifier: GPL-2.0
/*
 * fail() (loader/common.c) on the host, as ccctl and bictrace print it: one
 * line "ccctl: MESSAGE[: ERROR]" or {"error":"..."} under --json, the
 * message whole however long and control characters escaped, and the
 * negative error it returns.  Then with no memory to format the message
 * (a child whose address space is held to what it has: its vasprintf()
 * fails): the message's first 252 bytes and "...", the error still after
 * them, in both forms; never the format string itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "common.h"
#include "unit.h"

#define BIG	(4 << 20)	/* an argument no allocation can hold under the limit */

static void expect(const char *what, const char *got, const char *want)
{
	unit_check(!strcmp(got, want), "%s:\n  got      '%.400s'\n  expected '%.400s'",
		   what, got, want);
}

static void expect_int(const char *what, int got, int want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%d", got);
	snprintf(w, sizeof(w), "%d", want);
	expect(what, g, w);
}

/* The address space held to what the process has now, plus a little. */
static int hold_memory(void)
{
	unsigned long kb = 0;
	struct rlimit rl;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (!kb)
		return -1;
	rl.rlim_cur = rl.rlim_max = (kb + 512) * 1024;
	return setrlimit(RLIMIT_AS, &rl);
}

/*
 * What fail(err, "cannot pin %s", arg) writes on stderr, and returns in
 * *ret; with no_memory, in a child under hold_memory().  Returns what it
 * wrote (static), or "(child: ...)" for a child that could not run it.
 */
static const char *fail_output(bool json, bool no_memory, int err, const char *arg, int *ret)
{
	static char out[BIG + 1024];
	int saved = -1, status;
	void *big;
	FILE *f;
	pid_t pid;

	json_output = json;
	if (!no_memory) {
		f = unit_stderr_catch(&saved);
		*ret = fail(err, "cannot pin %s", arg);
	} else {
		f = tmpfile();
		if (!f)
			exit(1);
		pid = fork();
		if (pid < 0)
			exit(1);
		if (!pid) {
			dup2(fileno(f), 2);
			if (hold_memory()) {
				fputs("(child: cannot limit its memory)", stderr);
				_exit(0);
			}
			/* Else vasprintf() could succeed and this test nothing. */
			big = malloc(BIG);
			if (big) {
				free(big);
				fputs("(child: the limit does not hold)", stderr);
				_exit(0);
			}
			_exit(-fail(err, "cannot pin %s", arg));
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			exit(1);
		*ret = -WEXITSTATUS(status);
	}
	return unit_stderr_read(f, saved, out, sizeof(out));
}

int main(void)
{
	static char arg[BIG], want[BIG + 1024];
	const char *got;
	int ret, kept;

	prog_name = "ccctl";

	/* Whole, however long, one line: a newline in the argument as \x0a. */
	memset(arg, 'a', 5000);
	arg[10] = '\n';
	arg[5000] = '\0';
	got = fail_output(false, false, 0, arg, &ret);
	snprintf(want, sizeof(want), "ccctl: cannot pin %.10s\\x0a%s\n", arg, arg + 11);
	expect("a 5,000-byte message, whole", got, want);
	expect_int("with no error: -EINVAL", ret, -EINVAL);

	got = fail_output(false, false, EPERM, "bpf_bic", &ret);
	expect("the error after the message", got,
	       "ccctl: cannot pin bpf_bic: Operation not permitted\n");
	expect_int("its error, returned", ret, -EPERM);
	got = fail_output(false, false, -ENOENT, "bpf_bic", &ret);
	expect("a negative error alike", got, "ccctl: cannot pin bpf_bic: No such file or directory\n");
	expect_int("it, returned", ret, -ENOENT);

	got = fail_output(true, false, EPERM, "a\"b\n", &ret);
	expect("--json", got, "{\"error\":\"cannot pin a\\\"b\\u000a: Operation not permitted\"}\n");

	/*
	 * No memory: "cannot pin " and the argument cut to 252 bytes in all,
	 * then "...", the error, and the control character escaped as ever.
	 */
	memset(arg, 'b', BIG - 1);
	arg[20] = '\x01';
	arg[BIG - 1] = '\0';
	kept = 252 - strlen("cannot pin ") - 21;	/* of the argument after the \x01 */
	got = fail_output(false, true, EPERM, arg, &ret);
	snprintf(want, sizeof(want), "ccctl: cannot pin %.20s\\x01%.*s...: Operation not permitted\n",
		 arg, kept, arg + 21);
	expect("no memory: the message cut short, the error kept", got, want);
	expect_int("no memory: its error, returned", ret, -EPERM);
	expect("no memory: no format string printed", strchr(got, '%') ? "a %" : "none", "none");

	got = fail_output(true, true, EPERM, arg, &ret);
	snprintf(want, sizeof(want), "{\"error\":\"cannot pin %.20s\\u0001%.*s...: Operation not permitted\"}\n",
		 arg, kept, arg + 21);
	expect("no memory, --json: the message cut short, the error kept", got, want);

	got = fail_output(false, true, 0, arg, &ret);
	snprintf(want, sizeof(want), "ccctl: cannot pin %.20s\\x01%.*s...\n",
		 arg, kept, arg + 21);
	expect("no memory, no error: the message cut short", got, want);
	expect_int("no memory, no error: -EINVAL", ret, -EINVAL);

	return unit_done();
}
