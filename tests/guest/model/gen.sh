# shellcheck shell=bash disable=SC2154
# (SC2154: links is the caller's; def_init, def_ns and reg are model.sh's)
# t_58's generator: a seeded stream of operations for the model
# (model.sh, sourced first), steered towards the kinds of operation a run
# has not done yet, and the walk that runs them one after another.
#
# Why here, tests/guest/model/: sourced by the guest test
# (t_58_ccctl_model.sh) and, on the host, by tests/unit/test_model.sh
# against a stub system; see model.sh.
#
# Every draw comes from bash's RANDOM, seeded by the caller (RANDOM=SEED),
# and depends only on the seed and the model's state after the operations
# so far: a seed replays, on any kernel and on the host.
#
# An operation is one line of words:
#   reg FORM NAME		register (FORM: a key of FORM_ARGS; NAME "-":
#				the object's own)
#   unreg NAME			unregister
#   swap NAME FORM NEWNAME	swap NAME's instance for FORM's (links only)
#   mig FROM TO			migrate every socket on FROM to TO
#   def NAME / defns NAME	set-default, in the initial namespace / in SND
#   list / status NAME		ccctl list / ccctl status NAME
#   assign NAME CG / unassign CG	CG: a key of CG_PATH
#   open N CA [CG]		N connections from SND on CA ("default": the
#				namespace's), from a process of cgroup CG
#   lo N			N connections over loopback, on the default
#   close I			close the connections of the I-th holder
#   nsadd HOW			a namespace of its own, held HOW (NS_HOWS)
#   nsdel I			let the I-th of them go
#   route WHERE NAME		a route with congctl NAME (WHERE init or ns)
#   unroute I			remove the I-th of them
# NAME "!N" is BADS[N], a name ccctl must refuse.

# shellcheck disable=SC2034	# read through pick's nameref
FORMS=(fixed 2611 obj objnl obj2611 fixed 2611 objtab objbad objnone)
# shellcheck disable=SC2034	# read through pick's nameref
CG_TOKS=(c1 c2 c1/sub c1 c2 c1/sub c1/sub hi tmp none)

# pick ARRAY_NAME: one element, at random, into REPLY.
pick() {
	local -n arr=$1
	REPLY=${arr[RANDOM % ${#arr[@]}]}
}

# A name as an operation writes it: mostly from NAMES, some builtin, some
# bad.  Half the time one of NAMES is drawn from those the model has
# registered (or, for WANT free, those it has not), so that operations that
# succeed are as common as refusals.
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
	elif [ "$r" -lt 93 ]; then
		OP="close $((RANDOM % 8))"
	elif [ "$r" -lt 95 ]; then
		pick NS_HOWS; OP="nsadd $REPLY"
	elif [ "$r" -lt 97 ]; then
		OP="nsdel $((RANDOM % 4))"
	elif [ "$r" -lt 99 ]; then
		gen_name 15 5 reg
		if ((RANDOM % 2)); then OP="route init $REPLY"; else OP="route ns $REPLY"; fi
	else
		OP="unroute $((RANDOM % 4))"
	fi
}

# --- coverage ------------------------------------------------------------------
# What a run must have done to have gone where the bugs would be: each kind
# of operation both ways, connections from an assigned cgroup; set by
# gen_init, counted in tally by note_kind.
declare -a MUST=()
declare -A tally=()

# gen_init: a fresh coverage count (swap:ok only where swap can work).
gen_init() {
	MUST=(reg:ok reg:refused unreg:ok unreg:refused mig:ok mig:refused def:ok def:refused
		defns:ok defns:refused assign:ok assign:refused unassign:ok unassign:refused
		open open:cg lo close nsadd nsdel route unroute)
	$links && MUST+=(swap:ok)
	tally=()
}

covered() {
	local k
	for k in "${MUST[@]}"; do
		[ "${tally[$k]:-0}" -gt 0 ] || return 1
	done
}

# note_kind OP: count the kind of the operation just run (its EXPECT,
# OPEN_CG); true if, by the model, it changed nothing.
note_kind() {
	local kind=${1%% *}:$EXPECT
	[[ $1 == open* || $1 == lo* || $1 == close* || $1 == ns* || $1 == *route* ]] &&
		kind=${1%% *}
	tally[$kind]=$(( ${tally[$kind]:-0} + 1 ))
	[ -n "$OPEN_CG" ] && tally[open:cg]=$(( ${tally[open:cg]:-0} + 1 ))
	[[ $kind == *:refused || $kind == list:* || $kind == status:* ]]
}

# gen_missing: an operation that, by the model, does a kind of MUST the run
# has not done yet (or prepares it), into OP.  Every third operation is one
# while any is missing, every other one from the 16th, so that a short run
# still goes everywhere (18 kinds with assign: every fourth left a short
# run needing most of the time it may take; docs/testing.md).
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
		nsadd) pick NS_HOWS; OP="nsadd $REPLY" ;;
		nsdel) OP="nsdel 0" ;;
		# a route on one of ours, so that an unregister meets it
		route) OP="route init ${some:-reno}" ;;
		unroute) OP="unroute 0" ;;
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

# --- the walk --------------------------------------------------------------------
# walk: from the state the system and the model are in, run operations
# until one disagrees or the run is over: MODEL_REPLAY's (";"-separated),
# else MODEL_OPS of them, else MODEL_SECS seconds and on, while a kind of
# MUST is missing, up to MAX_SECS.  The caller seeds RANDOM and defines
# settled (agree, given time for what is under way).  Leaves the
# operations run in DONE_OPS, the 1-based indexes of those that changed
# nothing by the model in INERT (the shrinker's first guess), the
# disagreement in FAILED ("": none), the last operation in OP and the
# seconds taken in WALK_SECS.
walk() {
	local start=$SECONDS every
	local -a ops=()
	DONE_OPS=() FAILED="" INERT=()
	[ -z "${MODEL_REPLAY:-}" ] || IFS=';' read -ra ops <<< "$MODEL_REPLAY"
	while :; do
		if [ -n "${MODEL_REPLAY:-}" ]; then
			[ "${#DONE_OPS[@]}" -lt "${#ops[@]}" ] || break
			OP=${ops[${#DONE_OPS[@]}]}
			OP=${OP#"${OP%%[! ]*}"}
			OP=${OP%"${OP##*[! ]}"}
		else
			if [ "${MODEL_OPS:-0}" -gt 0 ]; then
				[ "${#DONE_OPS[@]}" -lt "$MODEL_OPS" ] || break
			elif [ $((SECONDS - start)) -ge "$MODEL_SECS" ]; then
				# past MODEL_SECS only while some kind of operation
				# the run must have done is missing, up to MAX_SECS
				covered && break
				[ $((SECONDS - start)) -lt "$MAX_SECS" ] || break
			fi
			every=3
			[ "${#DONE_OPS[@]}" -lt 16 ] || every=2
			if [ $(( ${#DONE_OPS[@]} % every )) -eq $((every - 1)) ] && ! covered; then
				gen_missing
			else
				gen_op
			fi
		fi
		DONE_OPS+=("$OP")
		if ! run_op "$OP" || ! settled; then
			# shellcheck disable=SC2034	# the caller's
			FAILED=$MISMATCH
			break
		fi
		[ $(( ${#DONE_OPS[@]} % 500 )) -eq 0 ] &&
			info "${#DONE_OPS[@]} operations in $((SECONDS - start)) s, all as the model said"
		note_kind "$OP" && INERT+=("${#DONE_OPS[@]}")
	done
	# shellcheck disable=SC2034	# the caller's
	WALK_SECS=$((SECONDS - start))
}
