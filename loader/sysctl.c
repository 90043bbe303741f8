// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's congestion control sysctls as ccctl reads and writes them:
 * the available and allowed lists and the default, which are per network
 * namespace (read and written in the caller's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "common.h"
#include "names.h"
#include "netns.h"
#include "sysctl.h"

#define CA_AVAILABLE	"/proc/sys/net/ipv4/tcp_available_congestion_control"
#define CA_ALLOWED	"/proc/sys/net/ipv4/tcp_allowed_congestion_control"
#define CA_DEFAULT	"/proc/sys/net/ipv4/tcp_congestion_control"
/* The kernel writes the two lists into a buffer of this size (tcp_cong.c). */
#define TCP_CA_BUF_MAX	2048

/*
 * The list the sysctl FILE holds, without its newline, into line (size
 * bytes): its length, or -errno.
 */
static int read_list(const char *file, char *line, size_t size)
{
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		return -errno;
	if (!fgets(line, size, f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return strlen(line);
}

/* NAME is a word of list (which strtok_r cuts up). */
static bool in_list(char *list, const char *name)
{
	char *tok, *save;

	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

/*
 * NAME is among the algorithms the sysctl FILE lists; *cut: the list may
 * have been cut short, the next name not fitting the kernel's buffer.
 */
static bool ca_listed_cut(const char *file, const char *name, bool *cut)
{
	char line[TCP_CA_BUF_MAX * 2];
	int len;

	len = read_list(file, line, sizeof(line));
	*cut = len >= 0 && len + CA_NAME_MAX >= TCP_CA_BUF_MAX;
	return len > 0 && in_list(line, name);
}

/*
 * Room in the kernel's list of algorithms for NAME: tcp_cong.c writes every
 * registered name, a blank between two, into TCP_CA_BUF_MAX bytes with the
 * NUL, and trips WARN_ON_ONCE when they do not fit (the first read warns,
 * a host with panic_on_warn panics, and every read then lists the names
 * cut short).  Every name counts, modules' and the kernel's own too.  A
 * list of TCP_CA_BUF_MAX - 1 bytes is full, or already cut.  NAME already
 * listed: 0, the registration itself says it is taken.  Reported.
 */
int ca_check_room(const char *name)
{
	char line[TCP_CA_BUF_MAX * 2];
	size_t need, left;
	int len;

	len = read_list(CA_AVAILABLE, line, sizeof(line));
	if (len < 0)
		return fail(len, "cannot read %s", CA_AVAILABLE);
	left = len < TCP_CA_BUF_MAX - 1 ? TCP_CA_BUF_MAX - 1 - len : 0;
	need = strlen(name) + (len ? 1 : 0);
	if (need <= left || in_list(line, name))
		return 0;
	return fail(0, "cannot register %s: the kernel lists every congestion control's name in "
		    "%d bytes (net.ipv4.tcp_available_congestion_control), %zu are left and %s "
		    "takes %zu; past them every read of the list warns (unregister one first)",
		    name, TCP_CA_BUF_MAX - 1, left, name, need);
}

static bool ca_listed(const char *file, const char *name)
{
	bool cut;

	return ca_listed_cut(file, name, &cut);
}

/*
 * Past about 128 names the kernel cuts tcp_available_congestion_control
 * short (with a WARNING).  A list that may have been cut is not believed
 * on what it lacks: a socket asks the kernel, whose TCP_CONGESTION finds
 * every registered algorithm (loading a module of that name first, as a
 * write to the default does).  The socket takes and drops a reference.
 */
bool ca_available(const char *name)
{
	bool found, cut;
	int fd;

	found = ca_listed_cut(CA_AVAILABLE, name, &cut);
	if (found || !cut)
		return found;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	found = !setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, strlen(name));
	close(fd);
	return found;
}

/*
 * The kernel makes tcp_allowed_congestion_control, a global, read-only in
 * every network namespace but the initial one.
 */
bool in_initial_netns(void)
{
	struct stat st;

	return !stat(CA_ALLOWED, &st) && (st.st_mode & S_IWUSR);
}

bool ca_is_default(const char *name)
{
	char cur[CA_NAME_MAX + 1] = "";
	FILE *f;

	f = fopen(CA_DEFAULT, "r");
	if (!f)
		return false;
	if (fgets(cur, sizeof(cur), f))
		cur[strcspn(cur, "\n")] = '\0';
	fclose(f);
	return !strcmp(cur, name);
}

/* Make name the default of the caller's network namespace; reported. */
int set_default(const char *name)
{
	ssize_t n;
	int fd;

	/*
	 * Outside the initial namespace only an allowed algorithm can be the
	 * default.  The kernel refuses the others with EPERM, but up to 6.12.95
	 * (and in 6.1) only after taking a reference it then keeps: a module
	 * that can never be unloaded, a BPF struct_ops map that outlives its
	 * unregistration and the namespace.  So ask before the kernel is asked
	 * (which for a name not yet available may load a module first).
	 */
	if (!in_initial_netns() && !ca_listed(CA_ALLOWED, name))
		return fail(0, "%s is not in net.ipv4.tcp_allowed_congestion_control: outside the "
			    "initial network namespace only an allowed algorithm can be the "
			    "default (allow it from the initial one first)", name);

	fd = open(CA_DEFAULT, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(-errno, "cannot open %s", CA_DEFAULT);
	n = write(fd, name, strlen(name));
	if (n < 0 && errno == ENOENT)
		n = fail(0, "%s is not a registered congestion control", name);
	else if (n < 0)
		n = fail(-errno, "cannot make %s the default", name);
	close(fd);
	return n < 0 ? n : 0;
}

struct default_swap {
	const char *from, *to;
	bool to_allowed;
	int changed;
};

static int swap_one(void *ctx, const char *netns)
{
	struct default_swap *d = ctx;
	int err;

	if (!ca_is_default(d->from))
		return 0;
	/* Asked once, up front: the allowed list is the same everywhere. */
	if (!d->to_allowed && !in_initial_netns())
		return fail(0, "%s is the default of network namespace %s, and %s is not in "
			    "net.ipv4.tcp_allowed_congestion_control (allow it first)",
			    d->from, netns, d->to);
	err = set_default(d->to);
	if (!err)
		d->changed++;
	return err;
}

int replace_default(const char *from, const char *to, int *changed)
{
	struct default_swap d = { .from = from, .to = to };
	int err;

	if (!ca_available(to))
		return fail(0, "%s is not a registered congestion control", to);
	d.to_allowed = ca_listed(CA_ALLOWED, to);
	err = for_each_netns(swap_one, &d);
	*changed = d.changed;
	return err;
}
