#!/bin/bash
# Check every patch the series names for one kernel, whatever its set, with
# scripts/checkpatch.pl of that kernel's own linux-source package (with
# spelling.txt and const_structs.checkpatch beside it), the way a
# maintainer of that tree would: --no-tree, and the stricter checks
# checkpatch turns on by itself for net/.  Any ERROR or WARNING fails;
# CHECKs are printed and do not.  OUT_DIR/checkpatch.log keeps the output.
#
# checkpatch.pl runs where unpack-source.sh put it: it reads its two files
# from its own directory and writes nothing there, and with --no-tree it
# looks for no kernel tree around it.  It runs from OUT_DIR (below).
#
# checkpatch looks a commit id up in the kernel's git history, which the
# build has not got: without one every id is "unknown" (UNKNOWN_COMMIT_ID),
# so that check is left out, unless GIT_DIR names a kernel repository, in
# which case the ids are checked too.
#
# usage: checkpatch.sh OUT_DIR KERNEL SOURCE_DIR PATCH_DIR
#   SOURCE_DIR	what unpack-source.sh made of the kernel's linux-source,
#		scripts/checkpatch.pl and its two files in it
set -euo pipefail

die() { echo "checkpatch: $*" >&2; exit 1; }

[ $# -eq 4 ] || die "usage: checkpatch.sh OUT_DIR KERNEL SOURCE_DIR PATCH_DIR"
out=$(realpath -m "$1") kernel=$2 src=$(realpath "$3") pdir=$(realpath "$4")
scripts=(scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)

# Without its two files checkpatch.pl only warns, and checks less.
for f in "${scripts[@]}"; do
	[ -r "$src/$f" ] || die "no $f in $src"
done
rm -rf "$out" && mkdir -p "$out"
top=$(cat "$src/.top")

opts=(--no-tree --no-color --show-types)
if [ -n "${GIT_DIR:-}" ]; then
	GIT_DIR=$(realpath "$GIT_DIR")
	export GIT_DIR
else
	opts+=(--ignore UNKNOWN_COMMIT_ID)
fi

# From OUT_DIR, where no .git is: the project's own would answer for ids.
cd "$out"
bad=0 n=0
while read -r patch _ kernels; do
	case $patch in ''|'#'*) continue ;; esac
	[[ " $kernels " == *" $kernel "* ]] || continue
	n=$((n + 1))
	log=$(perl "$src/scripts/checkpatch.pl" "${opts[@]}" "$pdir/$patch" 2>&1) || true
	printf '%s\n%s\n\n' "== $patch" "$log" >> checkpatch.log
	total=$(grep -m1 '^total: ' <<<"$log") ||
		die "$patch: checkpatch of $top printed no total: $log"
	read -r errors warnings checks < <(sed -E \
		's/^total: ([0-9]+) errors?, ([0-9]+) warnings?, (([0-9]+) checks?, )?.*/\1 \2 \4/' <<<"$total")
	echo "  $top: $patch: $errors errors, $warnings warnings, ${checks:-0} checks"
	if [ "$errors" -ne 0 ] || [ "$warnings" -ne 0 ] || [ "${checks:-0}" -ne 0 ]; then
		sed -n '/^\(ERROR\|WARNING\|CHECK\)/,/^$/p' <<<"$log" | sed 's/^/    /'
	fi
	[ "$errors" -eq 0 ] && [ "$warnings" -eq 0 ] || bad=1
done < "$pdir/series"
[ "$n" -gt 0 ] || die "no patch in the series for $kernel"
[ "$bad" -eq 0 ] || die "ERROR or WARNING from $top's checkpatch.pl (all of it in $out/checkpatch.log)"
