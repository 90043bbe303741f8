#!/bin/bash
# Download pinned packages into a private apt tree, so the machine's own apt
# configuration and package state are left untouched.  The private sources
# name SUITES (space-separated, e.g. "bookworm trixie-backports") on the
# mirror of the host's own bookworm sources (the -security ones on its
# security mirror); the pinned version picks the suite.
#
# usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION...
set -euo pipefail

die() { echo "fetch-debs: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION..."
out=$(realpath -m "$1") suites=$2
shift 2

mirror=$("$(dirname "$0")/mirror.sh")
security=""

apt_dir="$out/apt"
mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$out/debs"
for s in $suites; do
	case $s in
	*-security)
		[ -n "$security" ] || security=$("$(dirname "$0")/mirror.sh" security)
		echo "deb $security $s main" ;;
	*) echo "deb $mirror $s main" ;;
	esac
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

# one apt run at a time on the private state (make -j fetches kernels and
# tools side by side)
exec 9> "$apt_dir/lock"
flock 9
apt-get -qq "${apt_opts[@]}" update || die "apt-get update of $suites failed"
cd "$out/debs"
apt-get -qq "${apt_opts[@]}" download "${missing[@]}" ||
	die "could not download ${missing[*]} (pinned version gone from the mirror?)"
