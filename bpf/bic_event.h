/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records shared between bic.bpf.c and its user-space reader.  Like
 * bic_math.h this includes nothing: the BPF side gets __u32/__u64 from
 * vmlinux.h, user space from <linux/types.h>.
 */
#ifndef __BIC_EVENT_H
#define __BIC_EVENT_H

enum bic_event_type {
	BIC_EV_CWND = 1,	/* cong_avoid left cwnd different from the last sample */
	BIC_EV_SSTHRESH,	/* congestion event, ret = new ssthresh */
	BIC_EV_UNDO,		/* spurious reduction undone, ret = restored cwnd */
	BIC_EV_LOSS,		/* entered TCP_CA_Loss, BIC state was reset */
	BIC_EV_INIT,		/* BIC attached to a socket */
};

/*
 * bictrace reads a ring only where the programs writing it carry this very
 * struct in their BTF (its name, size and members' names and offsets), so
 * another tool's ring of the same name is never read as BIC's.
 */
struct bic_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns() */
	__u8 saddr[16];		/* network byte order: IPv4 in the first 4 bytes, */
	__u8 daddr[16];		/* the rest zero; IPv6 all 16 */
	__u16 family;		/* AF_INET or AF_INET6 */
	__u16 sport;		/* host byte order */
	__u16 dport;		/* host byte order */
	__u16 pad;
	__u32 type;		/* enum bic_event_type */
	__u32 cwnd;
	__u32 ssthresh;
	__u32 last_max_cwnd;
	__u32 cnt;
	__u32 ret;		/* value returned by ssthresh/undo_cwnd, else 0 */
	__s32 epoch_ms;		/* age of BIC's growth epoch, -1 = none running */
};

struct bic_undo_sample {
	__u32 cwnd;
	__u32 ssthresh;
	__u32 last_max_cwnd;	/* after the undo (bpf_bic_restore puts it back) */
	__u32 ret;
};

struct bic_ssthresh_sample {
	__u32 cwnd;
	__u32 last_max_cwnd;	/* after the update made by this call */
	__u32 ret;
};

/*
 * Counters are bumped atomically; the last_* snapshots are plain stores
 * and may mix fields from two sockets racing on different CPUs.
 */
struct bic_stats {
	__u64 init;
	__u64 ssthresh;
	__u64 undo;
	__u64 loss_resets;
	__u64 events_dropped;
	struct bic_undo_sample last_undo;
	struct bic_ssthresh_sample last_ssthresh;
};

#endif /* __BIC_EVENT_H */
