#!/bin/bash
# Apply one set of the project's kernel patch series to the files it
# touches in Debian's linux-source package of one kernel, and lay out the
# patched net/ipv4/tcp_bic.c as an out-of-tree module (Kbuild beside it),
# so that the same kbuild that builds bic_ref builds it against the
# kernel's own headers.  A patch must apply with no fuzz and nothing
# rejected (an offset is fine) to every kernel the series names it for.
# OUT_DIR/applied lists the patches applied.
#
# With --whole, the whole tree is unpacked (unpack-source.sh, as for the
# files) and patched in OUT_DIR/tree instead, for vm-image/kpatch-kernel.sh
# to build the kernel itself.
#
# usage: kpatch.sh [--whole] OUT_DIR KERNEL SET SOURCE PATCH_DIR
#   SOURCE	the linux-source .deb, or (not with --whole) a folder that
#		unpack-source.sh made with tcp_bic.c and tcp_cong.c in it
#   KERNEL	the id in vm-image/versions.mk (6.1, 6.12, 7.3)
#   SET		the set to apply (seed, proposal: patches/series says)
#   PATCH_DIR	holds the patches and `series`: one line per patch, its
#		file name, its sets (comma-separated) and the kernels it is for
set -euo pipefail

die() { echo "kpatch: $*" >&2; exit 1; }

whole=0
[ "${1:-}" = --whole ] && { whole=1; shift; }
[ $# -eq 5 ] || die "usage: kpatch.sh [--whole] OUT_DIR KERNEL SET SOURCE PATCH_DIR"
out=$(realpath -m "$1") kernel=$2 set=$3 src=$(realpath "$4") pdir=$(realpath "$5")
grep -v '^#' "$pdir/series" | awk -v s="$set" '{ n = split($2, a, ","); for (i = 1; i <= n; i++)
	if (a[i] == s) found = 1 } END { exit !found }' || die "no patch of set '$set' in $pdir/series"
files=(net/ipv4/tcp_bic.c net/ipv4/tcp_cong.c)

rm -rf "$out" && mkdir -p "$out/tree"
if [ -d "$src" ]; then
	[ $whole -eq 0 ] || die "--whole needs the linux-source package, not a folder"
	top=$(cat "$src/.top")
	for f in "${files[@]}"; do
		install -D -m 644 "$src/$f" "$out/tree/$f"
	done
else
	[ $whole -eq 1 ] || die "$src: give the folder unpack-source.sh made"
	"$(dirname "$0")/unpack-source.sh" "$out/tree" "$src"
	top=$(cat "$out/tree/.top")
fi

: > "$out/applied"
while read -r patch sets kernels; do
	case $patch in ''|'#'*) continue ;; esac
	[[ ",$sets," == *",$set,"* ]] || continue
	[[ " $kernels " == *" $kernel "* ]] || continue
	log=$(patch -d "$out/tree" -p1 -F0 --no-backup-if-mismatch < "$pdir/$patch" 2>&1) ||
		die "$patch does not apply to $top: $(tr '\n' ' ' <<<"$log")"
	echo "$patch" >> "$out/applied"
done < "$pdir/series"

[ $whole -eq 1 ] && exit 0
mkdir -p "$out/mod"
cp "$out/tree/net/ipv4/tcp_bic.c" "$out/mod/"
echo "obj-m := tcp_bic.o" > "$out/mod/Kbuild"
