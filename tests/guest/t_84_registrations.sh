#!/bin/bash
# What ccctl knows of its registrations comes from the kernel, not from a
# list that can be cut short or a filesystem that can be hidden; and what it
# prints of names holds whatever bytes they have.
#
# - Many registrations.  The kernel has no limit on how many congestion
#   controls there are, but it writes tcp_available_congestion_control
#   (and the allowed list) into a 2,048-byte buffer (TCP_CA_BUF_MAX): past
#   2,047 bytes of names the list is cut short, with a WARNING the first
#   time (a panic under panic_on_warn).  Here a module fills the list to
#   the byte: ccctl refuses a name one byte longer than the room left, in
#   one line that says how many bytes are left, and registers nothing;
#   a name of exactly the room registers, with no WARNING; then any name
#   is refused.  Filled past the end by the module's names, the list is
#   cut: ccctl refuses to register, and a name the sysctl lacks can still
#   be made the default and migrated to, and a refused command (which
#   sweeps stale pins) leaves ccctl's pin.  The one WARNING is expected,
#   checked to be that one, and cleared so t_90 still sees any other.
# - A second bpffs mounted over /sys/fs/bpf hides ccctl's pins: every
#   command that reads them refuses in one line (stop would otherwise undo
#   nothing and succeed); a bind mount of the same bpffs hides nothing.
# - A namespace named with a newline, a tab and bytes that are not UTF-8:
#   a refusal that names it is still one line.
# - Cgroup names with bytes of every class ccctl takes: list --json writes
#   valid UTF-8 as it is, '"' and '\' escaped, and other bytes as \udcXX;
#   the table keeps each row on one line; unassign finds the cgroup again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

RENO=$BIC_DIR/bpf/test/reno.bpf.o
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control
CG=/sys/fs/cgroup
DEFAULT=/proc/sys/net/ipv4/tcp_congestion_control
default_before=$(cat "$DEFAULT")
modules_up
names=()
cg_mounted=no

cleanup() {
	local n
	umount /sys/fs/bpf 2>/dev/null
	rmmod tcp_ca_many 2>/dev/null
	ip netns del $'t84 n\nt\t\xe9\xff' 2>/dev/null
	grep -q ' /sys/fs/bpf bpf' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
	echo reno > "$DEFAULT"
	ccctl unassign --cgroup "$CG/t84"* > /dev/null 2>&1
	rmdir "$CG"/t84* 2>/dev/null
	[ "$cg_mounted" = no ] || umount "$CG"
	for n in "${names[@]}"; do ccctl unregister "$n" > /dev/null 2>&1; done
	if ! no_pins; then
		info "left behind: $(find /sys/fs/bpf/ccctl -mindepth 1 | head -n 5 | tr '\n' ' ')"
	fi
	echo "$default_before" > "$DEFAULT"
}
trap cleanup EXIT

# --- many registrations -------------------------------------------------------
check "dmesg is clean before the list is filled" dmesg_clean
# list_len: the bytes of the sysctl's list, without its newline.
list_len() { tr -d '\n' < "$AVAIL" | wc -c; }
first=t84_first
check "register $first" ccctl register --object "$RENO" --name "$first"
names+=("$first")
# Fill the list with a module's algorithms (tests/kmod/tcp_ca_many.c), 16
# bytes each with the blank, to leave ROOM bytes of its 2,047, 2 to 15:
# a name of ROOM - 1 bytes then fits exactly and one of ROOM bytes (still a
# valid name) does not.  A tail name of 4 bytes (5 with its blank) takes a
# room of 16 or 17 down to 11 or 12.
free=$(( 2047 - $(list_len) ))
count=$(( (free - 2) / 16 )) tail=0
room=$(( free - 16 * count ))
[ "$room" -gt 15 ] && { tail=4; room=$((room - 5)); }
check "fill the list with $count algorithms of a module (and a tail of $tail bytes)" \
	insmod "$BIC_DIR/kmod/tcp_ca_many.ko" count="$count" tail="$tail"
check_cmp "the list has $room bytes left" "$(( 2047 - $(list_len) ))" -eq "$room"
over=t84_over_xxxxxx exact=t84_exact_xxxxx
over=${over:0:room} exact=${exact:0:room - 1}
refused "a name of $room bytes in a room of $room" "$room are left and $over takes $((room + 1))" \
	ccctl register --object "$RENO" --name "$over"
check "... the kernel does not list it" sh -c "! grep -qw $over $AVAIL"
check "a name of $((room - 1)) bytes fits exactly" ccctl register --object "$RENO" --name "$exact"
names+=("$exact")
check_cmp "... the list is 2,047 bytes" "$(list_len)" -eq 2047
check "... its last name is $exact" test "$(tr ' ' '\n' < "$AVAIL" | tail -n 1)" = "$exact"
check "... list shows it" sh -c "ccctl list --json | jq -e '.[] | select(.name == \"$exact\")' > /dev/null"
refused "a name of one byte in a full list" "0 are left and z takes 2" \
	ccctl register --object "$RENO" --name z
check "no WARNING from a full list read" dmesg_clean
check "unregister $exact" ccctl unregister "$exact"
names=("$first")
check "the module's algorithms go" rmmod tcp_ca_many

# Past the end: the module's last two names are cut from the sysctl.
count=$(( (2047 - $(list_len)) / 16 + 2 ))
check "fill the list past its end with $count algorithms of a module" \
	insmod "$BIC_DIR/kmod/tcp_ca_many.ko" count="$count"
