// SPDX-License-Identifier: GPL-2.0
/*
 * The sock_ops program of ccctl assign: attached to a cgroup v2, it puts
 * every TCP connection of the cgroup's processes (and of its descendants)
 * on congestion control ca when it is established, actively (connect) or
 * passively (accepted from a listener the cgroup owns).
 *
 * Both callbacks run in tcp_init_transfer() before
 * tcp_init_congestion_control(), so the connection starts on ca: its first
 * init is ca's, not the default's followed by a switch.  The kernel calls
 * them for every connection, whatever the sock_ops callback flags say.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* vmlinux.h carries no macros. */
#define SOL_TCP		6
#define TCP_CONGESTION	13
#define TCP_CA_NAME_MAX	16

char _license[] SEC("license") = "GPL";

/* Set by ccctl before load; one program per assignment. */
const volatile char ca[TCP_CA_NAME_MAX];

SEC("sockops")
int assign_ca(struct bpf_sock_ops *skops)
{
	char name[TCP_CA_NAME_MAX];
	int i;

	if (skops->op != BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB &&
	    skops->op != BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB)
		return 1;

	/* bpf_setsockopt() writes the terminating NUL into optval itself. */
	for (i = 0; i < TCP_CA_NAME_MAX; i++)
		name[i] = ca[i];
	bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, sizeof(name));
	return 1;
}
