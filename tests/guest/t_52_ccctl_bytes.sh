#!/bin/bash
# Whatever the bytes of an argument, a refused ccctl command prints exactly
# one line on stderr that names the rule it broke, nothing on stdout, and
# exits non-zero; and nothing gets registered or pinned.
#
# Every byte 0x01-0xff (an argument cannot hold 0x00) goes into an
# algorithm name (on the primary kernel; a byte of each class on the
# others: NAME_BYTES in suite.conf), and a byte of each class into a
# --name, a --variant, an unknown option, an unknown command and an object
# path.  The rules, in
# ccctl's words:
#   - an argument with a control character (0x01-0x1f, 0x7f) is refused
#     before anything parses or echoes it;
#   - a name is 1 to 15 printable ASCII characters without blank, '/' or
#     '.': the kernel would take blanks and bytes outside ASCII, but nobody
#     could read such a name back from its blank-separated lists or type
#     it, and bpffs, where the name becomes a directory, refuses dots
#     (EPERM) once ccctl's own directory exists: a name with one would load
#     and register, and then fail to pin.
# A name ccctl takes must get past the check: unregister then says it is not
# registered.  The state (struct_ops maps, links, pins, available list) is
# compared once around the whole sweep, not per command: that is ~350
# commands.  An object whose tcp_congestion_ops the kernel would register
# under a name with a tab is refused the same way, and --name rescues it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

modules_up
NAME_BYTES=all
# written per kernel by the build
# shellcheck source=/dev/null
[ -r "$BIC_DIR/suite.conf" ] && . "$BIC_DIR/suite.conf"


# RULE: the rule a name with byte B in it breaks, as ccctl words it; empty
# if none.  (No subshells or greps per command here: under TCG each process
# is dear, and the sweep runs hundreds of commands.)
name_rule() {
	local b=$1
	rule=""
	if [ "$b" -lt 32 ] || [ "$b" -eq 127 ]; then rule="has a control character"
	elif [ "$b" -eq 32 ]; then rule="it has a blank"
	elif [ "$b" -eq 47 ]; then rule="it has a '/'"
	elif [ "$b" -eq 46 ]; then rule="it has a '.'"
	elif [ "$b" -gt 127 ]; then rule="it has a byte outside ASCII"
	fi
}

is_control() { [ "$1" -lt 32 ] || [ "$1" -eq 127 ]; }

