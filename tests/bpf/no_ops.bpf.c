// SPDX-License-Identifier: GPL-2.0
/*
 * For t_83 only: a good BPF object with no tcp_congestion_ops in it, which
 * ccctl must tell apart from a file it cannot open or read as BPF, and
 * from a program the verifier rejects.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

__u32 t83_nothing;
