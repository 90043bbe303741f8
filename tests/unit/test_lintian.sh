#!/bin/bash
# The package is one Debian would take as far as lintian can tell: no error
# or warning tag that debian/bpf-bic.lintian-overrides does not override,
# and no override left that lintian no longer needs (unused-override or
# mismatched-override, info tags: a stale override would hide the next
# real finding of its tag).  Info tags are printed, not failed.  The
# package also holds its unit under /usr/lib/systemd/system and nothing
# under /lib (merged /usr), and names the libbpf its binaries link
# statically.
#
# With ROOT, the lintian of a Debian root (make lintian: trixie's, in
# build/roots/lintian-trixie), run in a chroot of a mount namespace of its
# own with /proc and the .deb's folder bind-mounted read-only; without,
# the host's (bookworm's, in make test).  Each TAG after ROOT is one whose
# override is for the other lintian only (unknown-field: trixie's knows
# the field that bookworm's warns of), so unused here, and said so.
#
# usage: test_lintian.sh DEB [ROOT [TAG...]]
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

deb=$(realpath "$1") root=${2:+$(realpath "$2")}
shift $(($# < 2 ? $# : 2))
other=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

# run_lintian: lintian's tags on $deb, info included, one a line.
run_lintian() {
	if [ -z "$root" ]; then
		lintian --fail-on none --display-info "$deb"
		return
	fi
	mkdir -p "$root/mnt/deb" || return 2
	# shellcheck disable=SC2016	# expanded by the inner sh
	unshare -m --propagation private sh -c '
		root=$1 dir=$2 name=$3
		mount -t proc proc "$root/proc" &&
		mount --bind -o ro "$dir" "$root/mnt/deb" &&
		exec chroot "$root" env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 \
			lintian --fail-on none --display-info "/mnt/deb/$name"
	' sh "$root" "$(dirname "$deb")" "$(basename "$deb")"
}

version=$(if [ -n "$root" ]; then chroot "$root" lintian --version; else lintian --version; fi 2>&1)
echo "# $version${root:+ in $root}"
out=$(run_lintian 2>&1)
rc=$?
# With --fail-on none, any exit status but 0 is lintian's own failure.
if [ "$rc" -eq 0 ]; then
	ok "lintian checked ${deb##*/} (exit status $rc)"
else
	not_ok "lintian checked ${deb##*/} (exit status $rc): $(head -n 3 <<< "$out")"
fi

errors=0 warnings=0 stale=0
while IFS= read -r line; do
	case $line in
	"running with root privileges"*) ;;
	E:*) errors=$((errors + 1)); not_ok "error tag: $line" ;;
	W:*) warnings=$((warnings + 1)); not_ok "warning tag: $line" ;;
	I:*unused-override*|I:*mismatched-override*)
		t=${line#*-override }
		t=${t%% *}
		if [[ $line == *unused-override* ]] && [ ${#other[@]} -gt 0 ] &&
			printf '%s\n' "${other[@]}" | grep -qxF -- "$t"; then
			echo "# unused, as expected (the other lintian's): $line"
		else
			stale=$((stale + 1)); not_ok "stale override: $line"
		fi ;;
	I:*) echo "# info: $line" ;;
	*) [ -z "$line" ] || echo "# $line" ;;
	esac
done <<< "$out"
[ "$errors" -gt 0 ] || ok "no error tag but those overridden"
[ "$warnings" -gt 0 ] || ok "no warning tag but those overridden"
[ "$stale" -gt 0 ] || ok "every override is one lintian needs"

# Merged /usr: the unit under /usr/lib/systemd/system, nothing under /lib.
files=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
check_file() { check "${deb##*/} holds ${1#.}" grep -qxF "$1" <<< "$files"; }
check_file ./usr/sbin/ccctl
check_file ./usr/lib/systemd/system/bpf-bic.service
if grep -q '^\./lib/' <<< "$files"; then
	not_ok "nothing under /lib: $(grep '^\./lib/' <<< "$files" | head -n 3 | tr '\n' ' ')"
else
	ok "nothing under /lib"
fi

sbu=$(dpkg-deb -f "$deb" Static-Built-Using)
if [[ $sbu =~ ^libbpf\ \(=\ [0-9][^\ ]*\)$ ]]; then
	ok "Static-Built-Using: $sbu"
else
	not_ok "Static-Built-Using names the libbpf linked in (it says '$sbu')"
fi

summary