last=$(printf 'many_%010d' $((count - 1)))
check "the sysctl lacks the last one ($last)" sh -c "! grep -qw $last $AVAIL"
refused "register in a list cut short" "0 are left" \
	ccctl register --object "$RENO" --name t84_cut
cur=$(cat "$DEFAULT")
check "set-default --from makes $last the default" ccctl set-default "$last" --from "$cur"
check "and it is" test "$(cat "$DEFAULT")" = "$last"
check "set-default --from moves every namespace off it" ccctl set-default "$cur" --from "$last"
check "migrate to it is allowed" ccctl migrate cubic "$last"
check "and back" ccctl migrate "$last" cubic
# A refused command takes the lock and sweeps what the kernel says is stale.
check "an unrelated refused command" sh -c "! ccctl unregister t84_none 2>/dev/null"
check "leaves $first's pin" test -e "/sys/fs/bpf/ccctl/$first/link" -o \
	-e "/sys/fs/bpf/ccctl/$first/map"
check "and list still shows it" sh -c "ccctl list --json | jq -e '.[] | select(.name == \"$first\")' > /dev/null"
# Only tcp_get_available_congestion_control's WARN_ON_ONCE, nothing else.
check_cmp "dmesg has one WARNING" 1 -eq "$(dmesg | grep -c 'WARNING:')"
check "and it is the cut list's" \
	sh -c "dmesg | grep 'WARNING:' | grep -q tcp_get_available_congestion_control"
dmesg -c > /dev/null
check "the module's algorithms go" rmmod tcp_ca_many

# A namespace named with a newline, a tab and bytes that are not UTF-8
# (ip netns takes any byte but '/'), its default ccctl's registration
# (allowed there once it has been the initial namespace's default): the
# refusal names it, still in one line.
check "set-default $first, which allows it in every namespace" ccctl set-default "$first"
check "and back to $cur" ccctl set-default "$cur"
ns=$'t84 n\nt\t\xe9\xff'
if ip netns add "$ns"; then
	ip netns exec "$ns" sh -c "echo $first > /proc/sys/net/ipv4/tcp_congestion_control"
	err=$(ccctl unregister "$first" 2>&1 >/dev/null)
	info "unregister with a namespace of that name: $err"
	check_cmp "unregister refused in one line naming it" "$(printf '%s\n' "$err" | wc -l)" -eq 1
	check "... its newline and tab shown as \\xNN" grep -qF 'network namespace /run/netns/t84 n\x0at\x09' <<< "$err"
	ip netns del "$ns"
else
	not_ok "cannot make a network namespace named with a newline"
fi

# --- a second bpffs over /sys/fs/bpf --------------------------------------------
mount --bind /sys/fs/bpf /sys/fs/bpf
check "a bind mount of the same bpffs hides nothing" ccctl status "$first"
umount /sys/fs/bpf
mount -t bpf bpf /sys/fs/bpf
refused "list under a second bpffs" "mounted over" ccctl list
refused "unregister under a second bpffs" "mounted over" ccctl unregister "$first"
refused "register under a second bpffs" "mounted over" ccctl register --object "$RENO" --name t84_hidden
umount /sys/fs/bpf
check "with it gone, list sees the registration again" ccctl status "$first"

# --- names with every class of byte ---------------------------------------------
# Bytes of a cgroup name and what list --json must write of them.
# (A cgroup's name may not hold a newline: cgroup_mkdir() refuses it; ccctl
# refuses arguments with control characters, so no cgroup it assigns has
# one: their \u00XX is test_json's.)
bytes=(' ' '"' $'\\' $'\xc3\xa9' $'\xe2\x82\xac' $'\xf0\x9f\x98\x80' $'\xe9' $'\x80' $'\xc0\xaf' $'\xed\xa0\x80' $'\xff')
escaped=(' ' '\"' $'\\\\' $'\xc3\xa9' $'\xe2\x82\xac' $'\xf0\x9f\x98\x80' '\udce9' '\udc80' '\udcc0\udcaf' '\udced\udca0\udc80' '\udcff')
name="t84"
want="t84"
for ((j = 0; j < ${#bytes[@]}; j++)); do
	name+="${bytes[j]}x"
	want+="${escaped[j]}x"
done
path="$CG/$name"
grep -q "^[^ ]* $CG cgroup2 " /proc/mounts || { mount -t cgroup2 none "$CG" && cg_mounted=yes; }
if mkdir "$path"; then
	check "assign to a cgroup named with every class of byte" ccctl assign "$first" --cgroup "$path"
	json=$(ccctl list --json)
	check "list --json writes each byte as it must" grep -qF "\"$CG/$want\"" <<< "$json"
	# Its only bytes outside ASCII are those of the valid UTF-8 in the name.
	check_cmp "no other byte outside ASCII" 0 -eq \
		"$(printf '%s' "${json/"\"$CG/$want\""/}" | tr -d '\000-\177' | wc -c)"
	check "list --json is JSON" jq -e . <<< "$json" > /dev/null
	check_cmp "the table keeps its one assignment on one line" 2 -eq \
		"$(ccctl list | sed -n '/^ASSIGNED/,$p' | wc -l)"
	check "unassign finds the cgroup by its name" ccctl unassign --cgroup "$path"
	check_cmp "nothing is left assigned" 0 -eq "$(ccctl list --json | jq '[.[].cgroups[]] | length')"
	rmdir "$path"
else
	not_ok "cannot make a cgroup named with every class of byte"
fi

check "unregister the first" ccctl unregister "$first"
names=()
check "nothing pinned" no_pins
