# SPDX-License-Identifier: GPL-2.0
#
# The BPF side: vmlinux.h, every BPF object (clang -target bpf, with
# BPF_CFLAGS only: the host's CFLAGS, CPPFLAGS and hardening never reach
# them) and the skeletons the user-space tools include.

# -ffile-prefix-map: the build's folder is "." in what the objects carry
# (DWARF, BTF's line info) and so in the ccctl that embeds them: no build
# path in what is shipped (tests/unit/test_hardening.sh checks).
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		   -ffile-prefix-map=$(CURDIR)=. \
		   -I$(dir $(VMLINUX_H)) -I$(LIBBPF_INC) -Ibpf

# The objects ccctl holds come from one source, each with the flags of its
# row of the table (bpf/algos.h: ALGO_SHIPPED, ALGO_CFLAGS_O): the fixed
# algorithm (the seed), the 2.6.11 undo it replaced (kept only to reproduce
# the bug side by side) and the complete undo (bpf_bic_restore: BIC's whole
# state back), each in two forms.  bic.bpf.o is registered through a
# struct_ops link (6.4+); nolink/bic.bpf.o is the pre-6.4 form, registered
# by writing the map itself, the only form bpftool can register on 6.1
# (same object name, so its maps are named alike).  ccctl takes either on
# any kernel.  They do not trace unless ccctl register --trace turns it
# on; trace/ holds the same objects with tracing on from the start, for
# bpftool, which cannot.
BIC_OBJS	:= $(addsuffix .bpf.o,$(ALGO_SHIPPED))
BPF_OBJS	:= $(addprefix $(BUILD)/bpf/,$(BIC_OBJS))
BPF_NOLINK_OBJS	:= $(addprefix $(BUILD)/bpf/nolink/,$(BIC_OBJS))
BPF_TRACE_OBJS	:= $(addprefix $(BUILD)/bpf/trace/,$(BIC_OBJS)) \
		   $(addprefix $(BUILD)/bpf/trace/nolink/,$(BIC_OBJS))
