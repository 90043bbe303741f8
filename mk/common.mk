# SPDX-License-Identifier: GPL-2.0
#
# What every part of the build uses: where things live under build/, the
# one-line-per-step output (V=1 prints the full commands), and the table
# of algorithms.

KPRIMARY	:= $(KERNEL_PRIMARY)
KGUEST		:= $(firstword $(KERNELS))

BUILD		:= build
TOOLS		:= $(BUILD)/tools
GUEST		:= $(BUILD)/guest
ifneq ($(SYSTEM_BPF),1)
# The pinned bpftool and libbpf, unpacked from their .debs, and vmlinux.h
# from the primary kernel's BTF (mk/kernels.mk, mk/bpf.mk); what is missing
# on the host is installed first (vm-image/host-deps.sh).
BPFTOOL		:= $(TOOLS)/usr/sbin/bpftool
LIBBPF_A	:= $(TOOLS)/usr/lib/x86_64-linux-gnu/libbpf.a
LIBBPF_INC	:= $(TOOLS)/usr/include
VMLINUX_H	:= $(BUILD)/vmlinux-gen/vmlinux.h
STAMP_DEPS	:= $(BUILD)/.host-deps
else
# SYSTEM_BPF=1, the source package's build (debian/rules): the system's own,
# as its Build-Depends install them (bpftool, libbpf-dev, linux-bpf-dev),
# nothing downloaded and nothing installed; only what make deb packages
# builds this way (make pkg).
BPFTOOL		:= /usr/sbin/bpftool
LIBBPF_A	:= /usr/lib/x86_64-linux-gnu/libbpf.a
LIBBPF_INC	:= /usr/include
VMLINUX_H	:= /usr/include/x86_64-linux-gnu/linux/bpf/vmlinux.h
STAMP_DEPS	:=
endif

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

# The table of algorithms (bpf/algos.h) as make takes it: build/algos.mk
# (ALGO_*), which mk/algos.c writes from it and make reads back (for all
# but help and clean), and build/algos.tsv, the same for the tests.
ALGOS_GEN	:= $(BUILD)/algos-gen
ifneq ($(filter-out help clean distclean,$(or $(MAKECMDGOALS),all)),)
include $(BUILD)/algos.mk
endif

$(ALGOS_GEN): mk/algos.c bpf/algos.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Ibpf $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) $(LDFLAGS) $< -o $@

$(BUILD)/algos.mk $(BUILD)/algos.tsv: $(BUILD)/algos.%: $(ALGOS_GEN)
	$(call msg,GEN,$@)
	$(Q)$(ALGOS_GEN) $* > $@
