# shellcheck shell=bash
# A stub of the system t_58 drives, for the host test of its generator,
# model and shrinker (tests/unit/test_model.sh): a fake ccctl, tcphold and
# ccobserve over a state of their own, written apart from the model
# (tests/guest/model/model.sh) and from ccctl, by the rules ccctl and the
# kernel follow, so that a model that disagrees with them is caught here as
# it would be in a guest.  No BPF, no sockets: nothing touches a kernel; the
# cgroups are the directories under STUB_CG, in a temporary directory.
#
# Sourced, not run: a fork and exec per operation costs more than the
# operation (most of the test's time when guests load the host), so these
# are functions, each answering in variables, and everything of theirs is
# named stub_* or S_*:
#   stub_init LINKS		a fresh system (LINKS: true or false, whether
#				struct_ops links exist)
#   stub_ccctl NS ARGS...	ccctl in the initial namespace (NS init) or
#				the other one (NS ns): S_OUT, S_ERR, S_RC
#   stub_hold ns|lo N CA [CGPATH]
#				N connections from the other namespace (lo:
#				over loopback: 2N sockets) on CA ("-": the
#				default) from a process of CGPATH: S_HOLDER,
#				or false with S_ERR
#   stub_unhold HANDLE
#   stub_ns_hold		a network namespace of its own: its default
#				the initial one's; S_NSHOLD a handle
#   stub_ns_unhold HANDLE
#   stub_route_add NAME	a route whose congctl is NAME: S_ROUTE, or
#				false with S_ERR when no such algorithm
#   stub_route_del HANDLE
#   stub_observe		the canonical line (model.sh's model_line says
#				what it holds) into S_LINE
#
# The kernel's own algorithms are reno and cubic, both allowed.  Map ids
# start at 40, link ids at 7: numbers nothing else predicts.

stub_init() {
	declare -gA S_regmap=() S_reglink=() S_allowed=() S_asg=()
	declare -gA S_hkind=() S_hn=() S_hca=() S_hmap=() S_nsca=() S_nsmap=() S_rtca=()
	S_links=$1 S_next_map=40 S_next_link=7 S_next_h=1
	S_definit=cubic S_definit_map="" S_defns=cubic S_defns_map=""
}

stub_refuse() { S_ERR="ccctl: $*"; S_RC=1; return 1; }

stub_available() {
	[ -n "${S_regmap[$1]+x}" ] || [ "$1" = reno ] || [ "$1" = cubic ]
}
stub_allowed() {
	[ "$1" = reno ] || [ "$1" = cubic ] || [ -n "${S_allowed[${S_regmap[$1]:-x}]+x}" ]
}
stub_name_rule() {
	local n=$1
	[ -n "$n" ] || { stub_refuse "invalid algorithm name '': it is empty"; return; }
	[ "${#n}" -lt 16 ] || { stub_refuse "invalid algorithm name '$n': it is longer than 15 bytes"; return; }
	case $n in
	*' '*) stub_refuse "invalid algorithm name '$n': it has a blank" ;;
	*/*) stub_refuse "invalid algorithm name '$n': it has a '/'" ;;
	*.*) stub_refuse "invalid algorithm name '$n': it has a '.'" ;;
	esac
}
# the cgroup a path is: a directory under STUB_CG
stub_cgroup() {
	[ -e "$1" ] || { stub_refuse "cannot find cgroup $1: No such file or directory"; return; }
	[[ -d $1 && $1 == "$STUB_CG/"* ]] ||
		stub_refuse "$1 is not a cgroup (a directory of the cgroup2 file system)"
}
# stub_load ARGS...: the name asked for (--name, else the object's own)
# into S_ASKED; refuses objects that cannot be read and unusable names
stub_load() {
	local obj=""
	S_ASKED=""
	while [ $# -gt 0 ]; do
		case $1 in
		--variant)
			case $2 in fixed) obj=bpf_bic ;; 2611) obj=bpf_bic_2611 ;;
			*) stub_refuse "unknown variant $2"; return ;; esac ;;
		--object)
			case ${2##*/} in
			bic.bpf.o) obj=bpf_bic ;;
			bic_2611.bpf.o) obj=bpf_bic_2611 ;;
			badname.bpf.o) obj=$'bpf\tbic' ;;
			*) stub_refuse "cannot open $2: not a BPF object"; return ;;
			esac ;;
		--name) S_ASKED=$2; stub_name_rule "$2" || return ;;
		*) stub_refuse "unknown argument $1"; return ;;
		esac
		shift 2
	done
	[ -n "$S_ASKED" ] || S_ASKED=$obj
	[[ $S_ASKED != *$'\t'* ]] || stub_refuse "invalid algorithm name: it has a control character"
}

