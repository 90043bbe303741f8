# SPDX-License-Identifier: GPL-2.0
#
# On a real host: make install, make deb, and make debian-test, the package
# installed, rebooted and removed on a Debian guest.

.PHONY: install deb debian-test

# --- make install, make deb ---------------------------------------------------
# make install copies what the build made (it builds nothing else) under
# DESTDIR/PREFIX: ccctl and bictrace, the BPF objects in the guest's layout
# (/opt/bic/bpf there), the boot script and its unit, man pages, bash
# completion, and /etc/bpf-bic.conf unless one is there already.
PKGLIB		= $(DESTDIR)$(PREFIX)/lib/bpf-bic
COMPDIR		= $(DESTDIR)$(PREFIX)/share/bash-completion/completions
MANDIR		= $(DESTDIR)$(PREFIX)/share/man
INSTALL_FILES	:= $(BUILD)/loader/ccctl $(BUILD)/loader/bictrace $(BPF_OBJS) $(BPF_NOLINK_OBJS) \
		   $(BPF_TRACE_OBJS) dist/bpf-bic-apply dist/bpf-bic.service dist/bpf-bic.conf \
		   dist/completion/ccctl dist/completion/bictrace \
		   man/ccctl.8 man/bictrace.8 man/bpf-bic.conf.5

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
