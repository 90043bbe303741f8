#!/bin/bash
# make unit-test installs nothing: vm-image/host-deps.sh --check names what
# is missing in one line and fails, with no apt run (an apt-get and a
# dpkg that only record being called stand in front of the real ones),
# and make hands it --check when unit-test is the only goal, not for any
# other (make test, as the README says, installs what it needs).
#
# usage: test_host_deps.sh	(from the top of the tree)
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

mkdir "$tmp/bin"
for t in apt-get apt; do
	printf '#!/bin/sh\necho "%s $*" >> %s/called\n' "$t" "$tmp" > "$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
deps() { PATH="$tmp/bin:$PATH" ./vm-image/host-deps.sh "$@" > "$tmp/out" 2> "$tmp/err"; }

deps --check bash coreutils
check_cmp "--check with everything installed succeeds" "$?" -eq 0
check_cmp "... silently" "$(cat "$tmp/out" "$tmp/err" | wc -l)" -eq 0

deps --check bash bpf-bic-no-such-package coreutils
check_cmp "--check with a package missing fails" "$?" -eq 1
check_cmp "... in one line on stderr" "$(wc -l < "$tmp/err")" -eq 1
check "... naming it and how to install it" grep -qx \
	"host-deps: not installed: bpf-bic-no-such-package (make deps installs them)" "$tmp/err"
check "... and runs no apt" test ! -e "$tmp/called"

# -W: host-deps.sh as if just changed, so make shows the stamp's recipe
# (in this make only: -W is not passed to a sub-make, so make test's own
# build, a sub-make whose goals are the files it builds, is stood for by
# asking for the stamp itself).
check "make unit-test checks only" sh -c \
	"make -n -W vm-image/host-deps.sh unit-test 2>/dev/null | grep -q '^./vm-image/host-deps.sh --check shellcheck\$'"
check "make with any other goal installs (the stamp, as make test's build asks for it)" sh -c \
	"make -n -W vm-image/host-deps.sh build/.host-deps-shellcheck 2>/dev/null | grep -q '^./vm-image/host-deps.sh  *shellcheck\$'"
summary
