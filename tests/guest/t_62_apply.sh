#!/bin/bash
# bpf-bic-apply, the script behind bpf-bic.service, against config files
# (no systemd here: the script is what the unit runs).  A good file
# registers every algorithm it names, makes its default the default and
# saves the one before; a second start changes nothing (same maps); stop
# puts the saved default back, in a namespace made meanwhile too, and
# leaves no registration, pin or struct_ops map.  With no default saved, stop replaces a default of ccctl's by cubic.
# Each kind of bad line is refused in one stderr line naming FILE:LINE,
# with nothing registered and the default unchanged; a step that fails at
# run time undoes the steps before it.  An assign line makes its cgroup if
# missing and assigns it (once, however often start runs); stop unassigns.
# Each run-time failure (no TMPDIR, no ccctl, list output jq cannot read, a
# run directory that cannot be made, a saved default that cannot be
# written, a cgroup directory that cannot be made) is exactly one line on
# stderr, bpf-bic-apply's with the tool's reason, and exit status 1.
# Cgroup names with bytes of every kind (not UTF-8, blank and '#' written
# as \OOO, quotes, backslashes; a tab, which no file line can hold,
# assigned by ccctl; a newline, if the kernel takes one) are assigned by
# start and removed by stop, nothing left.  A start that fails after
# making a cgroup and the directories above it removes each it made.  A
# stop that fails (ccctl refusing each step, by a stand-in) keeps the
# saved default, a start after it keeps it too, and the next good stop
# puts back the original (reno), not cubic.  (The unit
# keeps /run/bpf-bic across a stop for this, RuntimeDirectoryPreserve=yes:
# tests/debian checks it under systemd; here nothing removes it.)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

APPLY=/usr/lib/bpf-bic/bpf-bic-apply
SAVED=/run/bpf-bic/default-before
CA_DEFAULT=/proc/sys/net/ipv4/tcp_congestion_control
CG=/sys/fs/cgroup
D=/tmp/t62
rm -rf "$D" && mkdir -p "$D"

modules_up
mounted_here=no
if ! grep -q " $CG cgroup2 " /proc/mounts; then
	mount -t cgroup2 cgroup2 "$CG" && mounted_here=yes
fi
# The default of a guest that has never seen bpf-bic-apply.
[ "$(cat $CA_DEFAULT)" = cubic ] || echo cubic > $CA_DEFAULT
before_default=$(cat $CA_DEFAULT)
rm -f "$SAVED"

# names: what ccctl has registered, "none" for nothing.
TWO_OPS=$BIC_DIR/bpf/test/two_ops.bpf.o
names() {
	local j
	j=$(ccctl list --json) || { echo "ccctl list failed"; return; }
	jq -r '[.[].name] | sort | if length == 0 then "none" else join(" ") end' <<<"$j"
}
map_ids() { ccctl list --json | jq -r '[.[] | "\(.name)=\(.map_id)"] | sort | join(" ")'; }
maps_before=$(struct_ops_maps)
maps_back() { [ "$(struct_ops_maps)" -eq "$maps_before" ]; }

# --- a good file, twice, then stop ------------------------------------------
cat > "$D/good.conf" <<EOF
# the three variants and an object of the pre-6.4 form (any kernel takes it)
register t62_a fixed default
	register t62_b 2611   # trailing comment

register t62_c $BIC_DIR/bpf/nolink/bic.bpf.o
register t62_d restore
EOF
err=$("$APPLY" start "$D/good.conf" 2>&1 >/dev/null)
check_cmp "start: exits 0" "$?" -eq 0
check "start: nothing on stderr${err:+ (got: $err)}" test -z "$err"
check_cmp "start: the four registered" "$(names)" = "t62_a t62_b t62_c t62_d"
check_cmp "start: t62_a is the default" "$(cat $CA_DEFAULT)" = t62_a
check_cmp "start: the default before saved" "$(cat $SAVED 2>/dev/null)" = "$before_default"
ids=$(map_ids)

err=$("$APPLY" start "$D/good.conf" 2>&1 >/dev/null)
check_cmp "second start: exits 0" "$?" -eq 0
check "second start: nothing on stderr${err:+ (got: $err)}" test -z "$err"
check_cmp "second start: the same registrations (left as they were)" "$(map_ids)" = "$ids"
check_cmp "second start: the saved default still the first one" \
	"$(cat $SAVED 2>/dev/null)" = "$before_default"

