/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every C unit test of tests/unit shares: the count of its checks and
 * its closing line, "N passed, N failed", the one every test of make test
 * prints (tests/guest/tap.sh for the shell tests).  A check that fails says
 * what on a line of its own, "FAIL: ...".
 */
#ifndef __UNIT_H
#define __UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int unit_passed;
static int unit_failed;

/* One check: ok, or the line that says what failed. */
static __attribute__((format(printf, 2, 3), unused))
void unit_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		unit_passed++;
		return;
	}
	unit_failed++;
	fputs("FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The closing line; what main() returns. */
static __attribute__((unused)) int unit_done(void)
{
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif /* __UNIT_H */
