#!/bin/bash
# Download pinned packages into a private apt tree, so the machine's own apt
# configuration and package state are left untouched.  The private sources
# name SUITES (space-separated, e.g. "bookworm trixie-backports") on the
# mirror of the host's own bookworm sources; the pinned version picks the
# suite.
#
# usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION...
set -euo pipefail

die() { echo "fetch-debs: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION..."
out=$(realpath -m "$1") suites=$2
shift 2

# The Debian mirror of the host's own sources, whichever format they use.
mirror_uri() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk '/^URIs:/ { uri = $2 } /^Suites:.*bookworm/ && uri ~ /debian\/?$/ { print uri; exit }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		awk '$1 == "deb" && $3 ~ /^bookworm/ && $2 ~ /debian\/?$/ { print $2; exit }' "$f"
	done
}

mirror=$(mirror_uri | head -n 1)
[ -n "$mirror" ] || die "no Debian bookworm mirror in /etc/apt sources"

apt_dir="$out/apt"
mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$out/debs"
for s in $suites; do
	echo "deb $mirror $s main"
done > "$apt_dir/sources.list"

apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
	  -o "Dir::State=$apt_dir/state" -o "Dir::Cache=$apt_dir/cache"
	  -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")

missing=()
for spec in "$@"; do
	name=${spec%%=*}
	ver=${spec#*=}
	# apt writes ':' in epochs as '%3a' in file names
	compgen -G "$out/debs/${name}_*${ver#*:}_*.deb" >/dev/null || missing+=("$spec")
done
[ ${#missing[@]} -gt 0 ] || exit 0

apt-get -qq "${apt_opts[@]}" update || die "apt-get update of $suites failed"
cd "$out/debs"
apt-get -qq "${apt_opts[@]}" download "${missing[@]}" ||
	die "could not download ${missing[*]} (pinned version gone from the mirror?)"
