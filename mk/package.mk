# SPDX-License-Identifier: GPL-2.0
#
# On a real host: make install, make deb, make lintian (trixie's lintian on
# the package), and make debian-test, the package installed, rebooted and
# removed on a Debian guest; make dsc and make dsc-test, the source package
# and its build offline in a clean chroot.

.PHONY: install install-exec install-data deb debian-test lintian

# --- make install ------------------------------------------------------------
# make install copies what the build made (it builds nothing else) under
# DESTDIR/PREFIX, in two halves:
#   install-exec	ccctl and bictrace (from SBIN_FROM) in PREFIX/sbin, the
#			boot script in PREFIX/lib/bpf-bic, the BPF objects in
#			BPFDIR (PREFIX/lib/bpf-bic/bpf)
#   install-data	the unit, /etc/bpf-bic.conf unless one is there
#			already, man pages, bash completion
# The guest's tree is install-exec's (mk/guest.mk); make deb's is both.
SBIN_FROM	?= $(BUILD)/loader
PKGLIB		= $(DESTDIR)$(PREFIX)/lib/bpf-bic
COMPDIR		= $(DESTDIR)$(PREFIX)/share/bash-completion/completions
MANDIR		= $(DESTDIR)$(PREFIX)/share/man
# $(call install_exec_files,DIR): what install-exec takes, ccctl and
# bictrace from DIR.
install_exec_files = $(1)/ccctl $(1)/bictrace $(BPF_SHIPPED) $(BUILD)/dist/bpf-bic-apply
INSTALL_DATA_FILES := dist/bpf-bic.service dist/bpf-bic.conf $(BUILD)/dist/completion/ccctl \
		   dist/completion/bictrace man/ccctl.8 man/bictrace.8 man/bpf-bic.conf.5

install: install-exec install-data

# The boot script and ccctl's completion with ccctl's variants written in
# (ALGO_VARIANTS, from the table of algorithms) where they say @VARIANTS@.
$(BUILD)/dist/%: dist/% $(BUILD)/algos.mk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && sed 's/@VARIANTS@/$(ALGO_VARIANTS)/' $< > $@

install-exec: $(call install_exec_files,$(SBIN_FROM))
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX) programs$(if $(filter $(PREFIX)/%,$(BPFDIR)),, $(DESTDIR)$(BPFDIR)))
	$(Q)install -d $(DESTDIR)$(PREFIX)/sbin $(PKGLIB)
	$(Q)install -m 755 $(SBIN_FROM)/ccctl $(SBIN_FROM)/bictrace $(DESTDIR)$(PREFIX)/sbin/
	$(Q)install -m 755 $(BUILD)/dist/bpf-bic-apply $(PKGLIB)/
	$(Q)for o in $(BPF_SHIPPED); do \
		install -D -m 644 $$o $(DESTDIR)$(BPFDIR)/$${o#$(BUILD)/bpf/} || exit 1; done

install-data: $(INSTALL_DATA_FILES)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX) unit config manuals completion)
	$(Q)install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR) $(COMPDIR) $(MANDIR)/man5 $(MANDIR)/man8
	$(Q)sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		dist/bpf-bic.service > $(DESTDIR)$(UNITDIR)/bpf-bic.service
	$(Q)[ -e $(DESTDIR)$(SYSCONFDIR)/bpf-bic.conf ] || \
		install -m 644 dist/bpf-bic.conf $(DESTDIR)$(SYSCONFDIR)/
	$(Q)install -m 644 $(BUILD)/dist/completion/ccctl dist/completion/bictrace $(COMPDIR)/
	$(Q)install -m 644 man/bpf-bic.conf.5 $(MANDIR)/man5/
	$(Q)install -m 644 man/ccctl.8 man/bictrace.8 $(MANDIR)/man8/

