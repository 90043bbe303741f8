// SPDX-License-Identifier: GPL-2.0
/*
 * ackdrill: run a drill script against the kernel's own TCP.
 *
 *   ackdrill [-6] [-o CSV] SCRIPT ALGO
 *
 * In a network namespace of its own, ackdrill is both ends of one TCP
 * connection: the application, writing into a socket that runs ALGO, and
 * the remote peer, answering every segment the kernel puts on a tun device
 * as the script says (engine.c).  After each ACK it writes one row of
 * TCP_INFO.  Nothing leaves the namespace, and the namespace dies with it.
 * ALGO is one of the table of algorithms (bpf/algos.h), whose row says
 * what the gate guard (engine.c) watches; ackdrill drills no other.
 *
 * The connection is IPv4 (192.0.2.1 to .2), or with -6 IPv6 (2001:db8::1
 * to ::2); only this file knows which.  The segment size is the script's
 * either way: the peer's SYN-ACK announces the script's MSS (at most 1400),
 * below what the tun's MTU of 1500 leaves after either header (1460, 1440),
 * and the handshake checks that TCP_INFO's snd_mss is that size.  So the
 * rows, which count in segments, are the same for both families.  Over
 * IPv6 the tun's address is added without DAD and the device makes no
 * link-local address, so no router solicitation or MLD report is sent;
 * whatever else the kernel puts on the tun that is not a segment of the
 * connection is read and dropped, also while waiting for a timer.
 *
 * What would make the kernel's answer depend on time rather than on the
 * script is switched off in the namespace: tail loss probes, cwnd decay
 * after idle, segments larger than one MSS (so no TSO deferral).
 * tcp_reordering = 1 makes RACK mark a hole lost at the first SACK above it,
 * where the default 3 would give the first two SACKs a reordering window
 * of min_rtt/4, a race with the harness's own speed.
 *
 * ECN is off unless the script says `set ecn on`: then tcp_ecn = 1 in the
 * namespace, the kernel's SYN asks for ECN (ECE and CWR), the peer's
 * SYN-ACK agrees (ECE alone, RFC 3168), and the kernel sends its new data
 * ECT(0), with CWR on the first new segment after a reduction.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "algos.h"
#include "drill.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define TUN_NAME	"drill0"
#define LOCAL_ADDR	"192.0.2.1"	/* RFC 5737 documentation range */
#define PEER_ADDR	"192.0.2.2"
#define LOCAL_ADDR6	"2001:db8::1"	/* RFC 3849 documentation prefix */
#define PEER_ADDR6	"2001:db8::2"
#define LOCAL_PORT	40000
#define PEER_PORT	5001
#define PEER_ISN	1000000u
#define SNDBUF		(32 << 20)
#define GATE_WAIT_MS	40		/* > HZ/32 = 28 ms at HZ=250, plus a tick */
#define RTO_WAIT_MS	5000
#define ATTEMPTS	5		/* runs voided by the gate guard, at most */
#define PKT_MAX		2048		/* a packet from the tun: one MSS and headers */

struct ksender {
	struct sender ops;
	const struct script *sc;
	int family;		/* AF_INET, or AF_INET6 with -6 */
	size_t alen;		/* bytes of an address: 4 or 16 */
	uint8_t local[16];	/* the kernel's end, network order */
	uint8_t peer[16];	/* the peer's, which ackdrill plays */
	int tun, sk;
	uint8_t stash[PKT_MAX];	/* a segment read while waiting, not yet taken */
	ssize_t stashed;	/* its length, 0 if none */
	unsigned int strays;	/* packets on the tun not of the connection */
	uint32_t iss;		/* kernel's initial sequence number */
	uint32_t mss;
	uint64_t written;	/* bytes the application wrote */
	uint32_t peer_ts;
	uint8_t wscale;
};

static void die(const char *what)
{
	fprintf(stderr, "ackdrill: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void dief(const char *what)
{
	fprintf(stderr, "ackdrill: %s\n", what);
	exit(1);
}

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

struct sysctl_val {
	const char *path, *val;
};

/* Both families' TCP reads these (the ipv4 names are TCP's, whatever the family). */
static const struct sysctl_val ns_sysctls[] = {
	{ "/proc/sys/net/ipv4/tcp_early_retrans", "0" },	/* no TLP */
	{ "/proc/sys/net/ipv4/tcp_slow_start_after_idle", "0" },
	{ "/proc/sys/net/ipv4/tcp_reordering", "1" },
	{ "/proc/sys/net/ipv4/tcp_autocorking", "0" },
	{ "/proc/sys/net/ipv4/tcp_no_metrics_save", "1" },
	{ "/proc/sys/net/ipv4/tcp_frto", "2" },
	{ "/proc/sys/net/ipv4/tcp_recovery", "1" },
};

/*
 * IPv6 on the tun, which these make quiet before it exists: no link-local
 * address (addr_gen_mode 1: none), hence no router solicitation or MLD
 * report for it, no DAD, no router advertisement taken.  Over IPv4 the
 * tun has no IPv6 at all.
 */
static const struct sysctl_val ns_sysctls6[] = {
	{ "/proc/sys/net/ipv6/conf/default/disable_ipv6", "0" },
	{ "/proc/sys/net/ipv6/conf/default/addr_gen_mode", "1" },
	{ "/proc/sys/net/ipv6/conf/default/accept_dad", "0" },
	{ "/proc/sys/net/ipv6/conf/default/dad_transmits", "0" },
	{ "/proc/sys/net/ipv6/conf/default/accept_ra", "0" },
	{ "/proc/sys/net/ipv6/conf/default/router_solicitations", "0" },
};

static void write_all(const struct sysctl_val *table, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		write_file(table[i].path, table[i].val);
}

static void if_up(int fd, const char *name, const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (addr) {
		sin->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sin->sin_addr);
		if (ioctl(fd, SIOCSIFADDR, &ifr))
			die("SIOCSIFADDR");
		inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
		if (ioctl(fd, SIOCSIFNETMASK, &ifr))
			die("SIOCSIFNETMASK");
	}
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		die("SIOCSIFFLAGS");
}

/* One rtnetlink request, acknowledged; what: the step, for the error. */
static void rtnl_request(const void *req, size_t len, const char *what)
{
	struct { struct nlmsghdr nh; struct nlmsgerr err; } resp;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0 || send(fd, req, len, 0) != (ssize_t)len)
		die("netlink");
	if (recv(fd, &resp, sizeof(resp), 0) < (ssize_t)sizeof(resp))
		die("netlink reply");
	if (resp.nh.nlmsg_type != NLMSG_ERROR || resp.err.error) {
		errno = resp.nh.nlmsg_type == NLMSG_ERROR ? -resp.err.error : EPROTO;
		die(what);
	}
	close(fd);
}

/* One MSS per skb: TCP then never builds GSO packets, so never defers them. */
static void set_gso_max_segs(int ifindex, uint32_t segs)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		struct rtattr rta;
		uint32_t val;
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_NEWLINK,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.ifi.ifi_family = AF_UNSPEC,
		.ifi.ifi_index = ifindex,
		.rta.rta_type = IFLA_GSO_MAX_SEGS,
		.rta.rta_len = RTA_LENGTH(sizeof(uint32_t)),
		.val = segs,
	};

	rtnl_request(&req, sizeof(req), "setting gso_max_segs");
}

/*
 * The tun's IPv6 address, /64, with IFA_F_NODAD: usable at once, where DAD
 * would keep it tentative for a second and send a neighbour solicitation.
 */
static void add_addr6(int ifindex, const uint8_t *addr)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
		struct rtattr rta;
		uint8_t addr[16];
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_NEWADDR,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
		.ifa.ifa_family = AF_INET6,
		.ifa.ifa_prefixlen = 64,
		.ifa.ifa_flags = IFA_F_NODAD,
		.ifa.ifa_index = ifindex,
		.rta.rta_type = IFA_LOCAL,
		.rta.rta_len = RTA_LENGTH(16),
	};

	memcpy(req.addr, addr, 16);
	rtnl_request(&req, sizeof(req), "adding the IPv6 address");
}

