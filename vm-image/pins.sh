#!/bin/bash
# The pins of vm-image/versions.mk, checked against the mirror, which drops
# a package once a newer one of its suite supersedes it.  A pin still there
# is kept; a pin gone is replaced by the newest package of its series, with
# one line on stderr saying so, and the replacement written as make
# variables (on stdout) that override the pin: build/pins.mk.
#
# A pin's series: its version with the last number of the upstream version
# and the Debian revision free (6.12.95-1~bpo12+1: 6.12.N-N~bpo12+N, so a
# bookworm-backports 6.12 stays one); a kernel's package names carry its
# ABI (linux-image-6.1.0-50-cloud-amd64, linux-image-6.12.95+deb12-...), so
# for a kernel the last number of that is free too, and everything named
# after it (the image's parts, headers, kbuild) follows the new name.
#
# usage: pins.sh BUILD SUITES EPERM_LEAK_FIXED SPEC...
#   kernel/ID/KVER/KPKG/KIMG,.../KHDR,.../KSRC	a guest kernel (KVER_ID,
#		KPKG_ID, KIMG_ID, KHDR_ID and EPERM_LEAK_ID if replaced)
#   system/ID/KVER/KPKG/KIMG,...		a Debian system's kernel (DKPKG_ID,
#		DKIMG_ID)
#   tool/VAR/PKG/VERSION			a package of the host's tools (VAR)
# Every replacement also adds "ID=VERSION" to PINS_REPLACED.
set -euo pipefail

