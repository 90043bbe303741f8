// SPDX-License-Identifier: GPL-2.0
/*
 * ccobserve: what t_58 checks after each operation, read back from the
 * kernel and printed as one canonical line, for the guest test to compare
 * as a string with the line its model predicts (model_line in
 * tests/guest/model/model.sh, which says what each field holds):
 *
 *   ccobserve [--list FILE] [--netns NAME]
 *
 *   avail=A,B allowed=A def=X defns=Y list=NAME:MAP:LINK:SOCKETS:DEFAULT:CG+CG,...
 *   pins=A,B cglinks=N ss.ns=CA:N,... ss.lo=CA:N,... maps=ID,ID
 *
 * from the sysctls (here and, after setns(), in the network namespace
 * NAME of "ip netns"), `ccctl list --json` as saved in FILE (read by a
 * small JSON reader: any order of keys, escapes, blanks), the names under
 * /sys/fs/bpf/ccctl, the kernel's cgroup BPF links and struct_ops maps
 * (libbpf, by id), and the TCP sockets per congestion control as ss shows
 * them (sock_diag: every state but LISTEN, SYN_RECV, TIME_WAIT and CLOSE,
 * IPv4 and IPv6) here and in NAME.  Lists are sorted (names as strcmp
 * does, ids by value) and comma-separated; a field it cannot read is "?"
 * followed by why, which no model predicts.  No field is skipped: without
 * --netns, defns and ss.ns are those of this namespace.
 *
 * ccobserve --objects prints only "maps=N links=N": how many struct_ops
 * maps and BPF links of any kind the kernel has, what bpftool struct_ops
 * list and bpftool link show would list, in one process that reads no
 * BTF (lib.sh's ccctl_state, after every refused ccctl command).
 *
 * Root only (bpf() by id).  Prints the line and exits 0; a failure to start
 * at all is one line on stderr and exit 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "tcpdiag.h"
#include "tool.h"

#define PIN_ROOT	"/sys/fs/bpf/ccctl"
#define SYSCTL		"/proc/sys/net/ipv4/"

/* A growing list of strings, to sort and join. */
struct strs {
	char **v;
	int n;
};

static void add(struct strs *s, const char *str)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	if (!s->v || !(s->v[s->n] = strdup(str)))
		die("out of memory");
	s->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The strings sorted and joined by sep, into a new string. */
static char *joined(struct strs *s, char sep)
{
	size_t len = 1;
	char *out, *p;
	int i;

	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 1;
	p = out = malloc(len);
	if (!out)
		die("out of memory");
	*p = 0;
	for (i = 0; i < s->n; i++)
		p += sprintf(p, "%s%s", i ? (char[]){ sep, 0 } : "", s->v[i]);
	return out;
}

static void clear(struct strs *s)
{
	while (s->n)
		free(s->v[--s->n]);
}

