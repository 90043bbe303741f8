# SPDX-License-Identifier: GPL-2.0
#
# The guests: the tree every guest shares (made by make install-exec, plus
# what only the tests and the evaluation use), each kernel's own tree and
# initramfs, and the targets that boot them: vm-test, test, demo, soak.

.PHONY: initramfs vm-test test-build test test-latest demo soak

GUEST_TESTS	:= $(wildcard tests/guest/*.sh)
# The evaluation's guest sides (make plots, bench, scale, study: mk/eval.mk;
# seedpath.sh and study-wmax.sh by hand, through GUEST_CMD) and make demo's,
# none of them a test, with lib.sh, the helpers only they use, in
# /opt/bic/eval beside /opt/bic/tests, whose libraries they source too.
GUEST_EVAL	:= $(wildcard eval/guest/*.sh)
INITRDS		:= $(foreach k,$(KERNELS),$(call initrd,$(k)))

# --- the tree every guest shares ---------------------------------------------
# The programs and BPF objects are what make install-exec puts under
# DESTDIR=$(GUEST) with PREFIX=/usr (ccctl and bictrace in /usr/sbin,
# bpf-bic-apply in /usr/lib/bpf-bic), the objects in /opt/bic/bpf, where
# the tests look for them.  What only the tests and the evaluation use,
# and install must not ship, is copied beside them.
GUEST_TEST_BINS	:= $(BUILD)/loader/ccctl-faults $(BUILD)/drill/ackdrill $(BUILD)/tests/tcphold \
		   $(BUILD)/tests/nshold $(BUILD)/tests/ccobserve
# the evaluation's (mk/tools.mk), in the same /usr/sbin
GUEST_EVAL_BINS	:= $(BUILD)/eval/tcpblast $(BUILD)/eval/ackcost $(BUILD)/eval/runstat \
		   $(BUILD)/eval/linkmon
# t_58's generator, model and shrinker, which the host tests too
MODEL_PARTS	:= $(wildcard tests/guest/model/*.sh)

$(GUEST)/.done: $(call install_exec_files,$(BUILD)/loader) $(BPF_TEST_OBJS) $(BPF_BENCH_OBJS) \
		$(GUEST_TEST_BINS) $(GUEST_EVAL_BINS) $(GUEST_TESTS) $(GUEST_EVAL) $(MODEL_PARTS) \
		$(DRILL_SCRIPTS) $(DRILL_EXPECT) $(DRILL_WMAX_SCRIPTS) $(DRILL_WMAX_EXPECT)
	$(call msg,GUEST,$(GUEST))
	$(Q)rm -rf $(GUEST)
	$(Q)$(MAKE) --no-print-directory install-exec DESTDIR=$(GUEST) PREFIX=/usr BPFDIR=/opt/bic/bpf \
		SBIN_FROM=$(BUILD)/loader
	$(Q)mkdir -p $(GUEST)/opt/bic/bpf/test $(GUEST)/opt/bic/tests $(GUEST)/opt/bic/drill/expect
	$(Q)cp $(GUEST_TEST_BINS) $(GUEST_EVAL_BINS) $(GUEST)/usr/sbin/
	$(Q)cp $(BPF_TEST_OBJS) $(BPF_BENCH_OBJS) $(GUEST)/opt/bic/bpf/test/
	$(Q)cp $(GUEST_TESTS) $(GUEST)/opt/bic/tests/
	$(Q)mkdir -p $(GUEST)/opt/bic/eval && cp $(GUEST_EVAL) $(GUEST)/opt/bic/eval/
	$(Q)mkdir -p $(GUEST)/opt/bic/tests/model && cp $(MODEL_PARTS) $(GUEST)/opt/bic/tests/model/
	$(Q)cp $(DRILL_SCRIPTS) $(GUEST)/opt/bic/drill/
	$(Q)cp $(BUILD)/drill/expect/*.csv $(GUEST)/opt/bic/drill/expect/
	$(Q)mkdir -p $(GUEST)/opt/bic/drill/wmax/expect && cp $(DRILL_WMAX_SCRIPTS) $(GUEST)/opt/bic/drill/wmax/ \
		&& cp $(BUILD)/drill/wmax-expect/*.csv $(GUEST)/opt/bic/drill/wmax/expect/
	$(Q)touch $@

# --- each kernel's own tree and its initramfs --------------------------------
# suite.conf holds what the guest tests take per kernel.
# CONFIG_HZ reaches the BPF program as a __kconfig extern, which libbpf
# reads from /boot/config-$(uname -r): these kernels have no /proc/config.gz.
define guest_rules
$(call kdir,$(1))/guest/.done: $(call vmlinuz,$(1)) vm-image/versions.mk \
		$(call kdir,$(1))/kmod/tcp_bic_ref.ko $(call kdir,$(1))/testkmod/tcp_ca_many.ko \
		$(call kpatch_kos,$(1)) $(call kdir,$(1))/kpatch/checkpatch/.ok $(call selftest_objs,$(1))
	$$(call msg,GUEST,$(call kdir,$(1))/guest)
	$(Q)rm -rf $$(@D) && mkdir -p $$(@D)/boot $$(@D)/opt/bic/kmod/patched
	$(Q)cp $(call kdir,$(1))/root/boot/config-$(KVER_$(1)) $$(@D)/boot/
	$(Q)printf 'SWAP_ROUNDS=%s\nEPERM_LEAK=%s\nT60_REFS="%s"\nNAME_BYTES=%s\nMODEL_SECS=%s\nSOAK_SECS=%s\nPRIMARY=%s\n' \
		$(SWAP_ROUNDS_$(1)) $(EPERM_LEAK_$(1)) "$(T60_REFS_$(1))" $(NAME_BYTES_$(1)) \
		$(MODEL_SECS_$(1)) $(SOAK_SECS_$(1)) $(if $(filter $(1),$(KERNEL_PRIMARY)),yes,no) \
		> $$(@D)/opt/bic/suite.conf
	$(Q)cp $(call kdir,$(1))/kmod/tcp_bic_ref.ko $(call kdir,$(1))/testkmod/tcp_ca_many.ko \
		$$(@D)/opt/bic/kmod/
	$(if $(call selftest_objs,$(1)),$(Q)mkdir -p $$(@D)/opt/bic/bpf/selftests && \
		cp $(call selftest_objs,$(1)) $$(@D)/opt/bic/bpf/selftests/)
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

$(foreach k,$(KERNELS_ALL),$(eval $(call guest_rules,$(k))))

initramfs: $(INITRDS)

# --- booting them --------------------------------------------------------------
RUN_VM = env KERNEL=$(call vmlinuz,$(1)) INITRD=$(call initrd,$(1)) ACCEL_CACHE=$(BUILD)/accel \
	 ./vm-image/run-vm.sh
# Only the runner's own test wants one kernel; the first one will do.
RUNNER_ENV = KERNEL=$(call vmlinuz,$(KGUEST)) INITRD=$(call initrd,$(KGUEST)) ACCEL_CACHE=$(BUILD)/accel
# The suite on every kernel of KERNELS (GUEST_JOBS, VM_TIMEOUT: Makefile).
SUITE = QEMU_ICOUNT=$(SUITE_ICOUNT) ./tests/run.sh --jobs $(GUEST_JOBS) --out $(VM_OUT) --log $(VM_LOG) --timeout $(VM_TIMEOUT) \
	--kernels "$(foreach k,$(KERNELS),$(k):$(call vmlinuz,$(k)):$(call initrd,$(k)):$(GUEST_CPUS_$(k)))"

# The real-time lane (versions.mk's REALTIME_KERNEL and REALTIME_TESTS): one
# more guest of that kernel, queued as a job after the kernels' suites, with
# no -icount; its tests find GUEST_ICOUNT=none.
ifneq ($(filter $(REALTIME_KERNEL),$(KERNELS)),)
REALTIME_JOB	= --job "realtime-$(REALTIME_KERNEL)=env QEMU_ICOUNT= \
	QEMU_SMP=$(GUEST_CPUS_$(REALTIME_KERNEL)) KERNEL=$(call vmlinuz,$(REALTIME_KERNEL)) \
	INITRD=$(call initrd,$(REALTIME_KERNEL)) ./vm-image/run-vm.sh --log $(VM_LOG)-realtime.log \
	--out $(VM_OUT)/realtime --timeout $(VM_TIMEOUT) -- env GUEST_CPUS=$(GUEST_CPUS_$(REALTIME_KERNEL)) \
	GUEST_ICOUNT=none tests/run-all.sh $(REALTIME_TESTS)"
endif

vm-test: $(INITRDS)
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) -- $(GUEST_CMD)

# The runner's own test boots small guests of its own to check that status,
# panics and hangs come back as they should.
# Everything the suite needs is built first, BUILD_JOBS at a time (a fresh
# clone's build takes minutes of make test's time; the guests come after,
# GUEST_JOBS at a time).  test itself has no other prerequisite, so that a
# make -j of its own builds nothing twice at once.
test-build:
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(UNIT_TESTS) $(BUILD)/drill/model \
		$(BUILD)/algos.tsv $(INITRDS) $(TEST_DEB) $(STAMP_DEPS_SHELLCHECK)

test: test-build
	$(if $(PINS_REPLACED),@echo "pins: the mirror had dropped some; this suite runs $(PINS_REPLACED) (build/pins.mk)")
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) $(foreach u,$(UNIT_TESTS),--unit $(u)) \
		--unit "tests/unit/test_drill_model.sh $(BUILD)/drill/model drill/scripts" \
		--unit "tests/unit/test_drill_wmax.sh $(BUILD)/drill/model drill/wmax" \
		--unit "tests/unit/test_algos.sh $(BUILD)/algos.tsv" \
		--unit tests/unit/test_study_report.sh --unit tests/unit/test_design_report.sh \
		--unit "tests/unit/test_pins.sh $(BUILD) '$(DEB_SUITES)' '$(EPERM_LEAK_FIXED)'" \
		--unit tests/unit/test_host_deps.sh \
		$(if $(SHELLCHECK_TEST),--unit $(SHELLCHECK_TEST)) \
		--unit "env $(RUNNER_ENV) tests/runner/test_run_vm.sh" $(HARDENING_UNIT) $(LINTIAN_UNIT) $(DEBIAN_JOB) $(REALTIME_JOB) \
		-- $(GUEST_CMD)

# make test-latest: make test on the newest cloud kernels of the mirror
# (the latest lane, vm-image/versions.mk), resolved again first; the
# versions it ran close its output.
test-latest:
	$(Q)rm -f $(LATEST_MK)
	$(Q)$(MAKE) --no-print-directory test KERNELS="$(LATEST_KERNELS)"; rc=$$?; \
		echo "latest lane: $$(sed -n 's/^KPKG_\(latest-[a-z-]*\)[[:space:]]*:= /\1 /p' \
			$(LATEST_MK) | paste -sd' ' | sed 's/ \(latest-\)/, \1/g')"; exit $$rc

# make demo: bpf_bic registered as a user would and one traced flow, on the
# first of KERNELS, into build/demo.  Its guest side (eval/guest/demo.sh)
# shows a run, as make plots does, and is none of the suite's tests.
demo: $(call initrd,$(KGUEST))
	$(call msg,VM,demo on $(KGUEST))
	$(Q)$(call RUN_VM,$(KGUEST)) --log $(BUILD)/demo.log --out $(BUILD)/demo -- eval/demo.sh

# t_57_soak alone, for SOAK_SECS of churn under flows (make test runs it for
# SOAK_SECS_K), in one guest on the first of KERNELS, with the vCPUs make
# test gives that kernel: a soak wants the emulated CPU to itself, and its
# own time limit, past run-vm's 900 s.
soak: $(call initrd,$(KGUEST))
	$(call msg,VM,soak $(SOAK_SECS)s on $(KGUEST))
	$(Q)QEMU_SMP=$(GUEST_CPUS_$(KGUEST)) $(call RUN_VM,$(KGUEST)) --log $(BUILD)/soak.log --out $(BUILD)/soak \
		--timeout $$(($(SOAK_SECS) + 900)) -- env SOAK_SECS=$(SOAK_SECS) tests/run-all.sh t_57_soak.sh
