#!/bin/bash
# Two make deb in two folders give the same package, byte for byte: the
# tree is built again as if checked out elsewhere (in a mount namespace of
# its own, the tree bind-mounted at another path, a fresh build/ over its
# build/), everything the package holds compiled again there (the BPF
# objects, their skeletons, ccctl and bictrace with dpkg-buildflags), with
# only the downloads shared (the pinned packages, the kernels, vmlinux.h).
# What differs is named member by member.  Needs root (unshare -m); the
# host's own mounts are left alone.  make runs from inside the second
# folder, not with -C: run as make -C, dpkg-buildpackage ran in the
# first folder's build/deb (seen; not looked into).
#
# usage: test_deb_repro.sh DEB	(from the top of the tree; DEB: make deb's)
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

deb=$(realpath "$1") top=$(pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

# The second folder: a path of another length, a build/ of its own whose
# downloads are the first's (their stamps newer than the tree, so nothing
# is fetched again).
build2=$tmp/build elsewhere=/tmp/bpf-bic-repro-elsewhere
mkdir -p "$build2" "$elsewhere"
for d in debs tools k vmlinux-gen apt; do ln -s "$top/build/$d" "$build2/$d"; done
cp -p "$top"/build/pins.mk "$top"/build/.host-deps* "$build2/"
check "make deb in $elsewhere" unshare -m --propagation private sh -c \
	"mount --bind '$top' '$elsewhere' && mount --bind '$build2' '$elsewhere/build' &&
	 cd '$elsewhere' && make -s deb > '$tmp/make.log' 2>&1" || tail -n 20 "$tmp/make.log"
deb2=$build2/deb/$(basename "$deb")
check "... made $(basename "$deb")" test -s "$deb2"
check "... the same package, byte for byte" cmp -s "$deb" "$deb2"

# Named: the members that differ (data, control), when it is not.
if [ -s "$deb2" ] && ! cmp -s "$deb" "$deb2"; then
	n=0
	for d in "$deb" "$deb2"; do
		mkdir -p "$tmp/x$((++n))"
		dpkg-deb -R "$d" "$tmp/x$n"
	done
	diff -rq "$tmp/x1" "$tmp/x2" | sed 's/^/# /'
fi
rmdir "$elsewhere" 2>/dev/null
summary