/* The kernel's route to addr, RTN_LOCAL when it takes addr as its own. */
static int route6_type(int fd, const uint8_t *addr)
{
	struct {
		struct nlmsghdr nh;
		struct rtmsg rtm;
		struct rtattr rta;
		uint8_t addr[16];
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_GETROUTE,
		.nh.nlmsg_flags = NLM_F_REQUEST,
		.rtm.rtm_family = AF_INET6,
		.rtm.rtm_dst_len = 128,
		.rta.rta_type = RTA_DST,
		.rta.rta_len = RTA_LENGTH(16),
	};
	union { struct nlmsghdr nh; char buf[1024]; } resp;
	struct rtmsg *rtm = NLMSG_DATA(&resp.nh);

	memcpy(req.addr, addr, 16);
	if (send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req) ||
	    recv(fd, &resp, sizeof(resp), 0) < (ssize_t)NLMSG_LENGTH(sizeof(*rtm)))
		die("netlink route lookup");
	return resp.nh.nlmsg_type == RTM_NEWROUTE ? rtm->rtm_type : -1;
}

/*
 * Wait (up to 2 s) until the kernel takes addr as its own.  Even with
 * IFA_F_NODAD its local route goes in only when the address's DAD work has
 * run on the addrconf workqueue, after RTM_NEWADDR has returned; a SYN-ACK
 * that comes first is dropped as not for this host (Ip6InAddrErrors) and
 * the kernel's second SYN answers the drill.  With one CPU that work had
 * always run before the SYN-ACK was written; with two it often had not.
 */
static void await_local6(const uint8_t *addr)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), i;
	const struct timespec ms = { .tv_nsec = 1000000 };

	if (fd < 0)
		die("netlink");
	for (i = 0; route6_type(fd, addr) != RTN_LOCAL; i++) {
		if (i == 2000)
			dief("the tun's IPv6 address is not local after 2 s");
		nanosleep(&ms, NULL);
	}
	close(fd);
}

/* The family and both addresses, for everything below. */
static void set_family(struct ksender *k, bool ipv6)
{
	k->family = ipv6 ? AF_INET6 : AF_INET;
	k->alen = ipv6 ? 16 : 4;
	if (inet_pton(k->family, ipv6 ? LOCAL_ADDR6 : LOCAL_ADDR, k->local) != 1 ||
	    inet_pton(k->family, ipv6 ? PEER_ADDR6 : PEER_ADDR, k->peer) != 1)
		dief("bad address");
}