# --- make deb ------------------------------------------------------------------
# The Debian package bpf-bic, built by dpkg-buildpackage and dh
# (debian/rules) in a copy of debian/ under build/deb, where it also writes
# the .deb; its log is build/deb/build.log.  Under the build profile
# pkg.bpf-bic.prebuilt debian/rules compiles nothing (nor are the
# Build-Depends only the source package's build needs asked for: make dsc
# below): it runs make install with SBIN_FROM=$(PKG_OUT), where ccctl and bictrace
# were built first, by the loader's rules (mk/tools.mk), with what
# dpkg-buildflags gives a Debian package instead of CFLAGS, CPPFLAGS and
# LDFLAGS: hardening=+all (PIE, read-only relocations and immediate
# binding, fortify, stack protector), and stack clash protection and
# control flow protection (-fcf-protection), which trixie's dpkg (1.22)
# adds to hardening=+all and bookworm's (1.21) does not know: appended as
# a package's maintainer would (DEB_CFLAGS_MAINT_APPEND).  What
# hardening-check says of the result: tests/unit/test_hardening.sh.  The
# BPF objects are the same as the guest's.  The package's
# Static-Built-Using names the libbpf linked in: the source package and
# version of the very libbpf-dev .deb that LIBBPF_A was unpacked from
# (the version in its Source field when that has one: libbpf-dev's own
# version has an epoch, 1:, that the source package libbpf's has not).
DEB_VERSION	:= $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
DEB		:= $(BUILD)/deb/bpf-bic_$(DEB_VERSION)_amd64.deb
PKG_OUT		:= $(BUILD)/pkg
DEB_BUILD_MAINT_OPTIONS ?= hardening=+all
DEB_CFLAGS_MAINT_APPEND ?= -fstack-clash-protection -fcf-protection
LIBBPF_DEB	:= $(BUILD)/debs/libbpf-dev_$(subst :,%3a,$(LIBBPF_VER))_amd64.deb

# $(call dpkg_flags,CFLAGS): what dpkg-buildflags says, asked once.
dpkg_flags = $(or $(DPKG_$(1)),$(eval DPKG_$(1) := $$(shell \
	DEB_BUILD_MAINT_OPTIONS='$(DEB_BUILD_MAINT_OPTIONS)' \
	DEB_CFLAGS_MAINT_APPEND='$(DEB_CFLAGS_MAINT_APPEND)' dpkg-buildflags --get $(1)))$(DPKG_$(1)))

$(eval $(call loader_rules,$(PKG_OUT)))
$(PKG_OUT)/%: override CFLAGS = $(call dpkg_flags,CFLAGS)
$(PKG_OUT)/%: override CPPFLAGS = $(call dpkg_flags,CPPFLAGS)
$(PKG_OUT)/%: override LDFLAGS = $(call dpkg_flags,LDFLAGS)

deb: $(DEB)
	@echo $(DEB)

