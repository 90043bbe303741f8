# SPDX-License-Identifier: GPL-2.0
#
# BIC TCP congestion control as a BPF struct_ops program, built against and
# tested inside a pinned Debian guest kernel booted under QEMU.
#
#   make demo	install what is missing, boot the guest, run a bpf_bic flow
#   make test	host unit tests + make vm-test
#   make vm-test	build everything, boot the guest, run the guest suite
#   make plots	cwnd-over-time PNGs in build/plots
#   make bench	scenario matrix and BPF vs native cost, into docs/bench.md
#
# V=1 prints full commands.

include vm-image/versions.mk

BUILD		:= build
KROOT		:= $(BUILD)/kernel
TOOLS		:= $(BUILD)/tools
VMLINUZ		:= $(KROOT)/boot/vmlinuz-$(KVER)
BPFTOOL		:= $(TOOLS)/usr/sbin/bpftool
LIBBPF_A	:= $(TOOLS)/usr/lib/x86_64-linux-gnu/libbpf.a
VMLINUX_H	:= $(BUILD)/vmlinux-gen/vmlinux.h
INITRD		:= $(BUILD)/initramfs.cpio.gz
GUEST		:= $(BUILD)/guest
STAMP_DEPS	:= $(BUILD)/.host-deps

CLANG		?= clang
CC		?= cc
CFLAGS		:= -O2 -g -Wall -Wextra -Werror
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		   -I$(dir $(VMLINUX_H)) -I$(TOOLS)/usr/include -Ibpf

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# Both BPF objects come from one source: the fixed algorithm and the 2.6.11
# undo it replaced, kept only to reproduce the bug side by side.
BPF_OBJS	:= $(BUILD)/bpf/bic.bpf.o $(BUILD)/bpf/bic_2611.bpf.o
SKELS		:= $(BUILD)/bpf/bic.skel.h $(BUILD)/bpf/bic_2611.skel.h $(BUILD)/bpf/migrate.skel.h
UNIT_TESTS	:= $(BUILD)/tests/test_bic_math
GUEST_TESTS	:= $(wildcard tests/guest/*.sh)
GUEST_BINS	:= $(BUILD)/loader/bictrace $(BUILD)/loader/ccctl

.PHONY: all deps demo test unit-test vm-test initramfs kmod plots bench clean distclean
.DELETE_ON_ERROR:

all: $(BPF_OBJS) $(UNIT_TESTS) $(INITRD)

deps: $(STAMP_DEPS)
$(STAMP_DEPS): vm-image/host-deps.sh
	$(call msg,DEPS,host packages)
	$(Q)./vm-image/host-deps.sh
	$(Q)mkdir -p $(@D) && touch $@

# --- pinned Debian packages, unpacked into the build folder ---------------
$(BUILD)/debs/.fetched: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$(call msg,FETCH,linux-image $(KVER) bpftool $(BPFTOOL_VER) libbpf $(LIBBPF_VER))
	$(Q)./vm-image/fetch-debs.sh $(BUILD) linux-image-$(KVER)=$(KPKG_VER) \
		bpftool=$(BPFTOOL_VER) libbpf-dev=$(LIBBPF_VER)
	$(Q)touch $@

$(VMLINUZ): $(BUILD)/debs/.fetched
	$(call msg,UNPACK,$(KROOT))
	$(Q)rm -rf $(KROOT) && mkdir -p $(KROOT)
	$(Q)dpkg-deb -x $(BUILD)/debs/linux-image-$(KVER)_*.deb $(KROOT)
	$(Q)depmod -b $(KROOT) $(KVER)
	$(Q)touch $@

$(BPFTOOL) $(LIBBPF_A) &: $(BUILD)/debs/.fetched
	$(call msg,UNPACK,$(TOOLS))
	$(Q)rm -rf $(TOOLS) && mkdir -p $(TOOLS)
	$(Q)for d in $(BUILD)/debs/bpftool_*.deb $(BUILD)/debs/libbpf-dev_*.deb; do \
		dpkg-deb -x $$d $(TOOLS) || exit 1; done
	$(Q)touch $(BPFTOOL) $(LIBBPF_A)

$(VMLINUX_H): $(VMLINUZ) $(BPFTOOL) vmlinux-gen/gen.sh
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && ./vmlinux-gen/gen.sh $(VMLINUZ) $(BPFTOOL) $@

# --- BPF programs ----------------------------------------------------------
BPF_DEPS := $(VMLINUX_H) $(BPFTOOL) $(wildcard bpf/*.h)

$(BUILD)/bpf/bic.bpf.o: bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/bic_2611.bpf.o: bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -DBIC_LEGACY_UNDO=1 \
		-DBIC_CA_NAME='"bpf_bic_2611"' -c $< -o $@

$(BUILD)/bpf/migrate.bpf.o: bpf/migrate.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

# bpftool 7.5 emits a skeleton for libbpf 1.5, which also records the
# struct_ops link per map; libbpf 1.4 has no such field and the loader
# attaches struct_ops itself, so that one line is dropped.
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* | sed '/map->link = /d' > $@

# --- user-space tools run in the guest -------------------------------------
LOADER_CFLAGS := $(CFLAGS) -Wno-unused-parameter -I$(TOOLS)/usr/include -I$(BUILD)/bpf -Ibpf
LOADER_LIBS := $(LIBBPF_A) -lelf -lz

$(BUILD)/loader/%: loader/%.c $(LIBBPF_A) bpf/bic_event.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CFLAGS) $< $(LOADER_LIBS) -o $@

# ccctl embeds its BPF objects as skeletons.
$(BUILD)/loader/ccctl: $(SKELS)

# --- bic_ref, the native reference module -----------------------------------
# BIC as a plain kernel module built from bic_math.h, what bpf_bic is compared
# against.  kbuild runs from the pinned guest kernel's own headers packages,
# unpacked under build/ like the kernel.
KFLAVOUR	:= cloud-amd64
KHDR_PKGS	:= linux-headers-$(KVER) linux-headers-$(KVER:%-$(KFLAVOUR)=%)-common \
		   linux-kbuild-$(KVER:%-$(KFLAVOUR)=%)
KHDR_ROOT	:= $(BUILD)/kheaders
KHDR		:= $(KHDR_ROOT)/usr/src/linux-headers-$(KVER)
KMOD_DIR	:= $(BUILD)/kmod
GUEST_KMODS	:= $(KMOD_DIR)/tcp_bic_ref.ko

$(BUILD)/debs/.fetched-headers: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$(call msg,FETCH,linux-headers $(KVER))
	$(Q)./vm-image/fetch-debs.sh $(BUILD) $(addsuffix =$(KPKG_VER),$(KHDR_PKGS))
	$(Q)touch $@

$(KHDR)/.config: $(BUILD)/debs/.fetched-headers vm-image/unpack-kheaders.sh
	$(call msg,UNPACK,$(KHDR_ROOT))
	$(Q)./vm-image/unpack-kheaders.sh $(KHDR_ROOT) \
		$(foreach p,$(KHDR_PKGS),$(wildcard $(BUILD)/debs/$(p)_$(KPKG_VER)_*.deb))
	$(Q)touch $@

# kbuild of 6.12 builds external modules only inside M=, so M= is a folder
# of links under build/ and the source tree stays free of kbuild droppings.
# Module BTF is skipped: nothing attaches BPF to bic_ref, and it would need
# pahole on the host.
$(GUEST_KMODS): kmod/tcp_bic_ref.c kmod/Kbuild bpf/bic_math.h $(KHDR)/.config
	$(call msg,KMOD,$@)
	$(Q)mkdir -p $(@D) && ln -sf $(abspath kmod/tcp_bic_ref.c kmod/Kbuild) $(@D)/
	$(Q)$(MAKE) $(if $(Q),-s) -C $(KHDR) M=$(abspath $(@D)) BIC_INC=$(abspath bpf) \
		CONFIG_DEBUG_INFO_BTF_MODULES= modules

kmod: $(GUEST_KMODS)

# --- host unit tests -----------------------------------------------------
$(BUILD)/tests/test_bic_math: tests/unit/test_bic_math.c bpf/bic_math.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -Ibpf $< -o $@

unit-test: $(UNIT_TESTS)
	$(Q)for t in $^; do $$t || exit 1; done

# --- guest image -----------------------------------------------------------
# CONFIG_HZ reaches the BPF program as a __kconfig extern, which libbpf
# reads from /boot/config-$(uname -r): this kernel has no /proc/config.gz.
$(INITRD): $(VMLINUZ) $(BPFTOOL) $(BPF_OBJS) $(GUEST_BINS) $(GUEST_KMODS) $(GUEST_TESTS) \
	   vm-image/init vm-image/mkinitramfs.sh
	$(call msg,GUEST,$(GUEST))
	$(Q)rm -rf $(GUEST) && mkdir -p $(GUEST)/opt/bic/bpf $(GUEST)/opt/bic/tests \
		$(GUEST)/opt/bic/kmod $(GUEST)/usr/sbin $(GUEST)/boot
	$(Q)cp $(KROOT)/boot/config-$(KVER) $(GUEST)/boot/
	$(Q)cp $(BPF_OBJS) $(GUEST)/opt/bic/bpf/
	$(Q)cp $(GUEST_BINS) $(GUEST)/usr/sbin/
	$(Q)cp $(GUEST_TESTS) $(GUEST)/opt/bic/tests/
	$(Q)cp $(GUEST_KMODS) $(GUEST)/opt/bic/kmod/
	$(call msg,INITRD,$@)
	$(Q)./vm-image/mkinitramfs.sh $@ $(KROOT) $(KVER) $(BPFTOOL) $(GUEST)

initramfs: $(INITRD)

# GUEST_CMD runs inside the guest from /opt/bic (e.g. GUEST_CMD=tests/t_20_flow.sh
# for one test); files it leaves in /out land in VM_OUT.
GUEST_CMD	?= tests/run-all.sh
VM_OUT		?= $(BUILD)/out
VM_LOG		?= $(BUILD)/vm-test.log
RUN_VM = env KERNEL=$(VMLINUZ) INITRD=$(INITRD) ACCEL_CACHE=$(BUILD)/accel ./vm-image/run-vm.sh \
	 --log $(VM_LOG) --out $(VM_OUT)

vm-test: $(INITRD)
	$(call msg,VM,$(GUEST_CMD))
	$(Q)$(RUN_VM) -- $(GUEST_CMD)

# The runner's own test boots small guests of its own to check that status,
# panics and hangs come back as they should.
test: $(UNIT_TESTS) $(INITRD)
	$(Q)KERNEL=$(VMLINUZ) INITRD=$(INITRD) ACCEL_CACHE=$(BUILD)/accel \
		./tests/run.sh $(UNIT_TESTS) tests/runner/test_run_vm.sh -- $(RUN_VM) -- $(GUEST_CMD)

demo: VM_OUT := $(BUILD)/demo
demo: VM_LOG := $(BUILD)/demo.log
demo: $(INITRD)
	$(call msg,VM,demo)
	$(Q)$(RUN_VM) -- tests/demo.sh

# Guest runs that leave traces and tables in their own VM_OUT; the host then
# turns them into build/plots/*.png and docs/bench.md.
plots: VM_OUT := $(BUILD)/plots-data
plots: VM_LOG := $(BUILD)/plots.log
plots: $(INITRD) eval/plot.sh eval/cwnd.gp
	$(call msg,VM,plots)
	$(Q)rm -rf $(VM_OUT)
	$(Q)$(RUN_VM) -- tests/plots.sh
	$(call msg,PLOT,$(BUILD)/plots)
	$(Q)./eval/plot.sh $(VM_OUT) $(BUILD)/plots

# The per-ACK cost gets a boot of its own under -icount: guest CPU time then
# counts emulated instructions, not host time shared with whatever else runs.
BENCH_ICOUNT	:= shift=3,sleep=off

bench: VM_OUT := $(BUILD)/bench-data
bench: VM_LOG := $(BUILD)/bench.log
bench: $(INITRD) eval/bench-report.sh
	$(call msg,VM,bench)
	$(Q)rm -rf $(VM_OUT)
	$(Q)$(RUN_VM) --timeout 1500 -- tests/bench.sh
	$(call msg,VM,bench --cost (-icount $(BENCH_ICOUNT)))
	$(Q)QEMU_ICOUNT=$(BENCH_ICOUNT) $(RUN_VM) --log $(BUILD)/bench-cost.log --timeout 600 \
		-- tests/bench.sh --cost
	$(call msg,REPORT,docs/bench.md)
	$(Q)./eval/bench-report.sh $(VM_OUT) docs/bench.md $(BENCH_ICOUNT)

clean:
	$(call msg,CLEAN,build products)
	$(Q)rm -rf $(BUILD)/bpf $(BUILD)/tests $(BUILD)/guest $(BUILD)/*.root $(INITRD) \
		$(BUILD)/out $(BUILD)/demo $(KMOD_DIR) $(BUILD)/plots $(BUILD)/plots-data \
		$(BUILD)/bench-data

distclean:
	$(Q)rm -rf $(BUILD)