declare -A bad=() runs=()
examples=()
# one KIND PATTERN CMD...: the command is refused in one line matching the
# extended regex PATTERN, with an empty stdout.
one() {
	local kind=$1 pat=$2 rc=0 why=""
	shift 2
	local lines=()
	"$@" > /tmp/t52.out 2> /tmp/t52.err || rc=$?
	mapfile -t lines < /tmp/t52.err
	runs[$kind]=$(( ${runs[$kind]:-0} + 1 ))
	if [ "$rc" -eq 0 ]; then why="exit 0"
	elif [ -s /tmp/t52.out ]; then why="stdout not empty"
	elif [ ${#lines[@]} -ne 1 ]; then why="${#lines[@]} lines on stderr"
	elif ! [[ ${lines[0]} =~ $pat ]]; then why="no /$pat/"
	fi
	[ -z "$why" ] && return
	bad[$kind]=$(( ${bad[$kind]:-0} + 1 ))
	[ ${#examples[@]} -lt 10 ] &&
		examples+=("$kind: $(printf '%q' "$*"): $why: $(head -c 300 /tmp/t52.err | tr -c '[:print:]' '?')")
}

# byte_args B: HEX, CH (the byte), RULE (what a name with it breaks) and
# CTL (ccctl's refusal of an argument with it, if a control character).
byte_args() {
	printf -v hex %02x "$1"
	printf -v ch %b "\\x$hex"
	name_rule "$1"
	ctl="argument [0-9]+ has a control character \\(0x$hex\\)"
}

# A byte of each class: controls (first, tab, newline, CR, ESC, last, DEL),
# blank, quotes, '%', '.', '/', backslash, '~', and bytes outside ASCII (first,
# a UTF-8 lead, last).
classes=(1 9 10 13 27 31 127 32 34 39 37 46 47 92 126 128 195 255)
name_bytes=("${classes[@]}")
[ "$NAME_BYTES" = all ] && mapfile -t name_bytes <<< "$(seq 1 255)"

before=$(ccctl_state)
start=$(date +%s)
# Bytes in a name: the argument check and the name rule see each byte the
# same way wherever the argument is, so one place gets all 255 ...
for b in "${name_bytes[@]}"; do
	byte_args "$b"
	if [ -n "$rule" ]; then
		one name "invalid algorithm name '.*': $rule|$ctl" ccctl unregister "a${ch}c"
	else
		one name "is not registered by ccctl" ccctl unregister "a${ch}c"
	fi
done
# ... and every other place a byte of each class.
for b in "${classes[@]}"; do
	byte_args "$b"
	if [ -n "$rule" ]; then
		one --name "invalid name '.*' given to --name: $rule|$ctl" \
			ccctl register --name "a${ch}c"
	fi
	one --variant "unknown variant|$ctl" ccctl register --variant "2${ch}"
	one option "unrecognized option '--x|$ctl" ccctl list "--x${ch}"
	one command "unknown command 'x|$ctl" ccctl "x${ch}y"
	if is_control "$b"; then
		one object "$ctl" ccctl register --object "/tmp/none${ch}.bpf.o"
	else
		one object "cannot open /tmp/none|/tmp/none.* is not a usable BPF object" \
			ccctl register --object "/tmp/none${ch}.bpf.o"
	fi
done
info "sweep took $(( $(date +%s) - start ))s"
for kind in name --name --variant option command object; do
	info "$kind: ${runs[$kind]:-0} commands, ${bad[$kind]:-0} not as expected"
	check_cmp "every byte in $kind: refused in one line that names the rule" \
		"${bad[$kind]:-0}:${runs[$kind]:-0}" = "0:${runs[$kind]:-0}"
done

one length "invalid algorithm name '': it is empty" ccctl unregister ""
one length "invalid algorithm name '0123456789abcde\\.\\.\\.': it is longer than 15 bytes" \
	ccctl unregister 0123456789abcdef
one length "0123456789abcde is not registered by ccctl" ccctl unregister 0123456789abcde
one length "invalid name '.x' given to --name: it has a '.'" ccctl register --name .x
one length "invalid algorithm name '0123456789abcde\\.\\.\\.': it is longer than 15 bytes" \
	ccctl set-default "$(printf '0123456789abcde%04081d' 0)"
one length "unknown command '.{4096}'" ccctl "$(head -c 4096 /dev/zero | tr '\0' x)"
one length "invalid algorithm name 'a\\\\xc3\\\\xa9': it has a byte outside ASCII" \
	ccctl unregister "$(printf 'a\xc3\xa9')"
check_cmp "empty, 15, 16, 4,096 bytes, '.', UTF-8: as the rule says" \
	"${bad[length]:-0}" -eq 0

badobj=$BIC_DIR/bpf/test/badname.bpf.o
one object-name "badname.bpf.o names its tcp_congestion_ops 'bic\\\\x09x': it has a control character" \
	ccctl register --object "$badobj"
check_cmp "an object naming its algorithm with a tab: refused in one line" \
	"${bad[object-name]:-0}" -eq 0
for e in "${examples[@]}"; do info "not as expected: $e"; done
check_cmp "nothing registered, loaded or pinned by the refused commands" "$(ccctl_state)" = "$before"

check "... and --name gives that object a name ccctl takes" \
	ccctl register --object "$badobj" --name bic_tab
check "bic_tab is available" ca_available bic_tab
check "unregister bic_tab" ccctl unregister bic_tab
check "no struct_ops map left" wait_for 30 no_output bpftool struct_ops list