die() { echo "pins: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: pins.sh BUILD SUITES EPERM_LEAK_FIXED SPEC..."
build=$(realpath -m "$1") suites=$2 fixed=$3
shift 3

# shellcheck source=apt-private.sh
. "$(dirname "$0")/apt-private.sh"
apt_private "$build/apt" "$suites" || die "no mirror for $suites"
# the state fetch-debs.sh downloads through: one apt run on it at a time
exec 9> "$build/apt/lock"
flock 9
apt_update "$build/apt" || die "apt-get update of $suites failed"

# ere STRING: STRING as an extended regex (package names and versions
# have no other character special to one)
ere() { sed -E 's/[.+]/\\&/g' <<< "$1"; }

# series_re VERSION: an extended regex of the versions of its series
series_re() {
	local up=${1%-*} rev=${1##*-}
	up=$(ere "$up" | sed -E 's/[0-9]+$/[0-9]+/')
	rev=$(ere "$rev" | sed -E 's/^[0-9]+/[0-9]+/; s/\\\+[0-9]+$/\\+[0-9]+/')
	echo "^$up-$rev\$"
}

# abi_re ABI: an extended regex of the kernel ABIs of its series (the ABI:
# the release without its flavour, 6.1.0-50 or 6.12.95+deb12)
abi_re() {
	ere "$1" | sed -E 's/[0-9]+((\\\+deb[0-9]+)?)$/[0-9]+\1/'
}

# newest NAME_RE VERSION_RE PREFIX: "NAME VERSION", the newest version
# matching VERSION_RE of the packages whose name (starting with PREFIX)
# matches NAME_RE; nothing if none
newest() {
	local name_re=$1 ver_re=$2 name ver best="" best_ver=""
	local -a names
	mapfile -t names < <(apt-cache "${apt_opts[@]}" pkgnames "$3" | grep -E "^$name_re\$")
	[ ${#names[@]} -gt 0 ] || return 0
	while read -r name ver; do
		grep -Eq "$ver_re" <<< "$ver" || continue
		if [ -z "$best_ver" ] || ! ge "$best_ver" "$ver"; then
			best=$name best_ver=$ver
		fi
	done < <(apt-cache "${apt_opts[@]}" madison "${names[@]}" | awk -F' *[|] *' '{ sub(/^ */, "", $1); print $1, $2 }')
	[ -z "$best" ] || echo "$best $best_ver"
}

# have PKG=VERSION...: whether the mirror has every one (apt-cache show
# says nothing of a version it lacks when it finds another)
have() {
	[ -z "$(comm -23 <(printf '%s\n' "$@" | sort -u) \
		<(apt-cache "${apt_opts[@]}" show "$@" 2> /dev/null |
		  awk '/^Package:/ { p = $2 } /^Version:/ { print p "=" $2 }' | sort -u))" ]
}

# all_on VERSION PKG...: whether the mirror has every PKG at VERSION
all_on() {
	local ver=$1
	shift
	have "${@/%/=$ver}"
}

# kernel KIND ID KVER KPKG KIMGS [KHDRS KSRC]
kernel() {
	local kind=$1 id=$2 kver=$3 kpkg=$4 abi new abi_new kpkg_new p
	local -a kimg khdr=() kimg_new=() khdr_new=()
	IFS=, read -r -a kimg <<< "$5"
	[ -z "${6:-}" ] || IFS=, read -r -a khdr <<< "$6"
	all_on "$kpkg" "${kimg[@]}" "${khdr[@]}" ${7:+"$7"} && return
	abi=${kver%-cloud-amd64}
	local prefix=${kimg[0]%%"$abi"*} suffix=${kimg[0]#*"$abi"}
	new=$(newest "$(ere "$prefix")$(abi_re "$abi")$(ere "$suffix")" \
		"$(series_re "$kpkg")" "$prefix")
	[ -n "$new" ] || die "$id: ${kimg[0]} $kpkg is gone from the mirror, and no kernel of its series is there"
	kpkg_new=${new#* } abi_new=${new%% *}
	abi_new=${abi_new#"$prefix"} abi_new=${abi_new%"$suffix"}
	for p in "${kimg[@]}"; do kimg_new+=("${p/"$abi"/"$abi_new"}"); done
	for p in "${khdr[@]}"; do khdr_new+=("${p/"$abi"/"$abi_new"}"); done
	all_on "$kpkg_new" "${kimg_new[@]}" "${khdr_new[@]}" ${7:+"$7"} ||
		die "$id: ${kimg[0]} $kpkg is gone from the mirror, and $kpkg_new, the newest of its series, lacks some of ${kimg_new[*]} ${khdr_new[*]} ${7:-}"
	echo "pins: $id: ${kimg[0]} $kpkg is gone from the mirror; taking ${kimg_new[0]} $kpkg_new, the newest of its series" >&2
	echo "# $id: ${kimg[0]} $kpkg is gone from the mirror"
	if [ "$kind" = kernel ]; then
		echo "KVER_$id	:= ${kver/"$abi"/"$abi_new"}"
		echo "KPKG_$id	:= $kpkg_new"
		echo "KIMG_$id	:= ${kimg_new[*]}"
		echo "KHDR_$id	:= ${khdr_new[*]}"
		if leaks "${kpkg_new%%-*}" "$fixed"; then echo "EPERM_LEAK_$id	:= yes"
		else echo "EPERM_LEAK_$id	:= no"; fi
	else
		echo "DKPKG_$id	:= $kpkg_new"
		echo "DKIMG_$id	:= ${kimg_new[*]}"
	fi
	echo "PINS_REPLACED	+= $id=$kpkg_new"
}

# tool VAR PKG VERSION
tool() {
	local var=$1 pkg=$2 ver=$3 new
	all_on "$ver" "$pkg" && return
	new=$(newest "$(ere "$pkg")" "$(series_re "$ver")" "$pkg")
	[ -n "$new" ] || die "$pkg $ver is gone from the mirror, and no $pkg of its series is there"
	echo "pins: $pkg $ver is gone from the mirror; taking ${new#* }, the newest of its series" >&2
	echo "# $pkg $ver is gone from the mirror"
	echo "$var	:= ${new#* }"
	echo "PINS_REPLACED	+= $pkg=${new#* }"
}

echo "# Written by vm-image/pins.sh: the pins of versions.mk gone from the mirror, replaced."
specs=() pairs=()
for spec in "$@"; do
	IFS=/ read -r -a f <<< "$spec"
	case ${f[0]}/${#f[@]} in
	kernel/7) IFS=, read -r -a p <<< "${f[4]},${f[5]},${f[6]}" ;;
	system/5) IFS=, read -r -a p <<< "${f[4]}" ;;
	tool/4) pairs+=("${f[2]}=${f[3]}"); specs+=("$spec"); continue ;;
	*) die "bad spec '$spec'" ;;
	esac
	pairs+=("${p[@]/%/=${f[3]}}")
	specs+=("$spec")
done
# all there (the usual case): one look
! have "${pairs[@]}" || exit 0
for spec in "${specs[@]}"; do
	IFS=/ read -r -a f <<< "$spec"
	case ${f[0]} in
	kernel|system) kernel "${f[@]}" ;;
	tool) tool "${f[@]:1}" ;;
	esac
done
