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
set -uo pipefail
. "$(dirname "$0")/lib.sh"

APPLY=/usr/lib/bpf-bic/bpf-bic-apply
SAVED=/run/bpf-bic/default-before
CA_DEFAULT=/proc/sys/net/ipv4/tcp_congestion_control
CG=/sys/fs/cgroup
D=/tmp/t62
rm -rf "$D" && mkdir -p "$D"

modules_up
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 cgroup2 "$CG"
# The default of a guest that has never seen bpf-bic-apply.
[ "$(cat $CA_DEFAULT)" = cubic ] || echo cubic > $CA_DEFAULT
before_default=$(cat $CA_DEFAULT)
rm -f "$SAVED"

# names: what ccctl has registered, "none" for nothing.
names() {
	local j
	j=$(ccctl list --json) || { echo "ccctl list failed"; return; }
	jq -r '[.[].name] | sort | if length == 0 then "none" else join(" ") end' <<<"$j"
}
map_ids() { ccctl list --json | jq -r '[.[] | "\(.name)=\(.map_id)"] | sort | join(" ")'; }
maps_before=$(bpftool struct_ops list | wc -l)
maps_back() { [ "$(bpftool struct_ops list | wc -l)" -eq "$maps_before" ]; }

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

# --- cgroups ------------------------------------------------------------------
rmdir "$CG/t62" 2>/dev/null
printf 'register t62_a fixed default\nregister t62_b 2611\nassign t62_b %s/t62\n' "$CG" \
	> "$D/cg.conf"
err=$("$APPLY" start "$D/cg.conf" 2>&1 >/dev/null)
check_cmp "assign: start exits 0" "$?" -eq 0
info "$err"
check "assign: the missing cgroup created" test -d "$CG/t62"
check_cmp "assign: ccctl lists the cgroup under t62_b" \
	"$(ccctl list --json | jq -cS 'map({(.name): .cgroups}) | add')" = \
	"{\"t62_a\":[],\"t62_b\":[\"$CG/t62\"]}"
check_cmp "assign: one cgroup link" "$(cgroup_links)" -eq 1
err=$("$APPLY" start "$D/cg.conf" 2>&1 >/dev/null)
check_cmp "assign: second start exits 0" "$?" -eq 0
check_cmp "assign: still one cgroup link" "$(cgroup_links)" -eq 1
err=$("$APPLY" stop 2>&1 >/dev/null)
check_cmp "assign: stop exits 0" "$?" -eq 0
info "$err"
check_cmp "assign: stop leaves nothing registered" "$(names)" = none
check_cmp "assign: stop leaves no cgroup link" "$(cgroup_links)" -eq 0
check_cmp "assign: stop puts the default back" "$(cat $CA_DEFAULT)" = "$before_default"
check "assign: no pins" no_pins
rmdir "$CG/t62" 2>/dev/null
check "no struct_ops map left at the end" wait_for 10 maps_back
rm -rf "$D"
