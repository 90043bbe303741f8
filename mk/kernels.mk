# SPDX-License-Identifier: GPL-2.0
#
# Downloads and the guest kernels: the host's packages, the pinned Debian
# packages (fetched through the project's own apt configuration, see
# vm-image/fetch-debs.sh), bpftool and libbpf unpacked, each kernel of
# KERNELS_ALL unpacked with its headers, the reference module built
# against them, and the patch series (patches/) applied, checked and
# built, as modules or as a whole kernel.

.PHONY: deps kmod kpatch kpatch-kernel kpatch-kernel-test

# make unit-test alone checks them, naming what is missing, and installs
# nothing (HOST_DEPS); make deps, test, demo and the rest install.
HOST_DEPS	= ./vm-image/host-deps.sh $(if $(filter-out unit-test,$(MAKECMDGOALS)),,$(if $(MAKECMDGOALS),--check))

deps: $(STAMP_DEPS)
ifneq ($(SYSTEM_BPF),1)
$(STAMP_DEPS): vm-image/host-deps.sh
	$(call msg,DEPS,host packages)
	$(Q)$(HOST_DEPS)
	$(Q)mkdir -p $(@D) && touch $@
endif

# What building a whole kernel needs on top (make kpatch-kernel only).
KBUILD_PKGS	:= bc bison flex dwarves libssl-dev libelf-dev
STAMP_DEPS_KBUILD := $(BUILD)/.host-deps-kbuild
$(STAMP_DEPS_KBUILD): vm-image/host-deps.sh | $(STAMP_DEPS)
	$(call msg,DEPS,kernel build packages)
	$(Q)./vm-image/host-deps.sh $(KBUILD_PKGS)
	$(Q)touch $@

FETCH		= ./vm-image/fetch-debs.sh $(BUILD) "$(DEB_SUITES)"

# --- pins gone from the mirror -------------------------------------------------
# build/pins.mk: the pins of versions.mk checked against the mirror once
# (again when versions.mk changes), a Debian system's kernel only where it
# is none of the guests' (the others follow theirs).  One the mirror has
# dropped is replaced by the newest of its series (vm-image/pins.sh, one
# line saying so), and make test names what it ran instead
# (PINS_REPLACED).  Read for all but help and clean, before any rule takes
# a version.
PINS_MK		:= $(BUILD)/pins.mk
comma		:= ,
commas		= $(subst $(eval) ,$(comma),$(strip $(1)))
PIN_SPECS	= $(foreach k,$(filter-out $(LATEST_KERNELS),$(KERNELS_ALL)),\
			kernel/$(k)/$(KVER_$(k))/$(KPKG_$(k))/$(call commas,$(KIMG_$(k)))/$(call commas,$(KHDR_$(k)))/$(KSRC_$(k))) \
		  $(foreach s,$(DEBIAN_SYSTEMS_ALL),$(if $(filter $(firstword $(DKIMG_$(s))),$(foreach k,$(KERNELS_ALL),$(KIMG_$(k)))),,\
			system/$(s)/$(patsubst linux-image-%,%,$(firstword $(DKIMG_$(s))))/$(DKPKG_$(s))/$(call commas,$(DKIMG_$(s))))) \
		  tool/BPFTOOL_VER/bpftool/$(BPFTOOL_VER) tool/LIBBPF_VER/libbpf-dev/$(LIBBPF_VER)
ifneq ($(filter-out help clean distclean,$(or $(MAKECMDGOALS),all)),)
include $(PINS_MK)
endif

$(PINS_MK): vm-image/versions.mk vm-image/pins.sh vm-image/apt-private.sh vm-image/mirror.sh
	$(call msg,PINS,$@ (the pins checked against the mirror))
	$(Q)mkdir -p $(@D) && ./vm-image/pins.sh $(BUILD) "$(DEB_SUITES)" "$(EPERM_LEAK_FIXED)" \
		$(PIN_SPECS) > $@.new && mv $@.new $@

# --- the latest lane (versions.mk) -----------------------------------------------
# Its kernels are resolved from the mirror once, into build/latest.mk, when
# KERNELS names them (make test-latest resolves them again first).
LATEST_MK	:= $(BUILD)/latest.mk
ifneq ($(filter $(LATEST_KERNELS),$(KERNELS)),)
include $(LATEST_MK)
KERNELS_ALL	+= $(LATEST_KERNELS)
DEB_SUITES	+= $(LATEST_SUITES)
endif

$(LATEST_MK): vm-image/latest.sh vm-image/mirror.sh
	$(call msg,RESOLVE,$@ (the newest cloud kernels on the mirror))
	$(Q)mkdir -p $(@D) && ./vm-image/latest.sh $(BUILD) "$(EPERM_LEAK_FIXED)" > $@.new && mv $@.new $@