# A namespace made now takes t62_a as its default, and keeps it.
ip netns add t62
check_cmp "a namespace made meanwhile has t62_a as its default" \
	"$(ip netns exec t62 cat $CA_DEFAULT)" = t62_a

err=$("$APPLY" stop 2>&1 >/dev/null)
check_cmp "stop: exits 0" "$?" -eq 0
check "stop: nothing on stderr${err:+ (got: $err)}" test -z "$err"
check_cmp "stop: the default put back" "$(cat $CA_DEFAULT)" = "$before_default"
check_cmp "stop: and in the namespace" "$(ip netns exec t62 cat $CA_DEFAULT)" = "$before_default"
ip netns del t62
check_cmp "stop: nothing registered" "$(names)" = none
check "stop: no pins under /sys/fs/bpf/ccctl" no_pins
check "stop: no struct_ops map left" wait_for 10 maps_back
check "stop: the saved default gone" test ! -e "$SAVED"
check "stop: no bpf algorithm of the file left available" \
	no_output grep -ow 't62_[abcd]' /proc/sys/net/ipv4/tcp_available_congestion_control

err=$("$APPLY" stop 2>&1 >/dev/null)
check_cmp "stop again: exits 0, nothing to do" "$?" -eq 0

# No default saved, and the default is one of ccctl's: cubic takes over.
ccctl register --name t62_d >/dev/null && ccctl set-default t62_d >/dev/null
err=$("$APPLY" stop 2>&1 >/dev/null)
check_cmp "stop, nothing saved: exits 0" "$?" -eq 0
check_cmp "stop, nothing saved: cubic instead of ccctl's default" "$(cat $CA_DEFAULT)" = cubic
check_cmp "stop, nothing saved: nothing registered" "$(names)" = none

# --- bad files: one line naming FILE:LINE, nothing applied ------------------
# bad_conf DESC LINE PATTERN: $D/bad.conf (written by the caller) is refused.
bad_conf() {
	local desc=$1 line=$2 pat=$3 err rc=0 before
	before=$(ccctl_state)
	err=$("$APPLY" start "$D/bad.conf" 2>&1 >/dev/null) || rc=$?
	info "$desc: $err"
	check_cmp "$desc: exits non-zero" "$rc" -ne 0
	check_cmp "$desc: one line on stderr" "$(printf '%s' "$err" | grep -c '')" -eq 1
	check "$desc: names $D/bad.conf:$line and says '$pat'" \
		grep -qF -- "$D/bad.conf:$line: " <<<"$err"
	check "$desc: says '$pat'" grep -qF -- "$pat" <<<"$err"
	check_cmp "$desc: the default unchanged" "$(cat $CA_DEFAULT)" = "$before_default"
	# (the available list in it says nothing was registered)
	check_cmp "$desc: nothing registered, no struct_ops map, link or pin left" \
		"$(ccctl_state)" = "$before"
	check "$desc: no default saved" test ! -e "$SAVED"
}

printf 'register t62_a fixed default\nfrob t62_a\n' > "$D/bad.conf"
bad_conf "unknown directive" 2 "unknown directive 'frob'"
printf '# ok\nregister t62_a fixed\nregister t62.b 2611\n' > "$D/bad.conf"
bad_conf "bad name" 3 "invalid algorithm name 't62.b'"
printf 'register t62_a fixed default\nregister t62_b 2611 default\n' > "$D/bad.conf"
bad_conf "two defaults" 2 "a second default"
printf 'register t62_a fixed\nassign t62_b %s/t62\n' "$CG" > "$D/bad.conf"
bad_conf "assign of a name the file does not register" 2 "no register t62_b line"
printf 'register t62_a fixed\nassign t62_a t62\n' > "$D/bad.conf"
bad_conf "relative cgroup path" 2 "is relative"
printf 'register t62_a bpf/bic.bpf.o\n' > "$D/bad.conf"
bad_conf "relative object path" 1 "is relative"
printf 'register t62_a fixed\nregister t62_b /nonexistent.bpf.o\n' > "$D/bad.conf"
bad_conf "missing object" 2 "no readable object file /nonexistent.bpf.o"
printf 'register t62_a fixed\nregister t62_b 2612\n' > "$D/bad.conf"
bad_conf "unknown variant" 2 "unknown variant '2612'"
printf 'register t62_a fixed\nregister t62_a 2611\n' > "$D/bad.conf"
bad_conf "a name registered twice" 2 "registered twice"
printf 'register reno fixed\n' > "$D/bad.conf"
bad_conf "a name the kernel already has" 1 "already a congestion control"
printf 'register t62_a fixed\nassign t62_a /tmp/t62\n' > "$D/bad.conf"
bad_conf "cgroup outside the cgroup2 mount" 2 "not under the cgroup2 mount"
printf 'register t62_a fixed ops=x\n' > "$D/bad.conf"
bad_conf "ops= after a variant" 1 "is no object"
printf 'register t62_a %s ops=a.b\n' "$TWO_OPS" > "$D/bad.conf"
bad_conf "ops= with a bad name" 1 "invalid ops name 'a.b'"