stub_ccctl() {
	# shellcheck disable=SC2034	# the caller's
	S_OUT="" S_ERR="" S_RC=0
	local ns=$1 a i=1
	shift
	for a in "$@"; do
		[[ $a != *[[:cntrl:]]* ]] ||
			{ stub_refuse "argument $i has a control character: refused before anything parses it"; return; }
		i=$((i + 1))
	done
	local cmd=$1
	shift
	"stub_$cmd" "$ns" "$@"
}

stub_register() {
	shift
	stub_load "$@" || return
	local n=$S_ASKED
	! stub_available "$n" || { stub_refuse "$n is already registered"; return; }
	S_regmap[$n]=$S_next_map S_next_map=$((S_next_map + 1))
	if $S_links; then
		S_reglink[$n]=$S_next_link S_next_link=$((S_next_link + 1))
		S_OUT="registered $n: map ${S_regmap[$n]}, link ${S_reglink[$n]}, pinned at /sys/fs/bpf/ccctl/$n/link"
	else
		S_reglink[$n]=0
		S_OUT="registered $n: map ${S_regmap[$n]}, no link (kernel before 6.4), pinned at /sys/fs/bpf/ccctl/$n/map"
	fi
}

stub_unregister() {
	local n=$2 c
	stub_name_rule "$n" || return
	[ -n "${S_regmap[$n]+x}" ] || { stub_refuse "$n is not registered by ccctl (nothing pinned)"; return; }
	[ "$S_definit" != "$n" ] || { stub_refuse "$n is the default congestion control; set-default another first"; return; }
	[ "$S_defns" != "$n" ] || { stub_refuse "$n is the default congestion control of network namespace other"; return; }
	for c in "${!S_nsca[@]}"; do
		[ "${S_nsca[$c]}" != "$n" ] ||
			{ stub_refuse "$n is the default congestion control of network namespace held$c"; return; }
	done
	for c in "${!S_rtca[@]}"; do
		[ "${S_rtca[$c]}" != "$n" ] || { stub_refuse "$n is the congctl of route r$c"; return; }
	done
	for c in "${!S_asg[@]}"; do
		[ "${S_asg[$c]}" != "$n" ] ||
			{ stub_refuse "$n is assigned to cgroup $c; ccctl unassign --cgroup $c first"; return; }
	done
	unset "S_regmap[$n]" "S_reglink[$n]"
	S_OUT="unregistered $n"
}

stub_swap() {
	local n=$2 m
	shift 2
	stub_name_rule "$n" || return
	stub_load "$@" || return
	$S_links || { stub_refuse "cannot swap $n: this kernel cannot update a registered struct_ops"; return; }
	[ -n "${S_regmap[$n]+x}" ] || { stub_refuse "$n is not registered by ccctl"; return; }
	[ "$S_ASKED" = "$n" ] || { stub_refuse "cannot swap $n for $S_ASKED: a swap must keep the name"; return; }
	m=${S_regmap[$n]}
	S_regmap[$n]=$S_next_map S_next_map=$((S_next_map + 1))
	S_OUT="swapped $n: map $m -> ${S_regmap[$n]}, link ${S_reglink[$n]}"
}

stub_migrate() {
	local from=$2 to=$3 i n=0
	stub_name_rule "$from" || return
	stub_name_rule "$to" || return
	[ "$from" != "$to" ] || { stub_refuse "nothing to migrate: FROM and TO are both $from"; return; }
	stub_available "$to" || { stub_refuse "$to is not a registered congestion control"; return; }
	for i in "${!S_hca[@]}"; do
		[ "${S_hca[$i]}" = "$from" ] || continue
		S_hca[$i]=$to S_hmap[$i]=${S_regmap[$to]:-}
		n=$((n + S_hn[$i]))
	done
	S_OUT="moved $n sockets from $from to $to"
}

