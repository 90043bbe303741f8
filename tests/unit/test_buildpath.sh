#!/bin/bash
# No file of the package holds the folder it was built in: the BPF objects
# carry their DWARF and BTF line info with the build's folder mapped to "."
# (mk/bpf.mk's -ffile-prefix-map), and so does the ccctl that embeds them;
# the C binaries get the same from dpkg-buildflags.  Two builds in two
# folders then differ in no path.  Checked file by file, so that a failure
# names the file and what it holds.
#
# usage: test_buildpath.sh DEB [FOLDER]	(FOLDER: the build's, default .)
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

deb=$(realpath "$1") top=$(realpath "${2:-.}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

dpkg-deb -x "$deb" "$tmp/root" || { not_ok "cannot unpack $deb"; summary; exit 1; }
n=0
while IFS= read -r -d '' f; do
	n=$((n + 1))
	rel=${f#"$tmp/root"}
	if grep -qF -- "$top" "$f"; then
		not_ok "$rel holds the build's folder: $(strings -a "$f" | grep -F -- "$top" | head -n 2 | tr '\n' ' ')"
	else
		ok "$rel: no build path"
	fi
done < <(find "$tmp/root" -type f -print0 | sort -z)
check_cmp "the package has files to check" "$n" -gt 10
summary
