#!/bin/bash
# ccctl set-default outside the initial network namespace, and the kernel
# bug it guards against; ccctl unregister of another namespace's default,
# and set-default --from, which replaces it in every namespace.
#
# Only the initial namespace may make a restricted algorithm (one not in
# net.ipv4.tcp_allowed_congestion_control) the default.  The kernel refuses
# the others with EPERM, but kernels without the fix (EPERM_LEAK in
# vm-image/versions.mk) take a reference on the algorithm first and keep it: a module that can no longer be unloaded, a
# BPF struct_ops map that outlives its unregistration.  ccctl refuses before
# the kernel is asked; t_90 then finds no struct_ops map left behind.  The
# last check triggers the bug on purpose, once, with the kernel's own bic
# (nothing unloads it later): its module refcount must move exactly as this
# kernel is known to behave (EPERM_LEAK in suite.conf, from versions.mk).
# make kpatch-kernel-test boots the same initramfs under a kernel built
# with patches/0002 and passes EPERM_LEAK=no, which then wins.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

want=${EPERM_LEAK:-}
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"
EPERM_LEAK=${want:-${EPERM_LEAK:-unknown}}
info "kernel $(uname -r) $(uname -v), expecting leak=$EPERM_LEAK"
NS=bic-t80
in_ns() { ip netns exec "$NS" "$@"; }
ns_default() { in_ns cat /proc/sys/net/ipv4/tcp_congestion_control; }
modules_up	# tcp_diag, for ccctl list (this initramfs cannot autoload it)

check "bpftool registers bpf_bic" ca_register "$BIC_DIR/bpf/bic.bpf.o" /sys/fs/bpf/t80
ip netns del "$NS" 2>/dev/null
ip netns add "$NS"
before=$(ns_default)

err=$(in_ns ccctl set-default bpf_bic 2>&1 >/dev/null)
rc=$?
info "refused: $err"
check_cmp "set-default bpf_bic in a namespace: refused" "$rc" -ne 0
check_cmp "... in one line on stderr" "$(printf '%s' "$err" | grep -c '')" -eq 1
check "... that says how to allow it" grep -q "tcp_allowed_congestion_control" <<<"$err"
check_cmp "... the namespace keeps its default" "$(ns_default)" = "$before"

allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed bpf_bic"
check "once allowed, set-default bpf_bic in the namespace" in_ns ccctl set-default bpf_bic
check_cmp "... the namespace defaults to bpf_bic" "$(ns_default)" = bpf_bic
check "... and back to $before" in_ns ccctl set-default "$before"
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"
check "bpftool unregisters bpf_bic" ca_unregister /sys/fs/bpf/t80

# The kernel would unregister a namespace's default, and leave the namespace
# giving new sockets an algorithm no longer listed; ccctl refuses, naming it.
check "ccctl registers t80_ns" ccctl register --name t80_ns
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed t80_ns"
check "... the namespace takes it as its default" in_ns ccctl set-default t80_ns
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"
refused "unregister another namespace's default" \
	"default congestion control of network namespace /run/netns/$NS" ccctl unregister t80_ns
check_cmp "... which is still registered" "$(ccctl list --json | jq -r '.[].name')" = t80_ns

# set-default --from: every namespace whose default is t80_ns, from here.
refused "set-default --from to an algorithm not registered" \
	"nosuch is not a registered congestion control" ccctl set-default nosuch --from t80_ns
check "ccctl registers t80_b, which is not allowed" ccctl register --name t80_b
refused "set-default --from to one another namespace cannot take" \
	"t80_ns is the default of network namespace /run/netns/$NS, and t80_b is not in" \
	ccctl set-default t80_b --from t80_ns
refused "set-default --from with a bad name" "invalid name 'a/b' given to --from" \
	ccctl set-default "$before" --from a/b
refused "list takes no --from" "list takes no --from option" ccctl list --from t80_ns
check_cmp "set-default $before --from t80_ns, from the initial namespace" \
	"$(ccctl set-default "$before" --from t80_ns)" = \
	"default congestion control: $before in 1 network namespace that had t80_ns"
check_cmp "... the namespace defaults to $before again" "$(ns_default)" = "$before"
check_cmp "... and no namespace has t80_ns: nothing to do" \
	"$(ccctl set-default "$before" --from t80_ns)" = \
	"default congestion control: $before in 0 network namespaces that had t80_ns"
check "... t80_ns can be unregistered now" ccctl unregister t80_ns
check "... and t80_b" ccctl unregister t80_b

# The kernel bug itself, on purpose, once.
check "modprobe tcp_bic" modprobe tcp_bic
ref0=$(cat /sys/module/tcp_bic/refcnt)
in_ns sh -c 'echo bic > /proc/sys/net/ipv4/tcp_congestion_control' 2>/dev/null
rc=$?
ref1=$(cat /sys/module/tcp_bic/refcnt)
check_cmp "the kernel refuses bic as a namespace's default (EPERM)" "$rc" -ne 0
if [ "$ref1" -gt "$ref0" ]; then leak=yes; else leak=no; fi
info "tcp_bic refcnt $ref0 -> $ref1 across the refused write: leak=$leak"
check_cmp "$(uname -r): the EPERM reference leak is as known for this kernel" \
	"$leak" = "$EPERM_LEAK"
ip netns del "$NS"
# tcp_bic goes again unless the kernel leaked a reference to it.
if [ "$leak" = yes ]; then
	leaves sysctl "tcp_bic stays loaded: the refused write leaked a reference to it"
else
	check "rmmod tcp_bic" wait_for 5 rmmod tcp_bic
fi