# An object with two tcp_congestion_ops (tests/bpf/two_ops.bpf.c): ops=
# chooses one, and without it ccctl's refusal, naming both, is the one
# line, with nothing of the file left applied.
printf 'register t62_o %s ops=bpf_t83_b\n' "$TWO_OPS" > "$D/ops.conf"
check "start with ops= registers the one chosen" "$APPLY" start "$D/ops.conf"
check_cmp "... under the file's name" "$(names)" = t62_o
check "stop" "$APPLY" stop
printf 'register t62_a fixed default\nregister t62_o %s\n' "$TWO_OPS" > "$D/fail.conf"
before=$(ccctl_state)
err=$("$APPLY" start "$D/fail.conf" 2>&1 >/dev/null)
check_cmp "start without ops=: one line on stderr" "$(printf '%s' "$err" | grep -c '')" -eq 1
check "... ccctl's, naming both" grep -q "register t62_o: ccctl: .*bpf_t83_a, bpf_t83_b" <<<"$err"
check_cmp "... nothing left applied" "$(ccctl_state)" = "$before"

# A step that fails once applying has begun undoes the ones before it.
echo "not an ELF file" > "$D/text.bpf.o"
printf 'register t62_a fixed default\nregister t62_b %s\n' "$D/text.bpf.o" > "$D/fail.conf"
before=$(ccctl_state)
rc=0
err=$("$APPLY" start "$D/fail.conf" 2>&1 >/dev/null) || rc=$?
info "failing register: $err"
check_cmp "failing register: exits non-zero" "$rc" -ne 0
check_cmp "failing register: one line on stderr" "$(printf '%s' "$err" | grep -c '')" -eq 1
check "failing register: says which step" grep -q "register t62_b: ccctl: " <<<"$err"
check_cmp "failing register: t62_a undone" "$(names)" = none
check_cmp "failing register: the default unchanged" "$(cat $CA_DEFAULT)" = "$before_default"
check_cmp "failing register: no map, link or pin left" "$(ccctl_state)" = "$before"

# --- failures at run time: one line each, exit 1 ------------------------------
# one_line DESC PATTERN COMMAND...: COMMAND exits non-zero with exactly one
# line on stderr, bpf-bic-apply's, which has PATTERN (the reason) in it.
one_line() {
	local desc=$1 pat=$2 err rc=0
	shift 2
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	info "$desc: $err"
	check_cmp "$desc: exits non-zero" "$rc" -ne 0
	check_cmp "$desc: one line on stderr" "$(printf '%s' "$err" | grep -c '')" -eq 1
	check "$desc: bpf-bic-apply's line, saying '$pat'" says "$err" "$pat"
}
# says LINE PATTERN: LINE is bpf-bic-apply's and has PATTERN in it.
says() { [[ $1 == "bpf-bic-apply: "*"$2"* ]]; }

# A stand-in for ccctl: list prints what is not JSON (T62_FAKE=garbage);
# every command but list is refused (T62_FAKE=refuse); the rest is ccctl's.
FAKE=$D/ccctl-fake
cat > "$FAKE" <<'EOF'
#!/bin/bash
case ${T62_FAKE:-}:$1 in
garbage:list) echo "not JSON"; exit 0 ;;
refuse:list) ;;
refuse:*)
	echo "ccctl: $1 refused by t_62's stand-in" >&2; exit 1 ;;
esac
exec ccctl "$@"
EOF
chmod +x "$FAKE"

printf 'register t62_a fixed default\n' > "$D/one.conf"
before=$(ccctl_state)
one_line "start, no TMPDIR" "cannot create a temporary file in $D/nosuch: No such file or directory" \
	env TMPDIR="$D/nosuch" "$APPLY" start "$D/one.conf"
