# Pinned guest kernel and BPF userspace: every guest is built from exactly
# these Debian bookworm-backports packages, fetched from the mirror that the
# machine's own apt sources already use.
KVER		:= 6.12.95+deb12-cloud-amd64
KPKG_VER	:= 6.12.95-1~bpo12+1
BPFTOOL_VER	:= 7.5.0+6.12.95-1~bpo12+1
LIBBPF_VER	:= 1:1.4.6-1~bpo12+1