static void setup_netns(struct ksender *k)
{
	struct ifreq ifr;
	int fd;

	if (unshare(CLONE_NEWNET))
		die("unshare(CLONE_NEWNET)");
	write_all(ns_sysctls, ARRAY_SIZE(ns_sysctls));
	write_file("/proc/sys/net/ipv4/tcp_ecn", k->sc->ecn ? "1" : "0");
	if (k->family == AF_INET6)
		write_all(ns_sysctls6, ARRAY_SIZE(ns_sysctls6));
	else
		write_file("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");

	k->tun = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (k->tun < 0)
		die("/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	strcpy(ifr.ifr_name, TUN_NAME);
	if (ioctl(k->tun, TUNSETIFF, &ifr))
		die("TUNSETIFF");
	fcntl(k->tun, F_SETFL, O_NONBLOCK);

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	if_up(fd, "lo", NULL);
	set_gso_max_segs(if_nametoindex(TUN_NAME), 1);
	if (k->family == AF_INET6) {
		if_up(fd, TUN_NAME, NULL);
		add_addr6(if_nametoindex(TUN_NAME), k->local);
		await_local6(k->local);
	} else {
		if_up(fd, TUN_NAME, LOCAL_ADDR);
	}
	close(fd);
}

/* --- packets ------------------------------------------------------------- */

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static uint32_t csum_add(uint32_t sum, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (; len > 1; p += 2, len -= 2)
		sum += (p[0] << 8) | p[1];
	if (len)
		sum += p[0] << 8;
	return sum;
}

/* What the drill reads of a packet besides the TCP header itself. */
struct tcpopts {
	bool ts;
	uint32_t tsval;
	uint8_t ecn;		/* the IP header's ECN field */
};

/*
 * The IP header of a TCP packet of the connection's family: its length,
 * and the ECN field in ecn; 0 if it is something else.  The kernel's TCP
 * over IPv6 puts no extension header before TCP: what has one (MLD's
 * hop-by-hop options) or another next header (ICMPv6) is not ours.
 */
static size_t ip_header(const struct ksender *k, const uint8_t *pkt, ssize_t n, uint8_t *ecn)
{
	const struct ip6_hdr *ip6 = (const void *)pkt;
	const struct iphdr *ip = (const void *)pkt;

	if (k->family == AF_INET6) {
		if (n < (ssize_t)sizeof(*ip6) || (pkt[0] >> 4) != 6 ||
		    ip6->ip6_nxt != IPPROTO_TCP || ntohs(ip6->ip6_plen) + sizeof(*ip6) != (size_t)n)
			return 0;
		*ecn = (ntohl(ip6->ip6_flow) >> 20) & 3;	/* the traffic class's low bits */
		return sizeof(*ip6);
	}
	if (n < (ssize_t)sizeof(*ip) || ip->version != 4 || ip->protocol != IPPROTO_TCP ||
	    ntohs(ip->tot_len) != n)
		return 0;
	*ecn = ip->tos & 3;
	return ip->ihl * 4;
}

/* Parse one TCP packet of our connection; 0 if it is something else. */
static int parse(const struct ksender *k, const uint8_t *pkt, ssize_t n, struct tcphdr **th,
		 uint32_t *len, struct tcpopts *o)
{
	const uint8_t *opt, *end;
	size_t ihl, doff;
	uint8_t ecn;

	ihl = ip_header(k, pkt, n, &ecn);
	if (!ihl || n < (ssize_t)(ihl + sizeof(struct tcphdr)))
		return 0;
	*th = (struct tcphdr *)(pkt + ihl);
	doff = (*th)->doff * 4;
	if (ihl + doff > (size_t)n || ntohs((*th)->dest) != PEER_PORT)
		return 0;
	*len = n - ihl - doff;
	memset(o, 0, sizeof(*o));
	o->ecn = ecn;
	opt = (const uint8_t *)*th + sizeof(struct tcphdr);
	end = (const uint8_t *)*th + doff;
	while (opt < end && *opt != TCPOPT_EOL) {
		if (*opt == TCPOPT_NOP) {
			opt++;
			continue;
		}
		if (opt + 1 >= end || opt[1] < 2 || opt + opt[1] > end)
			break;
		if (opt[0] == TCPOPT_TIMESTAMP && opt[1] == 10) {
			o->ts = true;
			o->tsval = ntohl(*(uint32_t *)(opt + 2));
		}
		opt += opt[1];
	}
	return 1;
}

/* The next packet of the connection into buf (PKT_MAX): 1; none waiting, 0; -1. */
static int read_pkt(struct ksender *k, uint8_t *buf, struct tcphdr **th, uint32_t *len,
		    struct tcpopts *o)
{
	for (;;) {
		ssize_t n;

		if (k->stashed) {
			n = k->stashed;
			memcpy(buf, k->stash, n);
			k->stashed = 0;
		} else {
			n = read(k->tun, buf, PKT_MAX);
		}
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		if (parse(k, buf, n, th, len, o))
			return 1;
		k->strays++;
	}
}

/*
 * Wait up to ms for the kernel to send a packet of the connection, and
 * keep it for the next read_pkt; others are dropped on the way.  1 when one
 * came, 0 when none did, -1 on an error.
 */
static int await_pkt(struct ksender *k, int ms)
{
	struct pollfd pfd = { .fd = k->tun, .events = POLLIN };
	struct timespec t0, t;
	struct tcpopts o;
	struct tcphdr *th;
	uint32_t len;
	int left = ms;

	if (k->stashed)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int r = poll(&pfd, 1, left);
		ssize_t n;

		if (r < 0)
			return -1;
		if (!r)
			return 0;
		n = read(k->tun, k->stash, sizeof(k->stash));
		if (n < 0 && errno != EAGAIN)
			return -1;
		if (n > 0 && parse(k, k->stash, n, &th, &len, &o)) {
			k->stashed = n;
			return 1;
		}
		if (n > 0)
			k->strays++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - (int)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return 0;
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

/* The IP header of a packet from the peer with tlen bytes of TCP; its length. */
static size_t put_ip_header(const struct ksender *k, uint8_t *pkt, size_t tlen)
{
	struct ip6_hdr *ip6 = (void *)pkt;
	struct iphdr *ip = (void *)pkt;

	if (k->family == AF_INET6) {
		ip6->ip6_flow = htonl(6u << 28);	/* traffic class 0, no flow label */
		ip6->ip6_plen = htons(tlen);
		ip6->ip6_nxt = IPPROTO_TCP;
		ip6->ip6_hlim = 64;
		memcpy(&ip6->ip6_src, k->peer, 16);
		memcpy(&ip6->ip6_dst, k->local, 16);
		return sizeof(*ip6);
	}
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(sizeof(*ip) + tlen);
	ip->frag_off = htons(IP_DF);
	ip->ttl = 64;
	ip->protocol = IPPROTO_TCP;
	memcpy(&ip->saddr, k->peer, 4);
	memcpy(&ip->daddr, k->local, 4);
	ip->check = htons(csum_fold(csum_add(0, ip, sizeof(*ip))));
	return sizeof(*ip);
}

/* Send one segment from the peer: flags, ack, and TCP options already laid out. */
static void send_pkt(struct ksender *k, uint8_t flags, uint32_t seq, uint32_t ack,
		     uint16_t win, const uint8_t *opts, size_t olen)
{
	uint8_t pkt[128];
	size_t tlen = sizeof(struct tcphdr) + olen, hl;
	struct tcphdr *th;
	uint32_t sum;

	memset(pkt, 0, sizeof(pkt));
	hl = put_ip_header(k, pkt, tlen);
	th = (void *)(pkt + hl);
	th->source = htons(PEER_PORT);
	th->dest = htons(LOCAL_PORT);
	th->seq = htonl(seq);
	th->ack_seq = htonl(ack);
	th->doff = tlen / 4;
	((uint8_t *)th)[13] = flags;
	th->window = htons(win);
	memcpy(pkt + hl + sizeof(*th), opts, olen);

	/*
	 * Over the pseudo-header: both addresses, the protocol and the TCP
	 * length, as 16-bit words (RFC 9293 3.1; RFC 8200 8.1 for IPv6, whose
	 * 32-bit length and zero-padded next header sum the same).
	 */
	sum = csum_add(0, k->peer, k->alen);
	sum = csum_add(sum, k->local, k->alen);
	sum += IPPROTO_TCP + tlen;
	sum = csum_add(sum, th, tlen);
	th->check = htons(csum_fold(sum));

	/* With IFF_NO_PI the tun takes the family from the version nibble. */
	if (write(k->tun, pkt, hl + tlen) != (ssize_t)(hl + tlen))
		die("writing to tun");
}

#define TH_SYN	0x02
#define TH_ACK	0x10
#define TH_ECE	0x40
#define TH_CWR	0x80

/* The flags byte: glibc's struct tcphdr has no ECE and CWR bits. */
static uint8_t th_flags(const struct tcphdr *th)
{
	return ((const uint8_t *)th)[13];
}

static size_t put_ts(uint8_t *o, uint32_t val, uint32_t ecr)
{
	o[0] = TCPOPT_NOP;
	o[1] = TCPOPT_NOP;
	o[2] = TCPOPT_TIMESTAMP;
	o[3] = 10;
	put32(o + 4, val);
	put32(o + 8, ecr);
	return 12;
}

/* A socket address of the connection's family: addr, port; its length. */
static socklen_t sockaddr_of(const struct ksender *k, const uint8_t *addr, uint16_t port,
			     struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (void *)ss;
	struct sockaddr_in *sin = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (k->family == AF_INET6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		memcpy(&sin6->sin6_addr, addr, 16);
		return sizeof(*sin6);
	}
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	memcpy(&sin->sin_addr, addr, 4);
	return sizeof(*sin);
}

static void handshake(struct ksender *k, const char *algo)
{
	struct sockaddr_storage a;
	socklen_t al;
	uint8_t buf[PKT_MAX], opts[40];
	struct tcpopts o;
	struct tcphdr *th;
	char got[32] = "";
	socklen_t gl = sizeof(got), tl = sizeof(struct tcp_info);
	struct tcp_info ti;
	uint32_t len;
	size_t ol = 0;
	struct linger abort_on_close = { .l_onoff = 1, .l_linger = 0 };
	int one = 1, sndbuf = SNDBUF;

	k->sk = socket(k->family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (k->sk < 0)
		die("socket");
	/*
	 * However the run ends, the exit closes the socket with a reset: a
	 * graceful close would leave an orphan retransmitting its unsent data
	 * into a dead tun for minutes, holding the namespace and the
	 * algorithm (a BPF struct_ops map outlives its unregistration).
	 */
	if (setsockopt(k->sk, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof(abort_on_close)) ||
	    setsockopt(k->sk, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) ||
	    setsockopt(k->sk, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("setsockopt");
	if (setsockopt(k->sk, IPPROTO_TCP, TCP_CONGESTION, algo, strlen(algo))) {
		fprintf(stderr, "ackdrill: congestion control '%s': %s\n", algo, strerror(errno));
		exit(1);
	}
	al = sockaddr_of(k, k->local, LOCAL_PORT, &a);
	if (bind(k->sk, (struct sockaddr *)&a, al))
		die("bind");
	al = sockaddr_of(k, k->peer, PEER_PORT, &a);
	if (!connect(k->sk, (struct sockaddr *)&a, al) || errno != EINPROGRESS)
		die("connect");

	if (await_pkt(k, 2000) != 1 || read_pkt(k, buf, &th, &len, &o) != 1 || !th->syn)
		dief("no SYN on " TUN_NAME);
	k->iss = ntohl(th->seq);
	if (k->sc->ecn != ((th_flags(th) & (TH_ECE | TH_CWR)) == (TH_ECE | TH_CWR)))
		dief(k->sc->ecn ? "the SYN does not ask for ECN" : "the SYN asks for ECN");

	opts[ol++] = TCPOPT_MAXSEG;
	opts[ol++] = 4;
	opts[ol++] = k->sc->mss >> 8;
	opts[ol++] = k->sc->mss & 0xff;
	if (k->sc->sack) {
		opts[ol++] = TCPOPT_NOP;
		opts[ol++] = TCPOPT_NOP;
		opts[ol++] = TCPOPT_SACK_PERMITTED;
		opts[ol++] = 2;
	}
	if (k->sc->ts) {
		if (!o.ts)
			dief("the SYN carries no timestamp");
		ol += put_ts(opts + ol, ++k->peer_ts, o.tsval);
	}
	opts[ol++] = TCPOPT_NOP;
	opts[ol++] = TCPOPT_WINDOW;
	opts[ol++] = 3;
	opts[ol++] = k->sc->wscale;
	send_pkt(k, TH_SYN | TH_ACK | (k->sc->ecn ? TH_ECE : 0), PEER_ISN, k->iss + 1, 65535,
		 opts, ol);

	/*
	 * The kernel's ACK of our SYN-ACK completes the handshake.  Waited
	 * for, as the SYN is: the write to the tun usually has the kernel
	 * answer before it returns, but not when its softirq was deferred to
	 * ksoftirqd (seen once in t_70, 09_real_rto on reno over IPv6).
	 */
	if (await_pkt(k, 2000) != 1 || read_pkt(k, buf, &th, &len, &o) != 1)
		dief("no ACK completing the handshake");
	if (!th->ack || th->syn || len) {
		fprintf(stderr, "ackdrill: no ACK completing the handshake: the kernel sent%s%s%s, seq %u, %u bytes\n",
			th->syn ? " SYN" : "", th->ack ? " ACK" : "", th->fin ? " FIN" : "",
			ntohl(th->seq) - k->iss, len);
		exit(1);
	}
	if (getsockopt(k->sk, IPPROTO_TCP, TCP_CONGESTION, got, &gl) || strcmp(got, algo))
		dief("the connection does not run the congestion control asked for");
	if (getsockopt(k->sk, IPPROTO_TCP, TCP_INFO, &ti, &tl) ||
	    !!(ti.tcpi_options & TCPI_OPT_ECN) != k->sc->ecn)
		dief(k->sc->ecn ? "ECN was not negotiated" : "ECN was negotiated");
	k->mss = k->sc->mss - (k->sc->ts ? 12 : 0);
	/* The script's segment size, whatever the family's header took of the MTU. */
	if (ti.tcpi_snd_mss != k->mss) {
		fprintf(stderr, "ackdrill: the kernel's MSS is %u, not the script's %u\n",
			ti.tcpi_snd_mss, k->mss);
		exit(1);
	}
}

/* --- struct sender over the kernel ---------------------------------------- */

static int k_ack(struct sender *s, const struct ack *a)
{
	struct ksender *k = (struct ksender *)s;
	uint8_t opts[40];
	size_t ol = 0;
	int i;

	if (k->sc->ts)
		ol += put_ts(opts, ++k->peer_ts, a->tsecr);
	if (a->nsacks) {
		opts[ol++] = TCPOPT_NOP;
		opts[ol++] = TCPOPT_NOP;
		opts[ol++] = TCPOPT_SACK;
		opts[ol++] = 2 + 8 * a->nsacks;
		for (i = 0; i < a->nsacks; i++, ol += 8) {
			put32(opts + ol, k->iss + 1 + a->sacks[i].start * k->mss);
			put32(opts + ol + 4, k->iss + 1 + a->sacks[i].end * k->mss);
		}
	}
	send_pkt(k, TH_ACK | (a->ece ? TH_ECE : 0), PEER_ISN + 1, k->iss + 1 + a->ack * k->mss,
		 65535, opts, ol);
	return 0;
}

static int k_next_seg(struct sender *s, struct seg *out)
{
	struct ksender *k = (struct ksender *)s;
	uint8_t buf[PKT_MAX];
	struct tcpopts o;
	struct tcphdr *th;
	uint32_t len, off;
	int r;

	for (;;) {
		r = read_pkt(k, buf, &th, &len, &o);
		if (r <= 0)
			return r;
		if (!len && !th->syn && !th->fin && !th->rst)
			continue;	/* a pure ACK: we send no data to acknowledge */
		off = ntohl(th->seq) - k->iss - 1;
		if (th->syn || th->fin || th->rst || len != k->mss || off % k->mss) {
			fprintf(stderr, "ackdrill: unexpected segment: seq +%u len %u flags %#x\n",
				off, len, ((uint8_t *)th)[13]);
			return -1;
		}
		out->idx = off / k->mss;
		out->tsval = o.tsval;
		out->ect = o.ecn == 1 || o.ecn == 2;	/* ECT(1), ECT(0); not CE */
		out->cwr = th_flags(th) & TH_CWR;
		return 1;
	}
}

static int k_wait_rto(struct sender *s)
{
	struct ksender *k = (struct ksender *)s;

	if (await_pkt(k, RTO_WAIT_MS) != 1) {
		fprintf(stderr, "ackdrill: no retransmission within %d ms\n", RTO_WAIT_MS);
		return -1;
	}
	return 0;
}

static int k_wait_gate(struct sender *s)
{
	struct timespec ts = { 0, GATE_WAIT_MS * 1000000L };

	(void)s;
	return nanosleep(&ts, NULL);
}

static int k_app_write(struct sender *s, uint32_t segs)
{
	static char data[64 * 1024];
	struct ksender *k = (struct ksender *)s;

	uint64_t goal = (uint64_t)segs * k->mss;

	/* The model writes exactly as much: the socket buffer must take it all. */
	while (k->written < goal) {
		size_t want = goal - k->written < sizeof(data) ? goal - k->written : sizeof(data);
		ssize_t n = send(k->sk, data, want, MSG_DONTWAIT);

		if (n < 0) {
			fprintf(stderr, "ackdrill: writing to the socket: %s\n", strerror(errno));
			return -1;
		}
		k->written += n;
	}
	return 0;
}

static int k_info(struct sender *s, struct tcpstat *st)
{
	struct ksender *k = (struct ksender *)s;
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(k->sk, IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		fprintf(stderr, "ackdrill: reading TCP_INFO: %s\n", strerror(errno));
		return -1;
	}
	st->cwnd = ti.tcpi_snd_cwnd;
	st->ssthresh = ti.tcpi_snd_ssthresh;
	st->ca_state = ti.tcpi_ca_state;
	st->unacked = ti.tcpi_unacked;
	st->sacked = ti.tcpi_sacked;
	st->lost = ti.tcpi_lost;
	st->retrans = ti.tcpi_retrans;
	st->total_retrans = ti.tcpi_total_retrans;
	st->retransmits = ti.tcpi_retransmits;
	return 0;
}

static void k_now(struct sender *s, uint64_t *us, uint64_t *ticks)
{
	struct timespec ts;
	struct tms t;

	(void)s;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*us = (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	*ticks = times(&t);
}

/*
 * TcpExt TCPLossUndo of the namespace, whose one connection is the drill's:
 * the timeouts the kernel has undone (tcp_try_undo_loss(), and
 * tcp_try_undo_recovery() in Loss), by timestamps, D-SACKs or F-RTO.
 * /proc/net/netstat is pairs of lines, the names then the values.
 */
static int k_loss_undos(struct sender *s, uint64_t *n)
{
	char *names = NULL, *values = NULL, *ns, *vs, *name, *value;
	size_t nl = 0, vl = 0;
	FILE *f = fopen("/proc/self/net/netstat", "re");
	int found = 0;

	(void)s;
	if (!f) {
		fprintf(stderr, "ackdrill: /proc/self/net/netstat: %s\n", strerror(errno));
		return -1;
	}
	while (!found && getline(&names, &nl, f) > 0 && getline(&values, &vl, f) > 0) {
		if (strncmp(names, "TcpExt:", 7) || strncmp(values, "TcpExt:", 7))
			continue;
		/* After "TcpExt:", the names and their values in the same order. */
		for (name = strtok_r(names + 7, " \n", &ns), value = strtok_r(values + 7, " \n", &vs);
		     name && value;
		     name = strtok_r(NULL, " \n", &ns), value = strtok_r(NULL, " \n", &vs))
			if (!strcmp(name, "TCPLossUndo")) {
				*n = strtoull(value, NULL, 10);
				found = 1;
				break;
			}
	}
	fclose(f);
	free(names);
	free(values);
	if (!found)
		fprintf(stderr, "ackdrill: no TcpExt TCPLossUndo in /proc/self/net/netstat\n");
	return found ? 0 : -1;
}

/*
 * One attempt, in a child of its own: the namespace goes when it exits.
 * The gate guard (engine.c) watches a BIC, and one whose undo puts its
 * state back, as its row of bpf/algos.h says.
 */
static int attempt(const struct script *sc, const struct algo *algo, bool ipv6, FILE *csv)
{
	static struct ksender k = {
		.ops = {
			.ack = k_ack, .next_seg = k_next_seg, .wait_rto = k_wait_rto,
			.wait_gate = k_wait_gate, .app_write = k_app_write, .info = k_info,
			.now = k_now, .loss_undos = k_loss_undos,
		},
	};
	int err;

	k.sc = sc;
	set_family(&k, ipv6);
	k.ops.has_gate = algo->bic;
	k.ops.restores = algo_restores(algo);
	setup_netns(&k);
	handshake(&k, algo->name);
	err = drill_run(sc, &k.ops, csv);
	if (k.strays)
		fprintf(stderr, "ackdrill: %s: %u packets on %s not of the connection, dropped\n",
			sc->name, k.strays, TUN_NAME);
	if (fflush(csv))
		die("writing the rows");
	return err == DRILL_RETRY ? 3 : err ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *out, *script, *algo;
	const struct algo *row;
	static struct script sc;
	char buf[65536];
	int n, status;
	FILE *csv, *tmp;
	size_t len;
	bool ipv6;

	if (drill_args(argc, argv, "ackdrill", &ipv6, &out, &script, &algo))
		return 2;
	row = algo_find(algo);
	if (!row) {
		fprintf(stderr, "ackdrill: '%s' is not in the table of algorithms (bpf/algos.h)\n",
			algo);
		return 2;
	}
	if (script_load(&sc, script))
		return 1;

	for (n = 1; n <= ATTEMPTS; n++) {
		pid_t pid;

		tmp = tmpfile();
		if (!tmp)
			die("tmpfile");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			_exit(attempt(&sc, row, ipv6, tmp));
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 3)
			break;
		fclose(tmp);
	}
	if (n > ATTEMPTS) {
		fprintf(stderr, "ackdrill: %s: %d runs, all voided by the gate guard\n",
			sc.name, ATTEMPTS);
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	if (n > 1)
		fprintf(stderr, "ackdrill: %s on %s: run %d counts\n", sc.name, algo, n);

	csv = out ? fopen(out, "w") : stdout;
	if (!csv)
		die(out);
	rewind(tmp);
	while ((len = fread(buf, 1, sizeof(buf), tmp)))
		if (fwrite(buf, 1, len, csv) != len)
			die("writing the rows");
	if (ferror(tmp) || fclose(csv))
		die("writing the rows");
	return 0;
}
