#!/bin/bash
# The kernels users really have: the newest cloud kernel Debian ships today
# in each suite Debian servers run, resolved from the mirror (never
# pinned), written as make variables for the suite's kernel rules
# (vm-image/versions.mk names the variables; mk/kernels.mk uses them):
#   latest-bookworm	bookworm with its security updates (6.1)
#   latest-trixie	trixie with its security updates (6.12)
#   latest-trixie-bpo	trixie-backports (what the 7.3 pin came from)
# Each lane's suites get an apt state of their own under BUILD/apt-latest
# (the pinned fetches' state is left alone); its newest
# linux-image-cloud-amd64 names the image, and the image's version picks
# the headers, kbuild and linux-source of the same build.
#
# usage: latest.sh BUILD "EPERM_LEAK_FIXED" > latest.mk
#   EPERM_LEAK_FIXED	the first version of each series that has the fix
#			of the refused-namespace-default leak, and a version
#			from which every series has it (versions.mk)
set -euo pipefail

die() { echo "latest: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: latest.sh BUILD \"EPERM_LEAK_FIXED\""
build=$(realpath -m "$1") fixed=$2
here=$(dirname "$0")
# shellcheck source=apt-private.sh
. "$here/apt-private.sh"
mirror=$("$here/mirror.sh")
security=$("$here/mirror.sh" security)

# resolve LANE SUITE...: the lane's make variables, on stdout.
resolve() {
	local lane=$1 s meta img kver kpkg up series
	local -a opts kimg=() khdr=()
	shift
	apt_private "$build/apt-latest/$lane" "$*" || die "no mirror for $*"
	opts=("${apt_opts[@]}")
	apt_update "$build/apt-latest/$lane" || die "apt-get update of $* failed"

	# candidate PKG: the version apt would install
	candidate() {
		apt-cache "${opts[@]}" policy "$1" | awk '/Candidate:/ { print $2 }'
	}
	# deps PKG VERSION: what that version depends on, one name a line
	deps() {
		apt-cache "${opts[@]}" depends "$1=$2" | awk '/^ *Depends:/ { print $2 }'
	}
	meta=$(candidate linux-image-cloud-amd64)
	if [ -z "$meta" ] || [ "$meta" = "(none)" ]; then die "no linux-image-cloud-amd64 in $*"; fi
	img=$(deps linux-image-cloud-amd64 "$meta" | grep -m1 '^linux-image-') ||
		die "linux-image-cloud-amd64 $meta in $* depends on no linux-image"
	kver=${img#linux-image-}
	kpkg=$(candidate "$img")
	if [ -z "$kpkg" ] || [ "$kpkg" = "(none)" ]; then die "no $img in $*"; fi
	# The image, and what it splits into (7.x: linux-binary, -modules, -base)
	kimg=("$img")
	while read -r s; do
		[[ $s == linux-*-"$kver" ]] && kimg+=("$s")
	done < <(deps "$img" "$kpkg")
	khdr=("linux-headers-$kver")
	while read -r s; do
		[[ $s == linux-headers-* || $s == linux-kbuild-* ]] && khdr+=("$s")
	done < <(deps "linux-headers-$kver" "$kpkg")
	[ "${#khdr[@]}" -gt 1 ] || die "linux-headers-$kver $kpkg in $* depends on no common headers"
	up=${kpkg%%-*}
	series=$(echo "$up" | cut -d. -f1-2)
	[ "$(candidate "linux-source-$series")" = "$kpkg" ] ||
		die "linux-source-$series $kpkg is not in $*"

	echo "# $lane: the newest cloud kernel of $*"
	echo "KVER_$lane	:= $kver"
	echo "KPKG_$lane	:= $kpkg"
	echo "KIMG_$lane	:= ${kimg[*]}"
	echo "KHDR_$lane	:= ${khdr[*]}"
	echo "KSRC_$lane	:= linux-source-$series"
	if leaks "$up" "$fixed"; then echo "EPERM_LEAK_$lane	:= yes"; else echo "EPERM_LEAK_$lane	:= no"; fi
	# kbuild of a trixie kernel needs trixie's glibc and gcc 14
	[[ $lane == *trixie* ]] && echo "KBUILD_ROOT_$lane	:= trixie"
	echo
}

echo "# Written by vm-image/latest.sh on $(date -u +%F), from $mirror and $security."
resolve latest-bookworm bookworm bookworm-security
resolve latest-trixie trixie trixie-security
resolve latest-trixie-bpo trixie-backports
