// SPDX-License-Identifier: GPL-2.0
/* Failures, fault points, libbpf's log and capabilities, for ccctl and bictrace. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "json.h"
#include "names.h"

const char *prog_name = "ccctl";
bool json_output;

/*
 * s on one line: a control character as \xNN, so that a name holding a
 * newline (a namespace's, a path's) cannot split a message; malloc'd, or
 * NULL.
 */
char *one_line(const char *s)
{
	size_t len = strlen(s);
	char *out = malloc(show_bytes(NULL, s, len, SHOW_CONTROLS) + 1);

	if (out)
		out[show_bytes(out, s, len, SHOW_CONTROLS)] = '\0';
	return out;
}

/* A message fail() has no memory for: the bytes kept of it, "..." and NUL included. */
#define FAIL_CUT	256

/*
 * s as one_line() shows it, into the size bytes at buf, cut short with
 * "..." where it does not fit: for when there is no memory for one_line().
 */
static const char *one_line_in(char *buf, size_t size, const char *s)
{
	size_t len = strlen(s), n = 0;

	if (show_bytes(NULL, s, len, SHOW_CONTROLS) < size) {
		buf[show_bytes(buf, s, len, SHOW_CONTROLS)] = '\0';
		return buf;
	}
	for (; *s && n + show_bytes(NULL, s, 1, SHOW_CONTROLS) < size - sizeof("..."); s++)
		n += show_bytes(buf + n, s, 1, SHOW_CONTROLS);
	strcpy(buf + n, "...");
	return buf;
}

int fail(int err, const char *fmt, ...)
{
	char why[128] = "", cut[FAIL_CUT + sizeof(": ") + sizeof(why)], shown[4 * sizeof(cut)];
	char *msg = NULL, *full = NULL, *line;
	const char *text;
	struct json_writer w;
	va_list ap;
	size_t len;
	int n;

	if (err)
		libbpf_strerror(err, why, sizeof(why));
	/* Whole, however long: an argument shown back can be 4 KiB or more. */
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (msg && err && asprintf(&full, "%s: %s", msg, why) < 0)
		full = NULL;
	text = err ? full : msg;
	if (!text) {
		/*
		 * No memory for it whole: its first FAIL_CUT - 4 bytes and
		 * "...", then the error, formatted where no allocation is.
		 */
		va_start(ap, fmt);
		n = vsnprintf(cut, FAIL_CUT, fmt, ap);
		va_end(ap);
		if (n < 0)
			snprintf(cut, FAIL_CUT, "a failure whose message cannot be formatted");
		else if (n >= FAIL_CUT)
			strcpy(cut + FAIL_CUT - sizeof("..."), "...");
		len = strlen(cut);
		if (err)
			snprintf(cut + len, sizeof(cut) - len, ": %s", why);
		text = cut;
	}
	if (json_output) {
		jw_init(&w, stderr);
		jw_start_object(&w);
		jw_name(&w, "error");
		jw_string(&w, text);
		jw_end_object(&w);
		fputc('\n', stderr);
	} else {
		line = one_line(text);
		fprintf(stderr, "%s: %s\n", prog_name, line ?: one_line_in(shown, sizeof(shown), text));
		free(line);
	}
	free(full);
	free(msg);
	return err ? -abs(err) : -EINVAL;
}

__attribute__((weak)) void fault_point(const char *step)
{
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

static int verbose_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return vfprintf(stderr, fmt, args);
}

void libbpf_print_setup(bool verbose)
{
	libbpf_set_print(verbose ? verbose_print : quiet_print);
}

bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}
