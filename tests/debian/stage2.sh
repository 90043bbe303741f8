# shellcheck shell=bash
# Boot 2 of make debian-test: after a real reboot bpf-bic.service has applied
# /etc/bpf-bic.conf again; flows between two namespaces run on bpf_bic, and
# in the assigned cgroup on bpf_bic_2611.  apt remove, with a flow running
# across it, leaves no BPF object and the old default behind and drops no
# connection; apt purge removes the configuration.

# on_ca NETNS_CMD PORT: the algorithm ss shows for the established
# connection whose local port is PORT.
on_ca() {
	"$1" ss -tinH state established "sport = :$2" | grep -o -w -E 'cubic|reno|bpf_[a-z0-9_]+' | head -n 1
}

# seen NETNS_CMD PORT: ss shows that connection established, on some
# algorithm (iperf3 may take seconds to start under TCG).
seen() { [ -n "$(on_ca "$1" "$2")" ]; }

# acked NETNS_CMD PORT: bytes_acked of that connection, as ss -ti shows it.
acked() {
	"$1" ss -tinH state established "sport = :$2" | grep -o 'bytes_acked:[0-9]*' | cut -d: -f2
}

# resets: established connections reset in both namespaces so far (an
# iperf3 that closes its control connection with data unread resets it).
resets() {
	local n m=0
	for n in "$SND" "$RCV"; do
		m=$(( m + $(ip netns exec "$n" nstat -az TcpEstabResets | awk '$1 == "TcpEstabResets" { print $2 }') ))
	done
	echo "$m"
}

# bytes JSON: what iperf3's receiver got, or nothing.
bytes() { jq -e '.end.sum_received.bytes | floor' "$1" 2>/dev/null; }

# bpf_count KIND JQ_FILTER: how many objects bpftool lists that match.
bpf_count() { bpftool -j "$1" list | jq "[.[] | select($2)] | length"; }

check_is "bpf-bic.service is active after the reboot" \
	"$(systemctl is-active bpf-bic.service 2>&1)" active
check "ccctl list --json shows bpf_bic registered" \
	sh -c 'ccctl list --json | jq -e "any(.[]; .name == \"bpf_bic\")" > /dev/null'
check_is "the default is bpf_bic" "$(sysctl -n net.ipv4.tcp_congestion_control)" bpf_bic

modprobe veth && modprobe tcp_diag
ip netns add "$SND" && ip netns add "$RCV" &&
	ip link add veth-s netns "$SND" type veth peer name veth-r netns "$RCV" &&
	in_snd ip addr add "$SND_ADDR/24" dev veth-s && in_rcv ip addr add "$RCV_ADDR/24" dev veth-r &&
	in_snd ip link set veth-s up && in_rcv ip link set veth-r up &&
	in_snd ip link set lo up && in_rcv ip link set lo up
check_is "a new namespace starts with the initial namespace's default" \
	"$(in_snd sysctl -n net.ipv4.tcp_congestion_control)" bpf_bic

# iperf3's servers report on the disk, not on the console.
srv() { server "$1" >> "$STATE/iperf3-servers.log" 2>&1; }

# flow PORT CPORT SECS: a client in the sender's namespace, in the background.
flow() { in_snd iperf3 -c "$RCV_ADDR" -p "$1" --cport "$2" -t "$3" -J > "$STATE/flow-$2.json"; }

srv 5201
flow 5201 40001 6 & c=$!
wait_for 30 seen in_snd 40001
check_is "a flow on the namespace's default runs on bpf_bic (ss -ti)" "$(on_ca in_snd 40001)" bpf_bic
wait $c
check_cmp "its bytes arrived" "$(bytes "$STATE/flow-40001.json")" -gt 0
reap 5201

check "the assigned cgroup exists" test -d /sys/fs/cgroup/bictest
check_is "ccctl list --json shows the assignment made at boot" \
	"$(ccctl list --json | jq -c 'map(select(.cgroups != [])) | map({(.name): .cgroups}) | add')" \
	'{"bpf_bic_2611":["/sys/fs/cgroup/bictest"]}'
srv 5202
srv 5203
(echo "$BASHPID" > /sys/fs/cgroup/bictest/cgroup.procs && flow 5202 40002 6) & c1=$!
flow 5203 40003 6 & c2=$!
wait_for 30 seen in_snd 40002
wait_for 30 seen in_snd 40003
check_is "a client in /sys/fs/cgroup/bictest runs on bpf_bic_2611" \
	"$(on_ca in_snd 40002)" bpf_bic_2611
check_is "a client outside it runs on bpf_bic" "$(on_ca in_snd 40003)" bpf_bic
wait $c1 $c2
check_cmp "the cgroup's flow delivered" "$(bytes "$STATE/flow-40002.json")" -gt 0
reap 5202 5203

