# shellcheck shell=bash
# t_58's model of ccctl: the operations' language, the state they change,
# what ccctl must answer to each, and the one line the system must then
# read as (ccobserve's, tests/tools/ccobserve.c).
#
# Why here, tests/guest/model/: the generator (gen.sh), this model and the
# shrinker (shrink.sh) are sourced by the guest test (t_58_ccctl_model.sh,
# the driver, which owns everything that touches a kernel) and, on the
# host, by tests/unit/test_model.sh against a stub system
# (tests/unit/model-stub.sh).  They run no process of their own: each
# check after an operation forks only where the system is read (a fork and
# exec is dear in a TCG guest).
#
# What this file needs from its caller (the "system"):
#   cc ARGS... / cc_ns ARGS...	run ccctl in the initial namespace / in
#				SND; set OUT, ERR (one string each) and RC
#   holder KIND N CA [CG]	open N idle connections (KIND ns: SND to
#				RCV; lo: over loopback), CA "-" for the
#				default, from a process of cgroup token CG;
#				HOLDER is a handle, or return 1 with ERR
#   unhold HANDLE		close a holder's connections
#   ns_hold HOW			a new network namespace, its default the
#				initial one's (the kernel copies it), held
#				only HOW: dot (an ip netns entry named
#				.NAME), bind (an nsfs bind mount outside
#				/run/netns), thread (one thread of a
#				process), fd (an open descriptor); NSHOLD a
#				handle, or return 1 with ERR
#   ns_unhold HANDLE		let it go
#   route_add WHERE NAME	a route (WHERE init: in the initial
#				namespace; ns: in SND) whose congctl is
#				NAME; ROUTE a handle, or return 1 with ERR
#   route_del HANDLE		remove it
#   observe			the system's state as one canonical line,
#				into OBSERVED
# and the variables BIC_DIR (where the objects are), TMP, CGROOT, links
# (true: struct_ops links, so swap works), BASE (the kernel's algorithms
# before any registration), BASE_ALLOWED (" the allowed ones, blank-
# delimited ") and ALL (every name a socket can be on, BASE and NAMES,
# LC_ALL=C sorted: the canonical line's order).
#
# Conventions: functions answer in REPLY (a value) or their status; an
# operation sets EXPECT (ok or refused), WANT_OUT/WANT_ERR (glob patterns
# for the one line ccctl prints), MISMATCH (what disagreed) and OPEN_CG
# (the cgroup whose assignment an open went by).

# --- the vocabulary ----------------------------------------------------------
# (NAMES, FORM_OF and CGS are the generator's too; OPEN_CG is the caller's)
# shellcheck disable=SC2034
NAMES=(rnd_a rnd_b bpf_bic bpf_bic_2611)
# Names ccctl must refuse, each breaking one rule; "!N" in an operation.
BADS=("" "a.b" "sp ace" "x/y" "sixteen_bytes_xx" $'ctl\001x')
# What register and swap load: the variant or object, and its own name.
declare -A FORM_ARGS=(
	[fixed]="--variant fixed" [2611]="--variant 2611"
	[obj]="--object $BIC_DIR/bpf/bic.bpf.o"
	[objnl]="--object $BIC_DIR/bpf/nolink/bic.bpf.o"
	[obj2611]="--object $BIC_DIR/bpf/bic_2611.bpf.o"
	[objtab]="--object $BIC_DIR/bpf/test/badname.bpf.o"
	[objbad]="--object $BIC_DIR/suite.conf"
	[objnone]="--object /nonexistent.bpf.o")
declare -A FORM_NAME=([fixed]=bpf_bic [2611]=bpf_bic_2611 [obj]=bpf_bic [objnl]=bpf_bic
	[obj2611]=bpf_bic_2611)	# objtab: a tab in it; objbad, objnone: none
