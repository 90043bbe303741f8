# SPDX-License-Identifier: GPL-2.0
#
# BIC TCP congestion control as a BPF struct_ops program, built against and
# tested inside pinned Debian guest kernels (6.12, 6.1, 7.3) booted under QEMU.
#
#   make demo	install what is missing, boot the guest, run a bpf_bic flow
#   make test	host unit tests + make vm-test, on every kernel of KERNELS
#   make vm-test	build everything, boot the guest, run the guest suite
#   make plots	cwnd-over-time PNGs in build/plots
#   make model	thousands of random ccctl operations against a model (t_58)
#   make bench	scenario matrix, BPF vs native cost and make scale, into docs/bench.md
#   make scale	time and memory of ccctl migrate, swap, list at 0-5000 connections
#   make study	the undo rules under reordering and stalls, into docs/study.md
#   make soak	t_57_soak for SOAK_SECS (600) on the first of KERNELS
#   make kpatch-kernel-test	a whole 6.12 built with patches/ (~40 min), tested
#   make install	ccctl, bictrace, the objects, bpf-bic.service (PREFIX, DESTDIR)
#   make deb	the Debian package, build/deb/bpf-bic_VERSION_amd64.deb
#   make debian-test	the Debian package installed, rebooted and removed on a Debian guest
#
# V=1 prints full commands.

include vm-image/versions.mk

# Guest kernels to build for and run on; the first one is the primary.
KERNELS		?= $(KERNELS_ALL)
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

# All BPF objects come from one source: the fixed algorithm (the seed), the
# 2.6.11 undo it replaced (kept only to reproduce the bug side by side) and
# the complete undo (bpf_bic_restore: BIC's whole state back), each in two
# forms.  bic.bpf.o is registered through a struct_ops link (6.4+);
# nolink/bic.bpf.o is the pre-6.4 form, registered by writing the map
# itself, the only form bpftool can register on 6.1 (same object name, so
# its maps are named alike).  ccctl takes either on any kernel.  They do not
# trace unless ccctl register --trace turns it on; trace/ holds the same
# objects with tracing on from the start, for bpftool, which cannot.
BIC_OBJS	:= bic.bpf.o bic_2611.bpf.o bic_restore.bpf.o
BPF_OBJS	:= $(addprefix $(BUILD)/bpf/,$(BIC_OBJS))
BPF_NOLINK_OBJS	:= $(addprefix $(BUILD)/bpf/nolink/,$(BIC_OBJS))
BPF_TRACE_LINK	:= $(addprefix $(BUILD)/bpf/trace/,$(BIC_OBJS))
BPF_TRACE_NOLINK := $(addprefix $(BUILD)/bpf/trace/nolink/,$(BIC_OBJS))
BPF_TRACE_OBJS	:= $(BPF_TRACE_LINK) $(BPF_TRACE_NOLINK)
BPF_TEST_OBJS	:= $(BUILD)/bpf/test/badname.bpf.o $(BUILD)/bpf/test/reno.bpf.o \
		   $(BUILD)/bpf/test/reno_acked.bpf.o $(BUILD)/bpf/test/bic_1e.bpf.o
SKELS		:= $(BUILD)/bpf/bic.skel.h $(BUILD)/bpf/bic_2611.skel.h $(BUILD)/bpf/bic_restore.skel.h \
		   $(BUILD)/bpf/migrate.skel.h \
		   $(BUILD)/bpf/assign.skel.h
