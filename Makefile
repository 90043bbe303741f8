# SPDX-License-Identifier: GPL-2.0
#
# BIC TCP congestion control as a BPF struct_ops program, built against and
# tested inside pinned Debian guest kernels (6.12, 6.1, 7.3) booted under QEMU.
#
#   make		everything the guests need, built (BPF, tools, initramfs)
#   make demo	install what is missing, boot the guest, run a bpf_bic flow
#   make test	host unit tests + make vm-test, on every kernel of KERNELS
#   make test-latest	make test on the newest cloud kernels of the mirror (bookworm, trixie, trixie-backports)
#   make vm-test	build everything, boot the guest, run the guest suite
#   make unit-test	the host unit tests alone
#   make plots	cwnd-over-time PNGs in build/plots
#   make model	thousands of random ccctl operations against a model (t_58)
#   make bench	design point, scenario matrix, BPF vs native cost and make scale, into docs/bench.md
#   make design	BIC's design point alone (windows of 1,000 and 5,000 packets), into docs/bench.md
#   make scale	time and memory of ccctl migrate, swap, list at 0-5000 connections
#   make wmax	BIC and Reno after one loss at Wmax 2,000 to 1,000,000 (model), into docs/bench.md
#   make study	the undo rules under reordering and stalls, into docs/study.md
#   make soak	t_57_soak for SOAK_SECS (600) on the first of KERNELS
#   make kmod	the reference tcp_bic_ref.ko for each kernel
#   make kpatch	patches/ applied and checked (checkpatch.pl) on each kernel
#   make kpatch-kernel-test	a whole 6.12 built with patches/, tested
#   make install	ccctl, bictrace, the objects, bpf-bic.service (PREFIX, DESTDIR)
#   make deb	the Debian package, build/deb/bpf-bic_VERSION_amd64.deb
#   make dsc	the source package, build/dsc/bpf-bic_VERSION.dsc
#   make dsc-test	the source package built offline in a clean bookworm chroot, against make deb's
#   make lintian	trixie's lintian on the package (bookworm's is in make test)
#   make debian-test	the Debian package installed, rebooted and removed on Debian guests (DEBIAN_SYSTEMS)
#   make debian-test-others	make debian-test on the systems make test does not boot (.ci/run)
#   make clean	build products (distclean: all of build/, downloads too)
#   make help	this list
#
# V=1 prints full commands.  The rules are in mk/, by subject:
#   mk/common.mk	paths under build/, the helpers every part uses, and the
#			table of algorithms (bpf/algos.h) as make reads it
#   mk/kernels.mk	downloads, the guest kernels, their modules and patches
#   mk/bpf.mk	vmlinux.h, the BPF objects and skeletons
#   mk/tools.mk	user-space C: loader/ (ccctl, bictrace), drill/, tests/
#   mk/guest.mk	the guest tree and initramfs, vm-test, test, demo, soak
#   mk/eval.mk	model, plots, bench, scale, wmax, study
#   mk/package.mk	install, deb, debian-test, dsc, dsc-test

include vm-image/versions.mk

# --- what a user sets --------------------------------------------------------
# Guest kernels to build for and run on; the first one is the primary.
KERNELS		?= $(KERNELS_ALL)
# KERNELS=latest: the latest lane's (vm-image/versions.mk).
ifeq ($(strip $(KERNELS)),latest)
override KERNELS := $(LATEST_KERNELS)
endif

# User-space C: CFLAGS, CPPFLAGS and LDFLAGS reach every compile and link
# of the project's C, after its own includes and warnings (make deb uses
# dpkg-buildflags' instead).  BPF objects take none of them.
CC		?= cc
CLANG		?= clang
CFLAGS		?= -O2 -g
CPPFLAGS	?=
LDFLAGS		?=

# make install (and make deb, with PREFIX=/usr): where things go.
PREFIX		?= /usr/local
DESTDIR		?=
SYSCONFDIR	?= /etc
UNITDIR		?= $(PREFIX)/lib/systemd/system
BPFDIR		?= $(PREFIX)/lib/bpf-bic/bpf

# The suite: GUEST_CMD runs inside each guest of KERNELS from /opt/bic and
# ends with the closing line (e.g. GUEST_CMD="tests/run-all.sh
# t_20_flow.sh" for one test); files it leaves in /out land in VM_OUT/K.
# GUEST_JOBS guests at a time, each stopped as failed after VM_TIMEOUT
# seconds; make test builds BUILD_JOBS at a time first.  The guests run
# under QEMU's -icount SUITE_ICOUNT (empty: real time): the guest's clock
# counts instructions and jumps over idle time, so the network tests'
# sleeps and 1 Mbit/s flows cost little host time, and what a test sees
# does not depend on how busy the host is.
GUEST_CMD	?= tests/run-all.sh
GUEST_JOBS	?= 2
BUILD_JOBS	?= 2
VM_TIMEOUT	?= 1500
SUITE_ICOUNT	?= shift=3,sleep=off
VM_OUT		?= $(BUILD)/out
VM_LOG		?= $(BUILD)/vm-test

# make model, soak, scale, study, kpatch-kernel-test, debian-test: see their
# rules in mk/eval.mk, mk/guest.mk, mk/kernels.mk and mk/package.mk.
MODEL_OPS	?= 3000
MODEL_SEED	?=
MODEL_REPLAY	?=
SOAK_SECS	?= 600
SCALE_COUNTS	?= 0 100 1000 5000
STUDY_RUNS	?= 5
STUDY_PARTS	?= 41 165
STUDY_QUICK	?=
KPATCH_KERNEL	?= 6.12
DEBIAN_TEST_DEB	?= $(DEB)
DEBIAN_TIMEOUT	?= 1500
# The Debian systems make debian-test boots (vm-image/versions.mk), e.g.
# make debian-test DEBIAN_SYSTEMS=trixie-6.12.
DEBIAN_SYSTEMS	?= $(DEBIAN_SYSTEMS_ALL)

# --- the rules ---------------------------------------------------------------
.DEFAULT_GOAL	:= all
.DELETE_ON_ERROR:

include mk/common.mk
include mk/kernels.mk
include mk/bpf.mk
include mk/tools.mk
include mk/package.mk
include mk/guest.mk
include mk/eval.mk

.PHONY: all help clean distclean
all: $(BPF_OBJS) $(BPF_NOLINK_OBJS) $(BPF_TRACE_OBJS) $(UNIT_TESTS) $(INITRDS)

help:
	@sed -n '/^#   make/s/^#   //p' Makefile

clean:
	$(call msg,CLEAN,build products)
	$(Q)rm -rf $(BUILD)/bpf $(BUILD)/loader $(BUILD)/pkg $(BUILD)/drill $(BUILD)/tests $(BUILD)/eval $(GUEST) \
		$(BUILD)/out $(BUILD)/demo $(BUILD)/plots $(BUILD)/plots-data $(BUILD)/bench-data \
		$(BUILD)/scale-data $(BUILD)/study $(BUILD)/study-data $(BUILD)/deb $(BUILD)/debian/*/run \
		$(BUILD)/dsc $(BUILD)/dsc-test $(BUILD)/dist \
		$(BUILD)/algos-gen $(BUILD)/algos.mk $(BUILD)/algos.tsv \
		$(foreach k,$(KERNELS_ALL),$(call kdir,$(k))/guest $(call kdir,$(k))/kmod \
			$(call initrd,$(k)) $(call kdir,$(k))/initramfs.root)

distclean:
	$(Q)rm -rf $(BUILD)
