#!/bin/bash
# ccctl refuses bad input with one line on stderr and a non-zero status, and
# a refused command leaves no struct_ops map, link or pin behind: unknown
# commands, options, variants and names, objects it cannot use, names the
# kernel has, a host without bpffs, BTF or the kernel's config file, and a
# caller who is not root.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pins=/sys/fs/bpf/ccctl
modules_up

refused "unknown command" "unknown command 'frob'" ccctl frob
refused "no command" "no command given" ccctl
refused "unknown flag" "unrecognized option '--frob'" ccctl register --frob
refused "flag of another command" "list takes no --variant" ccctl list --variant 2611
refused "unknown variant, naming the known ones" "unknown variant '2612' (fixed, 2611 or restore)" \
	ccctl register --variant 2612
refused "missing operand" "usage: ccctl swap NAME" ccctl swap
refused "extra operand" "usage: ccctl unregister NAME" ccctl unregister a b
refused "name too long" "invalid name" ccctl register --name bpf_bic_far_too_long

refused "missing object" "cannot open /nonexistent.bpf.o" \
	ccctl register --object /nonexistent.bpf.o
head -c 4096 "$BIC_DIR/bpf/bic.bpf.o" > /tmp/truncated.bpf.o
refused "truncated object" "not a usable BPF object" ccctl register --object /tmp/truncated.bpf.o
echo "not an ELF file" > /tmp/text.bpf.o
refused "object that is not ELF" "not a usable BPF object" \
	ccctl register --object /tmp/text.bpf.o

# The name is the kernel's to give out: first come, first served.
modprobe tcp_bic
refused "native bic owns its name" "bic is already registered" ccctl register --name bic
rmmod tcp_bic

check "register bpf_bic" ccctl register
refused "bpf_bic registered twice" "bpf_bic is already registered" ccctl register
refused "2611 variant under a taken name" "bpf_bic is already registered" \
	ccctl register --variant 2611 --name bpf_bic
if has_struct_ops_links; then
	refused "swap to a differently named ops" "a swap must keep the name (add --name bpf_bic)" \
		ccctl swap bpf_bic --variant 2611
	refused "swap of an unknown name" "nosuch is not registered by ccctl" \
		ccctl swap nosuch --variant 2611
else
	# The one line names the feature, the release that has it and what to do.
	refused "swap without struct_ops link update" \
		"BPF_LINK_UPDATE on struct_ops links, Linux $LINK_SINCE); register under another name (--name), then migrate bpf_bic" \
		ccctl swap bpf_bic --variant 2611 --name bpf_bic
fi
refused "unregister of a native algorithm" "cubic is not registered by ccctl" \
	ccctl unregister cubic
refused "set-default to an unknown name" "nosuch is not a registered congestion control" \
	ccctl set-default nosuch
refused "migrate to an unknown name" "nosuch is not a registered congestion control" \
	ccctl migrate bpf_bic nosuch
refused "status of an unknown name" "nosuch is not registered by ccctl" ccctl status nosuch
# Under --json the one line is a JSON object, as scripts reading JSON expect.
refused "status --json of an unknown name" '{"error":"nosuch is not registered by ccctl"}' \
	ccctl status nosuch --json
check_cmp "... which jq reads" "$(ccctl status nosuch --json 2>&1 >/dev/null | jq -r .error)" = \
	"nosuch is not registered by ccctl"

ccctl set-default bpf_bic >/dev/null
refused "unregister of the default" "bpf_bic is the default" ccctl unregister bpf_bic
ccctl set-default cubic >/dev/null

# A private mount namespace hides bpffs or the kernel's BTF from ccctl alone.
refused "no bpffs mounted" "no BPF filesystem at /sys/fs/bpf" \
	unshare -m --propagation private bash -c 'umount /sys/fs/bpf && exec ccctl register'
refused "no bpffs for list" "no BPF filesystem" \
	unshare -m --propagation private bash -c 'umount /sys/fs/bpf && exec ccctl list'
refused "kernel without BTF" "kernel has no BTF" \
	unshare -m --propagation private bash -c \
	'mount -t tmpfs none /sys/kernel/btf && exec ccctl register --variant 2611'
refused "migrate without BTF" "kernel has no BTF" \
	unshare -m --propagation private bash -c \
	'mount -t tmpfs none /sys/kernel/btf && exec ccctl migrate bpf_bic cubic'
# libbpf takes bic.bpf.c's CONFIG_HZ from /boot/config-RELEASE or else
# /proc/config.gz (which Debian's kernels do not have): with /boot hidden,
# ccctl names what is missing, where libbpf said only "Invalid argument".
if [ -e /proc/config.gz ]; then
	skip "no kernel config" "this kernel has /proc/config.gz: nothing to hide"
else
	refused "no kernel config" \
		"it takes CONFIG_HZ from the kernel's config, and neither /boot/config-$(uname -r) nor /proc/config.gz is readable" \
		unshare -m --propagation private bash -c \
		'mount -t tmpfs none /boot && exec ccctl register --variant 2611'
fi

nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
refused "register as nobody" "must run as root" "${nobody[@]}" ccctl register --variant 2611
refused "unregister as nobody" "must run as root" "${nobody[@]}" ccctl unregister bpf_bic
refused "list as nobody" "must run as root" "${nobody[@]}" ccctl list

pinned=map
if has_struct_ops_links; then pinned="link"; fi
check "bpf_bic is still registered and pinned" test -e "$pins/bpf_bic/$pinned"
check "unregister bpf_bic" ccctl unregister bpf_bic
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
check "no BPF link left" wait_for 5 no_output bpftool link show
check "dmesg has no WARNING/BUG/Oops" dmesg_clean