# The form a name's swap without --name takes.
# shellcheck disable=SC2034
declare -A FORM_OF=([bpf_bic]=fixed [bpf_bic_2611]=2611)
# The cgroups assign and unassign name: two siblings and a child of one
# (nesting), a sibling whose name holds bytes JSON must escape (UTF-8, a
# byte that is not UTF-8, a quote: list --json writes them, ccobserve
# reads them back), and two paths that are no cgroup: a directory
# elsewhere and one that does not exist.  CGS is the generator's order (a
# seed's operations depend on it); CG_SORTED the same in the order of
# their paths.
# shellcheck disable=SC2034
CGS=(c1 c2 c1/sub hi)
CG_SORTED=(c1 c1/sub c2 hi)
declare -A CG_PATH=([c1]=$CGROOT/t58-c1 [c2]=$CGROOT/t58-c2 [c1/sub]=$CGROOT/t58-c1/sub
	[hi]=$CGROOT/t58-h$'\xc3\xa9\xe9\xff"q' [tmp]=$TMP [none]=$CGROOT/t58-none)
# How a namespace of its own is held (ns_hold).
# shellcheck disable=SC2034
NS_HOWS=(dot bind thread fd)

# name_of TOKEN: the bytes a name token stands for, into NAME.
name_of() {
	case $1 in
	!*) NAME=${BADS[${1#!}]} ;;
	*) NAME=$1 ;;
	esac
}
is_bad() { [ "${1:0:1}" = "!" ]; }

# --- the state ---------------------------------------------------------------
# An instance is one loaded tcp_congestion_ops (one struct_ops map); a name
# is registered with its current instance; sockets and defaults hold the
# instance they got.  Builtins (cubic, reno) have instance "".  The kernel
# lets another namespace take only an allowed algorithm, and an instance
# becomes allowed for good when it is made a default (tcp_cong.c sets
# TCP_CONG_NON_RESTRICTED on it); a swap's new instance is not.
declare -A reg=() inst_map=() reg_link=() allowed=()
def_init=cubic def_init_inst="" def_ns=cubic def_ns_inst=""
next_inst=1
# Holders: sockets on name h_ca[i] (instance h_inst[i]), h_n[i]
# connections, h_pid[i] the system's handle: kind ns (sender ends in SND;
# receivers on cubic) or lo (both ends in the initial namespace).
declare -A h_pid=() h_ca=() h_inst=() h_n=() h_kind=()
next_holder=0
# Assignments: the algorithm each cgroup of CGS is assigned (by name: a
# swap keeps them).  A connection a process of the cgroup, or of one below
# it, establishes gets it, whatever the socket had before connect.
declare -A asg=()
# Namespaces held by ns_hold: the default each got from the initial one
# (name and instance) and the system's handle; none has sockets.
declare -A ns_h=() ns_ca=() ns_inst=()
next_ns=0
# Routes whose congctl names an algorithm (by name: a swap keeps them).
declare -A rt_h=() rt_ca=()
next_rt=0
# PLANT=default-unregister: the model forgets that the default cannot be
# unregistered (the shrinker's self-test).
PLANT=${PLANT:-}

model_reset() {
	reg=() inst_map=() reg_link=() allowed=() asg=()
	h_pid=() h_ca=() h_inst=() h_n=() h_kind=()
	ns_h=() ns_ca=() ns_inst=() rt_h=() rt_ca=()
	def_init=cubic def_init_inst="" def_ns=cubic def_ns_inst=""
}

available() {
	[ -n "${reg[$1]+x}" ] || [[ " ${BASE[*]} " == *" $1 "* ]]
}

is_allowed() {
	if [ -n "${reg[$1]+x}" ]; then
		[ -n "${allowed[${reg[$1]}]+x}" ]
	else
		[[ $BASE_ALLOWED == *" $1 "* ]]
	fi
}

# A namespace ns_hold made has NAME as its default.
held_default() {
	local i
	for i in "${!ns_h[@]}"; do [ "${ns_ca[$i]}" = "$1" ] && return 0; done
	return 1
}

# A route's congctl names NAME.
routed() {
	local i
	for i in "${!rt_h[@]}"; do [ "${rt_ca[$i]}" = "$1" ] && return 0; done
	return 1
}

is_assigned() {
	local c
	for c in "${!asg[@]}"; do [ "${asg[$c]}" = "$1" ] && return 0; done
	return 1
}

# cg_ca CG: the algorithm new connections of the cgroup's processes get by
# its own assignment or that of a cgroup it is in, into REPLY ("": none).
cg_ca() {
	local c=$1
	REPLY=${asg[$c]:-}
	while [ -z "$REPLY" ] && [[ $c == */* ]]; do
		c=${c%/*}
		REPLY=${asg[$c]:-}
	done
}

# sockets_on NAME KIND: sockets on NAME the model has, into REPLY (KIND
# ns: SND, lo: the initial namespace, all: every namespace).
sockets_on() {
	local i n=0
	for i in "${!h_pid[@]}"; do
		[ "${h_ca[$i]}" = "$1" ] || continue
		case $2:${h_kind[$i]} in
		ns:ns | all:ns) n=$((n + h_n[$i])) ;;
		lo:lo | all:lo) n=$((n + 2 * h_n[$i])) ;;
		esac
	done
	REPLY=$n
}

model_asg() {
	local c
	for c in "${!asg[@]}"; do printf '%s=%s ' "$c" "${asg[$c]}"; done
}

# --- the canonical line --------------------------------------------------------
# model_line: the state as ccobserve prints it, into REPLY: space-separated
# fields, each KEY=VALUE, lists comma-separated and sorted (names in C
# order, ids by number):
#   avail=	tcp_available_congestion_control
#   allowed=	tcp_allowed_congestion_control
#   def=	the initial namespace's default
#   defns=	SND's default
#   list=	ccctl list --json: NAME:MAP:LINK:SOCKETS:DEFAULT:CGROUPS per
#		name, CGROUPS its cgroups' paths joined by "+"
#   pins=	the names under /sys/fs/bpf/ccctl
#   cglinks=	the kernel's cgroup BPF links
#   ss.ns=	NAME:N for each algorithm SND's sockets are on, as ss shows
#   ss.lo=	the same in the initial namespace
#   maps=	the ids of the struct_ops maps alive
model_line() {
	local n c s av="" al="" list="" pins="" ssns="" sslo="" maps="" cgs
	local -a live=()
	for n in "${ALL[@]}"; do
		available "$n" || continue
		av+=,$n
		is_allowed "$n" && al+=,$n
		[ -n "${reg[$n]+x}" ] || continue
		pins+=,$n
		cgs=""
		for c in "${CG_SORTED[@]}"; do
			[ "${asg[$c]:-}" = "$n" ] && cgs+=+${CG_PATH[$c]}
		done
		sockets_on "$n" all
		s=false
		[ "$n" = "$def_init" ] && s=true
		list+=",$n:${inst_map[${reg[$n]}]}:${reg_link[$n]}:$REPLY:$s:${cgs#+}"
	done
	for n in "${ALL[@]}"; do
		sockets_on "$n" ns
		[ "$REPLY" -eq 0 ] || ssns+=",$n:$REPLY"
		sockets_on "$n" lo
		[ "$REPLY" -eq 0 ] || sslo+=",$n:$REPLY"
	done
	# the instances alive: those registered, and the old ones a socket
	# or a default still runs on (an indexed array lists ids in order)
	for n in "${reg[@]}" "${h_inst[@]}" "${ns_inst[@]}" "$def_init_inst" "$def_ns_inst"; do
		[ -n "$n" ] && live[${inst_map[$n]}]=1
	done
	for n in "${!live[@]}"; do maps+=,$n; done
	REPLY="avail=${av#,} allowed=${al#,} def=$def_init defns=$def_ns list=${list#,}"
	REPLY+=" pins=${pins#,} cglinks=${#asg[@]} ss.ns=${ssns#,} ss.lo=${sslo#,} maps=${maps#,}"
}

# agree: the system reads as the model's line; else MISMATCH names the
# first field that differs (and the model's assignments, for the cgroups).
agree() {
	local -a sys mod
	local i
	observe
	model_line
	[ "$OBSERVED" = "$REPLY" ] && return 0
	read -ra sys <<< "$OBSERVED"
	read -ra mod <<< "$REPLY"
	MISMATCH="system: '$OBSERVED', model: '$REPLY'"
	for i in "${!mod[@]}"; do
		[ "${sys[i]:-}" = "${mod[i]}" ] && continue
		MISMATCH="${mod[i]%%=*}: system '${sys[i]:-}', model '${mod[i]}'"
		case ${mod[i]} in list=* | cglinks=*) MISMATCH+=" (assigned: $(model_asg))" ;; esac
		break
	done
	return 1
}

# --- running one operation -------------------------------------------------
# lines TEXT: how many lines TEXT has (a last one without its newline
# counts), into REPLY, without a process.
lines() {
	local nl=${1//[!$'\n']/}
	REPLY=${#nl}
	[ -z "$1" ] || [ "${1: -1}" = $'\n' ] || REPLY=$((REPLY + 1))
}

# outcome: did ccctl do what EXPECT says, in the one-line form?
outcome() {
	local nerr nout
	lines "$ERR"; nerr=$REPLY
	lines "$OUT"; nout=$REPLY
	if [ "$EXPECT" = refused ]; then
		# shellcheck disable=SC2053	# WANT_ERR is a pattern
		[ "$RC" -ne 0 ] && [ "$nerr" -eq 1 ] && [ "$nout" -eq 0 ] &&
			[[ $ERR == ${WANT_ERR:-*} ]] && return 0
		MISMATCH="expected a refusal in one line"
		[ -z "$WANT_ERR" ] || MISMATCH+=" like '$WANT_ERR'"
		MISMATCH+="; got rc=$RC, stdout '$OUT', stderr '$ERR'"
		return 1
	fi
	# shellcheck disable=SC2053	# WANT_OUT is a pattern
	[ "$RC" -eq 0 ] && [ -z "$ERR" ] && [ "$nout" -le 1 ] && [[ $OUT == $WANT_OUT ]] && return 0
	MISMATCH="expected success ('$WANT_OUT'); got rc=$RC, stdout '$OUT', stderr '$ERR'"
	return 1
}

# load_args FORM TOK: in ARGS, ccctl's arguments that load FORM under the
# name TOK stands for ("-": the object's own name), and that name in LOADNAME.
load_args() {
	read -ra ARGS <<< "${FORM_ARGS[$1]}"
	if [ "$2" = - ]; then
		LOADNAME=${FORM_NAME[$1]:-}
	else
		name_of "$2"; LOADNAME=$NAME
		ARGS+=(--name "$LOADNAME")
	fi
}

op_reg() {
	local form=$1 tok=$2 name
	load_args "$form" "$tok"; name=$LOADNAME
	EXPECT=refused
	if [ "$tok" != - ] && is_bad "$tok"; then :
	elif [ -z "$name" ]; then :		# an object without a usable name
	elif [ "$form" = objbad ] || [ "$form" = objnone ]; then :
	elif available "$name"; then :
	else EXPECT=ok; WANT_OUT="registered $name: map *"
	fi
	cc register "${ARGS[@]}"
	outcome || return 1
	[ "$EXPECT" = ok ] || return 0
	local id=${OUT#*: map } link=0
	id=${id%%[!0-9]*}
	# shellcheck disable=SC2154	# the caller's
	if $links; then link=${OUT#*, link }; link=${link%%,*}; fi
	reg[$name]=$next_inst inst_map[$next_inst]=$id reg_link[$name]=$link
	next_inst=$((next_inst + 1))
}

op_unreg() {
	name_of "$1"
	local name=$NAME
	EXPECT=refused
	if is_bad "$1" || [ -z "${reg[$name]+x}" ]; then :
	elif [ "$def_init" = "$name" ] && [ "$PLANT" != default-unregister ]; then :
	elif [ "$def_ns" = "$name" ]; then :	# another namespace's default
	elif held_default "$name"; then :	# one held only by ns_hold's way
	elif routed "$name"; then :		# a route's congctl
	elif is_assigned "$name"; then
		[ "$def_init" = "$name" ] ||
			WANT_ERR="ccctl: $name is assigned to cgroup *; ccctl unassign --cgroup * first"
	else EXPECT=ok; WANT_OUT="unregistered $name"
	fi
	cc unregister "$name"
	outcome || return 1
	[ "$EXPECT" = ok ] && unset "reg[$name]" "reg_link[$name]"
	return 0
}

op_swap() {
	local tok=$1 form=$2 ntok=$3 name new
	name_of "$tok"; name=$NAME
	load_args "$form" "$ntok"; new=$LOADNAME
	EXPECT=refused
	if is_bad "$tok" || { [ "$ntok" != - ] && is_bad "$ntok"; }; then :
	elif ! $links || [ -z "${reg[$name]+x}" ]; then :
	elif [ "$form" = objbad ] || [ "$form" = objnone ] || [ "$new" != "$name" ]; then :
	else EXPECT=ok; WANT_OUT="swapped $name: map ${inst_map[${reg[$name]}]} -> * link ${reg_link[$name]}"
	fi
	cc swap "$name" "${ARGS[@]}"
	outcome || return 1
	[ "$EXPECT" = ok ] || return 0
	local id=${OUT#* -> }
	reg[$name]=$next_inst inst_map[$next_inst]=${id%%,*}
	next_inst=$((next_inst + 1))
}

op_mig() {
	local from to i
	name_of "$1"; from=$NAME
	name_of "$2"; to=$NAME
	EXPECT=refused
	if is_bad "$1" || is_bad "$2" || [ "$from" = "$to" ] || ! available "$to"; then :
	else
		sockets_on "$from" all
		EXPECT=ok; WANT_OUT="moved $REPLY sockets from $from to $to"
	fi
	cc migrate "$from" "$to"
	outcome || return 1
	[ "$EXPECT" = ok ] || return 0
	for i in "${!h_pid[@]}"; do
		[ "${h_ca[$i]}" = "$from" ] || continue
		h_ca[$i]=$to h_inst[$i]=${reg[$to]:-}
	done
}

op_def() {
	name_of "$1"
	local name=$NAME
	EXPECT=refused
	if ! is_bad "$1" && available "$name"; then
		EXPECT=ok; WANT_OUT="default congestion control: $name"
	fi
	cc set-default "$name"
	outcome || return 1
	[ "$EXPECT" = ok ] || return 0
	def_init=$name def_init_inst=${reg[$name]:-}
	[ -n "$def_init_inst" ] && allowed[$def_init_inst]=1
	return 0
}

# Another namespace takes only an allowed algorithm (ccctl asks first: the
# kernel's EPERM there leaks a reference on some kernels: EPERM_LEAK).
op_defns() {
	local name=$1
	EXPECT=refused
	if available "$name" && is_allowed "$name"; then
		EXPECT=ok; WANT_OUT="default congestion control: $name"
	fi
	cc_ns set-default "$name"
	outcome || return 1
	[ "$EXPECT" = ok ] && def_ns=$name def_ns_inst=${reg[$name]:-}
	return 0
}

op_status() {
	if [ "$1" = list ]; then
		EXPECT=ok WANT_OUT="*"
		cc list
	else
		name_of "$2"
		EXPECT=refused WANT_OUT="*"
		! is_bad "$2" && [ -n "${reg[$NAME]+x}" ] && EXPECT=ok
		cc status "$NAME"
	fi
	# the table: a header and one line per name; outcome() wants one line
	[ "$RC" -eq 0 ] && OUT=${OUT%%$'\n'*}
	outcome
}

# op_assign NAME_TOKEN CG: ccctl checks the name, then the path, then what
# is assigned already; the refusal says which.
op_assign() {
	local tok=$1 cg=$2 name path=${CG_PATH[$2]} t rel
	name_of "$tok"; name=$NAME
	EXPECT=refused
	if is_bad "$tok"; then
		# a control character is refused before any name is parsed
		case $name in
		*[[:cntrl:]]*) WANT_ERR="ccctl: argument 2 has a control character *" ;;
		*) WANT_ERR="ccctl: invalid algorithm name *" ;;
		esac
	elif [ -z "${reg[$name]+x}" ]; then WANT_ERR="ccctl: $name is not registered by ccctl *"
	elif [ "$cg" = tmp ]; then WANT_ERR="ccctl: $path is not a cgroup *"
	elif [ "$cg" = none ]; then WANT_ERR="ccctl: cannot find cgroup $path: *"
	elif [ "${asg[$cg]:-}" = "$name" ]; then
		EXPECT=ok WANT_OUT="$name is already assigned to $path"
	elif [ -n "${asg[$cg]:-}" ]; then
		WANT_ERR="ccctl: $path is already assigned to ${asg[$cg]}; unassign it first"
	else
		EXPECT=ok WANT_OUT="assigned $name to $path"
		for t in "${!asg[@]}"; do
			if [[ $cg == "$t"/* ]]; then rel="is inside"
			elif [[ $t == "$cg"/* ]]; then rel=contains
			else continue
			fi
			EXPECT=refused
			WANT_ERR="ccctl: cannot assign $name to $path: it $rel ${CG_PATH[$t]}, which is assigned to ${asg[$t]} (assignments cannot nest)"
		done
	fi
	cc assign "$name" --cgroup "$path"
	outcome || return 1
	[ "$EXPECT" = ok ] && asg[$cg]=$name
	return 0
}

op_unassign() {
	local cg=$1 path=${CG_PATH[$1]}
	EXPECT=refused
	if [ "$cg" = tmp ]; then WANT_ERR="ccctl: $path is not a cgroup *"
	elif [ "$cg" = none ]; then WANT_ERR="ccctl: cannot find cgroup $path: *"
	elif [ -z "${asg[$cg]:-}" ]; then WANT_ERR="ccctl: nothing is assigned to $path"
	else EXPECT=ok WANT_OUT="unassigned ${asg[$cg]} from $path"
	fi
	cc unassign --cgroup "$path"
	outcome || return 1
	[ "$EXPECT" = ok ] && unset "asg[$cg]"
	return 0
}

# From a cgroup assigned an algorithm, the connections come up on it, not
# on what tcphold set before connect (the sock_ops program runs when each is
# established); tcphold fails as before when that is not available.
op_open() {
	local n=$1 ca=$2 cg=${3:-} name inst want=fail gov=""
	if [ "$ca" = default ]; then
		name=$def_ns inst=$def_ns_inst
	else
		name=$ca inst=${reg[$ca]:-}
	fi
	available "$name" && want=hold
	if [ -n "$cg" ]; then
		cg_ca "$cg"
		[ -n "$REPLY" ] && name=$REPLY inst=${reg[$REPLY]} gov=$cg
	fi
	if holder ns "$n" "${ca/default/-}" "$cg"; then
		[ "$want" = hold ] || { MISMATCH="tcphold held $n on $ca, which is not available"; return 1; }
	else
		[ "$want" = fail ] || { MISMATCH="tcphold could not hold $n on $ca: $ERR"; return 1; }
		return 0
	fi
	h_pid[$next_holder]=$HOLDER h_ca[$next_holder]=$name h_inst[$next_holder]=$inst
	h_n[$next_holder]=$n h_kind[$next_holder]=ns
	next_holder=$((next_holder + 1))
	OPEN_CG=$gov
}

# Over loopback both ends take the initial namespace's default: the
# connecting socket when it is made, the accepted one from the listener,
# which was never given an algorithm of its own.
op_lo() {
	if ! holder lo "$1" -; then
		MISMATCH="tcphold could not hold $1 loopback connections: $ERR"
		return 1
	fi
	h_pid[$next_holder]=$HOLDER h_ca[$next_holder]=$def_init h_inst[$next_holder]=$def_init_inst
	h_n[$next_holder]=$1 h_kind[$next_holder]=lo
	next_holder=$((next_holder + 1))
}

# nth ARRAY N: KEY becomes the index of ARRAY's element N (modulo how
# many it has), in the order bash lists them; false if it has none.  How
# close, nsdel and unroute pick what to drop.
nth() {
	local -n nth_arr=$1
	local ids=("${!nth_arr[@]}")
	[ "${#ids[@]}" -gt 0 ] || return 1
	KEY=${ids[$2 % ${#ids[@]}]}
}

op_close() {
	nth h_pid "$1" || return 0
	unhold "${h_pid[$KEY]}"
	unset "h_pid[$KEY]" "h_ca[$KEY]" "h_inst[$KEY]" "h_n[$KEY]" "h_kind[$KEY]"
}

# A namespace held one way or another gets the initial one's default.
op_nsadd() {
	if ! ns_hold "$1"; then
		MISMATCH="cannot hold a namespace by $1: $ERR"
		return 1
	fi
	ns_h[$next_ns]=$NSHOLD ns_ca[$next_ns]=$def_init ns_inst[$next_ns]=$def_init_inst
	next_ns=$((next_ns + 1))
}

op_nsdel() {
	nth ns_h "$1" || return 0
	ns_unhold "${ns_h[$KEY]}"
	unset "ns_h[$KEY]" "ns_ca[$KEY]" "ns_inst[$KEY]"
}

# The kernel takes a route's congctl only for an algorithm it has.
op_route() {
	local where=$1 tok=$2 want=fail
	name_of "$tok"
	! is_bad "$tok" && available "$NAME" && want=ok
	if route_add "$where" "$NAME"; then
		[ "$want" = ok ] || { MISMATCH="a route took congctl '$NAME', which is not available"; return 1; }
	else
		[ "$want" = fail ] || { MISMATCH="no route with congctl $NAME: $ERR"; return 1; }
		return 0
	fi
	rt_h[$next_rt]=$ROUTE rt_ca[$next_rt]=$NAME
	next_rt=$((next_rt + 1))
}

op_unroute() {
	nth rt_h "$1" || return 0
	route_del "${rt_h[$KEY]}"
	unset "rt_h[$KEY]" "rt_ca[$KEY]"
}

# run_op OP: run one operation against the system and the model; false,
# with MISMATCH, when ccctl or tcphold did not do what the model said.
run_op() {
	local words
	read -ra words <<< "$1"
	# shellcheck disable=SC2034
	MISMATCH="" EXPECT="" WANT_ERR="" OPEN_CG=""
	case ${words[0]} in
	reg) op_reg "${words[1]}" "${words[2]}" ;;
	unreg) op_unreg "${words[1]}" ;;
	swap) op_swap "${words[1]}" "${words[2]}" "${words[3]}" ;;
	mig) op_mig "${words[1]}" "${words[2]}" ;;
	def) op_def "${words[1]}" ;;
	defns) op_defns "${words[1]}" ;;
	list | status) op_status "${words[@]}" ;;
	assign) op_assign "${words[1]}" "${words[2]}" ;;
	unassign) op_unassign "${words[1]}" ;;
	open) op_open "${words[1]}" "${words[2]}" "${words[3]:-}" ;;
	lo) op_lo "${words[1]}" ;;
	close) op_close "${words[1]}" ;;
	nsadd) op_nsadd "${words[1]}" ;;
	nsdel) op_nsdel "${words[1]}" ;;
	route) op_route "${words[1]}" "${words[2]}" ;;
	unroute) op_unroute "${words[1]}" ;;
	*) MISMATCH="unknown operation '$1'"; return 1 ;;
	esac
}
