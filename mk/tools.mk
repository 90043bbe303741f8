# SPDX-License-Identifier: GPL-2.0
#
# The project's user-space C: the loader (ccctl, bictrace), the drill
# (ackdrill in the guest, its model on the host), the tools the guest
# tests use (tests/tools) and those only the evaluation uses (eval/tools),
# and the host unit tests (tests/unit).
#
# Every compile: the project's include paths, CPPFLAGS, the project's
# warnings (as errors), CFLAGS, and -MMD -MP, which writes the headers an
# output was made from beside it (FOO.d, read back below), so a header
# changed rebuilds what includes it and no more.  Every link: CFLAGS and
# LDFLAGS.  Generated headers (the skeletons) are order-only prerequisites:
# they must exist before the first compile finds that it includes them.

.PHONY: unit-test

WARN_CFLAGS	:= -Wall -Wextra -Werror

# --- the loader: ccctl and bictrace ----------------------------------------
LOADER_CPPFLAGS	:= -I$(LIBBPF_INC) -I$(BUILD)/bpf -Ibpf
LOADER_CFLAGS	:= $(WARN_CFLAGS) -Wno-unused-parameter
LOADER_LIBS	:= $(LIBBPF_A) -lelf -lz
# ccctl: main.c dispatches to one file per command group, over the shared
# parts; ccctl-faults (t_56) is the same objects and faults.o.
LOADER_SHARED	:= common.o json.o btf_util.o names.o
CCCTL_OBJS	:= main.o reg.o list.o migrate.o assign.o default.o feature.o object.o pins.o \
		   registration.o cgroup.o kfeatures.o netns.o nldump.o route.o sockdiag.o sysctl.o \
		   $(LOADER_SHARED)

# $(call loader_rules,DIR): the loader's objects, ccctl, ccctl-faults and
# bictrace, all in DIR (the guest's in $(BUILD)/loader; make deb's in
# $(BUILD)/pkg, with Debian's flags: mk/package.mk).
define loader_rules
$(1)/%.o: loader/%.c $(LIBBPF_A) | $(SKELS)
	$$(call msg,CC,$$@)
	$(Q)mkdir -p $$(@D) && $$(CC) $$(LOADER_CPPFLAGS) $$(CPPFLAGS) $$(LOADER_CFLAGS) $$(CFLAGS) \
		-MMD -MP -c $$< -o $$@

