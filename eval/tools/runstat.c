// SPDX-License-Identifier: GPL-2.0
/*
 * runstat: run a command and say what it cost, for guest benchmarks.
 *
 *   runstat [-g CGROUP] [-o FILE] COMMAND [ARG...]
 *
 * Runs COMMAND (its stdin, stdout and stderr are runstat's) and, once it
 * has exited, writes one line to FILE (default: stderr):
 *
 *   wall_us user_us sys_us maxrss_kb mem_peak_kb status
 *
 * wall_us is CLOCK_MONOTONIC from before fork() to after wait4(), so the
 * exec and the process's exit are in it; user, sys and maxrss (the peak
 * resident set) come from wait4()'s rusage.  With -g, CGROUP is a cgroup v2
 * directory to create (its parent must have the memory controller in
 * cgroup.subtree_control): the command runs alone in it, and mem_peak_kb is
 * its memory.peak, what was ever charged to it at once, user pages and the
 * kernel memory it allocated (BPF programs and maps, page tables, buffers)
 * alike; the cgroup is removed afterwards.  Without -g mem_peak_kb is "-".
 * status is the exit status, or 128 + the signal that ended it.
 *
 * runstat exits with the command's status, or 1 (and a line on stderr) if
 * it could not run or measure it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tool.h"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static long long tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* The child: into the cgroup (if any), then the command. */
static void child(const char *cg, char **argv)
{
	char path[4096];
	int fd;

	if (cg) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			fprintf(stderr, "runstat: cannot join %s: %s\n", cg, strerror(errno));
			_exit(127);
		}
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "runstat: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void mem_peak(const char *cg, char *buf, size_t size)
{
	char path[4096];
	unsigned long long b;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.peak", cg);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%llu", &b) != 1)
		die("cannot read %s: %s", path, f ? "not a number" : strerror(errno));
	fclose(f);
	snprintf(buf, size, "%llu", b / 1024);
}

int main(int argc, char **argv)
{
	const char *cg = NULL, *out = NULL;
	char peak[32] = "-";
	struct rusage ru;
	long long t0, t1;
	int opt, st, rc;
	pid_t pid;
	FILE *f;

	while ((opt = getopt(argc, argv, "+g:o:")) != -1) {
		switch (opt) {
		case 'g':
			cg = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			die("usage: runstat [-g CGROUP] [-o FILE] COMMAND [ARG...]");
		}
	}
	if (optind >= argc)
		die("usage: runstat [-g CGROUP] [-o FILE] COMMAND [ARG...]");
	if (cg && mkdir(cg, 0755))
		die("cannot create cgroup %s: %s", cg, strerror(errno));

	fflush(NULL);
	t0 = now_us();
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		child(cg, argv + optind);
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			die("wait4: %s", strerror(errno));
	t1 = now_us();

	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (cg) {
		mem_peak(cg, peak, sizeof(peak));
		if (rmdir(cg))
			die("cannot remove cgroup %s: %s", cg, strerror(errno));
	}
	f = out ? fopen(out, "we") : stderr;
	if (!f)
		die("cannot write %s: %s", out, strerror(errno));
	fprintf(f, "%lld %lld %lld %ld %s %d\n", t1 - t0, tv_us(ru.ru_utime), tv_us(ru.ru_stime),
		ru.ru_maxrss, peak, rc);
	if (out && fclose(f))
		die("cannot write %s: %s", out, strerror(errno));
	return rc;
}