one_line "stop, no TMPDIR" "cannot create a temporary file in $D/nosuch: No such file or directory" \
	env TMPDIR="$D/nosuch" "$APPLY" stop
one_line "start, no ccctl" "cannot run $D/nosuch: no such executable" \
	env CCCTL="$D/nosuch" "$APPLY" start "$D/one.conf"
one_line "stop, no ccctl" "cannot run $D/nosuch: no such executable" \
	env CCCTL="$D/nosuch" "$APPLY" stop
one_line "start, list not JSON" "cannot read what ccctl list --json printed: " \
	env CCCTL="$FAKE" T62_FAKE=garbage "$APPLY" start "$D/one.conf"
: > "$D/file"
one_line "start, a run directory that cannot be made" \
	"cannot create $D/file/run: Not a directory" \
	env BPF_BIC_RUNDIR="$D/file/run" "$APPLY" start "$D/one.conf"
check_cmp "run-time failures: nothing registered, no map, link or pin left" \
	"$(ccctl_state)" = "$before"
check_cmp "run-time failures: the default unchanged" "$(cat $CA_DEFAULT)" = "$before_default"
check "run-time failures: no default saved" test ! -e "$SAVED"

# --- cgroups, with names of every kind of byte; a failed start and stop -----
fails=$(failures)
# left_behind: what is there, for a failure to show.
left_behind() {
	info "left behind: default $(cat $CA_DEFAULT), saved '$(cat "$SAVED" 2>/dev/null)'"
	info "  registered: $(names); cgroup links: $(cgroup_links); pins:" \
		"$(find /sys/fs/bpf/ccctl -mindepth 1 2>/dev/null | tr '\n' ' ')"
	# shellcheck disable=SC2016	# expanded by the inner bash
	info "  directories: $(find "$CG" -maxdepth 4 -name 't62*' -exec bash -c 'printf "%q " "$@"' _ {} +)"
}
# The operator's default before the first start: reno, which stop's
# fallback (cubic) is not.
orig=reno
echo "$orig" > $CA_DEFAULT
hi=$'\x80\xa0\xc3\x28\xfe\xff'	# none of it UTF-8
# Besides $CG/t62: cgroups as the file writes them, and as they are: raw
# bytes, quotes and backslashes as they are; a blank, '#', bytes and a
# backslash before digits as \OOO.
words=("t62_hi$hi\"'\\x\\" 't62\040sp\043\200\377\134101')
cgs=("$CG/t62_hi$hi\"'\\x\\" "$CG/t62 sp#"$'\x80\xff''\101')
rmdir "$CG/t62" 2>/dev/null
{
	echo "register t62_a fixed default"
	echo "register t62_b 2611"
	echo "assign t62_b $CG/t62"
	printf "assign t62_a $CG/%s\n" "${words[@]}"
} > "$D/cg.conf"
# every_dir: each cgroup of the file is there.
every_dir() { local c; for c in "$CG/t62" "${cgs[@]}"; do [ -d "$c" ] || return 1; done; }

err=$("$APPLY" start "$D/cg.conf" 2>&1 >/dev/null)
check_cmp "assign: start exits 0" "$?" -eq 0
check "assign: nothing on stderr${err:+ (got: $err)}" test -z "$err"
check "assign: each missing cgroup created, under its own name" every_dir
check_cmp "assign: ccctl lists \$CG/t62 under t62_b" \
	"$(ccctl list --json | jq -cS 'map({(.name): .cgroups}) | add | .t62_b')" = "[\"$CG/t62\"]"
check_cmp "assign: three cgroup links" "$(cgroup_links)" -eq 3
check_cmp "assign: the default before saved" "$(cat "$SAVED" 2>/dev/null)" = "$orig"
# A file making t62_b the default must save t62_a first, here where it
# cannot be written: the one step to undo.
mkdir -p "$D/ro" && mount -t tmpfs -o ro t62ro "$D/ro"
printf 'register t62_b 2611 default\n' > "$D/b.conf"
one_line "start, a saved default that cannot be written" \
	"save the default: cannot write $D/ro/default-before: Read-only file system" \
	env BPF_BIC_RUNDIR="$D/ro" "$APPLY" start "$D/b.conf"
