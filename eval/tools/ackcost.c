// SPDX-License-Identifier: GPL-2.0
/*
 * ackcost PORT: time every tcp_ack() call on connections to remote PORT
 * (eval/bpf/ackcost.bpf.c) from when it prints "ready" until SIGINT or
 * SIGTERM, then print one line:
 *	"calls N median_ns M p10_ns A p90_ns B mean_ns X"
 * Runs only in the test guest.  Errors are one line on stderr and exit 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "ackcost.skel.h"

/* As in ackcost.bpf.c: the histogram is hist[SEGS][SLOTS], 8 ns a slot. */
#define SEGS	64
#define SLOTS	8192
_Static_assert(sizeof(((struct ackcost__bss *)0)->hist) == SEGS * SLOTS * sizeof(__u32),
	       "ackcost.bpf.c's histogram has another shape");

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* libbpf's log only with ACKCOST_DEBUG set: it would bury the one line. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return getenv("ACKCOST_DEBUG") ? vfprintf(stderr, fmt, ap) : 0;
}

/* The smallest ns with at least @frac of the calls at or below it. */
static unsigned long quantile(const __u32 *hist, __u64 calls, double frac)
{
	__u64 seen = 0;
	unsigned long i;

	for (i = 0; i < SLOTS; i++) {
		seen += hist[i];
		if (seen && seen >= frac * calls)
			return i * 8;
	}
	return (SLOTS - 1) * 8;
}

int main(int argc, char **argv)
{
	struct ackcost *skel;
	unsigned int k, i;
	char *end;
	long port;
	int err;

	if (argc != 2 || (port = strtol(argv[1], &end, 10)) <= 0 || port > 65535 || *end) {
		fprintf(stderr, "usage: ackcost PORT\n");
		return 1;
	}
	libbpf_set_print(quiet);
	skel = ackcost__open();
	if (!skel) {
		fprintf(stderr, "ackcost: cannot open the BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->port = port;
	err = ackcost__load(skel);
	if (!err)
		err = ackcost__attach(skel);
	if (err) {
		fprintf(stderr, "ackcost: cannot trace tcp_ack(): %s\n", strerror(-err));
		ackcost__destroy(skel);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("ready\n");
	fflush(stdout);
	while (!stop)
		pause();
	ackcost__detach(skel);

	for (k = 0; k < SEGS; k++) {
		__u64 n = 0;
		for (i = 0; i < SLOTS; i++)
			n += skel->bss->hist[k * SLOTS + i];
		if (n)
			printf("segs %u calls %llu median_ns %lu p10_ns %lu p90_ns %lu\n", k,
			       (unsigned long long)n, quantile(skel->bss->hist + k * SLOTS, n, 0.5),
			       quantile(skel->bss->hist + k * SLOTS, n, 0.1),
			       quantile(skel->bss->hist + k * SLOTS, n, 0.9));
	}
	printf("calls %llu mean_ns %.1f\n", (unsigned long long)skel->bss->calls,
	       skel->bss->calls ? (double)skel->bss->sum_ns / skel->bss->calls : 0.0);
	ackcost__destroy(skel);
	return 0;
}