$(DEB): $(call install_exec_files,$(PKG_OUT)) $(INSTALL_DATA_FILES) $(wildcard debian/* debian/source/*) \
		README.md $(LIBBPF_A) | $(STAMP_DEPS)
	$(call msg,DEB,$@)
	$(Q)rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/bpf-bic
	$(Q)cp -r debian README.md $(BUILD)/deb/bpf-bic/
	$(Q)src=$$(dpkg-deb -f $(LIBBPF_DEB) Source) && ver=$$(dpkg-deb -f $(LIBBPF_DEB) Version) && \
	case $$src in *'('*) ver=$${src#*(}; ver=$${ver%)}; src=$${src%% *};; esac && \
	cd $(BUILD)/deb/bpf-bic && TOP=$(CURDIR) SBIN_FROM=$(PKG_OUT) \
		LIBBPF_BUILT_USING="$${src:-libbpf} (= $$ver)" dpkg-buildpackage -b -us -uc \
		-Ppkg.bpf-bic.prebuilt \
		> ../build.log 2>&1 || { tail -n 20 ../build.log >&2; exit 1; }

# --- the Debian package on real Debian guests ---------------------------------
# Each system of DEBIAN_SYSTEMS (vm-image/versions.mk) is a root of its suite
# with systemd and its own kernel installed by dpkg (its initrd by
# initramfs-tools), cached in build/debian/SYSTEM/root with its stamp; every
# run makes a disk image of it with the package and tests/debian/ on it,
# boots it, lets it reboot once between its stages and power off
# (tests/debian/run.sh).  One package for all: make deb's, built on
# bookworm (libbpf linked in; its libelf1 dependency is trixie's
# libelf1t64, which Provides it).
.PHONY: debian-test-others
debian_dir	= $(BUILD)/debian/$(1)
debian_root	= $(call debian_dir,$(1))/root
# A suite's debootstrap, which its systems' roots start from (a copy each).
debian_base	= $(BUILD)/debian/base-$(1)
debian_kdebs	= $(foreach p,$(DKIMG_$(1)),$(BUILD)/debs/$(p)_$(subst :,%3a,$(DKPKG_$(1)))_amd64.deb)

define debian_rules
$(call debian_dir,$(1))/.fetched: vm-image/versions.mk vm-image/fetch-debs.sh | $(STAMP_DEPS)
	$$(call msg,FETCH,$(DKIMG_$(1)) $(DKPKG_$(1)))
	$(Q)$(FETCH) $(addsuffix =$(DKPKG_$(1)),$(DKIMG_$(1)))
	$(Q)mkdir -p $$(@D) && touch $$@

$(call debian_dir,$(1))/.done: vm-image/mkdebian.sh vm-image/versions.mk \
		$(call debian_base,$(DSUITE_$(1)))/.done $(call debian_dir,$(1))/.fetched $(BPFTOOL) \
		| $(STAMP_DEPS)
	$$(call msg,ROOT,$(call debian_root,$(1)) ($(DSUITE_$(1)) with $(DKIMG_$(1))))
	$(Q)./vm-image/mkdebian.sh $(call debian_root,$(1)) $(call debian_base,$(DSUITE_$(1)))/root \
		$(BPFTOOL) $(call debian_kdebs,$(1))
	$(Q)touch $$@
endef
$(foreach s,$(DEBIAN_SYSTEMS_ALL),$(eval $(call debian_rules,$(s))))

define debian_base_rules
$(call debian_base,$(1))/.done: vm-image/mkdebian.sh vm-image/mirror.sh | $(STAMP_DEPS)
	$$(call msg,ROOT,$(call debian_base,$(1))/root (debootstrap $(1)))
	$(Q)./vm-image/mkdebian.sh --base $(call debian_base,$(1))/root $(1)
	$(Q)touch $$@
endef
DEBIAN_SUITES	:= $(sort $(foreach s,$(DEBIAN_SYSTEMS_ALL),$(DSUITE_$(s))))
$(foreach s,$(DEBIAN_SUITES),$(eval $(call debian_base_rules,$(s))))

# $(call debian_job,SYSTEM): one system's test as a job of tests/run.sh: its
# root made first when it has to be (inside the job, so that a fresh clone's
# suite does not wait for debootstrap), then the guest.  The jobs of one
# suite's systems, which may run at once, make their roots one at a time
# (a lock per suite): the first debootstraps the suite, the next copies it.
debian_job	= --job "debian-$(1)=mkdir -p $(BUILD)/debian && \
	flock $(call debian_base,$(DSUITE_$(1))).lock \
	$(MAKE) --no-print-directory $(call debian_dir,$(1))/.done && \
	./tests/debian/run.sh $(call debian_root,$(1)) $(DEBIAN_TEST_DEB) $(call debian_dir,$(1))/run $(DEBIAN_TIMEOUT)"

# make debian-test: every system of DEBIAN_SYSTEMS, GUEST_JOBS guests at a
# time, under the suite's -icount as in make test; one closing line.
debian-test: $(DEBIAN_TEST_DEB) $(BPFTOOL)
	$(if $(filter-out $(DEBIAN_SYSTEMS_ALL),$(DEBIAN_SYSTEMS)),\
		$(error DEBIAN_SYSTEMS: no system $(filter-out $(DEBIAN_SYSTEMS_ALL),$(DEBIAN_SYSTEMS)) (there are $(DEBIAN_SYSTEMS_ALL))))
	$(call msg,VM,the package on $(DEBIAN_SYSTEMS) ($(notdir $(DEBIAN_TEST_DEB))))
	$(Q)ACCEL_CACHE=$(BUILD)/accel QEMU_ICOUNT=$(SUITE_ICOUNT) ./tests/run.sh --jobs $(GUEST_JOBS) \
		$(foreach s,$(DEBIAN_SYSTEMS),$(call debian_job,$(s)))

# The systems make test does not run, which .ci/run runs after it.
debian-test-others:
	$(Q)$(MAKE) --no-print-directory debian-test \
		DEBIAN_SYSTEMS="$(filter-out $(DEBIAN_SYSTEM_TEST),$(DEBIAN_SYSTEMS_ALL))"

# make test runs DEBIAN_SYSTEM_TEST (bookworm with the primary kernel) as
# one more job of the suite: queued after the kernels, it takes the slot
# the primary's suite leaves before the other slot ends, and fits there
# (docs/testing.md).
ifneq ($(filter $(KPRIMARY),$(KERNELS)),)
DEBIAN_JOB	= $(call debian_job,$(DEBIAN_SYSTEM_TEST))
TEST_DEB	= $(DEBIAN_TEST_DEB)
# The package's binaries, built on the way to it: their hardening.
HARDENING_UNIT	= --unit "tests/unit/test_hardening.sh $(PKG_OUT) $(LIBBPF_A)"
# The package itself: what bookworm's lintian (the host's) says of it, that
# it holds no build path, and that a build in another folder gives the
# same bytes.
LINTIAN_UNIT	= --unit "tests/unit/test_lintian.sh $(TEST_DEB)" \
		  --unit "tests/unit/test_buildpath.sh $(TEST_DEB)" \
		  --unit "tests/unit/test_deb_repro.sh $(TEST_DEB)"
endif

# --- make lintian: trixie's lintian on the package ---------------------------
# What trixie's lintian (2.122) says of the package, the same test as make
# test's, from a trixie root of its own, build/roots/lintian-trixie
# (mkroot.sh, cached): not the kbuild root build/roots/trixie, whose
# package list is the kernel's toolchain and nothing else.  Not in make
# test: its debootstrap is slow on a fresh machine.  The root is
# remade when the suite or the package list changes (a stamp of the two),
# not on every change of versions.mk, which refetches and rebuilds
# everything else.  perl-openssl-defaults is named too: it provides the
# virtual perl-openssl-abi-3 that libnet-ssleay-perl (under lintian)
# depends on, and debootstrap does not resolve virtual packages.
LINTIAN_ROOT_SUITE := trixie
LINTIAN_ROOT_PKGS := lintian perl-openssl-defaults
LINTIAN_ROOT	:= $(BUILD)/roots/lintian-$(LINTIAN_ROOT_SUITE)

$(LINTIAN_ROOT).pkgs: FORCE | $(STAMP_DEPS)
	$(Q)echo '$(LINTIAN_ROOT_SUITE) $(LINTIAN_ROOT_PKGS)' | cmp -s - $@ || \
		echo '$(LINTIAN_ROOT_SUITE) $(LINTIAN_ROOT_PKGS)' > $@

$(LINTIAN_ROOT)/.done: vm-image/mkroot.sh vm-image/mirror.sh $(LINTIAN_ROOT).pkgs | $(STAMP_DEPS)
	$(call msg,ROOT,$(@D) (debootstrap $(LINTIAN_ROOT_SUITE): $(LINTIAN_ROOT_PKGS)))
	$(Q)./vm-image/mkroot.sh $(@D) $(LINTIAN_ROOT_SUITE) $(LINTIAN_ROOT_PKGS)
	$(Q)touch $@

lintian: $(DEBIAN_TEST_DEB) $(LINTIAN_ROOT)/.done
	$(Q)tests/unit/test_lintian.sh $(DEBIAN_TEST_DEB) $(LINTIAN_ROOT) unknown-field

# --- make dsc, make dsc-test: the source package ------------------------------
# make pkg: what the package holds, built (ccctl and bictrace in
# $(PKG_OUT) with dpkg-buildflags' flags, the BPF objects); debian/rules
# runs it with SYSTEM_BPF=1 when it builds from the source package.
#
# make dsc: the source package, build/dsc/bpf-bic_VERSION.dsc and its
# tarball (vm-image/mkdsc.sh: 3.0 (native), the files git tracks and
# nothing generated; debian/control's Build-Depends checked against the
# pins of bpftool and libbpf-dev).  It is made anew each time.
#
# make dsc-test: that source package built by dpkg-buildpackage in a clean
# bookworm root without network, and its .deb compared with make deb's
# (vm-image/dsc-test.sh, report in build/dsc-test/report.txt).  The root,
# build/roots/dsc-bookworm (mkroot.sh: minbase and build-essential, what a
# Debian build root holds before a package's Build-Depends), is cached and
# remade only when DSC_ROOT_SUITE or DSC_ROOT_PKGS change; each run copies
# it, adds DSC_ROOT_SUITES to the copy's apt sources, installs the
# Build-Depends there from the mirror (apt-get build-dep on the .dsc; the
# .debs are kept in build/roots/dsc-bookworm.archives for the next run),
# the packages of DSC_ROOT_PIN from its first word's suite (bookworm has
# no linux-bpf-dev and older bpftool and libbpf-dev than the pins; apt
# takes backports' only when told to),
# then cuts the network (unshare -n) and builds.  Not in make test: the
# root's debootstrap takes minutes on a fresh machine, and each run
# installs the toolchain again.
.PHONY: pkg dsc dsc-test
DSC_DIR		:= $(BUILD)/dsc
DSC		:= $(DSC_DIR)/bpf-bic_$(DEB_VERSION).dsc
DSC_ROOT_SUITE	:= bookworm
DSC_ROOT_PKGS	:= build-essential
DSC_ROOT_SUITES	:= bookworm bookworm-backports
DSC_ROOT_PIN	:= bookworm-backports bpftool libbpf-dev libbpf1 linux-bpf-dev
DSC_ROOT	:= $(BUILD)/roots/dsc-$(DSC_ROOT_SUITE)

# The skeletons are named so that make keeps them: else, as intermediate
# files, they would go after this and make install would build ccctl anew.
pkg: $(call install_exec_files,$(PKG_OUT)) $(INSTALL_DATA_FILES) $(SKELS)

dsc:
	$(call msg,DSC,$(DSC))
	$(Q)./vm-image/mkdsc.sh $(DSC_DIR) bpftool=$(BPFTOOL_VER) libbpf-dev=$(LIBBPF_VER) >/dev/null

$(DSC_ROOT).pkgs: FORCE | $(STAMP_DEPS)
	$(Q)mkdir -p $(@D) && echo '$(DSC_ROOT_SUITE) $(DSC_ROOT_PKGS)' | cmp -s - $@ || \
		echo '$(DSC_ROOT_SUITE) $(DSC_ROOT_PKGS)' > $@

$(DSC_ROOT)/.done: vm-image/mkroot.sh vm-image/mirror.sh $(DSC_ROOT).pkgs | $(STAMP_DEPS)
	$(call msg,ROOT,$(@D) (debootstrap $(DSC_ROOT_SUITE): $(DSC_ROOT_PKGS)))
	$(Q)./vm-image/mkroot.sh $(@D) $(DSC_ROOT_SUITE) $(DSC_ROOT_PKGS)
	$(Q)touch $@

dsc-test: dsc $(DEB) $(DSC_ROOT)/.done
	$(call msg,DSC-TEST,$(notdir $(DSC)) in a copy of $(DSC_ROOT), offline)
	$(Q)BPFTOOL=$(BPFTOOL) ./vm-image/dsc-test.sh $(DSC_ROOT) "$(DSC_ROOT_SUITES)" "$(DSC_ROOT_PIN)" $(DSC) $(DEB) $(VMLINUX_H) \
		$(BUILD)/dsc-test
