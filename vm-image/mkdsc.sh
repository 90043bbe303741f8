#!/bin/bash
# The source package bpf-bic (make dsc): format 3.0 (native), its tarball
# made by dpkg-source from the files git tracks, as they are in the work
# tree, and nothing else: no build/, no kernel, vmlinux.h, .deb, object or
# skeleton (checked).  Every file's time is the top changelog entry's, so
# the same tree gives the same tarball.  Before that, debian/control's
# Build-Depends must ask for at least the bpftool and libbpf-dev that
# vm-image/versions.mk pins (their versions without the Debian revision):
# versions.mk stays the one place for them.
#
# usage: mkdsc.sh OUTDIR PKG=PINNED_VERSION...
set -euo pipefail

die() { echo "mkdsc: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: mkdsc.sh OUTDIR PKG=PINNED_VERSION..."
out=$(realpath -m "$1")
shift
top=$(git rev-parse --show-toplevel 2>/dev/null) || die "make dsc needs the project's git checkout"
cd "$top"

build_deps=$(sed -n '/^Build-Depends:/,/^[^ ]/{ s/^Build-Depends://; /^[A-Z]/d; p }' debian/control |
	tr -d '\n' | tr -s ' \t' ' ')
for spec in "$@"; do
	want="${spec%%=*} (>= $(v=${spec#*=}; echo "${v%-*}"))"
	grep -qF "$want" <<< "$build_deps" ||
		die "debian/control's Build-Depends lack '$want' (the pin of vm-image/versions.mk)"
done

name=$(dpkg-parsechangelog -S Source)
version=$(dpkg-parsechangelog -S Version)
epoch=$(dpkg-parsechangelog -S Timestamp)
[ "$(cat debian/source/format)" = "3.0 (native)" ] || die "debian/source/format is not 3.0 (native)"
case $version in *-*) die "a native package's version has no Debian revision: $version" ;; esac

tree=$out/$name-$version
rm -rf "$out"
mkdir -p "$tree"
# The tracked files, from the work tree (what make deb builds from too).
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tree"
bad=$(cd "$tree" && find . \( -name build -o -name '*.deb' -o -name vmlinux -o -name vmlinux.h -o -name '*.o' \
	-o -name '*.ko' -o -name '*.skel.h' -o -name '*.cpio*' -o -name 'vmlinuz*' \) -print)
[ -z "$bad" ] || die "tracked files that are build products: $bad"
find "$tree" -exec touch -h -d "@$epoch" {} +

(cd "$out" && dpkg-source -b "${tree##*/}") > "$out/dpkg-source.log" 2>&1 ||
	{ cat "$out/dpkg-source.log" >&2; die "dpkg-source -b failed"; }
rm -rf "$tree"
echo "$out/${name}_$version.dsc"
