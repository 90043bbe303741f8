/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every C unit test of tests/unit shares: the count of its checks and
 * its closing line, "N passed, N failed", the one every test of make test
 * prints (tests/guest/tap.sh for the shell tests).  A check that fails says
 * what on a line of its own, "FAIL: ...".  And catching what a failure
 * prints on standard error, which test_common and test_nldump compare.
 */
#ifndef __UNIT_H
#define __UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/*
 * Standard error into a temporary file (what a failure prints), until
 * unit_stderr_read(); *saved keeps the real one.  Exits if it cannot.
 */
static __attribute__((unused)) FILE *unit_stderr_catch(int *saved)
{
	FILE *f = tmpfile();

	if (!f || (*saved = dup(2)) < 0 || dup2(fileno(f), 2) < 0)
		exit(1);
	return f;
}

/*
 * Standard error back (saved: from unit_stderr_catch(), or -1 if it was
 * never taken), and what f holds into out, a string; f is closed.
 */
static __attribute__((unused)) const char *unit_stderr_read(FILE *f, int saved, char *out,
							      size_t size)
{
	size_t n;

	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	return out;
}

/* The closing line; what main() returns. */
static __attribute__((unused)) int unit_done(void)
{
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif /* __UNIT_H */
