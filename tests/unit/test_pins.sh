#!/bin/bash
# A pin the mirror no longer has (vm-image/pins.sh): simulated with pins
# of versions that never were, in the series of the real ones, it is
# replaced by the newest of its series, in one line on stderr, with
# everything named after a kernel's ABI following it; fed back, that
# replacement is kept as it is; a pin with no series left, or a spec that
# is not one, stops the build in one line.  Against the mirror itself (the
# build's private apt state), which make test needs anyway.
#
# usage: test_pins.sh BUILD "SUITES" "EPERM_LEAK_FIXED"
set -uo pipefail
here=$(dirname "$0")
# shellcheck source=../guest/tap.sh
. "$here/../guest/tap.sh"
# shellcheck source=../../vm-image/apt-private.sh
. "$here/../../vm-image/apt-private.sh"

build=$1 suites=$2 fixed=$3
pins=$here/../../vm-image/pins.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

# pin VAR: its value in versions.mk
pin() { sed -n "s/^$1[[:space:]]*:= //p" "$here/../../vm-image/versions.mk"; }
# run SPEC...: pins.sh, its stdout in $tmp/out, stderr in $tmp/err
run() { "$pins" "$build" "$suites" "$fixed" "$@" > "$tmp/out" 2> "$tmp/err"; }
# var NAME: what pins.sh's output sets NAME to
var() { sed -n "s/^$1	:= //p" "$tmp/out"; }
lines() { grep -c . "$1"; }

# The 6.12 pin (bookworm-backports) as if it had been 6.12.1.
kpkg=$(pin KPKG_6.12)
fake=6.12.1+deb12
spec="kernel/6.12/$fake-cloud-amd64/6.12.1-1~bpo12+1/linux-image-$fake-cloud-amd64"
spec+="/linux-headers-$fake-cloud-amd64,linux-headers-$fake-common,linux-kbuild-$fake/linux-source-6.12"
run "$spec"
check_cmp "a 6.12 gone from the mirror: pins.sh succeeds" "$?" -eq 0
check_cmp "... with one line on stderr" "$(lines "$tmp/err")" -eq 1
check "... saying what is gone and what it takes" grep -qx \
	"pins: 6.12: linux-image-$fake-cloud-amd64 6.12.1-1~bpo12+1 is gone from the mirror; taking linux-image-6\.12\.[0-9]*+deb12-cloud-amd64 6\.12\.[0-9]*-[0-9]*~bpo12+[0-9]*, the newest of its series" \
	"$tmp/err"
new=$(var KPKG_6.12) abi=$(var KVER_6.12)
abi=${abi%-cloud-amd64}
check "... a version of the same series" grep -Eq '^6\.12\.[0-9]+-[0-9]+~bpo12\+[0-9]+$' <<< "$new"
check "... no older than the pin versions.mk has ($kpkg)" ge "$new" "$kpkg"
check_cmp "... its ABI that of its version" "$abi" = "${new%%-*}+deb12"
check_cmp "... the image named after it" "$(var KIMG_6.12)" = "linux-image-$abi-cloud-amd64"
check_cmp "... and the headers and kbuild" "$(var KHDR_6.12)" = \
	"linux-headers-$abi-cloud-amd64 linux-headers-$abi-common linux-kbuild-$abi"
if leaks "${new%%-*}" "$fixed"; then want=yes; else want=no; fi
check_cmp "... the leak expected of that version (EPERM_LEAK_FIXED)" "$(var EPERM_LEAK_6.12)" = "$want"
check_cmp "... and make test told what ran" "$(sed -n 's/^PINS_REPLACED	+= //p' "$tmp/out")" = "6.12=$new"

# Fed back, what it took is on the mirror: kept, silently.
run "kernel/6.12/$abi-cloud-amd64/$new/linux-image-$abi-cloud-amd64/linux-headers-$abi-cloud-amd64,linux-headers-$abi-common,linux-kbuild-$abi/linux-source-6.12"
check_cmp "the replacement as the pin: pins.sh succeeds" "$?" -eq 0
check_cmp "... and changes nothing" "$(grep -vc '^#' "$tmp/out")" -eq 0
check_cmp "... silently" "$(lines "$tmp/err")" -eq 0

# 6.1's packages carry its ABI number (6.1.0-50), which moves.
kver=$(pin KVER_6.1)
run "kernel/6.1/6.1.0-1-cloud-amd64/6.1.1-1/linux-image-6.1.0-1-cloud-amd64/linux-headers-6.1.0-1-cloud-amd64,linux-headers-6.1.0-1-common,linux-kbuild-6.1/linux-source-6.1"
check_cmp "a 6.1 ABI gone from the mirror: pins.sh succeeds" "$?" -eq 0
abi=$(var KVER_6.1)
abi=${abi%-cloud-amd64}
check "... takes a 6.1.0-N ABI" grep -Eq '^6\.1\.0-[0-9]+$' <<< "$abi"
old_abi=${kver#6.1.0-}
check "... no older than versions.mk's ($kver)" ge "${abi#6.1.0-}" "${old_abi%%-*}"
check_cmp "... and renames its headers, not its kbuild" "$(var KHDR_6.1)" = \
	"linux-headers-$abi-cloud-amd64 linux-headers-$abi-common linux-kbuild-6.1"

# A tool: bpftool of bookworm-backports, not trixie's newer one.
run "tool/BPFTOOL_VER/bpftool/7.5.0+6.12.1-1~bpo12+1"
check_cmp "a bpftool gone from the mirror: pins.sh succeeds" "$?" -eq 0
new=$(var BPFTOOL_VER)
check "... takes one of its series" grep -Eq '^7\.5\.0\+6\.12\.[0-9]+-[0-9]+~bpo12\+[0-9]+$' <<< "$new"
check "... no older than versions.mk's" ge "$new" "$(pin BPFTOOL_VER)"
check_cmp "... in one line" "$(lines "$tmp/err")" -eq 1

# Nothing of the series left: the build stops, in one line naming it.
run "kernel/6.99/6.99.1+deb12-cloud-amd64/6.99.1-1~bpo12+1/linux-image-6.99.1+deb12-cloud-amd64/linux-headers-6.99.1+deb12-common/linux-source-6.99"
check_cmp "a series the mirror lacks: pins.sh fails" "$?" -ne 0
check_cmp "... in one line" "$(lines "$tmp/err")" -eq 1
check "... naming the pin" grep -qx \
	"pins: 6.99: linux-image-6.99.1+deb12-cloud-amd64 6.99.1-1~bpo12+1 is gone from the mirror, and no kernel of its series is there" \
	"$tmp/err"
run "kernel/6.12/only-three-fields"
check_cmp "a spec that is not one: pins.sh fails" "$?" -ne 0
check "... in one line naming it" grep -qx "pins: bad spec 'kernel/6.12/only-three-fields'" "$tmp/err"
summary
