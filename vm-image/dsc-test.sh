#!/bin/bash
# make dsc-test: the source package built as Debian builds one, and its
# .deb compared with make deb's.
#
#  1. A copy of the cached clean root BASE (minbase and build-essential,
#     vm-image/mkroot.sh) in OUT/root, its apt sources SUITES on the host's
#     mirror (vm-image/mirror.sh).  PIN is a suite and packages to take
#     from it ("bookworm-backports bpftool libbpf-dev ..."): apt's resolver
#     takes only a package's candidate, the highest-priority version, and
#     backports' have a lower priority than the release's, so
#     Build-Depends such as libbpf-dev (>= 1:1.4.6), which only backports
#     has, are given the release's priority (apt_preferences(5)); nothing
#     else comes from there.
#  2. With network: apt-get build-dep on the .dsc installs exactly its
#     Build-Depends from the mirror (their .debs kept in BASE.archives for
#     the next run).
#  3. Without: in a network namespace of its own (unshare -n: loopback
#     only, and down), dpkg-source -x and dpkg-buildpackage -b, as an
#     unprivileged user, as a buildd would.
#  4. The two .debs: the same files (path, mode, owner) and control fields
#     (Installed-Size aside); which files differ and, for ELF files, which
#     sections (BPF objects: whether their instructions and, with BPFTOOL
#     in the environment, their BTF types are the same); the vmlinux.h
#     each build used (VMLINUX_H, make deb's, against linux-bpf-dev's): how
#     much differs, and whether every struct the BPF sources name is the
#     same in both; and lintian (the host's, tests/unit/test_lintian.sh) on
#     the new .deb.
#
# Everything is written to OUT (the report: OUT/report.txt; the root copy
# is removed after a run that passes).  Nothing is
# mounted on the host: the chroots run in mount namespaces of their own,
# with /proc and /dev bind-mounted.  Exit status 0 only if the package
# builds and the file lists and lintian agree.
#
# usage: dsc-test.sh BASE SUITES PIN DSC DEB VMLINUX_H OUT
set -euo pipefail

die() { echo "dsc-test: $*" >&2; exit 1; }

[ $# -eq 7 ] || die "usage: dsc-test.sh BASE SUITES PIN DSC DEB VMLINUX_H OUT"
base=$(realpath "$1") suites=$2 pin=$3 dsc=$(realpath "$4") deb=$(realpath "$5")
vmlinux_h=$(realpath "$6") out=$(realpath -m "$7")
here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
mirror=$("$here/mirror.sh")
root=$out/root report=$out/report.txt log=$out/build.log
archives=$base.archives
# What the package's own build needs from the root, checked after.
sys_vmlinux_h=usr/include/x86_64-linux-gnu/linux/bpf/vmlinux.h

[ -e "$base/.done" ] || die "no root $base"
rm -rf "$out"
mkdir -p "$out" "$archives/partial"
: > "$report"
say() { echo "$*" | tee -a "$report"; }
secs() { echo $(($(date +%s) - $1)); }

# in_root [unshare option...] -- COMMAND...: COMMAND in a chroot of $root,
# in a mount namespace of its own with /proc, /dev and the apt archive.
in_root() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	# shellcheck disable=SC2016	# expanded by the inner sh
	unshare -m --propagation private "${opts[@]}" sh -c '
		root=$1 archives=$2
		shift 2
		mount --rbind /proc "$root/proc" && mount --rbind /dev "$root/dev" &&
		mount --bind "$archives" "$root/var/cache/apt/archives" &&
		exec chroot "$root" "$@"' sh "$root" "$archives" "$@"
}

# 1. the root
t=$(date +%s)
cp -a "$base" "$root"
for s in $suites; do echo "deb $mirror $s main"; done > "$root/etc/apt/sources.list"
printf 'Package: %s\nPin: release n=%s\nPin-Priority: 500\n' "${pin#* }" "${pin%% *}" \
	> "$root/etc/apt/preferences.d/build-depends"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/build"
