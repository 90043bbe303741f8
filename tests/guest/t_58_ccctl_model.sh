#!/bin/bash
# Random ccctl commands against a model of what they should do.
#
# A seeded generator draws operations: register (every variant and object
# form, good and bad names, bad objects), unregister, swap, migrate,
# set-default in the initial namespace and in another one, status and list,
# assign and unassign (cgroup2, mounted here if it is not: two sibling
# cgroups and a child of one, so that assignments would nest, and two paths
# that are no cgroup), and opening and closing idle connections
# (tests/tools/tcphold) on a chosen algorithm or the default, between two
# namespaces (from a process of one of the cgroups, or not) and over
# loopback.  The model says, for each, whether ccctl succeeds (one line on
# stdout: the registered map, how many sockets migrate moved, the cgroup
# assigned) or refuses (one line on stderr, nothing on stdout; for assign,
# unassign and an unregister of an assigned algorithm, the line says why:
# a bad name, one ccctl did not register, no cgroup, the same or another
# assignment there, nesting, nothing assigned), and then what must hold:
#   - the kernel's list of algorithms is the baseline plus the registered,
#     and its allowed list those of them made a default once (the kernel
#     marks an algorithm allowed when it becomes a default; a swap's new
#     instance is not), which only another namespace may take;
#   - the initial namespace's default and the other's are the model's, and
#     neither can be unregistered;
#   - `ccctl list --json` shows exactly the registered names, each with its
#     map, its default flag, the number of sockets on it (every namespace)
#     and the cgroups assigned it, and the pins under /sys/fs/bpf/ccctl are
#     those names; the kernel has one cgroup BPF link per assignment;
#   - a connection established by a process of an assigned cgroup, or of
#     one below it, is on the cgroup's algorithm (its current instance),
#     even when tcphold set another with TCP_CONGESTION before connect:
#     the sock_ops program runs at establishment; those before keep theirs;
#   - ss in each namespace shows as many sockets on each algorithm as the
#     model has there;
#   - bpftool's struct_ops maps are exactly the live instances: those
#     registered, and the old ones still used by a socket or a default (a
#     swap or an unregister leaves those running on what they had).
# Freeing a map waits for an RCU grace period and a reset peer's socket goes
# in softirq, so a state that disagrees is read again for up to 10 s before
# it counts as a failure; no wait is ever taken as a pass.
#
# The run stops at the first disagreement and shrinks the operations up to
# it to a short sequence that still fails (delta debugging, each candidate
# replayed from a clean state, within SHRINK_SECS), printed as the
# MODEL_REPLAY that runs it again (a clean state unassigns every cgroup
# and kills the holders too).  First, on the primary kernel, a planted
# model bug (the model forgets that the default cannot be unregistered)
# proves that a disagreement is caught and shrunk to the 3 operations that
# need it.  A run proves something only where it went: it must have done
# each kind of operation both ways (registered and refused, assigned and
# refused, unassigned and refused, ...) and opened connections from an
# assigned cgroup, and goes on past its time until it has, up to three
# times as long and at least 60 s: a 10 s run needs 17-27 s for its 18
# kinds (measured on 6.1 and 7.3), more on a loaded host.
#
# MODEL_SECS (suite.conf, from MODEL_SECS_K in vm-image/versions.mk) or
# MODEL_OPS bounds the run; MODEL_SEED picks the sequence (default: a
# fresh one, printed).  make model runs thousands.  An operation with its
# checks takes about half a second in a TCG guest.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

env_secs=${MODEL_SECS:-} env_ops=${MODEL_OPS:-}
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"
MODEL_SECS=${env_secs:-${MODEL_SECS:-60}}
MAX_SECS=$((3 * MODEL_SECS > 60 ? 3 * MODEL_SECS : 60))
MODEL_OPS=${env_ops:-0}
MODEL_SEED=${MODEL_SEED:-$(( RANDOM << 15 | RANDOM ))}
SHRINK_SECS=${SHRINK_SECS:-240}
MODEL_REPLAY=${MODEL_REPLAY:-}
PLANT=""

pins=/sys/fs/bpf/ccctl
NS_PORT=7100 LO_PORT=7101
TMP=/tmp/t58
mkdir -p "$TMP"
links=false
has_struct_ops_links && links=true

