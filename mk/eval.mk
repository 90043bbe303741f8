# SPDX-License-Identifier: GPL-2.0
#
# Evaluation, each in guests of its own: make model (random ccctl
# operations against a model), plots, bench, scale and study, whose reports
# the host writes into docs/ and build/.  The guest side of each is
# eval/guest/NAME.sh, run as eval/NAME.sh from /opt/bic (mk/guest.mk); the
# host side is beside it in eval/.

.PHONY: model plots bench scale wmax design study

# Thousands of random ccctl operations against the model (t_58), on each
# kernel of KERNELS; MODEL_SEED replays a sequence, MODEL_REPLAY a shrunk one.
model: VM_TIMEOUT := 7200
model: $(INITRDS)
	$(Q)ACCEL_CACHE=$(BUILD)/accel $(SUITE) -- env MODEL_OPS=$(MODEL_OPS) SHRINK_SECS=1200 \
		$(if $(MODEL_SEED),MODEL_SEED=$(MODEL_SEED)) \
		$(if $(MODEL_REPLAY),MODEL_REPLAY='$(MODEL_REPLAY)') tests/run-all.sh t_58_ccctl_model.sh

# Guest runs that leave traces and tables in their own output folder; the
# host then turns them into build/plots/*.png and docs/bench.md.
plots: $(call initrd,$(KGUEST)) eval/plot.sh eval/cwnd.gp
	$(call msg,VM,plots on $(KGUEST))
	$(Q)rm -rf $(BUILD)/plots-data
	$(Q)$(call RUN_VM,$(KGUEST)) --log $(BUILD)/plots.log --out $(BUILD)/plots-data \
		-- eval/plots.sh
	$(call msg,PLOT,$(BUILD)/plots)
	$(Q)./eval/plot.sh $(BUILD)/plots-data $(BUILD)/plots

# make bench runs its guests under -icount: the guest clock then counts
# emulated instructions (and skips idle time), not host time shared with
# whatever else runs.
BENCH_ICOUNT	:= shift=3,sleep=off

# ccctl at scale: migrate, swap and list with SCALE_COUNTS established
# connections, in a boot of its own under the same -icount
# (eval/guest/scale.sh); eval/scale-report.sh writes its section of
# docs/bench.md, in place of the one there (bench-report.sh keeps the
# sections it does not write), so that a scale run that fails (see
# eval/guest/scale.sh) leaves the last one as it was.

scale_boot = QEMU_ICOUNT=$(BENCH_ICOUNT) $(call RUN_VM,$(KGUEST)) --log $(BUILD)/scale.log \
	--out $(BUILD)/scale-data --timeout 3600 -- eval/scale.sh $(SCALE_COUNTS)
define scale_report
	$(call msg,REPORT,docs/bench.md (scale))
	$(Q)./eval/scale-report.sh $(BUILD)/scale-data docs/bench.md $(BENCH_ICOUNT)
endef

scale: $(call initrd,$(KGUEST)) eval/scale-report.sh
	$(call msg,VM,scale $(SCALE_COUNTS) (-icount $(BENCH_ICOUNT)))
	$(Q)rm -rf $(BUILD)/scale-data
	$(Q)$(scale_boot)
	$(scale_report)

# BIC's way back after one loss at Wmax 2,000 to 1,000,000 packets, and
# Reno's, as the drill model computes it (model -w; its Wmax 2,000 run is
# drill/wmax's, checked on the kernel by t_71): host only, its own section
# of docs/bench.md.
wmax: $(BUILD)/drill/model eval/wmax-report.sh
	$(call msg,REPORT,docs/bench.md (wmax))
	$(Q)./eval/wmax-report.sh $(BUILD)/drill/model docs/bench.md

# BIC's design point (bench.sh --design): windows of 1,000 and 5,000
# packets, each of BENCH_DESIGN_RUNS' run lists in a boot of its own,
# BENCH_JOBS at a time; eval/design-report.sh writes its section of
# docs/bench.md.
# DESIGN_ENV passes settings to the guest (e.g. DP_SECS=60), DESIGN_ALGS
# narrows the algorithms.  Five runs, as the matrix: a run costs the frames
# it sends, which is what bounds the cells' lengths (docs/evaluation.md).
BENCH_DESIGN_RUNS := 1 2 3 4 5
define design_report
	$(call msg,REPORT,docs/bench.md (design point))
	$(Q)./eval/design-report.sh $(BUILD)/bench-data docs/bench.md $(BENCH_ICOUNT)
