# Pinned guest kernels and BPF userspace, all Debian packages fetched from
# the mirror that the machine's own apt sources already use.
#
# KERNELS lists every guest kernel the suite runs on; the first is the
# primary one: vmlinux.h comes from its BTF (one header for all, CO-RE
# carries the objects to the others) and make demo, plots and bench use it.
# Narrow a run with e.g. `make test KERNELS=6.1`.
KERNELS_ALL	:= 6.12 6.1 7.3
KERNEL_PRIMARY	:= 6.12

# Suites the private apt configuration reads (trixie: make debian-test's
# trixie kernel).
DEB_SUITES	:= bookworm bookworm-backports trixie trixie-backports

# Per kernel: its release (uname -r), the Debian package version, the
# packages holding the image, modules and config, and those holding the
# headers an out-of-tree module is built against.
KVER_6.12	:= 6.12.95+deb12-cloud-amd64
KPKG_6.12	:= 6.12.95-1~bpo12+1
KIMG_6.12	:= linux-image-6.12.95+deb12-cloud-amd64
KHDR_6.12	:= linux-headers-6.12.95+deb12-cloud-amd64 linux-headers-6.12.95+deb12-common \
		   linux-kbuild-6.12.95+deb12

# bookworm's own kernel, what Debian stable runs: no struct_ops links (6.4).
KVER_6.1	:= 6.1.0-50-cloud-amd64
KPKG_6.1	:= 6.1.176-1
KIMG_6.1	:= linux-image-6.1.0-50-cloud-amd64
KHDR_6.1	:= linux-headers-6.1.0-50-cloud-amd64 linux-headers-6.1.0-50-common \
		   linux-kbuild-6.1

# trixie-backports splits the image: vmlinuz, modules and config (base).
KVER_7.3	:= 7.3.4+deb13-cloud-amd64
KPKG_7.3	:= 7.3.4-1~bpo13+1
KIMG_7.3	:= linux-binary-7.3.4+deb13-cloud-amd64 linux-modules-7.3.4+deb13-cloud-amd64 \
		   linux-base-7.3.4+deb13-cloud-amd64
KHDR_7.3	:= linux-headers-7.3.4+deb13-cloud-amd64 linux-headers-7.3.4+deb13-common \
		   linux-kbuild-7.3.4+deb13

# Debian's kernel source of each kernel, for the patch series (patches/),
# at the kernel's own version.
KSRC_6.12	:= linux-source-6.12
KSRC_6.1	:= linux-source-6.1
KSRC_7.3	:= linux-source-7.3

# The Debian systems make debian-test boots from disk (mk/package.mk), each
# a root of its suite made by debootstrap with its own kernel installed by
# dpkg: bookworm with the primary kernel (bookworm-backports), bookworm with
# its own 6.1, trixie with its own 6.12.  DEBIAN_SYSTEMS (Makefile) narrows
# a run; make test runs DEBIAN_SYSTEM_TEST, .ci/run the others after it
# (make debian-test-others).  Per system: the suite, the kernel's packages
# and their version (the first two the guest kernels' own, taken as they
# are set: a pin the mirror dropped, replaced in build/pins.mk, with them).
DEBIAN_SYSTEMS_ALL := bookworm-6.12 bookworm-6.1 trixie-6.12
DEBIAN_SYSTEM_TEST := bookworm-6.12
DSUITE_bookworm-6.12 := bookworm
DKIMG_bookworm-6.12 = $(KIMG_6.12)
DKPKG_bookworm-6.12 = $(KPKG_6.12)
DSUITE_bookworm-6.1 := bookworm
DKIMG_bookworm-6.1 = $(KIMG_6.1)
DKPKG_bookworm-6.1 = $(KPKG_6.1)
# trixie's kernel as its release has it (trixie-security has newer ones:
# make test-latest runs the newest).
DSUITE_trixie-6.12 := trixie
DKIMG_trixie-6.12 := linux-image-6.12.117+deb13-cloud-amd64
DKPKG_trixie-6.12 := 6.12.117-1

BPFTOOL_VER	:= 7.5.0+6.12.95-1~bpo12+1
LIBBPF_VER	:= 1:1.4.6-1~bpo12+1

# vCPUs of each kernel's guest in make test: two on the primary kernel, so
# that swap, migrate, the soak, the model test and the drills run with a
# second CPU (ccctl and the kernel's work queues on one while flows and
# softirqs run on the other, the BPF programs on both); one on the others.
# Under -icount QEMU runs the two in turn in one host thread (round-robin
# TCG, a turn ending at the next timer): the same host time as one vCPU,
# and interleavings of milliseconds, not of instructions.
GUEST_CPUS_6.12	:= 2
GUEST_CPUS_6.1	:= 1
GUEST_CPUS_7.3	:= 1