# --- the vocabulary ----------------------------------------------------------
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
declare -A FORM_OF=([bpf_bic]=fixed [bpf_bic_2611]=2611)
# shellcheck disable=SC2034	# read through pick's nameref
FORMS=(fixed 2611 obj objnl obj2611 fixed 2611 objtab objbad objnone)
# The cgroups assign and unassign name: two siblings and a child of one
# (nesting), and two paths that are no cgroup: a directory elsewhere and
# one that does not exist.
CGROOT=/sys/fs/cgroup
CGS=(c1 c2 c1/sub)
declare -A CG_PATH=([c1]=$CGROOT/t58-c1 [c2]=$CGROOT/t58-c2 [c1/sub]=$CGROOT/t58-c1/sub
	[tmp]=$TMP [none]=$CGROOT/t58-none)
# shellcheck disable=SC2034	# read through pick's nameref
CG_TOKS=(c1 c2 c1/sub c1 c2 c1/sub c1/sub tmp none)

# pick ARRAY_NAME: one element, at random (the generator's own RANDOM).
pick() {
	local -n arr=$1
	REPLY=${arr[RANDOM % ${#arr[@]}]}
}

# A name as an operation writes it: mostly from NAMES, some builtin, some
# bad.  Half the time one of NAMES is drawn from those the model has
# registered (or, for WANT free, those it has not), so that operations that
# succeed are as common as refusals.  The draw depends only on the seed and
# the operations so far: a seed replays.
gen_name() {	# PCT_BUILTIN PCT_BAD [WANT: reg|free]
	local r=$((RANDOM % 100)) n
	local -a from=()
	if [ -n "${3:-}" ] && ((RANDOM % 2)); then
		for n in "${NAMES[@]}"; do
			if [ -n "${reg[$n]+x}" ]; then
				[ "$3" = reg ] && from+=("$n")
			else
				[ "$3" = free ] && from+=("$n")
			fi
		done
		if [ "${#from[@]}" -gt 0 ]; then
			pick from
			return
		fi
	fi
	if [ "$r" -lt "$2" ]; then
		REPLY="!$((RANDOM % ${#BADS[@]}))"
	elif [ "$r" -lt $(($1 + $2)) ]; then
		if ((RANDOM % 2)); then REPLY=cubic; else REPLY=reno; fi
	else
		pick NAMES
	fi
}

# gen_op: the next operation from the seeded stream, into OP.
gen_op() {
	local r=$((RANDOM % 100)) a b c
	if [ "$r" -lt 12 ]; then
		pick FORMS; a=$REPLY
		if ((RANDOM % 5 < 2)); then b=-; else gen_name 5 10 free; b=$REPLY; fi
		OP="reg $a $b"
	elif [ "$r" -lt 21 ]; then
		gen_name 10 10 reg; OP="unreg $REPLY"
	elif [ "$r" -lt 28 ]; then
		gen_name 0 10 reg; a=$REPLY
		pick FORMS; b=$REPLY
		c=$((RANDOM % 5))
		if [ "$c" -lt 3 ]; then c=$a; elif [ "$c" -eq 3 ]; then c=-; else pick NAMES; c=$REPLY; fi
		OP="swap $a $b $c"
	elif [ "$r" -lt 38 ]; then
		# never from cubic: the receivers' sockets and the listeners stay on it
		gen_name 0 5 reg; a=$REPLY
		((RANDOM % 4)) || a=reno
		gen_name 20 0 reg; b=$REPLY
		OP="mig $a $b"
	elif [ "$r" -lt 45 ]; then
		gen_name 25 5 reg; OP="def $REPLY"
	elif [ "$r" -lt 50 ]; then
		gen_name 50 0; OP="defns $REPLY"
	elif [ "$r" -lt 55 ]; then
		if ((RANDOM % 2)); then OP=list; else gen_name 10 10; OP="status $REPLY"; fi
	elif [ "$r" -lt 63 ]; then
		gen_name 10 5 reg; a=$REPLY
		pick CG_TOKS; OP="assign $a $REPLY"
	elif [ "$r" -lt 68 ]; then
		pick CG_TOKS; OP="unassign $REPLY"
	elif [ "$r" -lt 83 ]; then
		a=$((RANDOM % 3 + 1))
		gen_name 15 0 reg; b=$REPLY
		((RANDOM % 6)) || b=default
		# half from a process of one of the cgroups
		if ((RANDOM % 2)); then pick CGS; OP="open $a $b $REPLY"; else OP="open $a $b"; fi
	elif [ "$r" -lt 88 ]; then
		OP="lo $((RANDOM % 2 + 1))"
	else
		OP="close $((RANDOM % 8))"
	fi
}

# gen_missing: an operation that, by the model, does a kind of MUST the run
# has not done yet (or prepares it), into OP.  Every third operation is one
# while any is missing, every other one from the 16th (about 10 s), so that
# a short run still goes everywhere (18 kinds with assign: every fourth left
# a 10 s run needing most of its 30 s); which depends only on the operations
# so far, so a seed still replays.
gen_missing() {
	local k n c free="" nondef="" swappable="" some="" assigned="" governed="" to_assign to_free
	for n in "${NAMES[@]}"; do
		if [ -z "${reg[$n]+x}" ]; then
			free=${free:-$n}
			continue
		fi
		some=${some:-$n}
		[ "$n" = "$def_init" ] || [ "$n" = "$def_ns" ] || is_assigned "$n" ||
			nondef=${nondef:-$n}
		[ -n "${FORM_OF[$n]:-}" ] && swappable=${swappable:-$n}
	done
	for c in "${CGS[@]}"; do
		[ -n "${asg[$c]:-}" ] && assigned=${assigned:-$c}
		cg_ca "$c"; [ -n "$REPLY" ] && governed=${governed:-$c}
	done
	# an assign that succeeds, or what prepares one: c2 has no parent or
	# child among them, so it is free unless assigned itself
	if [ -z "$some" ]; then
		to_assign="reg fixed $free"
	elif [ -n "${asg[c2]:-}" ]; then
		to_assign="unassign c2"
	else
		to_assign="assign $some c2"
	fi
	# what lets a name be unregistered, when none can be
	if [ -n "$nondef" ]; then
		to_free="unreg $nondef"
	elif [ -n "$assigned" ]; then
		to_free="unassign $assigned"
	elif [ -n "${reg[$def_init]+x}" ]; then
		to_free="def reno"
	else
		to_free="defns reno"
	fi
	for k in "${MUST[@]}"; do
		[ "${tally[$k]:-0}" -eq 0 ] || continue
		case $k in
		reg:ok) [ -n "$free" ] && OP="reg fixed $free" || OP=$to_free ;;
		reg:refused) OP="reg fixed !1" ;;
		unreg:ok)
			if [ -n "$nondef" ]; then OP="unreg $nondef"
			elif [ -n "$free" ]; then OP="reg fixed $free"
			else OP=$to_free
			fi ;;
		unreg:refused) OP="unreg !2" ;;
		mig:ok) OP="mig bpf_bic reno" ;;
		mig:refused) OP="mig reno !0" ;;
		def:ok) OP="def reno" ;;
		def:refused) OP="def !3" ;;
		defns:ok) OP="defns reno" ;;
		defns:refused)
			OP="defns rnd_a"
			for n in "${NAMES[@]}"; do
				available "$n" && is_allowed "$n" && continue
				OP="defns $n"
				break
			done ;;
		assign:ok) OP=$to_assign ;;
		assign:refused) OP="assign rnd_a tmp" ;;
		unassign:ok) [ -n "$assigned" ] && OP="unassign $assigned" || OP=$to_assign ;;
		unassign:refused) OP="unassign tmp" ;;
		# a connection that asks for reno itself and lands on the cgroup's
		open:cg) [ -n "$governed" ] && OP="open 1 reno $governed" || OP=$to_assign ;;
		open) OP="open 1 default" ;;
		lo) OP="lo 1" ;;
		close) OP="close 0" ;;
		swap:ok)
			if [ -n "$swappable" ]; then
				OP="swap $swappable ${FORM_OF[$swappable]} -"
			else
				OP="reg fixed -"
				[ -n "${reg[bpf_bic]+x}" ] && OP="unreg bpf_bic"
			fi ;;
		esac
		return
	done
}