endef

design: $(call initrd,$(KGUEST)) eval/design-report.sh
	$(call msg,VM,design point on $(KGUEST): runs $(BENCH_DESIGN_RUNS))
	$(Q)rm -rf $(BUILD)/bench-data/d*
	$(Q)$(MAKE) --no-print-directory -k -j$(BENCH_JOBS) $(addprefix bench-boot-d,$(BENCH_DESIGN_RUNS))
	$(design_report)

# The design point's runs in five boots, the matrix's in three more, the
# per-ACK cost and make scale in one each, BENCH_JOBS at a time, the
# longest first, so that both cores stay busy to the end: all under
# -icount, so sharing the host's two cores moves nothing.
BENCH_MATRIX_RUNS := 1,2 3,4 5
BENCH_JOBS	:= 4
bench_boot = QEMU_ICOUNT=$(BENCH_ICOUNT) $(call RUN_VM,$(KGUEST)) --log $(BUILD)/bench-$(1).log \
	--out $(BUILD)/bench-data/$(1) --timeout 7200 -- $(2) eval/bench.sh $(3)
BENCH_BOOTS = $(addprefix m,$(BENCH_MATRIX_RUNS)) $(addprefix d,$(BENCH_DESIGN_RUNS)) cost scale

# One target a boot, for make -j to run BENCH_JOBS at a time.  A failed
# scale boot is noted, not fatal: the other reports are still written.
bench-boot-d%:
	$(Q)$(call bench_boot,d$*,env BENCH_RUNS=$* $(DESIGN_ENV),--design $(DESIGN_ALGS))
bench-boot-m%:
	$(Q)$(call bench_boot,m$*,env BENCH_RUNS=$*)
bench-boot-cost:
	$(Q)$(call bench_boot,cost,,--cost)
bench-boot-scale:
	$(Q)$(scale_boot); echo $$? > $(BUILD)/scale-data.rc

bench: $(call initrd,$(KGUEST)) eval/bench-report.sh eval/scale-report.sh eval/design-report.sh wmax
	$(call msg,VM,bench on $(KGUEST): design point runs $(BENCH_DESIGN_RUNS); matrix runs $(BENCH_MATRIX_RUNS); the cost; scale $(SCALE_COUNTS))
	$(Q)rm -rf $(BUILD)/bench-data $(BUILD)/scale-data $(BUILD)/scale-data.rc
	$(Q)$(MAKE) --no-print-directory -k -j$(BENCH_JOBS) $(addprefix bench-boot-,$(BENCH_BOOTS))
	$(call msg,REPORT,docs/bench.md)
	$(Q)./eval/bench-report.sh $(BUILD)/bench-data docs/bench.md $(BENCH_ICOUNT)
	$(design_report)
	$(Q)[ "$$(cat $(BUILD)/scale-data.rc)" = 0 ] || \
		{ echo "make bench: the scale run failed (docs/bench.md keeps its scale section)" >&2; exit 1; }
	$(scale_report)

# The undo question with data: bpf_bic_2611, bpf_bic, the kernel's bic,
# bpf_bic_restore and cubic over reordering paths and paths that stall for
# longer than the RTO, several runs a point (one guest).  The guest clock runs under -icount, so the emulated network
# does not depend on how busy the host is; plots go to build/study.
STUDY_ICOUNT	:= shift=3,sleep=off
# The matrix in parts, one guest each, side by side: one per queue, which
# halves the wall time on two cores (under -icount what a guest measures
# does not depend on the host's load).  STUDY_PARTS=41 runs half of it.
# STUDY_QUICK=1: one point per family on the 41-packet queue (2 runs unless
# STUDY_RUNS is given), one guest, into build/study-quick.md and
# build/study-quick/, never docs/study.md.
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
			--timeout 7200 -- env $(STUDY_ENV) STUDY_QUEUES=$$q eval/study.sh & pids="$$pids $$!"; \
		done; rc=0; for p in $$pids; do wait $$p || rc=1; done; [ $$rc -eq 0 ] && \
		./eval/study-merge.sh $(STUDY_DATA) $$(($$(date +%s) - s)) $(STUDY_PARTS)
	$(call msg,REPORT,$(STUDY_MD) $(STUDY_PLOTS))
	$(Q)./eval/study-report.sh $(STUDY_DATA) $(STUDY_MD) $(STUDY_PLOTS) $(STUDY_ICOUNT)