# The objects the package ships (DWARF stripped, BTF kept) load as they
# are; the removal must take this registration away too.
check "ccctl registers the package's /usr/lib/bpf-bic/bpf/bic.bpf.o as bpf_bic_obj" \
	ccctl register --object /usr/lib/bpf-bic/bpf/bic.bpf.o --name bpf_bic_obj
check "... and its traced 2.6.11 object in the pre-6.4 form" \
	ccctl register --object /usr/lib/bpf-bic/bpf/trace/nolink/bic_2611.bpf.o --name bpf_bic_obj2
check "... and its complete-undo object" \
	ccctl register --object /usr/lib/bpf-bic/bpf/bic_restore.bpf.o --name bpf_bic_obj3
check "ccctl registers the built-in complete undo, bpf_bic_restore" \
	ccctl register --variant restore

# Both namespaces were made while bpf_bic was the default and hold it as
# theirs: the removal must put them back too (ccctl set-default --from).
srv 5204
# exec: $! is iperf3 itself, which the end of the test interrupts
(exec ip netns exec "$SND" iperf3 -c "$RCV_ADDR" -p 5204 --cport 40010 -t 600 -C bpf_bic \
	> "$STATE/flow-40010.log" 2>&1) & long=$!
wait_for 30 seen in_snd 40010
check_is "a long flow runs on bpf_bic before the removal" "$(on_ca in_snd 40010)" bpf_bic

resets0=$(resets)
t0=$(date +%s)
if apt remove -y bpf-bic > "$STATE/apt-remove.log" 2>&1; then
	ok "apt remove -y bpf-bic ($(( $(date +%s) - t0 ))s)"
else
	not_ok "apt remove -y bpf-bic"
	sed 's/^/#   /' "$STATE/apt-remove.log" | tail -n 15
fi
check_is "bpf-bic.service is no longer active" "$(systemctl is-active bpf-bic.service 2>&1)" inactive
check_is "the default is back to cubic" "$(sysctl -n net.ipv4.tcp_congestion_control)" cubic
check_is "so are both namespaces' defaults, which were bpf_bic" \
	"$(in_snd sysctl -n net.ipv4.tcp_congestion_control) $(in_rcv sysctl -n net.ipv4.tcp_congestion_control)" \
	"cubic cubic"
check_is "nothing is left under /sys/fs/bpf, ccctl's directory included" "$(find /sys/fs/bpf -mindepth 1 | head -n 3 | tr '\n' ' ')" ""
check_is "no struct_ops or cgroup sock_ops link is left (bpftool link list)" \
	"$(bpf_count link '.type == "struct_ops" or .attach_type == "sock_ops"')" 0
check_is "no cgroup has a sock_ops program (bpftool cgroup tree)" \
	"$(bpftool cgroup tree | grep -c sock_ops)" 0
check_is "no bpf_* algorithm is available for new connections" \
	"$(grep -o 'bpf_[a-z0-9_]*' /proc/sys/net/ipv4/tcp_available_congestion_control | tr '\n' ' ')" ""

# The flow that ran across the removal: still there, on the ops it had, and
# still delivering; no connection of the namespaces was reset meanwhile.
check_is "the long flow is established after the removal, still on bpf_bic" \
	"$(on_ca in_snd 40010)" bpf_bic
a1=$(acked in_snd 40010)
delivers() { [ "$(acked in_snd 40010)" -gt "$a1" ]; }
check "the long flow still delivers after the removal (its bytes acked grow past $a1)" \
	wait_for 10 delivers
check_is "no established connection was reset during the removal (TcpEstabResets)" \
	"$(( $(resets) - resets0 ))" 0
kill -INT "$long"
wait "$long"
reap 5204
# The struct_ops map and its programs go with the last socket that used them
# (freed after an RCU grace period: polled, each time counted afresh).
none_of() { [ "$(bpf_count "$1" "$2")" = 0 ]; }
wait_for 10 none_of map '.type == "struct_ops"'
check_is "no struct_ops map is left (bpftool map list)" "$(bpf_count map '.type == "struct_ops"')" 0
wait_for 10 none_of prog '.type == "struct_ops" or .type == "sock_ops"'
check_is "no struct_ops or sock_ops program is left (bpftool prog list)" \
	"$(bpf_count prog '.type == "struct_ops" or .type == "sock_ops"')" 0

check "/etc/bpf-bic.conf is kept by apt remove" test -e /etc/bpf-bic.conf
if apt purge -y bpf-bic > "$STATE/apt-purge.log" 2>&1; then
	ok "apt purge -y bpf-bic"
else
	not_ok "apt purge -y bpf-bic"
	sed 's/^/#   /' "$STATE/apt-purge.log" | tail -n 15
fi
check "apt purge removes /etc/bpf-bic.conf" test ! -e /etc/bpf-bic.conf
check "dpkg knows the package no more" sh -c '! dpkg -s bpf-bic > /dev/null 2>&1'
finish