# --- BPF userspace, pinned, unpacked into the build folder -------------------
$(BUILD)/debs/.fetched-tools: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$(call msg,FETCH,bpftool $(BPFTOOL_VER) libbpf $(LIBBPF_VER))
	$(Q)$(FETCH) bpftool=$(BPFTOOL_VER) libbpf-dev=$(LIBBPF_VER)
	$(Q)touch $@

# (SYSTEM_BPF=1: the system's, mk/common.mk.)
ifneq ($(SYSTEM_BPF),1)
$(BPFTOOL) $(LIBBPF_A) &: $(BUILD)/debs/.fetched-tools
	$(call msg,UNPACK,$(TOOLS))
	$(Q)rm -rf $(TOOLS) && mkdir -p $(TOOLS)
	$(Q)for d in $(BUILD)/debs/bpftool_*.deb $(BUILD)/debs/libbpf-dev_*.deb; do \
		dpkg-deb -x $$d $(TOOLS) || exit 1; done
	$(Q)touch $(BPFTOOL) $(LIBBPF_A)
endif

# --- one guest kernel: image, headers -----------------------------------------
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
	$(Q)$$(MAKE) $(if $(Q),-s) -C $(call kdir,$(1))/kheaders/usr/src/linux-headers-$(KVER_$(1)) \
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

# The few files of the source that make kpatch needs, and the BPF
# selftests (mk/bpf.mk builds two of their congestion controls), unpacked
# once: decompressing the tarball is what costs.
$(call kdir,$(1))/ksrc/.done: $(call kdir,$(1))/.fetched-source vm-image/unpack-source.sh
	$$(call msg,UNPACK,$$(@D))
	$(Q)./vm-image/unpack-source.sh $$(@D) $(BUILD)/debs/$(KSRC_$(1))_$(KPKG_$(1))_all.deb \
		net/ipv4/tcp_bic.c net/ipv4/tcp_cong.c \
		scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch \
		tools/testing/selftests/bpf
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
# build (its guest loads both of make kpatch's).  It takes too long to be
# part of make test (docs/testing.md): make kpatch-kernel-test boots it
# with K's unchanged initramfs.
KPATCH_KERNEL_SET := seed
define kpatch_kernel_rules
$(call kdir,$(1))/kpatch-kernel/bzImage: $(call kdir,$(1))/.fetched-source $(call vmlinuz,$(1)) \
		vm-image/kpatch-kernel.sh vm-image/kpatch.sh vm-image/unpack-source.sh patches/series \
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
	$(eval $(call kmod_rule,$(k),$(call kdir,$(k))/testkmod/tcp_ca_many.ko,tests/kmod,\
		tests/kmod/tcp_ca_many.c tests/kmod/Kbuild)) \
	$(foreach s,$(KPATCH_SETS),$(eval $(call kpatch_set_rule,$(k),$(s))) \
		$(eval $(call kmod_rule,$(k),$(call kdir,$(k))/kpatch/$(s)/ko/tcp_bic.ko,\
			$(call kdir,$(k))/kpatch/$(s)/mod,$(call kdir,$(k))/kpatch/$(s)/mod/tcp_bic.c))))

$(BUILD)/roots/%/.done: vm-image/mkroot.sh vm-image/mirror.sh vm-image/versions.mk | $(STAMP_DEPS)
	$(call msg,ROOT,$(@D) (debootstrap $*))
	$(Q)./vm-image/mkroot.sh $(@D) $* $(KBUILD_ROOT_PKGS_$*)
	$(Q)touch $@

# --- make kmod, make kpatch, make kpatch-kernel(-test) -----------------------
kmod: $(foreach k,$(KERNELS),$(call kdir,$(k))/kmod/tcp_bic_ref.ko)

kpatch: $(foreach k,$(KERNELS),$(call kpatch_kos,$(k)) $(call kdir,$(k))/kpatch/checkpatch/.ok)

# The patched whole kernel of KPATCH_KERNEL (one that has the EPERM leak)
# under the tests that show what the series changes: the leak gone (t_80
# told to expect none), the seed's and the proposal's tcp_bic.ko each
# undoing as its model, and nothing left behind.
KPATCH_TESTS	:= t_10_register.sh t_75_kpatch.sh t_80_netns_default.sh t_90_clean.sh
kpatch-kernel: $(call kdir,$(KPATCH_KERNEL))/kpatch-kernel/bzImage

kpatch-kernel-test: kpatch-kernel $(call initrd,$(KPATCH_KERNEL))
	$(call msg,VM,$(KPATCH_TESTS) on the patched $(KPATCH_KERNEL))
	$(Q)env KERNEL=$(call kdir,$(KPATCH_KERNEL))/kpatch-kernel/bzImage \
		INITRD=$(call initrd,$(KPATCH_KERNEL)) ACCEL_CACHE=$(BUILD)/accel \
		./vm-image/run-vm.sh --log $(BUILD)/kpatch-kernel-test.log \
		-- env EPERM_LEAK=no tests/run-all.sh $(KPATCH_TESTS)