name=${dsc##*/}
cp "$dsc" "$root/build/"
# the files the .dsc lists, beside it
sed -n '/^Files:/,/^[^ ]/{ /^ /{ s/^ [^ ]* [^ ]* //; p } }' "$dsc" | while read -r f; do
	cp "$(dirname "$dsc")/$f" "$root/build/"
done
chroot "$root" useradd --home-dir /build --no-create-home builder
chroot "$root" chown -R builder:builder /build
say "# root: a copy of ${base##*/} ($(secs "$t") s); apt sources: $suites on $mirror;" \
	"from ${pin%% *}: ${pin#* }"

# 2. the Build-Depends, from the mirror
t=$(date +%s)
in_root -- sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q -y \
	--no-install-recommends build-dep /build/$name" > "$out/build-dep.log" 2>&1 ||
	die "apt-get build-dep failed (see $out/build-dep.log)"
say "# Build-Depends installed in $(secs "$t") s; the ones that matter:"
# shellcheck disable=SC2016	# dpkg-query's fields
chroot "$root" dpkg-query -W -f '#   ${Package} ${Version}\n' linux-bpf-dev bpftool libbpf-dev \
	clang llvm debhelper libelf-dev zlib1g-dev dpkg-dev | tee -a "$report"
rm "$root/etc/resolv.conf"

# 3. the build, offline
t=$(date +%s)
# shellcheck disable=SC2016	# expanded by the inner sh
in_root -n -- sh -c '
	ifs=$(awk -F: "NR > 2 { gsub(/ /, \"\", \$1); print \$1 }" /proc/net/dev | tr "\n" " ")
	echo "network interfaces: $ifs"
	[ "$ifs" = "lo " ] || exit 1
	exec setpriv --reuid builder --regid builder --clear-groups \
		env -i HOME=/build PATH=/usr/bin:/bin:/usr/sbin:/sbin LC_ALL=C.UTF-8 \
		sh -c "cd /build && dpkg-source -x $1 src && cd src &&
			dpkg-buildpackage -b -us -uc -j2"' sh "$name" > "$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "the offline build failed (see $log)"; }