# name_of TOKEN: the bytes a name token stands for, into NAME.
name_of() {
	case $1 in
	!*) NAME=${BADS[${1#!}]} ;;
	*) NAME=$1 ;;
	esac
}
is_bad() { [ "${1:0:1}" = "!" ]; }

# --- the model -----------------------------------------------------------------
# An instance is one loaded tcp_congestion_ops (one struct_ops map); a name
# is registered with its current instance; sockets and defaults hold the
# instance they got.  Builtins (cubic, reno) have instance "".  The kernel
# lets another namespace take only an allowed algorithm, and an instance
# becomes allowed for good when it is made a default (tcp_cong.c sets
# TCP_CONG_NON_RESTRICTED on it); a swap's new instance is not.
declare -A reg=() inst_map=() reg_link=() allowed=()
def_init=cubic def_init_inst="" def_ns=cubic def_ns_inst=""
next_inst=1
# Holders: one tcphold each; sockets on name h_ca[i] (instance h_inst[i]),
# h_n[i] connections: kind ns (sender ends in SND; receivers on cubic) or lo
# (both ends in the initial namespace).
declare -A h_pid=() h_ca=() h_inst=() h_n=() h_kind=()
next_holder=0
# Assignments: the algorithm each cgroup of CGS is assigned (by name: a
# swap keeps them).  A connection a process of the cgroup, or of one below
# it, establishes gets it, whatever the socket had before connect.
declare -A asg=()

model_reset() {
	reg=() inst_map=() reg_link=() allowed=() asg=()
	h_pid=() h_ca=() h_inst=() h_n=() h_kind=()
	def_init=cubic def_init_inst="" def_ns=cubic def_ns_inst=""
}

available() {
	[ -n "${reg[$1]+x}" ] || [[ $BASE_AVAIL == *" $1 "* ]]
}

is_allowed() {
	if [ -n "${reg[$1]+x}" ]; then
		[ -n "${allowed[${reg[$1]}]+x}" ]
	else
		[[ $BASE_ALLOWED == *" $1 "* ]]
	fi
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
# ns: SND, lo: the initial namespace, all: every namespace).  The checks
# after every operation run no process they can do without: a fork and exec
# costs ~10 ms in a TCG guest, jq ~250 ms.
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

# live_maps: map ids of the instances alive, as the keys of LIVE.
live_maps() {
	local i
	LIVE=()
	for i in "${reg[@]}"; do LIVE[${inst_map[$i]}]=1; done
	for i in "${h_inst[@]}"; do [ -n "$i" ] && LIVE[${inst_map[$i]}]=1; done
	[ -n "$def_init_inst" ] && LIVE[${inst_map[$def_init_inst]}]=1
	[ -n "$def_ns_inst" ] && LIVE[${inst_map[$def_ns_inst]}]=1
}

# --- running one operation -------------------------------------------------
# Each sets EXPECT (ok or refused) and, for ok, WANT_OUT (a pattern for the
# one line on stdout), then runs the command and applies it to the model
# if it did what the model said.  MISMATCH says what did not.

# cc ARGS...: run ccctl; OUT, ERR and RC.
cc() {
	RC=0
	OUT=$(ccctl "$@" 2> "$TMP/err") || RC=$?
	ERR=$(< "$TMP/err")
}
cc_ns() {
	RC=0
	OUT=$(in_snd ccctl "$@" 2> "$TMP/err") || RC=$?
	ERR=$(< "$TMP/err")
}

# outcome: did ccctl do what EXPECT says, in the one-line form?
outcome() {
	local nerr nout
	nerr=$(printf '%s' "$ERR" | grep -c '')
	nout=$(printf '%s' "$OUT" | grep -c '')
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
	local from to i n
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
		WANT_ERR="ccctl: $name is already assigned to $path"
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

# holder KIND N CA [CG]: start a tcphold (as a process of cgroup CG); its
# first line says whether it holds.
holder() {
	local kind=$1 n=$2 ca=$3 cg=${4:-} line="" pid
	local -a pre=()
	rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
	# shellcheck disable=SC2016	# expanded by the inner bash
	[ -n "$cg" ] && pre=(bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "${CG_PATH[$cg]}")
	# ip netns exec, not in_snd: the pid must be tcphold's own (ip execs
	# it, as the bash before it does), not a subshell's that a kill would
	# leave its child behind
	if [ "$kind" = ns ]; then
		"${pre[@]}" ip netns exec "$SND" tcphold connect "$RCV_ADDR" "$NS_PORT" "$n" "$ca" \
			> "$TMP/fifo" 2> "$TMP/err" &
	else
		tcphold connect 127.0.0.1 "$LO_PORT" "$n" "$ca" > "$TMP/fifo" 2> "$TMP/err" &
	fi
	pid=$!
	read -r -t 20 line < "$TMP/fifo"
	if [ "$line" = "connected $n" ]; then
		HOLDER=$pid
		return 0
	fi
	wait "$pid" 2>/dev/null
	HOLDER=""
	ERR=$(< "$TMP/err")
	return 1
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

op_close() {
	local ids=("${!h_pid[@]}") i
	[ "${#ids[@]}" -gt 0 ] || return 0
	i=${ids[$1 % ${#ids[@]}]}
	kill "${h_pid[$i]}"
	wait "${h_pid[$i]}" 2>/dev/null
	unset "h_pid[$i]" "h_ca[$i]" "h_inst[$i]" "h_n[$i]" "h_kind[$i]"
}

run_op() {
	local words
	read -ra words <<< "$1"
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
	*) MISMATCH="unknown operation '$1'"; return 1 ;;
	esac
}

# --- the system against the model ----------------------------------------------
# tally_ss KIND OUTPUT: each name's sockets in ss -tinH's OUTPUT against
# the model's in KIND; one socket shows its algorithm once, as a word.
tally_ss() {
	local -A cnt=()
	local w n
	for n in "${ALL[@]}"; do cnt[$n]=0; done
	for w in $2; do
		[ -n "${cnt[$w]+x}" ] && cnt[$w]=$((cnt[$w] + 1))
	done
	for n in "${ALL[@]}"; do
		sockets_on "$n" "$1"
		[ "${cnt[$n]}" -eq "$REPLY" ] && continue
		MISMATCH="ss in $3: ${cnt[$n]} sockets on $n, model $REPLY"
		return 1
	done
}

# One entry of ccctl list --json (names and paths here never hold a quote
# or a bracket), its cgroups as a list of quoted paths.
LIST_RE='^,?\{"name":"([^"]*)","map_id":([0-9]+),"link_id":([0-9]+),"sockets":([0-9]+),"default":(true|false),"pinned":"[^"]*","cgroups":\[([^]]*)\]\}'

# cgroups_ok NAME LIST: LIST (list --json's, without brackets) is exactly
# the paths of the cgroups the model assigns NAME, in any order.
cgroups_ok() {
	local -A want=()
	local c p
	local -a got=()
	for c in "${!asg[@]}"; do
		[ "${asg[$c]}" = "$1" ] && want[${CG_PATH[$c]}]=1
	done
	[ -n "$2" ] && IFS=, read -ra got <<< "${2//\"/}"
	for p in "${got[@]}"; do
		[ -n "${want[$p]+x}" ] || return 1
		unset "want[$p]"
	done
	[ "${#want[@]}" -eq 0 ]
}

# agree: the system shows the model's state; else MISMATCH says where.
agree() {
	local -a av
	local -A seen=()
	local -A LIVE=()
	local n got want rest id

	read -ra av < /proc/sys/net/ipv4/tcp_available_congestion_control
	for n in "${av[@]}"; do
		available "$n" && continue
		MISMATCH="available: $n, which the model does not have"; return 1
	done
	want=$(( ${#BASE[@]} + ${#reg[@]} ))
	[ "${#av[@]}" -eq "$want" ] ||
		{ MISMATCH="available: '${av[*]}', model: $want with ${!reg[*]}"; return 1; }

	read -ra av < /proc/sys/net/ipv4/tcp_allowed_congestion_control
	want=0
	for n in "${ALL[@]}"; do
		available "$n" && is_allowed "$n" && want=$((want + 1))
	done
	for n in "${av[@]}"; do
		available "$n" && is_allowed "$n" && continue
		MISMATCH="allowed: $n, which the model does not allow"; return 1
	done
	[ "${#av[@]}" -eq "$want" ] ||
		{ MISMATCH="allowed: '${av[*]}', model has $want"; return 1; }

	read -r got < /proc/sys/net/ipv4/tcp_congestion_control
	[ "$got" = "$def_init" ] || { MISMATCH="default: $got, model $def_init"; return 1; }
	got=$(in_snd cat /proc/sys/net/ipv4/tcp_congestion_control)
	[ "$got" = "$def_ns" ] || { MISMATCH="$SND default: $got, model $def_ns"; return 1; }

	rest=$(ccctl list --json)
	rest=${rest#[}
	while [[ $rest =~ $LIST_RE ]]; do
		rest=${rest:${#BASH_REMATCH[0]}}
		n=${BASH_REMATCH[1]}
		got="${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[4]} ${BASH_REMATCH[5]}"
		want="?"
		if [ -n "${reg[$n]+x}" ]; then
			sockets_on "$n" all
			want="${inst_map[${reg[$n]}]} ${reg_link[$n]} $REPLY false"
			[ "$n" = "$def_init" ] && want=${want% false}" true"
		fi
		[ "$got" = "$want" ] ||
			{ MISMATCH="ccctl list: $n $got, model $n $want"; return 1; }
		cgroups_ok "$n" "${BASH_REMATCH[6]}" ||
			{ MISMATCH="ccctl list: $n assigned to [${BASH_REMATCH[6]}], model: $(model_asg)"; return 1; }
		seen[$n]=1
	done
	[ "$rest" = "]" ] || { MISMATCH="ccctl list --json: cannot read '$rest'"; return 1; }
	[ "${#seen[@]}" -eq "${#reg[@]}" ] ||
		{ MISMATCH="ccctl list: ${!seen[*]}, model ${!reg[*]}"; return 1; }

	got=0
	for n in "$pins"/*; do
		[ -e "$n" ] || continue
		[ -n "${reg[${n##*/}]+x}" ] || { MISMATCH="pin $n, not in the model"; return 1; }
		got=$((got + 1))
	done
	[ "$got" -eq "${#reg[@]}" ] || { MISMATCH="$got pins, model ${!reg[*]}"; return 1; }

	# "ID: cgroup  prog ID", one per cgroup link: one per assignment
	got=0
	while read -r id rest _; do
		[[ $id == *: && $rest == cgroup ]] && got=$((got + 1))
	done <<< "$(bpftool link show)"
	[ "$got" -eq "${#asg[@]}" ] ||
		{ MISMATCH="$got cgroup links, model: $(model_asg)"; return 1; }

	tally_ss ns "$(ss -N "$SND" -tinH)" "$SND" || return 1
	tally_ss lo "$(ss -tinH)" "the initial namespace" || return 1

	# "ID: struct_ops  name NAME  flags 0x0", one per struct_ops map
	live_maps
	got=0
	while read -r id _; do
		id=${id%:}
		[ -n "$id" ] || continue
		[ -n "${LIVE[$id]+x}" ] ||
			{ MISMATCH="struct_ops map $id alive, model: ${!LIVE[*]}"; return 1; }
		got=$((got + 1))
	done <<< "$(bpftool struct_ops list)"
	[ "$got" -eq "${#LIVE[@]}" ] ||
		{ MISMATCH="$got struct_ops maps, model: ${!LIVE[*]}"; return 1; }
}

model_asg() {
	local c
	for c in "${!asg[@]}"; do printf '%s=%s ' "$c" "${asg[$c]}"; done
}

# settled: agree now, or within 10 s (frees and resets that are under way).
settled() { wait_for 10 agree; }

# --- clean state, replay, shrink ---------------------------------------------------
reset_state() {
	local i n
	for i in "${!h_pid[@]}"; do
		kill "${h_pid[$i]}" 2>/dev/null
		wait "${h_pid[$i]}" 2>/dev/null
	done
	ccctl set-default cubic >/dev/null
	in_snd ccctl set-default cubic >/dev/null
	for n in "${CGS[@]}"; do
		ccctl unassign --cgroup "${CG_PATH[$n]}" >/dev/null 2>&1
	done
	for n in $(ccctl list --json | jq -r '.[].name'); do
		ccctl unregister "$n" >/dev/null
	done
	model_reset
	settled
}

# replay OPS...: from a clean state; true if some operation disagrees.
# FAILED_AT is then its index, MISMATCH what.
replay() {
	local i=0 op
	reset_state || { info "replay: cannot reset: $MISMATCH"; return 1; }
	for op in "$@"; do
		if ! run_op "$op" || ! settled; then
			FAILED_AT=$i
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

# shrink OPS...: delta debugging down to a sequence that still fails, into
# SHRUNK; stops at SHRINK_SECS and keeps the shortest found so far.
shrink() {
	local ops=("$@") n=2 chunk start cand reduced deadline=$((SECONDS + SHRINK_SECS))
	SHRINK_TRIES=0
	while [ "${#ops[@]}" -ge 2 ] && [ "$SECONDS" -lt "$deadline" ]; do
		chunk=$(( (${#ops[@]} + n - 1) / n ))
		reduced=false
		for ((start = 0; start < ${#ops[@]}; start += chunk)); do
			[ "$SECONDS" -lt "$deadline" ] || break
			cand=("${ops[@]:0:start}" "${ops[@]:start+chunk}")
			SHRINK_TRIES=$((SHRINK_TRIES + 1))
			if replay "${cand[@]}"; then
				ops=("${cand[@]:0:FAILED_AT+1}")
				n=$(( n > 2 ? n - 1 : 2 ))
				reduced=true
				break
			fi
		done
		$reduced && continue
		[ "$n" -lt "${#ops[@]}" ] || break
		n=$(( 2 * n < ${#ops[@]} ? 2 * n : ${#ops[@]} ))
	done
	SHRUNK=("${ops[@]}")
}

# --- the run -----------------------------------------------------------------
modules_up
cg_mounted_here=no
if ! grep -q "^[^ ]* $CGROOT cgroup2 " /proc/mounts; then
	mount -t cgroup2 none "$CGROOT" && cg_mounted_here=yes
fi
for c in "${CGS[@]}"; do mkdir -p "${CG_PATH[$c]}"; done
net_up 1gbit 1 1000
ip netns exec "$RCV" tcphold listen 0.0.0.0 "$NS_PORT" > "$TMP/listen.ns" &
lis_ns=$!
tcphold listen 127.0.0.1 "$LO_PORT" > "$TMP/listen.lo" &
lis_lo=$!
wait_for 5 grep -q listening "$TMP/listen.ns"
wait_for 5 grep -q listening "$TMP/listen.lo"
ccctl set-default cubic >/dev/null
read -ra BASE < /proc/sys/net/ipv4/tcp_available_congestion_control
BASE_AVAIL=" ${BASE[*]} "
BASE_ALLOWED=" $(< /proc/sys/net/ipv4/tcp_allowed_congestion_control) "
# every name a socket can be on
mapfile -t ALL <<< "$(printf '%s\n' "${BASE[@]}" "${NAMES[@]}" | sort -u)"
info "kernel $(uname -r); algorithms before:$BASE_AVAIL"
check_cmp "no ccctl registration to start from" "$(ccctl list --json)" = "[]"
check "model and system agree at the start" agree

# The planted bug: caught, and shrunk to register, set-default, unregister.
# The shrinker is this script's own code, the same on every kernel: its
# self-test runs on the primary one only, to keep the others' slot short.
if [ "${PRIMARY:-yes}" = yes ]; then
	PLANT=default-unregister
	planted=("reg fixed -" "open 2 bpf_bic" "def bpf_bic" "lo 1" "mig bpf_bic reno"
		"unreg bpf_bic")
	if replay "${planted[@]}"; then
		ok "planted model bug caught at operation $((FAILED_AT + 1)) of ${#planted[@]}: $MISMATCH"
		shrink "${planted[@]:0:FAILED_AT+1}"
		info "shrunk in $SHRINK_TRIES replays to: $(printf '%s; ' "${SHRUNK[@]}")"
		check_cmp "... shrunk to the 3 operations it needs" \
			"$(printf '%s;' "${SHRUNK[@]}")" = "reg fixed -;def bpf_bic;unreg bpf_bic;"
	else
		not_ok "planted model bug not caught"
	fi
	PLANT=""
else
	skip "a planted model bug is caught and shrunk" "the primary kernel's run proves the shrinker"
	skip "... shrunk to the 3 operations it needs" "the primary kernel's run proves the shrinker"
fi

# What a run must have done to have gone where the bugs would be.
MUST=(reg:ok reg:refused unreg:ok unreg:refused mig:ok mig:refused def:ok def:refused
	defns:ok defns:refused assign:ok assign:refused unassign:ok unassign:refused
	open open:cg lo close)
$links && MUST+=(swap:ok)
declare -A tally=()
covered() {
	local k
	for k in "${MUST[@]}"; do
		[ "${tally[$k]:-0}" -gt 0 ] || return 1
	done
}
if [ -n "$MODEL_REPLAY" ]; then
	IFS=';' read -ra ops <<< "$MODEL_REPLAY"
	info "replaying ${#ops[@]} operations"
else
	ops=()
	info "seed $MODEL_SEED, $([ "$MODEL_OPS" -gt 0 ] && echo "$MODEL_OPS operations" ||
		echo "$MODEL_SECS s")"
fi
reset_state || not_ok "clean state before the run: $MISMATCH"
RANDOM=$MODEL_SEED
# MODEL_PLANT=default-unregister plants the model bug in this run too, to
# watch a long run's failure shrink.
PLANT=${MODEL_PLANT:-}
start=$SECONDS done_ops=() failed="" inert=()
while :; do
	if [ -n "$MODEL_REPLAY" ]; then
		[ "${#done_ops[@]}" -lt "${#ops[@]}" ] || break
		OP=$(echo "${ops[${#done_ops[@]}]}" | sed 's/^ *//; s/ *$//')
	else
		if [ "$MODEL_OPS" -gt 0 ]; then
			[ "${#done_ops[@]}" -lt "$MODEL_OPS" ] || break
		else
			# past MODEL_SECS only while some kind of operation the
			# run must have done is missing, up to MAX_SECS
			if [ $((SECONDS - start)) -ge "$MODEL_SECS" ]; then
				covered && break
				[ $((SECONDS - start)) -lt "$MAX_SECS" ] || break
			fi
		fi
		every=3
		[ "${#done_ops[@]}" -lt 16 ] || every=2
		if [ $(( ${#done_ops[@]} % every )) -eq $((every - 1)) ] && ! covered; then
			gen_missing
		else
			gen_op
		fi
	fi
	done_ops+=("$OP")
	if ! run_op "$OP" || ! settled; then
		failed=$MISMATCH
		break
	fi
	[ $(( ${#done_ops[@]} % 500 )) -eq 0 ] &&
		info "${#done_ops[@]} operations in $((SECONDS - start)) s, all as the model said"
	kind=${OP%% *}:$EXPECT
	[[ $OP == open* || $OP == lo* || $OP == close* ]] && kind=${OP%% *}
	tally[$kind]=$(( ${tally[$kind]:-0} + 1 ))
	[ -n "$OPEN_CG" ] && tally[open:cg]=$(( ${tally[open:cg]:-0} + 1 ))
	# what changes nothing, by the model: the shrinker's first guess
	[[ $kind == *:refused || $kind == list:* || $kind == status:* ]] && inert+=("${#done_ops[@]}")
done
secs=$((SECONDS - start))

if [ -n "$failed" ]; then
	not_ok "operation ${#done_ops[@]} ('$OP') of seed $MODEL_SEED: $failed"
	# First without every operation the model says changed nothing (one
	# replay that, for a long run, saves most of the delta debugging).
	keep=("${done_ops[@]}")
	for i in "${inert[@]}"; do unset "keep[$((i - 1))]"; done
	keep=("${keep[@]}")
	if [ "${#inert[@]}" -gt 0 ] && replay "${keep[@]}"; then
		info "still fails without the ${#inert[@]} operations that changed nothing"
		done_ops=("${keep[@]:0:FAILED_AT+1}")
	fi
	shrink "${done_ops[@]}"
	info "shrunk in $SHRINK_TRIES replays to ${#SHRUNK[@]} operations; replay with"
	info "  MODEL_REPLAY='$(printf '%s;' "${SHRUNK[@]}")'"
	if replay "${SHRUNK[@]}"; then info "which fails with: $MISMATCH"; fi
else
	for k in $(echo "${!tally[@]}" | tr ' ' '\n' | sort); do
		info "$k ${tally[$k]}"
	done
	ok "${#done_ops[@]} operations in ${secs}s (seed $MODEL_SEED), after each the system as the model said"
	# The run proves something only if it went where the bugs would be.
	if [ -n "$MODEL_REPLAY" ]; then
		skip "... it did every kind of operation" "a replay does what it is given"
	else
		for k in "${MUST[@]}"; do
			check_cmp "... it did $k" "${tally[$k]:-0}" -gt 0
		done
		$links || skip "... it did swap:ok" "$NO_LINK_WHY"
	fi
fi

check "back to a clean state" reset_state
kill "$lis_ns" "$lis_lo" 2>/dev/null
wait 2>/dev/null
net_down
for c in c1/sub c1 c2; do
	check "cgroup $c removed" wait_for 5 rmdir "${CG_PATH[$c]}"
done
[ "$cg_mounted_here" = no ] || check "cgroup2 unmounted" umount "$CGROOT"
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
check "no pin left" no_pins
check "dmesg has no warning" dmesg_clean
