#!/bin/bash
# The package's ccctl and bictrace carry the hardening a Debian package
# gets (make deb builds them with dpkg-buildflags, mk/package.mk).
#
# hardening-check's verdicts on each binary, every one required but
# control flow integrity.  That one needs every object the linker is given
# to carry the x86 IBT/SHSTK property, and two of them are not the
# project's: the static libbpf (Debian's build: bookworm's has no
# -fcf-protection, dpkg 1.21 knowing no "branch" feature) and glibc's own
# start files, Scrt1.o, crti.o and crtn.o, which carry it neither on
# bookworm (glibc 2.36) nor on trixie (2.41): no program Debian links
# (ls, bash, dpkg) has the property.  So the CFI verdict is required
# exactly when all of those carry it, and skipped, naming the one that
# does not, when they do not; the project's own objects must carry it
# either way, and must have been compiled with -fstack-clash-protection
# (hardening-check only sees stack clash probes in functions with frames
# of a page or more, which ccctl has none of: "unknown" there is not a
# failure).
#
# usage: test_hardening.sh PKG_OUT LIBBPF_A   (CC: the compiler that linked them)
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

dir=$1 libbpf=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

# has_ibt FILE: every object in FILE (an ELF file or an archive) carries IBT and SHSTK.
has_ibt() {
	local notes objs
	notes=$(readelf -n "$1" 2>/dev/null | grep -c 'x86 feature: IBT, SHSTK')
	objs=$(readelf -h "$1" 2>/dev/null | grep -c '^ *Type:')
	[ "$objs" -gt 0 ] && [ "$notes" -eq "$objs" ]
}

# The objects not ours that every link takes, as the compiler finds them.
foreign=("$libbpf")
for f in Scrt1.o crti.o crtn.o; do
	foreign+=("$(${CC:-cc} -print-file-name="$f")")
done
unmarked=()
for f in "${foreign[@]}"; do
	has_ibt "$f" || unmarked+=("${f##*/}")
done

for b in ccctl bictrace; do
	out=$(hardening-check --nocfprotection "$dir/$b" 2>&1)
	check "$b: hardening-check passes but for CFI" hardening-check --nocfprotection --quiet "$dir/$b"
	for v in "Position Independent Executable: yes" "Stack protected: yes" \
		 "Fortify Source functions: yes" "Read-only relocations: yes" "Immediate binding: yes"; do
		check "$b: $v" grep -qF "$v" <<< "$out"
	done
	if [ "${#unmarked[@]}" -eq 0 ]; then
		check "$b: control flow integrity" hardening-check --quiet "$dir/$b"
	else
		why="without the IBT/SHSTK property in Debian's build: ${unmarked[*]}"
		skip "$b: control flow integrity" "$why; no program linked with them can have it"
	fi
done

for o in "$dir"/*.o; do
	check "${o##*/} carries IBT and SHSTK" has_ibt "$o"
	check "${o##*/} was compiled with -fstack-clash-protection and -fcf-protection" \
		sh -c "readelf --debug-dump=info '$o' | grep DW_AT_producer | grep -q -- '-fstack-clash-protection.*-fcf-protection'"
done

summary
