#!/bin/bash
# What ccctl knows of its registrations comes from the kernel, not from a
# list that can be cut short or a filesystem that can be hidden; and what it
# prints of names holds whatever bytes they have.
#
# - Many registrations.  The kernel has no limit on how many congestion
#   controls there are, but it writes tcp_available_congestion_control
#   (and the allowed list) into a 2,048-byte buffer (TCP_CA_BUF_MAX): past
#   about 128 names of 15 bytes the list is cut short, with a WARNING the
#   first time.  Here a module fills the list to two names short of full,
#   and ccctl registers two more names and two past those: list shows every
#   one, the ones the sysctl lacks can be made the default and migrated to,
#   and a refused command (which sweeps stale pins) leaves every pin.  The one WARNING is expected, checked to
#   be that one, and cleared so t_90 still sees any other.
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
check "dmesg is clean before the list is cut" dmesg_clean
# Fill the list with a module's algorithms (tests/kmod/tcp_ca_many.c) to
# two names of 15 bytes short of its 2,047 bytes, cheaply: a registration
# through ccctl is slow in a TCG guest.  Then ccctl registers
# names until two of them are past what the list shows.
room=$(( (2047 - $(tr -d '\n' < "$AVAIL" | wc -c)) / 16 ))
check "fill the list with $((room - 2)) algorithms of a module" \
	insmod "$BIC_DIR/kmod/tcp_ca_many.ko" count=$((room - 2))
i=0 past=0 reg_failed=0
while [ "$past" -lt 2 ] && [ "$i" -lt 6 ]; do
	n=$(printf 't84_%011d' "$i")
	ccctl register --object "$RENO" --name "$n" > /dev/null || { reg_failed=1; break; }
	names+=("$n")
	i=$((i + 1))
	grep -qw "$n" "$AVAIL" || past=$((past + 1))
done
info "registered ${#names[@]}; the sysctl lists $(wc -w < "$AVAIL") names in $(wc -c < "$AVAIL") bytes"
check "ccctl registered two past where the sysctl is cut short" \
	test "$reg_failed" = 0 -a "$past" = 2 -a "${#names[@]}" = 4
last=${names[${#names[@]} - 1]}
check "the sysctl lacks the last one ($last)" sh -c "! grep -qw $last $AVAIL"
check_cmp "list shows every one" "${#names[@]}" -eq \
	"$(ccctl list --json | jq '[.[] | select(.name | startswith("t84_"))] | length')"
check "status of the last one" ccctl status "$last"
cur=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
check "set-default --from makes it the default" ccctl set-default "$last" --from "$cur"
check "and it is" test "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" = "$last"
check "set-default --from moves every namespace off it" ccctl set-default "$cur" --from "$last"
check "migrate to it is allowed" ccctl migrate cubic "$last"
# A refused command takes the lock and sweeps what the kernel says is stale.
check "an unrelated refused command" sh -c "! ccctl unregister t84_none 2>/dev/null"
check "leaves the last one's pin" test -e "/sys/fs/bpf/ccctl/$last/link" -o \
	-e "/sys/fs/bpf/ccctl/$last/map"
check_cmp "and list still shows every one" "${#names[@]}" -eq \
	"$(ccctl list --json | jq '[.[] | select(.name | startswith("t84_"))] | length')"
# Only tcp_get_available_congestion_control's WARN_ON_ONCE, nothing else.
check_cmp "dmesg has one WARNING" 1 -eq "$(dmesg | grep -c 'WARNING:')"
check "and it is the cut list's" \
	sh -c "dmesg | grep 'WARNING:' | grep -q tcp_get_available_congestion_control"
dmesg -c > /dev/null

# A namespace named with a newline, a tab and bytes that are not UTF-8
# (ip netns takes any byte but '/'), its default the last one (allowed
# there: it was the initial namespace's default): the refusal names it,
# still in one line.
ns=$'t84 n\nt\t\xe9\xff'
if ip netns add "$ns"; then
	ip netns exec "$ns" sh -c "echo $last > /proc/sys/net/ipv4/tcp_congestion_control"
	err=$(ccctl unregister "$last" 2>&1 >/dev/null)
	info "unregister with a namespace of that name: $err"
	check_cmp "unregister refused in one line naming it" "$(printf '%s\n' "$err" | wc -l)" -eq 1
	check "... its newline and tab shown as \\xNN" grep -qF 'network namespace /run/netns/t84 n\x0at\x09' <<< "$err"
	ip netns del "$ns"
else
	not_ok "cannot make a network namespace named with a newline"
fi

# Unregister all but the first, the last ones (which the sysctl lacks) first.
ok=0
for ((j = ${#names[@]} - 1; j > 0; j--)); do
	ccctl unregister "${names[j]}" > /dev/null && ok=$((ok + 1))
done
check_cmp "every unregister but the first's went through" $((${#names[@]} - 1)) -eq "$ok"
names=("${names[0]}")
check "the module's algorithms go" rmmod tcp_ca_many

# --- a second bpffs over /sys/fs/bpf --------------------------------------------
first=${names[0]}
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