# What the guest gets beside those, in build/bpf/test (/opt/bic/bpf/test),
# never shipped: the tests' objects (badname.bpf.o and tests/bpf's) and
# make bench's (eval/bpf).
BPF_TEST_OBJS	:= $(BUILD)/bpf/test/badname.bpf.o \
		   $(patsubst tests/bpf/%.c,$(BUILD)/bpf/test/%.o,$(wildcard tests/bpf/*.bpf.c))
BPF_BENCH_OBJS	:= $(BUILD)/bpf/test/reno_acked.bpf.o $(BUILD)/bpf/test/bic_1e.bpf.o
SKELS		:= $(patsubst %,$(BUILD)/bpf/%.skel.h,$(ALGO_SHIPPED)) \
		   $(BUILD)/bpf/migrate.skel.h \
		   $(BUILD)/bpf/assign.skel.h $(BUILD)/bpf/algo_skels.h

# What make install ships (and the guest gets): every form of bic.bpf.c,
# under the same subfolders (nolink/, trace/, trace/nolink/) as here.
BPF_SHIPPED	:= $(BPF_OBJS) $(BPF_NOLINK_OBJS) $(BPF_TRACE_OBJS)

# One vmlinux.h, from the primary kernel's BTF: the objects are CO-RE.
# SYSTEM_BPF=1 takes linux-bpf-dev's instead and makes none.
ifneq ($(SYSTEM_BPF),1)
$(VMLINUX_H): $(call vmlinuz,$(KPRIMARY)) $(BPFTOOL) vmlinux-gen/gen.sh
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && ./vmlinux-gen/gen.sh $(call vmlinuz,$(KPRIMARY)) $(BPFTOOL) $@
endif

BPF_DEPS := $(VMLINUX_H) $(BPFTOOL) $(wildcard bpf/*.h)

# Each form is bic.bpf.c built with the flags of its object's row and
# those its path names.
bic_flags = $(ALGO_CFLAGS_$(basename $(basename $(notdir $@)))) \
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

# The tests' own objects (t_83, t_84): one file each, built as they are.
# make bench registers reno.bpf.o too (Reno through BPF, to price an entry).
$(BUILD)/bpf/test/%.bpf.o: tests/bpf/%.bpf.c $(BPF_DEPS) $(wildcard tests/bpf/*.h)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

# For make bench only (eval/bpf): BIC entering BPF once per ACK instead of
# twice (not exact, which the bench shows), bic.bpf.c included whole with a
# cong_avoid and an ops table of its own, and Reno through BPF with a second
# entry per ACK, from the tests' reno_ops.h.
$(BUILD)/bpf/test/bic_1e.bpf.o: eval/bpf/bic_1e.bpf.c bpf/bic.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/test/reno_acked.bpf.o: eval/bpf/reno_acked.bpf.c $(BPF_DEPS) tests/bpf/reno_ops.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -Itests/bpf -c $< -o $@

$(BUILD)/bpf/migrate.bpf.o $(BUILD)/bpf/assign.bpf.o: $(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

# For make bench only (eval/bpf): tcp_ack()'s time per call, the skeleton
# of eval/tools/ackcost.
$(BUILD)/bpf/ackcost.bpf.o: eval/bpf/ackcost.bpf.c $(BPF_DEPS)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

# bpftool 7.5 emits a skeleton for libbpf 1.5, which also records the
# struct_ops link per map; libbpf 1.4 has no such field and the loader
# attaches struct_ops itself, so that one line is dropped.
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* | sed '/map->link = /d' > $@

# One header for the skeletons of the objects ccctl holds (loader/object.c).
$(BUILD)/bpf/algo_skels.h: $(BUILD)/algos.mk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && printf '#include "%s.skel.h"\n' $(ALGO_SHIPPED) > $@

# The kernel selftests' own congestion controls (t_83 registers them with
# ccctl): bpf_dctcp.c (two tcp_congestion_ops, bpf_dctcp_nouse first) and
# bpf_cubic.c from tools/testing/selftests/bpf of Debian's linux-source of
# kernel K (unpacked with the files make kpatch needs, mk/kernels.mk),
# built here against K's own vmlinux.h and shipped in K's guest
# tree only (/opt/bic/bpf/selftests); their code is never committed.  Only
# 6.12 and 7.3: 6.1's are written for its bpf_tcp_helpers.h, not vmlinux.h.
SELFTEST_KERNELS := 6.12 7.3
SELFTEST_CCS	:= bpf_dctcp bpf_cubic
SELFTEST_DIR	:= tools/testing/selftests/bpf
# As the selftests' own Makefile does: the host's system headers last (7.3's
# bpf_cubic.c includes <errno.h>), and no warning for what vmlinux.h of a
# newer kernel declares that this clang reads as nothing.
SELFTEST_CFLAGS	= -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wno-missing-declarations \
		  $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
		  sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
selftest_objs	= $(if $(filter $(1),$(SELFTEST_KERNELS)),\
		  $(foreach c,$(SELFTEST_CCS),$(call kdir,$(1))/selftests/$(c).bpf.o))

define selftest_rules
$(call kdir,$(1))/selftests/vmlinux.h: $(call vmlinuz,$(1)) $(BPFTOOL) vmlinux-gen/gen.sh
	$$(call msg,GEN,$$@)
	$(Q)mkdir -p $$(@D) && ./vmlinux-gen/gen.sh $(call vmlinuz,$(1)) $(BPFTOOL) $$@

$(call kdir,$(1))/selftests/%.bpf.o: $(call kdir,$(1))/ksrc/.done \
		$(call kdir,$(1))/selftests/vmlinux.h
	$$(call msg,BPF,$$@ ($(KSRC_$(1))))
	$(Q)$(CLANG) $(SELFTEST_CFLAGS) -I$(call kdir,$(1))/selftests \
		-I$(TOOLS)/usr/include -I$(call kdir,$(1))/ksrc/$(SELFTEST_DIR) \
		-c $(call kdir,$(1))/ksrc/$(SELFTEST_DIR)/progs/$$*.c -o $$@
endef

$(foreach k,$(SELFTEST_KERNELS),$(eval $(call selftest_rules,$(k))))
