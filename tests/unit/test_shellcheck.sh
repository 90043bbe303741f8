#!/bin/bash
# Every shell script git tracks is clean under shellcheck, with the
# project's .shellcheckrc (sourced files followed from each script's own
# folder).  A shell script is one named *.sh, one whose #! line names sh,
# bash or dash (dist/bpf-bic-apply, debian's maintainer scripts, .ci/run,
# vm-image/init), or one that says "# shellcheck shell=" near its top (the
# bash completions, sourced and without #!).  First, that the check can
# fail at all: a script with a planted problem must be flagged.
#
# One shellcheck run over all of them: about 30 s of CPU (89 scripts, 7
# December 2026), most of it in the scripts that source tests/guest/lib.sh.
# make installs shellcheck (vm-image/host-deps.sh); git must be there.
#
# usage: test_shellcheck.sh	(from anywhere in the project's checkout)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
comment() { awk '{ print "# " $0 }' <<< "$1"; }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

if ! command -v shellcheck > /dev/null; then
	not_ok "shellcheck is installed (make installs it: vm-image/host-deps.sh shellcheck)"
	finish
fi
echo "# $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"

# A problem planted in a script of its own: $1 unquoted (SC2086).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2016	# the planted script's $1, not this one's
printf '#!/bin/bash\nrm -rf $1/cache\n' > "$tmp/planted.sh"
out=$(shellcheck -f gcc "$tmp/planted.sh" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'SC2086' <<< "$out"; then
	ok "a planted unquoted \$1 is flagged (SC2086)"
else
	not_ok "a planted unquoted \$1 is flagged (SC2086): status $rc, '$out'"
fi

# is_shell FILE: a shell script by name, by #! or by shellcheck's directive
# (read in bash: a fork per tracked file would cost seconds).
shebang='^#![[:space:]]*(/usr)?/bin/(env[[:space:]]+)?(ba|da)?sh([[:space:]]|$)'
is_shell() {
	local top
	case $1 in *.sh) return 0 ;; esac
	mapfile -n 5 -t top < "$1" 2> /dev/null
	[[ ${top[0]:-} =~ $shebang ]] && return 0
	[[ $'\n'"${top[*]:1}" == *$'\n# shellcheck shell='* ]]
}

if ! git rev-parse --git-dir > /dev/null 2>&1; then
	not_ok "git knows the tracked files: $PWD is no git checkout"
	finish
fi
mapfile -d '' -t tracked < <(git ls-files -z)
files=()
for f in "${tracked[@]}"; do
	[ -f "$f" ] && [ ! -L "$f" ] && is_shell "$f" && files+=("$f")
done

# What the list must hold, whatever else is added: the scripts without .sh.
must=(.ci/run dist/bpf-bic-apply vm-image/init)
for f in "${tracked[@]}"; do
	[[ $f =~ ^debian/[^/]*\.(pre|post)(inst|rm)$ ]] && must+=("$f")
done
missing=()
for f in "${must[@]}"; do
	[[ " ${files[*]} " == *" $f "* ]] || missing+=("$f")
done
if [ "${#missing[@]}" -eq 0 ]; then
	ok "${#files[@]} shell scripts, .ci/run, dist/bpf-bic-apply, vm-image/init and debian's maintainer scripts among them"
else
	not_ok "${#files[@]} shell scripts, but not: ${missing[*]}"
fi

start=${EPOCHREALTIME/./}
out=$(shellcheck -f gcc "${files[@]}" 2>&1)
rc=$?
echo "# shellcheck on ${#files[@]} scripts: $(( (${EPOCHREALTIME/./} - start) / 1000 )) ms"
if [ "$rc" -gt 1 ]; then
	not_ok "shellcheck ran (status $rc)"
	comment "$out"
	finish
fi
# -f gcc: FILE:LINE:COLUMN: LEVEL: MESSAGE [SCnnnn], a line each.
declare -A found=() count=()
while IFS= read -r line; do
	[ -n "$line" ] || continue
	f=${line%%:*}
	found[$f]+="$line"$'\n'
	count[$f]=$((${count[$f]:-0} + 1))
done <<< "$out"
for f in "${files[@]}"; do
	if [ -z "${found[$f]:-}" ]; then
		ok "$f"
	else
		not_ok "$f: ${count[$f]} findings"
		comment "${found[$f]%$'\n'}"
	fi
done
# Every finding belongs to a file above: none is left unreported.
if [ "$rc" -eq 1 ] && [ "$failed" -eq 0 ]; then
	not_ok "shellcheck failed, on none of the files listed"
	comment "$out"
fi
finish