# The real-time lane of make test: what swaps or migrates under flows, run
# once more on this kernel without -icount, in real time as users run it
# (under -icount shift=3 the guest is a CPU of 125 million instructions a
# second, too slow for t_51's hundred migrated streams: its header).
REALTIME_KERNEL	:= 7.3
REALTIME_TESTS	:= t_50_ccctl_swap.sh t_51_migrate_many.sh t_57_soak.sh

# Rounds of swap-and-migrate under flows (t_50_ccctl_swap): most on the
# primary kernel; on the others fewer prove the same path (t_57 churns swaps
# and migrations under flows there too) and keep make test,
# three guests on two cores, within its time (6.1 and 7.3 share a slot).
# 60 on the primary (100 until the namespace, route, object and IPv6
# tests took that time); make soak churns for longer.
SWAP_ROUNDS_6.12 := 60
SWAP_ROUNDS_6.1	:= 10
SWAP_ROUNDS_7.3	:= 10

# References t_60_differential runs beside bpf_bic on a netem path: the
# kernel's own bic only on the primary kernel (t_70 proves it equal to
# bpf_bic ACK by ACK on all), to keep the slot of two guests short.
T60_REFS_6.12	:= bic_ref bic
T60_REFS_6.1	:= bic_ref
T60_REFS_7.3	:= bic_ref

# Bytes t_52_ccctl_bytes puts in an algorithm name: all 255 on the primary
# kernel, a byte of each class on the others.  What ccctl refuses is
# decided before it asks the kernel anything, so the full sweep proves the
# same on every kernel; a command costs ~0.1 s in a TCG guest.
NAME_BYTES_6.12	:= all
NAME_BYTES_6.1	:= classes
NAME_BYTES_7.3	:= classes

# Seconds of random ccctl operations t_58_ccctl_model checks against its
# model: longest on the primary kernel (with the self-test of its shrinker,
# which is the same on every kernel), shorter where two guests share a slot
# of make test (make model runs thousands of operations on each kernel).
MODEL_SECS_6.12	:= 60
MODEL_SECS_6.1	:= 10
MODEL_SECS_7.3	:= 10

# Seconds of churn under flows in t_57_soak: longest on the primary
# kernel; shorter on the two that share a slot of make test, which has
# almost no time to spare (make soak: SOAK_SECS in the Makefile).
SOAK_SECS_6.12	:= 60
SOAK_SECS_6.1	:= 20
SOAK_SECS_7.3	:= 20

# Known kernel bug: a namespace other than the initial one that asks for a
# restricted default gets EPERM, but the kernel keeps the reference it took
# (fixed upstream by checking before taking it; 6.12.117 and 7.3 have that).
# t_80_netns_default checks each kernel against this.
EPERM_LEAK_6.12	:= yes
EPERM_LEAK_6.1	:= yes
EPERM_LEAK_7.3	:= no
# Where the fix is: from 6.12.117 in 6.12, in every series from 7.0 (the
# latest lane's expectation, vm-image/latest.sh; older series: the leak).
EPERM_LEAK_FIXED := 6.12.117 7.0

# Kernels whose modules are built in a Debian root of another suite
# (vm-image/mkroot.sh), because the host cannot run their kbuild: 7.3's
# modpost and objtool need glibc 2.38 (bookworm has 2.36) and its config
# names gcc 14 (-fmin-function-alignment=16; bookworm's gcc 12 rejects it).
# kmod-in-root.sh checks that the root's compiler is exactly the kernel's.
KBUILD_ROOT_7.3	:= trixie
KBUILD_ROOT_PKGS_trixie := gcc-14 make libc6-dev libelf1t64

# The latest lane (make test-latest, KERNELS=latest): the newest cloud
# kernel of bookworm(-security), trixie(-security) and trixie-backports,
# resolved from the mirror by vm-image/latest.sh into build/latest.mk
# (their KVER_, KPKG_, KIMG_, KHDR_, KSRC_, EPERM_LEAK_, KBUILD_ROOT_).
# Their suites, and what their guests take: what the pins other than the
# primary take.
LATEST_KERNELS	:= latest-bookworm latest-trixie latest-trixie-bpo
LATEST_SUITES	:= bookworm-security trixie trixie-security
$(foreach k,$(LATEST_KERNELS),$(foreach v,GUEST_CPUS SWAP_ROUNDS T60_REFS NAME_BYTES MODEL_SECS SOAK_SECS,\
	$(eval $(v)_$(k) := $$($(v)_7.3))))
