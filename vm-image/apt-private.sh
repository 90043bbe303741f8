# shellcheck shell=bash
# Sourced by the scripts that read the mirror through an apt state of the
# project's own (fetch-debs.sh, pins.sh, latest.sh), so that the machine's
# own apt configuration and package state are left untouched.

apt_private_here=$(dirname "${BASH_SOURCE[0]}")

# apt_private DIR SUITES: DIR/sources.list names SUITES (space-separated)
# on the mirror of the host's own bookworm sources (the -security ones on
# its security mirror); apt_opts is set to read them into DIR's state.
apt_private() {
	local dir=$1 suites=$2 s mirror security=""
	mirror=$("$apt_private_here/mirror.sh") || return 1
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	for s in $suites; do
		case $s in
		*-security)
			[ -n "$security" ] || security=$("$apt_private_here/mirror.sh" security) || return 1
			echo "deb $security $s main" ;;
		*) echo "deb $mirror $s main" ;;
		esac
	done > "$dir/sources.list"
	# shellcheck disable=SC2034 # for the scripts that source this
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=-"
		  -o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		  -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")
}

# ge A B: version A >= version B (dpkg's ordering)
ge() { dpkg --compare-versions "$1" ge "$2"; }

# leaks VERSION FIXED: whether a kernel of this upstream version has the
# refused-namespace-default leak, by EPERM_LEAK_FIXED (versions.mk: the
# first version of each series with the fix, then a version from which
# every series has it, e.g. "6.12.117 7.0").
leaks() {
	local v=$1 fixed=$2 f series=${1%.*}
	for f in $fixed; do
		[ "${f%.*}" = "$series" ] && { ge "$v" "$f" && return 1; return 0; }
	done
	ge "$v" "${fixed##* }" && return 1
	return 0
}

# apt_update DIR: apt-get update of apt_private's DIR, unless the last one
# was under ten minutes ago (pins.sh, then fetch-debs.sh several times, in
# one build: the mirror does not move in between).
apt_update() {
	local stamp=$1/updated
	[ -n "$(find "$stamp" -mmin -10 2>/dev/null)" ] && return
	apt-get -qq "${apt_opts[@]}" update || return 1
	touch "$stamp"
}