say "# built offline ($(head -n 1 "$log")) in $(secs "$t") s: $log"
new=$(find "$root/build" -maxdepth 1 -name '*.deb')
[ "$(wc -l <<< "$new")" = 1 ] || die "not one .deb: $new"
cp "$new" "$out/"
new=$out/${new##*/}

# 4. the comparison
fail=0
# compare FN DIFF WHAT OK: FN of make deb's .deb against FN of the new one,
# their diff in OUT/DIFF.diff; "ok - OK" if they are the same, else "not
# ok - the WHAT differ:" and the diff, and the run fails.
compare() {
	if diff <("$1" "$deb") <("$1" "$new") > "$out/$2.diff"; then
		say "ok - $4"
	else
		fail=1
		say "not ok - the $3 differ:"
		tee -a "$report" < "$out/$2.diff"
	fi
}
listing() { dpkg-deb -c "$1" | awk '{ $3 = ""; $4 = ""; $5 = ""; print }'; }
compare listing files "file lists" \
	"the same $(listing "$new" | wc -l) files, modes and owners as ${deb##*/} of make deb"
# shellcheck disable=SC2317	# called by compare
fields() { dpkg-deb -f "$1" | grep -v '^Installed-Size:'; }
compare fields control "control fields" \
	"the same control fields (Static-Built-Using: $(dpkg-deb -f "$new" Static-Built-Using))"

rm -rf "$out/x"
mkdir -p "$out/x/deb" "$out/x/dsc"
dpkg-deb -x "$deb" "$out/x/deb"
dpkg-deb -x "$new" "$out/x/dsc"
same=0 differ=()
while read -r f; do
	if cmp -s "$out/x/deb/$f" "$out/x/dsc/$f"; then
		same=$((same + 1))
	else
		differ+=("$f")
	fi
done < <(cd "$out/x/deb" && find . -type f | sort)
say "# $same files the same byte for byte; ${#differ[@]} differ:"
# sections A B: "NAME (SIZE -> SIZE bytes)" for each ELF section with
# contents whose bytes differ between A and B, or that only one has.
section_table() {
	llvm-readelf -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$2 != "NULL" && $2 != "NOBITS" { print $1, $4, $5 }' |
		sort -k 1,1
}
# section_bytes FILE OFFSET SIZE (hexadecimal, as readelf prints them)
section_bytes() { tail -c +"$((16#$2 + 1))" "$1" | head -c "$((16#$3))"; }
sections() {
	local n oa sa ob sb d=()
	while read -r n oa sa ob sb; do
		if [ -z "$sb" ]; then
			d+=("$n (only in one)")
		elif [ "$sa" != "$sb" ] ||
			! cmp -s <(section_bytes "$1" "$oa" "$sa") <(section_bytes "$2" "$ob" "$sb"); then
			d+=("$n ($((16#$sa)) -> $((16#$sb)) bytes)")
		fi
	done < <(join -a 1 -a 2 <(section_table "$1") <(section_table "$2"))
	local x joined=""
	for x in "${d[@]}"; do joined+="${joined:+, }$x"; done
	printf '%s' "$joined"
}
for f in "${differ[@]}"; do
	a=$out/x/deb/$f b=$out/x/dsc/$f
	line="#   ${f#./}: $(stat -c %s "$a") -> $(stat -c %s "$b") bytes"
	[ "$(head -c 4 "$a" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || { say "$line"; continue; }
	line+="; sections that differ: $(sections "$a" "$b")"
	case $f in
	*.bpf.o)
		if cmp -s <(llvm-objdump -d --no-show-raw-insn "$a" | tail -n +3) \
			<(llvm-objdump -d --no-show-raw-insn "$b" | tail -n +3); then
			line+="; the same instructions"
		else
			line+="; other instructions"
		fi
		if [ -n "${BPFTOOL:-}" ]; then
			if cmp -s <("$BPFTOOL" btf dump file "$a") <("$BPFTOOL" btf dump file "$b"); then
				line+=", the same BTF types"
			else
				line+=", other BTF types"
			fi
		fi
		# the strings of .BTF that differ (source file names, for one)
		llvm-objcopy --dump-section ".BTF=$out/btf.a" "$a" "$out/sec.o"
		llvm-objcopy --dump-section ".BTF=$out/btf.b" "$b" "$out/sec.o"
		strs=$(diff <(strings -n 4 "$out/btf.a") <(strings -n 4 "$out/btf.b") |
			sed -n 's/^[<>] //p' | head -n 2 | paste -sd '>' | sed 's/>/ -> /' || true)
		rm -f "$out/btf.a" "$out/btf.b" "$out/sec.o"
		line+="${strs:+; .BTF strings that differ, first: $strs}" ;;
	esac
	say "$line"
done

sys_h=$root/$sys_vmlinux_h
# shellcheck disable=SC2016	# dpkg-query's fields
pkg=$(chroot "$root" dpkg-query -W -f '${Package} ${Version}' linux-bpf-dev)
cp "$sys_h" "$out/vmlinux.h.linux-bpf-dev"
say "# vmlinux.h: make deb's (${vmlinux_h#"$top"/}) against $pkg's (/$sys_vmlinux_h):"
say "#   $(wc -l < "$vmlinux_h") against $(wc -l < "$sys_h") lines;" \
	"$(diff "$vmlinux_h" "$sys_h" | grep -c '^<' || true) lines only in make deb's," \
	"$(diff "$vmlinux_h" "$sys_h" | grep -c '^>' || true) only in linux-bpf-dev's"
structs() { grep -o '^struct [A-Za-z0-9_]* {' "$1" | sort; }
say "#   $(comm -23 <(structs "$vmlinux_h") <(structs "$sys_h") | wc -l) structs defined only in" \
	"make deb's, $(comm -13 <(structs "$vmlinux_h") <(structs "$sys_h") | wc -l) only in linux-bpf-dev's"
struct_def() { awk -v s="struct $2 {" '$0 == s { p = 1 } p { print } p && /^};/ { exit }' "$1"; }
used=$(cat "$top"/bpf/*.bpf.c "$top"/bpf/*.h | grep -o 'struct [A-Za-z0-9_]*' | awk '{ print $2 }' | sort -u)
n=0 other=()
for s in $used; do
	def=$(struct_def "$vmlinux_h" "$s")
	[ -n "$def" ] || continue
	n=$((n + 1))
	[ "$def" = "$(struct_def "$sys_h" "$s")" ] || other+=("$s")
done
say "#   of the $n kernel structs the BPF sources name, ${#other[@]} differ${other[*]:+: ${other[*]}}"

if "$top/tests/unit/test_lintian.sh" "$new" > "$out/lintian.log" 2>&1; then
	say "ok - lintian (the host's) on the source package's .deb: $(tail -n 1 "$out/lintian.log")"
else
	fail=1
	say "not ok - lintian on the source package's .deb (see $out/lintian.log)"
fi
# The root copy (~1.3 GB with the toolchain) is kept only to look into a
# failure.
if [ "$fail" -eq 0 ]; then
	rm -rf "$root"
else
	echo "dsc-test: the build root is kept in $root"
fi
echo "dsc-test: report in $report"
exit "$fail"