UNIT_TESTS	:= $(BUILD)/tests/test_bic_math $(BUILD)/tests/test_names
GUEST_TESTS	:= $(wildcard tests/guest/*.sh)
GUEST_BINS	:= $(BUILD)/loader/bictrace $(BUILD)/loader/ccctl $(BUILD)/loader/ccctl-faults \
		   $(BUILD)/drill/ackdrill $(BUILD)/tests/tcphold $(BUILD)/tests/tcpblast \
		   $(BUILD)/tests/ackcost $(BUILD)/tests/runstat $(BUILD)/tests/nshold
DRILL_SCRIPTS	:= $(wildcard drill/scripts/*.ad)
INITRDS		:= $(foreach k,$(KERNELS),$(call initrd,$(k)))

.PHONY: FORCE all deps demo test unit-test vm-test debian-test initramfs kmod kpatch kpatch-kernel kpatch-kernel-test \
	plots bench scale study model soak clean distclean
.DELETE_ON_ERROR:

all: $(BPF_OBJS) $(BPF_NOLINK_OBJS) $(BPF_TRACE_OBJS) $(UNIT_TESTS) $(INITRDS)

deps: $(STAMP_DEPS)
$(STAMP_DEPS): vm-image/host-deps.sh
	$(call msg,DEPS,host packages)
	$(Q)./vm-image/host-deps.sh
	$(Q)mkdir -p $(@D) && touch $@

# What building a whole kernel needs on top (make kpatch-kernel only).
KBUILD_PKGS	:= bc bison flex dwarves libssl-dev libelf-dev
STAMP_DEPS_KBUILD := $(BUILD)/.host-deps-kbuild
$(STAMP_DEPS_KBUILD): vm-image/host-deps.sh | $(STAMP_DEPS)
	$(call msg,DEPS,kernel build packages)
	$(Q)./vm-image/host-deps.sh $(KBUILD_PKGS)
	$(Q)touch $@

FETCH		= ./vm-image/fetch-debs.sh $(BUILD) "$(DEB_SUITES)"

# --- BPF userspace, pinned, unpacked into the build folder -------------------
$(BUILD)/debs/.fetched-tools: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$(call msg,FETCH,bpftool $(BPFTOOL_VER) libbpf $(LIBBPF_VER))
	$(Q)$(FETCH) bpftool=$(BPFTOOL_VER) libbpf-dev=$(LIBBPF_VER)
	$(Q)touch $@

$(BPFTOOL) $(LIBBPF_A) &: $(BUILD)/debs/.fetched-tools
	$(call msg,UNPACK,$(TOOLS))
	$(Q)rm -rf $(TOOLS) && mkdir -p $(TOOLS)
	$(Q)for d in $(BUILD)/debs/bpftool_*.deb $(BUILD)/debs/libbpf-dev_*.deb; do \
		dpkg-deb -x $$d $(TOOLS) || exit 1; done
	$(Q)touch $(BPFTOOL) $(LIBBPF_A)

# --- one guest kernel: image, headers, modules, guest tree, initramfs ------
# suite.conf holds what the guest tests take per kernel.
# CONFIG_HZ reaches the BPF program as a __kconfig extern, which libbpf
# reads from /boot/config-$(uname -r): these kernels have no /proc/config.gz.
define kernel_rules
$(call kdir,$(1))/.fetched: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$$(call msg,FETCH,$(KIMG_$(1)) $(KPKG_$(1)))
	$(Q)$(FETCH) $(addsuffix =$(KPKG_$(1)),$(KIMG_$(1)))
	$(Q)mkdir -p $$(@D) && touch $$@

$(call vmlinuz,$(1)): $(call kdir,$(1))/.fetched vm-image/unpack-kernel.sh vm-image/unpack-debs.sh
	$$(call msg,UNPACK,$(call kdir,$(1))/root)
	$(Q)./vm-image/unpack-kernel.sh $(call kdir,$(1))/root $(KVER_$(1)) \
		$(foreach p,$(KIMG_$(1)),$(BUILD)/debs/$(p)_$(subst :,%3a,$(KPKG_$(1)))_amd64.deb)
	$(Q)touch $$@

$(call kdir,$(1))/.fetched-headers: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$$(call msg,FETCH,$(firstword $(KHDR_$(1))) $(KPKG_$(1)))
	$(Q)$(FETCH) $(addsuffix =$(KPKG_$(1)),$(KHDR_$(1)))
	$(Q)mkdir -p $$(@D) && touch $$@

$(call kdir,$(1))/kheaders/.unpacked: $(call kdir,$(1))/.fetched-headers vm-image/unpack-kheaders.sh \
		vm-image/unpack-debs.sh
	$$(call msg,UNPACK,$(call kdir,$(1))/kheaders)
	$(Q)./vm-image/unpack-kheaders.sh $(call kdir,$(1))/kheaders \
		$(foreach p,$(KHDR_$(1)),$(BUILD)/debs/$(p)_$(KPKG_$(1))_*.deb)
	$(Q)touch $$@

$(call kdir,$(1))/guest/.done: $(call vmlinuz,$(1)) vm-image/versions.mk \
		$(call kdir,$(1))/kmod/tcp_bic_ref.ko $(call kpatch_kos,$(1)) \
		$(call kdir,$(1))/kpatch/checkpatch/.ok
	$$(call msg,GUEST,$(call kdir,$(1))/guest)
	$(Q)rm -rf $$(@D) && mkdir -p $$(@D)/boot $$(@D)/opt/bic/kmod/patched
	$(Q)cp $(call kdir,$(1))/root/boot/config-$(KVER_$(1)) $$(@D)/boot/
	$(Q)printf 'SWAP_ROUNDS=%s\nEPERM_LEAK=%s\nT60_REFS="%s"\nNAME_BYTES=%s\nMODEL_SECS=%s\nSOAK_SECS=%s\nPRIMARY=%s\n' \
		$(SWAP_ROUNDS_$(1)) $(EPERM_LEAK_$(1)) "$(T60_REFS_$(1))" $(NAME_BYTES_$(1)) \
		$(MODEL_SECS_$(1)) $(SOAK_SECS_$(1)) $(if $(filter $(1),$(KERNEL_PRIMARY)),yes,no) \
		> $$(@D)/opt/bic/suite.conf
	$(Q)cp $(call kdir,$(1))/kmod/tcp_bic_ref.ko $$(@D)/opt/bic/kmod/
	$(Q)for s in $(KPATCH_SETS); do mkdir -p $$(@D)/opt/bic/kmod/patched/$$$$s && \
		cp $(call kdir,$(1))/kpatch/$$$$s/ko/tcp_bic.ko $(call kdir,$(1))/kpatch/$$$$s/applied \
			$$(@D)/opt/bic/kmod/patched/$$$$s/ || exit 1; done
	$(Q)touch $$@

$(call initrd,$(1)): $(call vmlinuz,$(1)) $(call kdir,$(1))/guest/.done $(GUEST)/.done \
		$(BPFTOOL) vm-image/init vm-image/mkinitramfs.sh
	$$(call msg,INITRD,$$@)
	$(Q)./vm-image/mkinitramfs.sh $$@ $(call kdir,$(1))/root $(KVER_$(1)) $(BPFTOOL) \
		$(GUEST) $(call kdir,$(1))/guest
endef

# $(call kmod_rule,K,KO,MOD_DIR,DEPS): build KO for kernel K from the Kbuild
# and sources in MOD_DIR, with the host's toolchain against the unpacked
# headers (M= a folder of links, so the sources stay free of kbuild's
# droppings), or, for a kernel with KBUILD_ROOT_K, inside a Debian root of
# that suite.  Module BTF is skipped: nothing attaches BPF to these modules,
# and it would need pahole.  kbuild leaves a .ko it finds up to date alone,
# so it is touched: newer than what make checked it against.
define kmod_rule
$(2): $(4) bpf/bic_math.h $(if $(KBUILD_ROOT_$(1)),$(call kdir,$(1))/.fetched-headers \
		$(BUILD)/roots/$(KBUILD_ROOT_$(1))/.done vm-image/kmod-in-root.sh,\
		$(call kdir,$(1))/kheaders/.unpacked)
	$$(call msg,KMOD,$$@$(if $(KBUILD_ROOT_$(1)), (in $(KBUILD_ROOT_$(1)))))
ifneq ($(KBUILD_ROOT_$(1)),)
	$(Q)./vm-image/kmod-in-root.sh $(BUILD)/roots/$(KBUILD_ROOT_$(1)) $(KVER_$(1)) $$(@D) \
		$(3) bpf $(foreach p,$(KHDR_$(1)),$(BUILD)/debs/$(p)_$(KPKG_$(1))_*.deb)
else
	$(Q)mkdir -p $$(@D) && ln -sf $(abspath $(3))/* $$(@D)/
	$(Q)$(MAKE) $(if $(Q),-s) -C $(call kdir,$(1))/kheaders/usr/src/linux-headers-$(KVER_$(1)) \
		M=$(abspath $$(@D)) BIC_INC=$(abspath bpf) CONFIG_DEBUG_INFO_BTF_MODULES= modules
	$(Q)touch $$@
endif
endef

# The patch series (patches/) on Debian's linux-source of kernel K, one
# set at a time (patches/series): each set's patched tcp_bic.c, built as
# kpatch/SET/ko/tcp_bic.ko like bic_ref, and every patch for K checked by
# K's own checkpatch.pl (make kpatch).  The seed is 0001, the proposal
# 0003: two builds of the same module from the same source.
KPATCH_SETS	:= seed proposal
kpatch_kos	= $(foreach s,$(KPATCH_SETS),$(call kdir,$(1))/kpatch/$(s)/ko/tcp_bic.ko)

# $(call kpatch_set_rule,K,SET)
define kpatch_set_rule
$(call kdir,$(1))/kpatch/$(2)/mod/tcp_bic.c: $(call kdir,$(1))/ksrc/.done vm-image/kpatch.sh \
		patches/series $(wildcard patches/*.patch)
	$$(call msg,KPATCH,$(KSRC_$(1)) $(KPKG_$(1)) $(2))
	$(Q)./vm-image/kpatch.sh $(call kdir,$(1))/kpatch/$(2) $(1) $(2) $(call kdir,$(1))/ksrc patches
endef

define kpatch_rules
$(call kdir,$(1))/.fetched-source: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$$(call msg,FETCH,$(KSRC_$(1)) $(KPKG_$(1)))
	$(Q)$(FETCH) $(KSRC_$(1))=$(KPKG_$(1))
	$(Q)mkdir -p $$(@D) && touch $$@

# The few files of the source that make kpatch needs, unpacked once.
$(call kdir,$(1))/ksrc/.done: $(call kdir,$(1))/.fetched-source vm-image/unpack-source.sh
	$$(call msg,UNPACK,$$(@D))
	$(Q)./vm-image/unpack-source.sh $$(@D) $(BUILD)/debs/$(KSRC_$(1))_$(KPKG_$(1))_all.deb \
		net/ipv4/tcp_bic.c net/ipv4/tcp_cong.c \
		scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	$(Q)touch $$@

$(call kdir,$(1))/kpatch/checkpatch/.ok: $(call kdir,$(1))/ksrc/.done vm-image/checkpatch.sh \
		patches/series $(wildcard patches/*.patch)
	$$(call msg,CHECK,patches/ with $(KSRC_$(1))'s checkpatch.pl)
	$(Q)./vm-image/checkpatch.sh $$(@D) $(1) $(call kdir,$(1))/ksrc patches
	$(Q)touch $$@
endef

# make kpatch-kernel: the whole kernel K with the series' set
# KPATCH_KERNEL_SET, built on the host (Debian built 6.1 and 6.12 with the
# host's gcc 12; 7.3 wants gcc 14).  The seed set: 0002, the fix it is
# built for, is in both sets and tcp_bic is a module the kernel does not
# build (its guest loads both of make kpatch's).  It takes about 40
# minutes on 2 cores, so it is not part of make test: make
# kpatch-kernel-test boots it with K's unchanged initramfs.
KPATCH_KERNEL_SET := seed
define kpatch_kernel_rules
$(call kdir,$(1))/kpatch-kernel/bzImage: $(call kdir,$(1))/.fetched-source $(call vmlinuz,$(1)) \
		vm-image/kpatch-kernel.sh vm-image/kpatch.sh patches/series \
		$(wildcard patches/*.patch) | $(STAMP_DEPS_KBUILD)
	$$(call msg,KERNEL,$$@ ($(KSRC_$(1)) $(KPKG_$(1)) with patches/, set $(KPATCH_KERNEL_SET)))
	$(Q)./vm-image/kpatch-kernel.sh $(call kdir,$(1))/kpatch-kernel $(1) $(KPATCH_KERNEL_SET) \
		$(BUILD)/debs/$(KSRC_$(1))_$(KPKG_$(1))_all.deb patches \
		$(call kdir,$(1))/root/boot/config-$(KVER_$(1)) $(KVER_$(1))
endef

$(foreach k,$(KERNELS_ALL),$(eval $(call kernel_rules,$(k))) $(eval $(call kpatch_rules,$(k))) \
	$(eval $(call kpatch_kernel_rules,$(k))) \
	$(eval $(call kmod_rule,$(k),$(call kdir,$(k))/kmod/tcp_bic_ref.ko,kmod,\
		kmod/tcp_bic_ref.c kmod/Kbuild)) \
	$(foreach s,$(KPATCH_SETS),$(eval $(call kpatch_set_rule,$(k),$(s))) \
		$(eval $(call kmod_rule,$(k),$(call kdir,$(k))/kpatch/$(s)/ko/tcp_bic.ko,\
			$(call kdir,$(k))/kpatch/$(s)/mod,$(call kdir,$(k))/kpatch/$(s)/mod/tcp_bic.c))))

$(BUILD)/roots/%/.done: vm-image/mkroot.sh vm-image/mirror.sh vm-image/versions.mk | $(STAMP_DEPS)
	$(call msg,ROOT,$(@D) (debootstrap $*))
	$(Q)./vm-image/mkroot.sh $(@D) $* $(KBUILD_ROOT_PKGS_$*)
	$(Q)touch $@

# One vmlinux.h, from the primary kernel's BTF: the objects are CO-RE.
$(VMLINUX_H): $(call vmlinuz,$(KPRIMARY)) $(BPFTOOL) vmlinux-gen/gen.sh
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && ./vmlinux-gen/gen.sh $(call vmlinuz,$(KPRIMARY)) $(BPFTOOL) $@

# --- BPF programs ----------------------------------------------------------
BPF_DEPS := $(VMLINUX_H) $(BPFTOOL) $(wildcard bpf/*.h)

# Each form is bic.bpf.c built with the flags its path names.
bic_flags = $(if $(findstring bic_2611,$(notdir $@)),-DBIC_LEGACY_UNDO=1 \
		-DBIC_CA_NAME='"bpf_bic_2611"') \
	$(if $(findstring bic_restore,$(notdir $@)),-DBIC_RESTORE_UNDO=1 \
		-DBIC_CA_NAME='"bpf_bic_restore"') \
	$(if $(findstring /nolink/,$@),-DBIC_NO_LINK=1) \
	$(if $(findstring /trace/,$@),-DBIC_TRACE=1)

$(BPF_OBJS) $(BPF_NOLINK_OBJS) $(BPF_TRACE_OBJS): bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) $(bic_flags) -c $< -o $@

# For the tests only: an algorithm whose name the kernel would take but
# ccctl refuses (a tab in it).
$(BUILD)/bpf/test/badname.bpf.o: bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -DBIC_CA_NAME='"bic\tx"' -c $< -o $@

# For make bench only: BIC entering BPF once per ACK instead of twice (not
# exact, which the bench shows), and Reno through BPF, to price an entry.
$(BUILD)/bpf/test/bic_1e.bpf.o: bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -DBIC_ONE_ENTRY=1 \
		-DBIC_CA_NAME='"bpf_bic_1e"' -c $< -o $@

$(BUILD)/bpf/test/reno.bpf.o $(BUILD)/bpf/test/reno_acked.bpf.o: bpf/reno.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) \
		$(if $(findstring acked,$@),-DRENO_ACKED=1) -c $< -o $@

$(BUILD)/bpf/migrate.bpf.o $(BUILD)/bpf/assign.bpf.o $(BUILD)/bpf/ackcost.bpf.o: $(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(BPF_DEPS)
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
# ccctl: main.c dispatches to one file per command group, over the shared
# parts; ccctl-faults (t_56) is the same objects and faults.o.
LOADER_SHARED := common.o json.o btf_util.o
CCCTL_OBJS := $(addprefix $(BUILD)/loader/,main.o reg.o list.o migrate.o assign.o default.o \
	      feature.o object.o pins.o cgroup.o kfeatures.o names.o netns.o sockdiag.o \
	      sysctl.o $(LOADER_SHARED))

# Dependencies on headers come from the compiler (-MMD); the skeletons must
# exist before the first compile finds that it includes them.
$(BUILD)/loader/%.o: loader/%.c $(LIBBPF_A) | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CFLAGS) -MMD -MP -c $< -o $@

-include $(wildcard $(BUILD)/loader/*.d)

$(BUILD)/loader/ccctl: $(CCCTL_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LOADER_LIBS) -o $@

# The test build: CCCTL_FAULT=STEP kills it at that step (t_56).
$(BUILD)/loader/ccctl-faults: $(CCCTL_OBJS) $(BUILD)/loader/faults.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LOADER_LIBS) -o $@

$(BUILD)/loader/bictrace: $(BUILD)/loader/bictrace.o $(addprefix $(BUILD)/loader/,$(LOADER_SHARED))
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LOADER_LIBS) -o $@

# tcphold: idle connections on a chosen algorithm (t_58); tcpblast: a
# fixed number of bytes timed in ns (make bench); runstat: a command's time,
# CPU, peak RSS and cgroup memory peak (scale.sh); nshold: a network
# namespace held by a thread or a descriptor only (t_81)
$(BUILD)/tests/tcphold $(BUILD)/tests/tcpblast $(BUILD)/tests/runstat $(BUILD)/tests/nshold: \
		$(BUILD)/tests/%: tests/tools/%.c tests/tools/tool.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -pthread $< -o $@

# ackcost: tcp_ack()'s guest time per call, for make bench's per-ACK cost
$(BUILD)/tests/ackcost: tests/tools/ackcost.c $(BUILD)/bpf/ackcost.skel.h $(LIBBPF_A)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CFLAGS) $< $(LOADER_LIBS) -o $@

# ackdrill: the scripted TCP peer (guest) and the model of its sender (host)
# share the script parser and the receiver engine.
DRILL_SRCS	:= drill/engine.c drill/script.c
DRILL_DEPS	:= $(DRILL_SRCS) drill/drill.h

$(BUILD)/drill/ackdrill: drill/ackdrill.c $(DRILL_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -Idrill $< $(DRILL_SRCS) -o $@

$(BUILD)/drill/model: drill/model.c $(DRILL_DEPS) bpf/bic_math.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -Idrill -Ibpf $< $(DRILL_SRCS) -o $@

# The model's rows for every script and algorithm, written before any guest
# runs; the guest compares its own rows with them.
DRILL_ALGOS	:= bpf_bic bic_ref bic bpf_bic_2611 bpf_bic_restore reno
DRILL_EXPECT	:= $(BUILD)/drill/expect/.done

# The list itself, rewritten only when it changes: an algorithm added to
# it gets its rows on the next build.
$(BUILD)/drill/algos: FORCE
	$(Q)mkdir -p $(@D) && echo '$(DRILL_ALGOS)' | cmp -s - $@ || echo '$(DRILL_ALGOS)' > $@
FORCE:

$(DRILL_EXPECT): $(BUILD)/drill/model $(DRILL_SCRIPTS) $(BUILD)/drill/algos
	$(call msg,MODEL,$(@D))
	$(Q)rm -rf $(@D) && mkdir -p $(@D)
	$(Q)for s in $(DRILL_SCRIPTS); do for a in $(DRILL_ALGOS); do \
		$(BUILD)/drill/model -o $(@D)/$$(basename $$s .ad).$$a.csv $$s $$a || exit 1; \
	done; done
	$(Q)touch $@

kmod: $(foreach k,$(KERNELS),$(call kdir,$(k))/kmod/tcp_bic_ref.ko)

kpatch: $(foreach k,$(KERNELS),$(call kpatch_kos,$(k)) $(call kdir,$(k))/kpatch/checkpatch/.ok)

# The patched whole kernel of KPATCH_KERNEL (one that has the EPERM leak)
# under the tests that show what the series changes: the leak gone (t_80
# told to expect none), the seed's and the proposal's tcp_bic.ko each
# undoing as its model, and nothing left behind.
KPATCH_KERNEL	?= 6.12
KPATCH_TESTS	:= t_10_register.sh t_75_kpatch.sh t_80_netns_default.sh t_90_clean.sh
kpatch-kernel: $(call kdir,$(KPATCH_KERNEL))/kpatch-kernel/bzImage

kpatch-kernel-test: kpatch-kernel $(call initrd,$(KPATCH_KERNEL))
	$(call msg,VM,$(KPATCH_TESTS) on the patched $(KPATCH_KERNEL))
	$(Q)env KERNEL=$(call kdir,$(KPATCH_KERNEL))/kpatch-kernel/bzImage \
		INITRD=$(call initrd,$(KPATCH_KERNEL)) ACCEL_CACHE=$(BUILD)/accel \
		./vm-image/run-vm.sh --log $(BUILD)/kpatch-kernel-test.log \
		-- env EPERM_LEAK=no tests/run-all.sh $(KPATCH_TESTS)

# --- t_58's model ---------------------------------------------------------
# The generator, model and shrinker (tests/guest/model/) run in the guest
# under t_58 and on the host under tests/unit/test_model.sh, against a stub
# (a script among the built tests: make unit-test and make test run it);
# ccobserve reads the guest's state back as the one line the model predicts.
MODEL_PARTS	:= $(wildcard tests/guest/model/*.sh)
UNIT_TESTS	+= tests/unit/test_model.sh
GUEST_BINS	+= $(BUILD)/tests/ccobserve
$(GUEST)/.done: $(MODEL_PARTS)

$(BUILD)/tests/ccobserve: tests/tools/ccobserve.c tests/tools/tool.h $(LIBBPF_A)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CFLAGS) $< $(LOADER_LIBS) -o $@

# its reader of ccctl list --json, on the host
UNIT_TESTS	+= $(BUILD)/tests/test_ccobserve
$(BUILD)/tests/test_ccobserve: tests/unit/test_ccobserve.c tests/tools/ccobserve.c tests/tools/tool.h \
		$(LIBBPF_A)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CFLAGS) -Itests/tools $< $(LOADER_LIBS) -o $@

# --- host unit tests -----------------------------------------------------
$(BUILD)/tests/test_bic_math: tests/unit/test_bic_math.c bpf/bic_math.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -Ibpf $< -o $@

$(BUILD)/tests/test_names: tests/unit/test_names.c loader/names.c loader/names.h | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -Iloader $< loader/names.c -o $@

unit-test: $(UNIT_TESTS)
	$(Q)for t in $^; do $$t || exit 1; done

# --- guest image -----------------------------------------------------------
# What every guest shares; each kernel's initramfs adds its own tree on top.
$(GUEST)/.done: $(BPF_OBJS) $(BPF_NOLINK_OBJS) $(BPF_TRACE_OBJS) $(BPF_TEST_OBJS) $(GUEST_BINS) \
		$(GUEST_TESTS) dist/bpf-bic-apply \
		$(DRILL_SCRIPTS) $(DRILL_EXPECT)
	$(call msg,GUEST,$(GUEST))
	$(Q)rm -rf $(GUEST) && mkdir -p $(GUEST)/opt/bic/bpf/nolink $(GUEST)/opt/bic/bpf/test \
		$(GUEST)/opt/bic/bpf/trace/nolink \
		$(GUEST)/opt/bic/tests $(GUEST)/usr/sbin $(GUEST)/opt/bic/drill/expect
	$(Q)cp $(BPF_TEST_OBJS) $(GUEST)/opt/bic/bpf/test/
	$(Q)cp $(DRILL_SCRIPTS) $(GUEST)/opt/bic/drill/
	$(Q)cp $(BUILD)/drill/expect/*.csv $(GUEST)/opt/bic/drill/expect/
	$(Q)cp $(BPF_OBJS) $(GUEST)/opt/bic/bpf/
	$(Q)cp $(BPF_NOLINK_OBJS) $(GUEST)/opt/bic/bpf/nolink/
	$(Q)cp $(BPF_TRACE_LINK) $(GUEST)/opt/bic/bpf/trace/
	$(Q)cp $(BPF_TRACE_NOLINK) $(GUEST)/opt/bic/bpf/trace/nolink/
	$(Q)cp $(GUEST_BINS) $(GUEST)/usr/sbin/
	$(Q)cp $(GUEST_TESTS) $(GUEST)/opt/bic/tests/
	$(Q)mkdir -p $(GUEST)/opt/bic/tests/model && cp $(MODEL_PARTS) $(GUEST)/opt/bic/tests/model/
	$(Q)install -D -m 755 dist/bpf-bic-apply $(GUEST)/usr/lib/bpf-bic/bpf-bic-apply
	$(Q)touch $@

initramfs: $(INITRDS)

# GUEST_CMD runs inside each guest of KERNELS from /opt/bic and ends with
# the closing line (e.g. GUEST_CMD="tests/run-all.sh t_20_flow.sh" for one
# test); files it leaves in /out land in VM_OUT/K.
GUEST_CMD	?= tests/run-all.sh
VM_OUT		?= $(BUILD)/out
VM_LOG		?= $(BUILD)/vm-test
RUN_VM = env KERNEL=$(call vmlinuz,$(1)) INITRD=$(call initrd,$(1)) ACCEL_CACHE=$(BUILD)/accel \
	 ./vm-image/run-vm.sh
# Only the runner's own test wants one kernel; the first one will do.
RUNNER_ENV = KERNEL=$(call vmlinuz,$(KGUEST)) INITRD=$(call initrd,$(KGUEST)) ACCEL_CACHE=$(BUILD)/accel
# The suite on every kernel of KERNELS, GUEST_JOBS guests at a time, each
# stopped as failed after VM_TIMEOUT seconds (the primary's suite takes
# ~15 minutes under TCG).
GUEST_JOBS	?= 2
VM_TIMEOUT	?= 1500
SUITE = ./tests/run.sh --jobs $(GUEST_JOBS) --out $(VM_OUT) --log $(VM_LOG) --timeout $(VM_TIMEOUT) \
	--kernels "$(foreach k,$(KERNELS),$(k):$(call vmlinuz,$(k)):$(call initrd,$(k)))"

vm-test: $(INITRDS)
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) -- $(GUEST_CMD)

# The runner's own test boots small guests of its own to check that status,
# panics and hangs come back as they should.
# Everything the suite needs is built first, BUILD_JOBS at a time (a fresh
# clone's build takes minutes of make test's time; the guests come after,
# GUEST_JOBS at a time).  test itself has no other prerequisite, so that a
# make -j of its own builds nothing twice at once.
BUILD_JOBS	?= 2
.PHONY: test-build
test-build:
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(UNIT_TESTS) $(BUILD)/drill/model $(INITRDS) \
		$(TEST_DEB)

test: test-build
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) $(foreach u,$(UNIT_TESTS),--unit $(u)) \
		--unit "tests/unit/test_drill_model.sh $(BUILD)/drill/model drill/scripts" \
		--unit tests/unit/test_study_report.sh \
		--unit "env $(RUNNER_ENV) tests/runner/test_run_vm.sh" $(DEBIAN_JOB) -- $(GUEST_CMD)

# Thousands of random ccctl operations against the model (t_58), on each
# kernel of KERNELS; MODEL_SEED replays a sequence, MODEL_REPLAY a shrunk one.
MODEL_OPS	?= 3000
MODEL_SEED	?=
MODEL_REPLAY	?=
model: VM_TIMEOUT := 7200
model: $(INITRDS)
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) -- env MODEL_OPS=$(MODEL_OPS) SHRINK_SECS=1200 \
		$(if $(MODEL_SEED),MODEL_SEED=$(MODEL_SEED)) \
		$(if $(MODEL_REPLAY),MODEL_REPLAY='$(MODEL_REPLAY)') tests/run-all.sh t_58_ccctl_model.sh

demo: $(call initrd,$(KGUEST))
	$(call msg,VM,demo on $(KGUEST))
	$(Q)$(call RUN_VM,$(KGUEST)) --log $(BUILD)/demo.log --out $(BUILD)/demo -- tests/demo.sh

# t_57_soak alone, for SOAK_SECS of churn under flows (make test runs it for
# SOAK_SECS_K), in one guest on the first of KERNELS: a soak wants the
# emulated CPU to itself, and its own time limit, past run-vm's 900 s.
SOAK_SECS	?= 600
soak: $(call initrd,$(KGUEST))
	$(call msg,VM,soak $(SOAK_SECS)s on $(KGUEST))
	$(Q)$(call RUN_VM,$(KGUEST)) --log $(BUILD)/soak.log --out $(BUILD)/soak \
		--timeout $$(($(SOAK_SECS) + 900)) -- env SOAK_SECS=$(SOAK_SECS) tests/run-all.sh t_57_soak.sh

# Guest runs that leave traces and tables in their own output folder; the
# host then turns them into build/plots/*.png and docs/bench.md.
plots: $(call initrd,$(KGUEST)) eval/plot.sh eval/cwnd.gp
	$(call msg,VM,plots on $(KGUEST))
	$(Q)rm -rf $(BUILD)/plots-data
	$(Q)$(call RUN_VM,$(KGUEST)) --log $(BUILD)/plots.log --out $(BUILD)/plots-data \
		-- tests/plots.sh
	$(call msg,PLOT,$(BUILD)/plots)
	$(Q)./eval/plot.sh $(BUILD)/plots-data $(BUILD)/plots

# make bench runs its guests under -icount: the guest clock then counts
# emulated instructions (and skips idle time), not host time shared with
# whatever else runs.
BENCH_ICOUNT	:= shift=3,sleep=off

# ccctl at scale: migrate, swap and list with SCALE_COUNTS established
# connections, in a boot of its own under the same -icount
# (tests/guest/scale.sh); eval/scale-report.sh writes its section of
# docs/bench.md, in place of the one there (bench-report.sh keeps the
# sections it does not write), so that a scale run that fails (see
# tests/guest/scale.sh) leaves the last one as it was.
SCALE_COUNTS	?= 0 100 1000 5000

define scale_run
	$(call msg,VM,scale $(SCALE_COUNTS) (-icount $(BENCH_ICOUNT)))
	$(Q)rm -rf $(BUILD)/scale-data
	$(Q)QEMU_ICOUNT=$(BENCH_ICOUNT) $(call RUN_VM,$(KGUEST)) --log $(BUILD)/scale.log \
		--out $(BUILD)/scale-data --timeout 900 -- tests/scale.sh $(SCALE_COUNTS)
	$(call msg,REPORT,docs/bench.md (scale))
	$(Q)./eval/scale-report.sh $(BUILD)/scale-data docs/bench.md $(BENCH_ICOUNT)
endef

scale: $(call initrd,$(KGUEST)) eval/scale-report.sh
	$(scale_run)

# The matrix's runs in two boots and the per-ACK cost in a third, side by
# side: all under -icount, so sharing the host's two cores moves nothing.
BENCH_MATRIX_RUNS := 1,3,5 2,4
bench_boot = QEMU_ICOUNT=$(BENCH_ICOUNT) $(call RUN_VM,$(KGUEST)) --log $(BUILD)/bench-$(1).log \
	--out $(BUILD)/bench-data/$(1) --timeout 2400 -- $(2) tests/bench.sh $(3)

bench: $(call initrd,$(KGUEST)) eval/bench-report.sh eval/scale-report.sh
	$(call msg,VM,bench on $(KGUEST): matrix runs $(BENCH_MATRIX_RUNS) and the cost, 3 boots)
	$(Q)rm -rf $(BUILD)/bench-data
	$(Q)pids=; for r in $(BENCH_MATRIX_RUNS); do \
		$(call bench_boot,m$$r,env BENCH_RUNS=$$r) & pids="$$pids $$!"; done; \
		$(call bench_boot,cost,,--cost) & pids="$$pids $$!"; \
		rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc
	$(call msg,REPORT,docs/bench.md)
	$(Q)./eval/bench-report.sh $(BUILD)/bench-data docs/bench.md $(BENCH_ICOUNT)
	$(scale_run)

# The undo question with data: bpf_bic_2611, bpf_bic, the kernel's bic,
# bpf_bic_restore and cubic over reordering paths and paths that stall for
# longer than the RTO, several runs a point (one guest).  The guest clock runs under -icount, so the emulated network
# does not depend on how busy the host is; plots go to build/study.
STUDY_ICOUNT	:= shift=3,sleep=off
STUDY_RUNS	?= 5
# The matrix in parts, one guest each, side by side: one per queue, which
# halves the wall time on two cores (under -icount what a guest measures
# does not depend on the host's load).  STUDY_PARTS=41 runs half of it.
STUDY_PARTS	?= 41 165
# STUDY_QUICK=1: one point per family on the 41-packet queue (2 runs unless
# STUDY_RUNS is given), one guest, into build/study-quick.md and
# build/study-quick/, never docs/study.md.
STUDY_QUICK	?=
ifeq ($(STUDY_QUICK),1)
STUDY_MD	:= $(BUILD)/study-quick.md
STUDY_PLOTS	:= $(BUILD)/study-quick
STUDY_DATA	:= $(BUILD)/study-quick-data
STUDY_ENV	:= STUDY_QUICK=1 $(if $(filter command line environment,$(origin STUDY_RUNS)),STUDY_RUNS=$(STUDY_RUNS))
override STUDY_PARTS := 41
else
STUDY_MD	:= docs/study.md
STUDY_PLOTS	:= $(BUILD)/study
STUDY_DATA	:= $(BUILD)/study-data
STUDY_ENV	:= STUDY_RUNS=$(STUDY_RUNS)
endif

study: $(call initrd,$(KGUEST)) eval/study-report.sh eval/study.gp eval/study-timed.sh eval/study-merge.sh
	$(call msg,VM,study on $(KGUEST) (-icount $(STUDY_ICOUNT)) queues $(STUDY_PARTS) side by side$(if $(STUDY_QUICK), quick))
	$(Q)rm -rf $(STUDY_DATA) && mkdir -p $(STUDY_DATA)
	$(Q)s=$$(date +%s); pids=""; for q in $(STUDY_PARTS); do \
		mkdir -p $(STUDY_DATA)/part-$$q; \
		QEMU_ICOUNT=$(STUDY_ICOUNT) ./eval/study-timed.sh $(STUDY_DATA)/part-$$q/host-points.txt \
			$(call RUN_VM,$(KGUEST)) --log $(BUILD)/study-$$q.log --out $(STUDY_DATA)/part-$$q \
			--timeout 7200 -- env $(STUDY_ENV) STUDY_QUEUES=$$q tests/study.sh & pids="$$pids $$!"; \
		done; rc=0; for p in $$pids; do wait $$p || rc=1; done; [ $$rc -eq 0 ] && \
		./eval/study-merge.sh $(STUDY_DATA) $$(($$(date +%s) - s)) $(STUDY_PARTS)
	$(call msg,REPORT,$(STUDY_MD) $(STUDY_PLOTS))
	$(Q)./eval/study-report.sh $(STUDY_DATA) $(STUDY_MD) $(STUDY_PLOTS) $(STUDY_ICOUNT)

# --- on a real host: make install, make deb -------------------------------
# make install copies what the build made (it builds nothing else) under
# DESTDIR/PREFIX: ccctl and bictrace, the BPF objects in the guest's layout
# (/opt/bic/bpf there), the boot script and its unit, man pages, bash
# completion, and /etc/bpf-bic.conf unless one is there already.
PREFIX		?= /usr/local
DESTDIR		?=
SYSCONFDIR	?= /etc
UNITDIR		?= $(PREFIX)/lib/systemd/system
PKGLIB		= $(DESTDIR)$(PREFIX)/lib/bpf-bic
COMPDIR		= $(DESTDIR)$(PREFIX)/share/bash-completion/completions
MANDIR		= $(DESTDIR)$(PREFIX)/share/man
INSTALL_FILES	:= $(BUILD)/loader/ccctl $(BUILD)/loader/bictrace $(BPF_OBJS) $(BPF_NOLINK_OBJS) \
		   $(BPF_TRACE_OBJS) dist/bpf-bic-apply dist/bpf-bic.service dist/bpf-bic.conf \
		   dist/completion/ccctl dist/completion/bictrace \
		   man/ccctl.8 man/bictrace.8 man/bpf-bic.conf.5

.PHONY: install deb
install: $(INSTALL_FILES)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(PREFIX)/sbin $(PKGLIB)/bpf/nolink $(PKGLIB)/bpf/trace/nolink \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR) $(COMPDIR) $(MANDIR)/man5 $(MANDIR)/man8
	$(Q)install -m 755 $(BUILD)/loader/ccctl $(BUILD)/loader/bictrace $(DESTDIR)$(PREFIX)/sbin/
	$(Q)install -m 644 $(BPF_OBJS) $(PKGLIB)/bpf/
	$(Q)install -m 644 $(BPF_NOLINK_OBJS) $(PKGLIB)/bpf/nolink/
	$(Q)install -m 644 $(BPF_TRACE_LINK) $(PKGLIB)/bpf/trace/
	$(Q)install -m 644 $(BPF_TRACE_NOLINK) $(PKGLIB)/bpf/trace/nolink/
	$(Q)install -m 755 dist/bpf-bic-apply $(PKGLIB)/
	$(Q)sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		dist/bpf-bic.service > $(DESTDIR)$(UNITDIR)/bpf-bic.service
	$(Q)[ -e $(DESTDIR)$(SYSCONFDIR)/bpf-bic.conf ] || \
		install -m 644 dist/bpf-bic.conf $(DESTDIR)$(SYSCONFDIR)/
	$(Q)install -m 644 dist/completion/ccctl dist/completion/bictrace $(COMPDIR)/
	$(Q)install -m 644 man/bpf-bic.conf.5 $(MANDIR)/man5/
	$(Q)install -m 644 man/ccctl.8 man/bictrace.8 $(MANDIR)/man8/

# make deb: the Debian package bpf-bic, built by dpkg-buildpackage and dh
# (debian/rules) in a copy of debian/ under build/deb, where it also writes
# the .deb; its log is build/deb/build.log.
DEB_VERSION	:= $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
DEB		:= $(BUILD)/deb/bpf-bic_$(DEB_VERSION)_amd64.deb

deb: $(DEB)
	@echo $(DEB)

$(DEB): $(INSTALL_FILES) $(wildcard debian/* debian/source/*) README.md | $(STAMP_DEPS)
	$(call msg,DEB,$@)
	$(Q)rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/bpf-bic
	$(Q)cp -r debian README.md $(BUILD)/deb/bpf-bic/
	$(Q)cd $(BUILD)/deb/bpf-bic && TOP=$(CURDIR) dpkg-buildpackage -b -us -uc \
		> ../build.log 2>&1 || { tail -n 20 ../build.log >&2; exit 1; }

# --- the Debian package on a real Debian guest ------------------------------
# A bookworm root with systemd and the primary kernel installed by dpkg (its
# initrd by initramfs-tools), cached; every run makes a disk image of it with
# the package and tests/debian/ on it, boots it, lets it reboot once between
# its stages and power off (tests/debian/run.sh).
DEBIAN_ROOT	:= $(BUILD)/debian/root
DEBIAN_KDEB	:= $(BUILD)/debs/$(KIMG_$(KPRIMARY))_$(subst :,%3a,$(KPKG_$(KPRIMARY)))_amd64.deb
DEBIAN_TEST_DEB	?= $(DEB)
DEBIAN_TIMEOUT	?= 900

$(BUILD)/debian/.root-done: vm-image/mkdebian.sh vm-image/mirror.sh vm-image/versions.mk \
		$(call kdir,$(KPRIMARY))/.fetched $(BPFTOOL) | $(STAMP_DEPS)
	$(call msg,ROOT,$(DEBIAN_ROOT) (debootstrap bookworm, $(KIMG_$(KPRIMARY))))
	$(Q)./vm-image/mkdebian.sh $(DEBIAN_ROOT) $(DEBIAN_KDEB) $(BPFTOOL)
	$(Q)touch $@

DEBIAN_RUN	= ./tests/debian/run.sh $(DEBIAN_ROOT) $(DEBIAN_TEST_DEB) $(BUILD)/debian/run $(DEBIAN_TIMEOUT)

debian-test: $(DEBIAN_TEST_DEB) $(BUILD)/debian/.root-done
	$(call msg,VM,the package on Debian ($(notdir $(DEBIAN_TEST_DEB))))
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(DEBIAN_RUN)

# make test runs it too, with the primary kernel, as one more job of the
# suite: queued after the kernels, it takes the slot the primary's suite
# leaves ~5 minutes before the other slot ends, and fits there.  The root
# is made (when it has to be) inside the job, so a fresh clone's suite does
# not wait for debootstrap to start.
ifneq ($(filter $(KPRIMARY),$(KERNELS)),)
DEBIAN_JOB	= --job "debian=$(MAKE) --no-print-directory $(BUILD)/debian/.root-done && $(DEBIAN_RUN)"
TEST_DEB	= $(DEBIAN_TEST_DEB)
endif

clean:
	$(call msg,CLEAN,build products)
	$(Q)rm -rf $(BUILD)/bpf $(BUILD)/loader $(BUILD)/drill $(BUILD)/tests $(GUEST) $(BUILD)/out $(BUILD)/demo \
		$(BUILD)/plots $(BUILD)/plots-data $(BUILD)/bench-data $(BUILD)/scale-data \
		$(BUILD)/study $(BUILD)/study-data $(BUILD)/deb $(BUILD)/debian/run \
		$(foreach k,$(KERNELS_ALL),$(call kdir,$(k))/guest $(call kdir,$(k))/kmod \
			$(call initrd,$(k)) $(call kdir,$(k))/initramfs.root)

distclean:
	$(Q)rm -rf $(BUILD)
