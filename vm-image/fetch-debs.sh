#!/bin/bash
# Download pinned packages into a private apt tree (apt-private.sh), so the
# machine's own apt configuration and package state are left untouched.  It
# reads SUITES (space-separated, e.g. "bookworm trixie-backports"); the
# pinned version picks the suite.  A pin gone from the mirror is replaced
# before this runs (pins.sh).
#
# usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION...
set -euo pipefail

die() { echo "fetch-debs: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: fetch-debs.sh OUTDIR SUITES PKG=VERSION..."
out=$(realpath -m "$1") suites=$2
shift 2

# shellcheck source=apt-private.sh
. "$(dirname "$0")/apt-private.sh"
apt_dir="$out/apt"
apt_private "$apt_dir" "$suites" || die "no mirror for $suites"
mkdir -p "$out/debs"

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
apt_update "$apt_dir" || die "apt-get update of $suites failed"
cd "$out/debs"
apt-get -qq "${apt_opts[@]}" download "${missing[@]}" ||
	die "could not download ${missing[*]} (pinned version gone from the mirror?)"