/* --- sysctls -------------------------------------------------------------- */
static char *sysctl_words(const char *name)
{
	struct strs s = {};
	char buf[4096], *w, *save;
	FILE *f;

	snprintf(buf, sizeof(buf), SYSCTL "%s", name);
	f = fopen(buf, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return strdup("?unreadable");
	}
	fclose(f);
	for (w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		add(&s, w);
	return joined(&s, ',');
}

/* --- ccctl list --json ---------------------------------------------------- */
struct json {
	const char *p;
	bool bad;
};

static void ws(struct json *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool eat(struct json *j, char c)
{
	ws(j);
	if (*j->p != c)
		return false;
	j->p++;
	return true;
}

static void expect(struct json *j, char c)
{
	if (!eat(j, c))
		j->bad = true;
}

/* Four hex digits of a \u escape, or -1. */
static long hex4(struct json *j)
{
	char digits[5] = "";
	char *end;
	long u;

	memcpy(digits, j->p, 4);
	u = strtol(digits, &end, 16);
	if (end != digits + 4 || strlen(digits) != 4) {
		j->bad = true;
		return -1;
	}
	j->p += 4;
	return u;
}

/* Code point u as UTF-8 into out; its length. */
static size_t utf8(unsigned long u, char *out)
{
	if (u < 0x80) {
		out[0] = u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = 0xc0 | u >> 6;
		out[1] = 0x80 | (u & 0x3f);
		return 2;
	}
	if (u < 0x10000) {
		out[0] = 0xe0 | u >> 12;
		out[1] = 0x80 | ((u >> 6) & 0x3f);
		out[2] = 0x80 | (u & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | u >> 18;
	out[1] = 0x80 | ((u >> 12) & 0x3f);
	out[2] = 0x80 | ((u >> 6) & 0x3f);
	out[3] = 0x80 | (u & 0x3f);
	return 4;
}

/*
 * A string into buf, as the bytes ccctl had: escapes decoded, \uXXXX (and
 * surrogate pairs) as UTF-8, and a lone \udcXX as the byte XX it stands
 * for (ccctl's escape of a byte that is not UTF-8).
 */
static void string(struct json *j, char *buf, size_t size)
{
	char c, enc[4];
	size_t n = 0, k, len;
	long u, lo;

	if (!eat(j, '"')) {
		j->bad = true;
		return;
	}
	while (!j->bad && (c = *j->p++) != '"') {
		if (!c) {
			j->bad = true;
			break;
		}
		enc[0] = c;
		len = 1;
		if (c == '\\') {
			c = *j->p++;
			switch (c) {
			case 'n': enc[0] = '\n'; break;
			case 't': enc[0] = '\t'; break;
			case 'r': enc[0] = '\r'; break;
			case 'b': enc[0] = '\b'; break;
			case 'f': enc[0] = '\f'; break;
			case 'u':
				u = hex4(j);
				if (u < 0)
					return;
				if (u >= 0xdc80 && u <= 0xdcff) {
					enc[0] = u & 0xff;
				} else if (u >= 0xd800 && u <= 0xdbff && j->p[0] == '\\' &&
					   j->p[1] == 'u') {
					j->p += 2;
					lo = hex4(j);
					if (lo < 0xdc00 || lo > 0xdfff) {
						j->bad = true;
						return;
					}
					len = utf8(0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00), enc);
				} else if (u >= 0xd800 && u <= 0xdfff) {
					j->bad = true;
					return;
				} else {
					len = utf8(u, enc);
				}
				break;
			case '"': case '\\': case '/': enc[0] = c; break;
			default: j->bad = true; return;
			}
		}
		for (k = 0; k < len; k++)
			if (n + 1 < size)
				buf[n++] = enc[k];
	}
	buf[n] = 0;
}

static unsigned long long number(struct json *j)
{
	unsigned long long v;
	char *end;

	ws(j);
	errno = 0;
	v = strtoull(j->p, &end, 10);
	if (end == j->p || errno || *j->p == '-')
		j->bad = true;
	j->p = end;
	return v;
}

static bool word(struct json *j, const char *w)
{
	ws(j);
	if (strncmp(j->p, w, strlen(w)))
		return false;
	j->p += strlen(w);
	return true;
}

static void skip_value(struct json *j)
{
	char buf[256];

	ws(j);
	if (*j->p == '"') {
		string(j, buf, sizeof(buf));
	} else if (eat(j, '[')) {
		if (eat(j, ']'))
			return;
		do
			skip_value(j);
		while (!j->bad && eat(j, ','));
		expect(j, ']');
	} else if (eat(j, '{')) {
		if (eat(j, '}'))
			return;
		do {
			string(j, buf, sizeof(buf));
			expect(j, ':');
			skip_value(j);
		} while (!j->bad && eat(j, ','));
		expect(j, '}');
	} else if (!word(j, "true") && !word(j, "false") && !word(j, "null")) {
		number(j);
	}
}

/* One entry of the list: NAME:MAP:LINK:SOCKETS:DEFAULT:CG+CG. */
static void entry(struct json *j, struct strs *out)
{
	char key[64], name[256] = "", cg[4096], line[8192];
	unsigned long long map = 0, link = 0, sockets = 0;
	struct strs cgs = {};
	const char *dflt = "?";
	char *cgl;

	expect(j, '{');
	if (!j->bad && !eat(j, '}')) {
		do {
			string(j, key, sizeof(key));
			expect(j, ':');
			if (j->bad)
				break;
			if (!strcmp(key, "name")) {
				string(j, name, sizeof(name));
			} else if (!strcmp(key, "map_id")) {
				map = number(j);
			} else if (!strcmp(key, "link_id")) {
				link = number(j);
			} else if (!strcmp(key, "sockets")) {
				sockets = number(j);
			} else if (!strcmp(key, "default")) {
				dflt = word(j, "true") ? "true" : word(j, "false") ? "false" : "?";
			} else if (!strcmp(key, "cgroups")) {
				expect(j, '[');
				if (!j->bad && !eat(j, ']')) {
					do {
						string(j, cg, sizeof(cg));
						add(&cgs, cg);
					} while (!j->bad && eat(j, ','));
					expect(j, ']');
				}
			} else {
				skip_value(j);
			}
		} while (!j->bad && eat(j, ','));
		expect(j, '}');
	}
	cgl = joined(&cgs, '+');
	snprintf(line, sizeof(line), "%s:%llu:%llu:%llu:%s:%s", name, map, link, sockets, dflt, cgl);
	add(out, line);
	free(cgl);
	clear(&cgs);
	free(cgs.v);
}

static char *ccctl_list(const char *path)
{
	struct strs out = {};
	struct json j;
	char *text = NULL, *res;
	size_t len = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return strdup("?unreadable");
	if (getdelim(&text, &len, 0, f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	if (!text)
		return strdup("?empty");
	j = (struct json){ .p = text };
	expect(&j, '[');
	if (!j.bad && !eat(&j, ']')) {
		do
			entry(&j, &out);
		while (!j.bad && eat(&j, ','));
		expect(&j, ']');
	}
	ws(&j);
	if (j.bad || *j.p)
		res = strdup("?not-ccctl-list-json");
	else
		res = joined(&out, ',');
	free(text);
	clear(&out);
	free(out.v);
	return res;
}

/* --- pins, links, maps ---------------------------------------------------- */
static char *pins(void)
{
	struct strs s = {};
	struct dirent *de;
	DIR *d;

	d = opendir(PIN_ROOT);
	if (!d)
		return strdup(errno == ENOENT ? "" : "?unreadable");
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add(&s, de->d_name);
	closedir(d);
	return joined(&s, ',');
}

/* How many BPF links of this type the kernel has (ANY_LINK: of any type). */
#define ANY_LINK	(-1)
static char *links_of(int type)
{
	__u32 id = 0, len, n = 0;
	struct bpf_link_info info;
	char buf[32];
	int fd;

	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone since */
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_link_get_info_by_fd(fd, &info, &len) &&
		    (type == ANY_LINK || info.type == (__u32)type))
			n++;
		close(fd);
	}
	if (errno != ENOENT)
		return strdup("?unreadable");
	snprintf(buf, sizeof(buf), "%u", n);
	return strdup(buf);
}

static int cmp_num(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* The kernel's struct_ops maps: their ids, and how many into *count. */
static char *struct_ops_maps(int *count)
{
	__u32 id = 0, len, ids[4096];
	struct bpf_map_info info;
	char *out, *p;
	int fd, n = 0, i;

	while (!bpf_map_get_next_id(id, &id)) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_map_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_MAP_TYPE_STRUCT_OPS && n < 4096)
			ids[n++] = id;
		close(fd);
	}
	if (errno != ENOENT)
		return strdup("?unreadable");
	*count = n;
	qsort(ids, n, sizeof(*ids), cmp_num);
	p = out = malloc(n * 11 + 1);
	if (!out)
		die("out of memory");
	*p = 0;
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%u", i ? "," : "", ids[i]);
	return out;
}

/* --- sockets per congestion control, as ss shows them ---------------------- */
struct counts {
	char ca[64][16];
	unsigned long n[64];
	int len;
	bool bad;
};

static void count(struct counts *c, const char *ca)
{
	int i;

	for (i = 0; i < c->len; i++)
		if (!strcmp(c->ca[i], ca))
			break;
	if (i == c->len) {
		if (c->len == 64) {
			c->bad = true;
			return;
		}
		snprintf(c->ca[c->len++], sizeof(c->ca[0]), "%s", ca);
	}
	c->n[i]++;
}

static void count_ca(const struct inet_diag_msg *msg, const struct rtattr *a, void *ctx)
{
	char ca[16];

	(void)msg;
	snprintf(ca, sizeof(ca), "%.*s", (int)RTA_PAYLOAD(a), (const char *)RTA_DATA(a));
	count(ctx, ca);
}

static char *sockets(void)
{
	struct counts c = {};
	struct strs s = {};
	char item[48];
	int fd, i;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0 || !tcp_diag(fd, AF_INET, INET_DIAG_CONG, count_ca, &c) ||
	    !tcp_diag(fd, AF_INET6, INET_DIAG_CONG, count_ca, &c) || c.bad) {
		if (fd >= 0)
			close(fd);
		return strdup("?unreadable");
	}
	close(fd);
	for (i = 0; i < c.len; i++) {
		snprintf(item, sizeof(item), "%s:%lu", c.ca[i], c.n[i]);
		add(&s, item);
	}
	return joined(&s, ',');
}

int main(int argc, char **argv)
{
	char *avail, *allowed, *def, *defns, *list, *pinned, *links, *maps, *ss_lo, *ss_ns;
	const char *list_file = NULL, *netns = NULL;
	bool objects = false;
	char path[256];
	int i, fd, nmaps = -1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list") && i + 1 < argc)
			list_file = argv[++i];
		else if (!strcmp(argv[i], "--netns") && i + 1 < argc)
			netns = argv[++i];
		else if (!strcmp(argv[i], "--objects"))
			objects = true;
		else
			die("usage: ccobserve [--list FILE] [--netns NAME] | --objects");
	}
	if (objects) {
		maps = struct_ops_maps(&nmaps);
		links = links_of(ANY_LINK);
		if (nmaps < 0)
			printf("maps=%s links=%s\n", maps, links);
		else
			printf("maps=%d links=%s\n", nmaps, links);
		return 0;
	}
	avail = sysctl_words("tcp_available_congestion_control");
	allowed = sysctl_words("tcp_allowed_congestion_control");
	def = sysctl_words("tcp_congestion_control");
	list = list_file ? ccctl_list(list_file) : strdup("?no-file");
	pinned = pins();
	links = links_of(BPF_LINK_TYPE_CGROUP);
	maps = struct_ops_maps(&nmaps);
	ss_lo = sockets();
	if (netns) {
		snprintf(path, sizeof(path), "/run/netns/%s", netns);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET))
			die("cannot enter network namespace %s: %s", netns, strerror(errno));
		close(fd);
	}
	defns = sysctl_words("tcp_congestion_control");
	ss_ns = sockets();
	printf("avail=%s allowed=%s def=%s defns=%s list=%s pins=%s cglinks=%s ss.ns=%s ss.lo=%s maps=%s\n",
	       avail, allowed, def, defns, list, pinned, links, ss_ns, ss_lo, maps);
	return 0;
}