umount "$D/ro"
check_cmp "... the default unchanged" "$(cat $CA_DEFAULT)" = t62_a
# What no file line can hold, assigned by ccctl through a symlink.
n=4
mkdir "$CG/t62"$'\t'"tab" && ln -s "$CG/t62"$'\t'"tab" "$D/tab"
check "ccctl assigns a cgroup with a tab in its name" ccctl assign t62_a --cgroup "$D/tab"
if mkdir "$CG/t62"$'\n'"nl" 2>/dev/null; then
	ln -s "$CG/t62"$'\n'"nl" "$D/nl"
	check "ccctl assigns a cgroup with a newline in its name" ccctl assign t62_a --cgroup "$D/nl"
	n=$((n + 1))
else
	info "this kernel takes no newline in a cgroup's name"
fi
err=$("$APPLY" start "$D/cg.conf" 2>&1 >/dev/null)
check_cmp "assign: second start exits 0" "$?" -eq 0
check "assign: second start, nothing on stderr${err:+ (got: $err)}" test -z "$err"
check_cmp "assign: still the same $n cgroup links" "$(cgroup_links)" -eq "$n"

# A start that fails after it made a cgroup and the directories above it.
printf 'register t62_a fixed default\nassign t62_a %s/x/y\n' "${cgs[0]}" > "$D/nest.conf"
one_line "failing assign" "assign t62_a ${cgs[0]}/x/y: ccctl: cannot assign t62_a" \
	"$APPLY" start "$D/nest.conf"
check "failing assign: both directories it made removed" test ! -e "${cgs[0]}/x"
check "failing assign: the cgroup it did not make kept" test -d "${cgs[0]}"
mkdir "$CG/t62m" && echo 2 > "$CG/t62m/cgroup.max.depth"
printf 'register t62_a fixed default\nassign t62_a %s/t62m/x/y/z\n' "$CG" > "$D/deep.conf"
one_line "a cgroup that cannot be made" \
	"assign t62_a: cannot create $CG/t62m/x/y/z: Resource temporarily unavailable" \
	"$APPLY" start "$D/deep.conf"
check "a cgroup that cannot be made: the two made above it removed" test ! -e "$CG/t62m/x"
check "a cgroup that cannot be made: the one it did not make kept" test -d "$CG/t62m"
check_cmp "failed starts: the $n assignments kept" "$(cgroup_links)" -eq "$n"
check_cmp "failed starts: still registered" "$(names)" = "t62_a t62_b"
check_cmp "failed starts: the default still t62_a" "$(cat $CA_DEFAULT)" = t62_a
check_cmp "failed starts: the saved default still $orig" "$(cat "$SAVED" 2>/dev/null)" = "$orig"

# A stop that fails (each ccctl step refused, the default not put back)
# keeps the saved default; the next start keeps it too, and the next good
# stop puts it back.
one_line "failing stop" "stop: unassign --all: ccctl: unassign refused" \
	env CCCTL="$FAKE" T62_FAKE=refuse "$APPLY" stop
check_cmp "failing stop: the default still t62_a" "$(cat $CA_DEFAULT)" = t62_a
check_cmp "failing stop: the saved default kept" "$(cat "$SAVED" 2>/dev/null)" = "$orig"
err=$("$APPLY" start "$D/cg.conf" 2>&1 >/dev/null)
check_cmp "start after it: exits 0" "$?" -eq 0
check_cmp "start after it: the saved default still $orig" "$(cat "$SAVED" 2>/dev/null)" = "$orig"
out=$("$APPLY" stop 2>"$D/err")
check_cmp "assign: stop exits 0" "$?" -eq 0
check "assign: stop, nothing on stderr" test ! -s "$D/err"
check "assign: stop says 4 cgroups unassigned ($out)" grep -qF " 4 cgroup(s) unassigned" <<<"$out"
check_cmp "assign: stop leaves no cgroup link" "$(cgroup_links)" -eq 0
check_cmp "assign: stop leaves nothing registered" "$(names)" = none
check "assign: no pins" no_pins
check_cmp "assign: stop puts the original default back, not cubic" "$(cat $CA_DEFAULT)" = "$orig"
check "assign: the saved default gone" test ! -e "$SAVED"
[ "$(failures)" -eq "$fails" ] || left_behind
for c in "$CG/t62" "${cgs[@]}" "$CG/t62"$'\t'"tab" "$CG/t62"$'\n'"nl" "$CG/t62m"; do
	rmdir "$c" 2>/dev/null
done
echo "$before_default" > $CA_DEFAULT
check "no struct_ops map left at the end" wait_for 10 maps_back
if [ "$mounted_here" = yes ]; then umount "$CG"; fi
rm -rf "$D"
