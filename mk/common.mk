# SPDX-License-Identifier: GPL-2.0
#
# What every part of the build uses: where things live under build/ and the
# one-line-per-step output (V=1 prints the full commands).

KPRIMARY	:= $(KERNEL_PRIMARY)
KGUEST		:= $(firstword $(KERNELS))

BUILD		:= build
TOOLS		:= $(BUILD)/tools
BPFTOOL		:= $(TOOLS)/usr/sbin/bpftool
LIBBPF_A	:= $(TOOLS)/usr/lib/x86_64-linux-gnu/libbpf.a
VMLINUX_H	:= $(BUILD)/vmlinux-gen/vmlinux.h
GUEST		:= $(BUILD)/guest
STAMP_DEPS	:= $(BUILD)/.host-deps

# Everything of kernel K lives under $(BUILD)/k/K.
kdir		= $(BUILD)/k/$(1)
vmlinuz		= $(BUILD)/k/$(1)/root/boot/vmlinuz-$(KVER_$(1))
initrd		= $(BUILD)/k/$(1)/initramfs.cpio.gz

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# A rule that must always look at its target (which it rewrites only when
# it changes) depends on FORCE.
.PHONY: FORCE
FORCE:
