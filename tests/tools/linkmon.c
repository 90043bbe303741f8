// SPDX-License-Identifier: GPL-2.0
/*
 * linkmon: the design point's sampler (make bench), run in the sender's
 * network namespace.  Every IVAL seconds one line on stdout:
 *
 *	UPTIME TX_PACKETS TX_BYTES RETRANS EVENTS [PEER:PORT BYTES_ACKED]...
 *
 *   UPTIME	CLOCK_BOOTTIME in s, as /proc/uptime has it
 *   TX_*	IFACE's transmitted frames and bytes (sysfs statistics)
 *   RETRANS	Tcp RetransSegs (/proc/net/snmp)
 *   EVENTS	entries into Recovery and RTOs so far: TcpExt
 *		TCPSackRecovery + TCPRenoRecovery + TCPTimeouts
 *		(/proc/net/netstat); a tail loss probe is none
 *   with "acked": for each peer address and port, the largest bytes_acked
 *   of the namespace's IPv4 TCP connections to it (sock_diag, the states
 *   ss shows by default)
 *
 *   linkmon IFACE IVAL STOPFILE [acked]
 *
 * It ends, status 0, at the first sample time at which STOPFILE exists.
 * Samples are due at whole multiples of IVAL from the start, so that the
 * time a sample takes does not stretch the interval (UPTIME truncated to
 * hundredths, as /proc/uptime is).  What one sample
 * costs is what this tool is for: a bash loop that read the same files
 * and forked ss took the guest tens of milliseconds a sample, most of the
 * guest's CPU in a cell.  Errors are one line on stderr and exit 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>	/* tcp_info with tcpi_bytes_acked */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "tool.h"

#define MAX_PEERS	16

struct peer {
	__be32 addr;
	__be16 port;
	unsigned long long acked;
};

static char line[16384];

/* The one unsigned number in a sysfs file. */
static unsigned long long sysfs_num(const char *path)
{
	unsigned long long v;
	FILE *f = fopen(path, "re");

	if (!f || fscanf(f, "%llu", &v) != 1)
		die("cannot read %s", path);
	fclose(f);
	return v;
}

/*
 * The sum of the named counters of one PREFIX ("Tcp:", "TcpExt:") in a
 * /proc/net file of header/value line pairs; a name it lacks is an error.
 */
static unsigned long long proc_sum(const char *path, const char *prefix, const char *const *names)
{
	char head[sizeof(line)], *hs, *vs, *h, *v;
	unsigned long long sum = 0;
	int found = 0, want = 0, i;
	FILE *f = fopen(path, "re");

	if (!f)
		die("cannot read %s", path);
	while (names[want])
		want++;
	while (fgets(head, sizeof(head), f) && fgets(line, sizeof(line), f)) {
		if (strncmp(head, prefix, strlen(prefix)))
			continue;
		h = strtok_r(head, " \n", &hs);
		v = strtok_r(line, " \n", &vs);
		while ((h = strtok_r(NULL, " \n", &hs)) && (v = strtok_r(NULL, " \n", &vs)))
			for (i = 0; i < want; i++)
				if (!strcmp(h, names[i])) {
					sum += strtoull(v, NULL, 10);
					found++;
				}
		break;
	}
	fclose(f);
	if (found != want)
		die("%s: %s lacks a counter", path, prefix);
	return sum;
}

static void note(struct peer *p, int *n, __be32 addr, __be16 port, unsigned long long acked)
{
	int i;

	for (i = 0; i < *n; i++)
		if (p[i].addr == addr && p[i].port == port) {
			if (acked > p[i].acked)
				p[i].acked = acked;
			return;
		}
	if (*n == MAX_PEERS)
		die("more than %d peers", MAX_PEERS);
	p[(*n)++] = (struct peer){ addr, port, acked };
}