-include $(wildcard $(1)/*.d)

$(1)/ccctl: $(addprefix $(1)/,$(CCCTL_OBJS))
	$$(call msg,LD,$$@)
	$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ $$(LOADER_LIBS) -o $$@

# The test build: CCCTL_FAULT=STEP kills it at that step (t_56).
$(1)/ccctl-faults: $(addprefix $(1)/,$(CCCTL_OBJS) faults.o)
	$$(call msg,LD,$$@)
	$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ $$(LOADER_LIBS) -o $$@

$(1)/bictrace: $(addprefix $(1)/,bictrace.o pins.o registration.o $(LOADER_SHARED))
	$$(call msg,LD,$$@)
	$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ $$(LOADER_LIBS) -o $$@
endef

$(eval $(call loader_rules,$(BUILD)/loader))

# --- the drill ---------------------------------------------------------------
# ackdrill: the scripted TCP peer (guest) and the model of its sender (host)
# share the script parser and the receiver engine.  The model is two
# programs in one binary: the ACK model (model.c) and model -w (wmax.c).
DRILL_OBJS	:= $(BUILD)/drill/engine.o $(BUILD)/drill/script.o

$(BUILD)/drill/%.o: drill/%.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Idrill -Ibpf $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/drill/ackdrill: $(BUILD)/drill/ackdrill.o $(DRILL_OBJS)
$(BUILD)/drill/model: $(BUILD)/drill/model.o $(BUILD)/drill/wmax.o $(DRILL_OBJS)
$(BUILD)/drill/ackdrill $(BUILD)/drill/model:
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@

# The model's rows for every script and every algorithm it predicts (the
# table's, bpf/algos.h), written before any guest runs; the guest compares
# its own rows with them.
DRILL_SCRIPTS	:= $(wildcard drill/scripts/*.ad)
DRILL_ALGOS	:= $(ALGO_MODELLED)
DRILL_EXPECT	:= $(BUILD)/drill/expect/.done

# The list itself, rewritten only when it changes: an algorithm added to
# it gets its rows on the next build.
$(BUILD)/drill/algos: FORCE
	$(Q)mkdir -p $(@D) && echo '$(DRILL_ALGOS)' | cmp -s - $@ || echo '$(DRILL_ALGOS)' > $@

$(DRILL_EXPECT): $(BUILD)/drill/model $(DRILL_SCRIPTS) $(BUILD)/drill/algos
	$(call msg,MODEL,$(@D))
	$(Q)rm -rf $(@D) && mkdir -p $(@D)
	$(Q)for s in $(DRILL_SCRIPTS); do for a in $(DRILL_ALGOS); do \
		$(BUILD)/drill/model -o $(@D)/$$(basename $$s .ad).$$a.csv $$s $$a || exit 1; \
	done; done
	$(Q)touch $@

# drill/wmax: one loss at a large Wmax and the way back, tens of thousands
# of ACKs a run, too many for every kernel and algorithm (t_71 runs them
# on the primary kernel, on DRILL_WMAX_ALGOS); model -w carries the same
# run to windows no guest can (make wmax).
DRILL_WMAX_SCRIPTS := $(wildcard drill/wmax/*.ad)
DRILL_WMAX_ALGOS := bpf_bic bic
DRILL_WMAX_EXPECT := $(BUILD)/drill/wmax-expect/.done

$(BUILD)/drill/wmax-algos: FORCE
	$(Q)mkdir -p $(@D) && echo '$(DRILL_WMAX_ALGOS)' | cmp -s - $@ || echo '$(DRILL_WMAX_ALGOS)' > $@

$(DRILL_WMAX_EXPECT): $(BUILD)/drill/model $(DRILL_WMAX_SCRIPTS) $(BUILD)/drill/wmax-algos
	$(call msg,MODEL,$(@D))
	$(Q)rm -rf $(@D) && mkdir -p $(@D)
	$(Q)for s in $(DRILL_WMAX_SCRIPTS); do for a in $(DRILL_WMAX_ALGOS); do \
		$(BUILD)/drill/model -o $(@D)/$$(basename $$s .ad).$$a.csv $$s $$a || exit 1; \
	done; done
	$(Q)touch $@

# --- tools the guest tests use ---------------------------------------------
# tcphold: idle connections on a chosen algorithm (t_58, and scale.sh);
# nshold: a network namespace held by a thread or a descriptor only (t_81).
# tool.h (failures, addresses) and tcpdiag.h (sock_diag) are shared with
# the evaluation's tools.
$(BUILD)/tests/tcphold $(BUILD)/tests/nshold: $(BUILD)/tests/%: tests/tools/%.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) $(LDFLAGS) -pthread -MMD -MP \
		$< -o $@

# ccobserve: t_58's view of the guest's state, one canonical line (libbpf,
# sock_diag, the sysctls, the pins)
$(BUILD)/tests/ccobserve: tests/tools/ccobserve.c $(LIBBPF_A) | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CPPFLAGS) $(CPPFLAGS) $(LOADER_CFLAGS) $(CFLAGS) $(LDFLAGS) \
		-MMD -MP $< $(LOADER_LIBS) -o $@

# --- tools only the evaluation uses (eval/tools) ------------------------------
# tcpblast: a fixed number of bytes timed in ns, or a flow for a fixed time
# (make bench); linkmon: the design point's samples of the link and the
# sender (make bench); runstat: a command's time, CPU, peak RSS and cgroup
# memory peak (scale.sh)
$(BUILD)/eval/tcpblast $(BUILD)/eval/linkmon $(BUILD)/eval/runstat: \
		$(BUILD)/eval/%: eval/tools/%.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Itests/tools $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) $(LDFLAGS) -pthread \
		-MMD -MP $< -o $@

# ackcost: tcp_ack()'s guest time per call, for make bench's per-ACK cost
$(BUILD)/eval/ackcost: eval/tools/ackcost.c $(LIBBPF_A) | $(BUILD)/bpf/ackcost.skel.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CPPFLAGS) $(CPPFLAGS) $(LOADER_CFLAGS) $(CFLAGS) $(LDFLAGS) \
		-MMD -MP $< $(LOADER_LIBS) -o $@

# --- host unit tests -----------------------------------------------------------
UNIT_TESTS	:= $(BUILD)/tests/test_bic_math $(BUILD)/tests/test_names $(BUILD)/tests/test_json \
		   $(BUILD)/tests/test_common $(BUILD)/tests/test_nldump $(BUILD)/tests/test_ccobserve \
		   tests/unit/test_model.sh

# t_58's generator, model and shrinker (tests/guest/model/) against a stub,
# and ccobserve's reader of ccctl list --json
$(BUILD)/tests/test_ccobserve: tests/unit/test_ccobserve.c tests/tools/ccobserve.c $(LIBBPF_A) \
		| $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LOADER_CPPFLAGS) -Itests/tools $(CPPFLAGS) $(LOADER_CFLAGS) \
		$(CFLAGS) $(LDFLAGS) -MMD -MP $< $(LOADER_LIBS) -o $@

$(BUILD)/tests/test_bic_math: tests/unit/test_bic_math.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Ibpf $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP $< -o $@

# test_names, test_json, test_common and test_nldump: the loader's names.c,
# json.c, common.c and nldump.c, each built on its own, under test.
$(BUILD)/tests/%.o: tests/unit/%.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Iloader $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/%.o: loader/%.c | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Iloader $(CPPFLAGS) $(WARN_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/test_names: $(BUILD)/tests/test_names.o $(BUILD)/tests/names.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@

$(BUILD)/tests/test_json: $(BUILD)/tests/test_json.o $(BUILD)/tests/json.o $(BUILD)/tests/names.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@

# test_common: fail() (loader/common.c), which includes libbpf's header and
# calls it for the error's text, over the same json.o and names.o.
$(BUILD)/tests/common.o: loader/common.c $(LIBBPF_A) | $(STAMP_DEPS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -Iloader -I$(LIBBPF_INC) $(CPPFLAGS) $(LOADER_CFLAGS) $(CFLAGS) \
		-MMD -MP -c $< -o $@

$(BUILD)/tests/test_common: $(BUILD)/tests/test_common.o $(BUILD)/tests/common.o \
		$(BUILD)/tests/json.o $(BUILD)/tests/names.o $(LIBBPF_A)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(filter %.o,$^) $(LOADER_LIBS) -o $@

# test_nldump: nl_dump() (loader/nldump.c) against a kernel the test plays
# itself, its sendto() and recv() wrapped at link time.
$(BUILD)/tests/test_nldump: $(BUILD)/tests/test_nldump.o $(BUILD)/tests/nldump.o \
		$(BUILD)/tests/common.o $(BUILD)/tests/json.o $(BUILD)/tests/names.o $(LIBBPF_A)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=sendto,--wrap=recv $(filter %.o,$^) \
		$(LOADER_LIBS) -o $@

-include $(wildcard $(BUILD)/drill/*.d $(BUILD)/tests/*.d $(BUILD)/eval/*.d)

# Every shell script git tracks through shellcheck (make test runs it as one
# of its host tests, and so does unit-test), shellcheck installed first; not
# in the source package's build (SYSTEM_BPF=1), which has no git checkout
# and no shellcheck among its Build-Depends.
ifneq ($(SYSTEM_BPF),1)
SHELLCHECK_TEST	:= tests/unit/test_shellcheck.sh
STAMP_DEPS_SHELLCHECK := $(BUILD)/.host-deps-shellcheck
# After the build's own packages: two apt-get runs at once would fight over
# dpkg's lock.
$(STAMP_DEPS_SHELLCHECK): vm-image/host-deps.sh | $(STAMP_DEPS)
	$(call msg,DEPS,shellcheck)
	$(Q)$(HOST_DEPS) shellcheck
	$(Q)mkdir -p $(@D) && touch $@
endif

# model -w against the drill model's rows, and the table of algorithms
# against the man pages, bpf-bic.conf and the drill's tests (make test runs
# them as host tests of its own)
unit-test: $(UNIT_TESTS) | $(BUILD)/drill/model $(BUILD)/algos.tsv $(STAMP_DEPS_SHELLCHECK)
	$(Q)for t in $^; do $$t || exit 1; done
	$(Q)tests/unit/test_drill_wmax.sh $(BUILD)/drill/model drill/wmax
	$(Q)tests/unit/test_algos.sh $(BUILD)/algos.tsv
	$(Q)tests/unit/test_design_report.sh
	$(if $(SHELLCHECK_TEST),$(Q)$(SHELLCHECK_TEST))
