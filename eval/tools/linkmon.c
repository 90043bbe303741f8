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
 * hundredths, as /proc/uptime is).  What one sample costs is what this
 * tool is for: a bash loop that read the same files and forked ss took
 * the guest tens of milliseconds a sample, most of the guest's CPU in a
 * cell.  Errors are one line on stderr and exit 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>	/* tcp_info with tcpi_bytes_acked */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "tcpdiag.h"
#include "tool.h"

#define MAX_PEERS	16

struct peer {
	__be32 addr;
	__be16 port;
	unsigned long long acked;
};

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
	static char line[16384];
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

struct peers {
	struct peer p[MAX_PEERS];
	int n;
};

/* a connection's bytes_acked, if it is its peer's largest so far */
static void note(const struct inet_diag_msg *msg, const struct rtattr *a, void *ctx)
{
	const size_t need = offsetof(struct tcp_info, tcpi_bytes_acked) +
			    sizeof(((struct tcp_info *)0)->tcpi_bytes_acked);
	const struct tcp_info *ti = RTA_DATA(a);
	struct peers *ps = ctx;
	struct peer *p;

	if (RTA_PAYLOAD(a) < need)
		return;
	for (p = ps->p; p < ps->p + ps->n; p++)
		if (p->addr == msg->id.idiag_dst[0] && p->port == msg->id.idiag_dport) {
			if (ti->tcpi_bytes_acked > p->acked)
				p->acked = ti->tcpi_bytes_acked;
			return;
		}
	if (ps->n == MAX_PEERS)
		die("more than %d peers", MAX_PEERS);
	ps->p[ps->n++] = (struct peer){ msg->id.idiag_dst[0], msg->id.idiag_dport,
					ti->tcpi_bytes_acked };
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
	struct peers ps;
	struct timespec due;
	int fd = -1, i;
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
		ps.n = 0;
		if (fd >= 0 && !tcp_diag(fd, AF_INET, INET_DIAG_INFO, note, &ps))
			die("sock_diag: the dump failed");
		for (i = 0; i < ps.n; i++)
			printf(" %s:%u %llu", inet_ntop(AF_INET, &ps.p[i].addr, addr, sizeof(addr)),
			       ntohs(ps.p[i].port), ps.p[i].acked);
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
