// SPDX-License-Identifier: GPL-2.0
/*
 * For t_54 only: another tool's tracer, as libbpf-tools write them: a ring
 * buffer called "events" that a tracepoint program fills, one record per
 * exec.  A ring has one reader, and these records are not BIC's: bictrace
 * must leave the ring alone.  Each record is as long as a struct bic_event
 * and starts with bpf_ktime_get_ns() as one does, so that a bictrace that
 * took the ring would print it; every other byte is 0xf0, so that such a
 * row shows (addresses 240.240.240.240, ports 61680).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct foreign_event {
	__u64 ts_ns;
	__u8 rest[72];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

SEC("tp/sched/sched_process_exec")
int foreign_exec(void *ctx)
{
	struct foreign_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	e->ts_ns = bpf_ktime_get_ns();
	__builtin_memset(e->rest, 0xf0, sizeof(e->rest));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