stub_set-default() {
	local n=$2 m
	stub_name_rule "$n" || return
	stub_available "$n" || { stub_refuse "$n is not available"; return; }
	m=${S_regmap[$n]:-}
	if [ "$1" = ns ]; then
		stub_allowed "$n" || { stub_refuse "$n is not allowed in network namespace other"; return; }
		S_defns=$n S_defns_map=$m
	else
		S_definit=$n S_definit_map=$m
		[ -z "$m" ] || S_allowed[$m]=1
	fi
	S_OUT="default congestion control: $n"
}

stub_list() {
	local n
	S_OUT="NAME MAP_ID LINK_ID SOCKETS DEFAULT PINNED"
	for n in "${!S_regmap[@]}"; do S_OUT+=$'\n'"$n ${S_regmap[$n]}"; done
}

stub_status() {
	stub_name_rule "$2" || return
	[ -n "${S_regmap[$2]+x}" ] || { stub_refuse "$2 is not registered by ccctl"; return; }
	stub_list
}

stub_assign() {
	local n=$2 p=$4 c
	stub_name_rule "$n" || return
	[ -n "${S_regmap[$n]+x}" ] || { stub_refuse "$n is not registered by ccctl (nothing pinned)"; return; }
	stub_cgroup "$p" || return
	[ "${S_asg[$p]:-}" != "$n" ] || { S_OUT="$n is already assigned to $p"; return; }
	[ -z "${S_asg[$p]:-}" ] || { stub_refuse "$p is already assigned to ${S_asg[$p]}; unassign it first"; return; }
	for c in "${!S_asg[@]}"; do
		[[ $p != "$c"/* ]] ||
			{ stub_refuse "cannot assign $n to $p: it is inside $c, which is assigned to ${S_asg[$c]} (assignments cannot nest)"; return; }
		[[ $c != "$p"/* ]] ||
			{ stub_refuse "cannot assign $n to $p: it contains $c, which is assigned to ${S_asg[$c]} (assignments cannot nest)"; return; }
	done
	S_asg[$p]=$n
	S_OUT="assigned $n to $p"
}

stub_unassign() {
	local p=$3
	stub_cgroup "$p" || return
	[ -n "${S_asg[$p]:-}" ] || { stub_refuse "nothing is assigned to $p"; return; }
	S_OUT="unassigned ${S_asg[$p]} from $p"
	unset "S_asg[$p]"
}

stub_hold() {
	local kind=$1 n=$2 ca=$3 p=${4:-} name m
	if [ "$kind" = lo ]; then
		name=$S_definit m=$S_definit_map n=$((2 * n))
	elif [ "$ca" = - ]; then
		name=$S_defns m=$S_defns_map
	else
		# shellcheck disable=SC2034	# the caller's
		stub_available "$ca" || { S_ERR="tcphold: TCP_CONGESTION $ca: No such file or directory"; return 1; }
		name=$ca m=${S_regmap[$ca]:-}
	fi
	# the sock_ops program of the cgroup's assignment, or of one it is in
	while [ -n "$p" ] && [ "$p" != "$STUB_CG" ]; do
		if [ -n "${S_asg[$p]:-}" ]; then
			name=${S_asg[$p]} m=${S_regmap[${S_asg[$p]}]}
			break
		fi
		p=${p%/*}
	done
	S_hkind[$S_next_h]=$kind S_hn[$S_next_h]=$n S_hca[$S_next_h]=$name S_hmap[$S_next_h]=$m
	# shellcheck disable=SC2034	# the caller's
	S_HOLDER=$S_next_h
	S_next_h=$((S_next_h + 1))
}

stub_unhold() {
	unset "S_hkind[$1]" "S_hn[$1]" "S_hca[$1]" "S_hmap[$1]"
}

stub_ns_hold() {
	S_nsca[$S_next_h]=$S_definit S_nsmap[$S_next_h]=$S_definit_map
	# shellcheck disable=SC2034	# the caller's
	S_NSHOLD=$S_next_h
	S_next_h=$((S_next_h + 1))
}

stub_ns_unhold() {
	unset "S_nsca[$1]" "S_nsmap[$1]"
}

stub_route_add() {
	# shellcheck disable=SC2034	# the caller's
	stub_available "$1" || { S_ERR="Error: argument \"$1\" is wrong: invalid congctl"; return 1; }
	S_rtca[$S_next_h]=$1
	# shellcheck disable=SC2034	# the caller's
	S_ROUTE=$S_next_h
	S_next_h=$((S_next_h + 1))
}

stub_route_del() {
	unset "S_rtca[$1]"
}

# stub_joined SEP WORDS...: the words sorted (bytewise, as strcmp; numbers
# by value if SEP is ",#"), joined by SEP, into REPLY
stub_joined() {
	local sep=${1:0:1} num=${1:1} w i LC_ALL=C
	local -a out=()
	shift
	for w in "$@"; do
		i=${#out[@]}
		if [ -n "$num" ]; then
			while [ "$i" -gt 0 ] && [ "${out[i - 1]}" -gt "$w" ]; do out[i]=${out[i - 1]}; i=$((i - 1)); done
		else
			while [ "$i" -gt 0 ] && [[ ${out[i - 1]} > $w ]]; do out[i]=${out[i - 1]}; i=$((i - 1)); done
		fi
		out[i]=$w
	done
	local IFS=$sep
	REPLY="${out[*]}"
}

stub_observe() {
	local -a av=() al=() list=() cgs=() ssns=() sslo=()
	local -A cnt_ns=() cnt_lo=() cnt_all=() live=()
	local n i c d
	for i in "${!S_hca[@]}"; do
		n=${S_hca[$i]}
		if [ "${S_hkind[$i]}" = lo ]; then
			cnt_lo[$n]=$(( ${cnt_lo[$n]:-0} + S_hn[$i] ))
		else
			cnt_ns[$n]=$(( ${cnt_ns[$n]:-0} + S_hn[$i] ))
		fi
		cnt_all[$n]=$(( ${cnt_all[$n]:-0} + S_hn[$i] ))
		[ -z "${S_hmap[$i]}" ] || live[${S_hmap[$i]}]=1
	done
	for n in reno cubic "${!S_regmap[@]}"; do
		av+=("$n")
		! stub_allowed "$n" || al+=("$n")
	done
	for n in "${!S_regmap[@]}"; do
		cgs=()
		for c in "${!S_asg[@]}"; do [ "${S_asg[$c]}" != "$n" ] || cgs+=("$c"); done
		stub_joined + "${cgs[@]}"
		d=false
		[ "$n" != "$S_definit" ] || d=true
		list+=("$n:${S_regmap[$n]}:${S_reglink[$n]}:${cnt_all[$n]:-0}:$d:$REPLY")
		live[${S_regmap[$n]}]=1
	done
	for n in "${!cnt_ns[@]}"; do [ "${cnt_ns[$n]}" -eq 0 ] || ssns+=("$n:${cnt_ns[$n]}"); done
	for n in "${!cnt_lo[@]}"; do [ "${cnt_lo[$n]}" -eq 0 ] || sslo+=("$n:${cnt_lo[$n]}"); done
	[ -z "$S_definit_map" ] || live[$S_definit_map]=1
	[ -z "$S_defns_map" ] || live[$S_defns_map]=1
	for i in "${S_nsmap[@]}"; do [ -z "$i" ] || live[$i]=1; done
	stub_joined , "${av[@]}"; S_LINE="avail=$REPLY"
	stub_joined , "${al[@]}"; S_LINE+=" allowed=$REPLY def=$S_definit defns=$S_defns"
	stub_joined , "${list[@]}"; S_LINE+=" list=$REPLY"
	stub_joined , "${!S_regmap[@]}"; S_LINE+=" pins=$REPLY cglinks=${#S_asg[@]}"
	stub_joined , "${ssns[@]}"; S_LINE+=" ss.ns=$REPLY"
	stub_joined , "${sslo[@]}"; S_LINE+=" ss.lo=$REPLY"
	stub_joined ,# "${!live[@]}"; S_LINE+=" maps=$REPLY"
}