/* Each peer's largest bytes_acked, into p; how many peers. */
static int acked(int fd, struct peer *p)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.r = {
			.sdiag_family = AF_INET,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_ext = 1 << (INET_DIAG_INFO - 1),
			.idiag_states = SS_STATES,
		},
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	const size_t need = offsetof(struct tcp_info, tcpi_bytes_acked) +
			    sizeof(((struct tcp_info *)0)->tcpi_bytes_acked);
	long buf[8192];
	struct inet_diag_msg *msg;
	struct tcp_info *ti;
	struct nlmsghdr *h;
	struct rtattr *a;
	int len, n = 0;
	ssize_t got;

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		die("sock_diag: %s", strerror(errno));
	for (;;) {
		got = recv(fd, buf, sizeof(buf), 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			die("sock_diag: %s", got ? strerror(errno) : "no answer");
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, got); h = NLMSG_NEXT(h, got)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return n;
			if (h->nlmsg_type == NLMSG_ERROR)
				die("sock_diag: the dump failed");
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				continue;
			msg = NLMSG_DATA(h);
			len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg));
			for (a = (struct rtattr *)(msg + 1); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
				if (a->rta_type != INET_DIAG_INFO || RTA_PAYLOAD(a) < need)
					continue;
				ti = RTA_DATA(a);
				note(p, &n, msg->id.idiag_dst[0], msg->id.idiag_dport,
				     ti->tcpi_bytes_acked);
			}
		}
	}
}

static unsigned long long boottime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static const char *const retrans[] = { "RetransSegs", NULL };
	static const char *const events[] = {
		"TCPSackRecovery", "TCPRenoRecovery", "TCPTimeouts", NULL
	};
	char tx_packets[128], tx_bytes[128], addr[INET_ADDRSTRLEN];
	unsigned long long t0, now, ival_ns, k;
	struct peer p[MAX_PEERS];
	struct timespec due;
	int fd = -1, n, i;
	double ival;
	char *end;

	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "acked")))
		die("usage: linkmon IFACE IVAL STOPFILE [acked]");
	ival = strtod(argv[2], &end);
	if (*end || !(ival >= 0.01 && ival <= 3600))
		die("bad interval '%s'", argv[2]);
	ival_ns = ival * 1e9;
	snprintf(tx_packets, sizeof(tx_packets), "/sys/class/net/%s/statistics/tx_packets", argv[1]);
	snprintf(tx_bytes, sizeof(tx_bytes), "/sys/class/net/%s/statistics/tx_bytes", argv[1]);
	if (argc == 5) {
		fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
		if (fd < 0)
			die("sock_diag: %s", strerror(errno));
	}

	sysfs_num(tx_packets);	/* no such interface: one line, before any sample */
	t0 = boottime_ns();
	for (k = 0; access(argv[3], F_OK); ) {
		now = boottime_ns();
		printf("%llu.%02llu %llu %llu %llu %llu", now / 1000000000ULL,
		       now / 10000000ULL % 100, sysfs_num(tx_packets), sysfs_num(tx_bytes),
		       proc_sum("/proc/net/snmp", "Tcp:", retrans),
		       proc_sum("/proc/net/netstat", "TcpExt:", events));
		n = fd < 0 ? 0 : acked(fd, p);
		for (i = 0; i < n; i++)
			printf(" %s:%u %llu", inet_ntop(AF_INET, &p[i].addr, addr, sizeof(addr)),
			       ntohs(p[i].port), p[i].acked);
		putchar('\n');
		if (fflush(stdout))
			die("stdout: %s", strerror(errno));
		/* the next due time still ahead: a sample late by more than
		 * an interval skips one rather than bunching them */
		now = boottime_ns();
		do
			k++;
		while (t0 + k * ival_ns <= now);
		due.tv_sec = (t0 + k * ival_ns) / 1000000000ULL;
		due.tv_nsec = (t0 + k * ival_ns) % 1000000000ULL;
		while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &due, NULL) == EINTR)
			;
	}
	return 0;
}
