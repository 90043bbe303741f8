#!/bin/bash
# ccctl unregister refuses an algorithm that a route names.
#
# "ip route ... congctl NAME" (RTAX_CC_ALGO among the route's metrics) puts
# the connections the route carries on NAME.  The kernel keeps only the
# name's hash: it would let NAME be unregistered and the route would go on,
# quietly giving its connections the namespace's default.  ccctl refuses,
# as it does for a namespace's default and a cgroup's assignment, in every
# network namespace, naming the route, its table and its namespace.  Four
# routes, IPv4 and IPv6, in the initial namespace and in another, in the
# main table and in table 82, the other namespace's through a gateway:
# each alone must stop unregister with its own line (the exact text, so
# that a route is shown as "ip route" shows it); with all four gone
# unregister goes through.  Nothing is left behind:
# no route naming the algorithm, no namespace, no veth, no pin.  No flow
# runs (t_40 shows a route's congctl choosing the algorithm), and a
# refusal's "nothing changed" is read from ccctl's pins and the kernel's
# list rather than by lib.sh's refused(), whose two bpftool listings are
# slow under TCG.  No swap either (slow too): a swap keeps the name, which
# is all a route holds (reg.c).  Much of the test's time is ccctl
# register (libbpf reading the kernel's BTF; the figures: docs/testing.md).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

CA=t82_route
NS=t82
modprobe veth

cleanup() {
	ip link del t82a 2>/dev/null
	ip route del 10.82.1.0/24 2>/dev/null
	ip -6 route del fd82:1::/64 table 82 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ccctl unregister "$CA" > /dev/null 2>&1
}
trap cleanup EXIT

# routes_naming CA: every route of both namespaces whose congctl is CA.
routes_naming() {
	local ns fam
	for ns in "" "$NS"; do
		for fam in -4 -6; do
			ip ${ns:+-n "$ns"} "$fam" route show table all 2>/dev/null |
				sed "s|^|${ns:-init} $fam: |"
		done
	done | grep -w "congctl $1"
}

check "ccctl registers $CA" ccctl register --name "$CA"
ip netns add "$NS"
ip link add t82a type veth peer t82b netns "$NS"
ip addr add 10.82.0.1/24 dev t82a
ip addr add fd82::1/64 dev t82a nodad
ip link set t82a up
ip -n "$NS" addr add 10.82.0.2/24 dev t82b
ip -n "$NS" addr add fd82::2/64 dev t82b nodad
ip -n "$NS" link set t82b up

# Each route: how to add it, where, and the refusal's text for it.
adds=() dels=() says=()
add_route() {
	adds+=("$1") dels+=("$2") says+=("ccctl: $CA is the congctl of route $3")
}
add_route "ip route add 10.82.1.0/24 dev t82a congctl $CA" \
	"ip route del 10.82.1.0/24" \
	"10.82.1.0/24 dev t82a (table main); ip route change or delete it first"
add_route "ip -6 route add fd82:1::/64 dev t82a table 82 congctl $CA" \
	"ip -6 route del fd82:1::/64 table 82" \
	"fd82:1::/64 dev t82a metric 1024 (table 82); ip route change or delete it first"
add_route "ip -n $NS route add 10.82.2.0/24 via 10.82.0.1 dev t82b table 82 congctl $CA" \
	"ip -n $NS route del 10.82.2.0/24 table 82" \
	"10.82.2.0/24 via 10.82.0.1 dev t82b (table 82) in network namespace /run/netns/$NS; ip route change or delete it there first"
add_route "ip -n $NS -6 route add fd82:2::/64 via fd82::1 dev t82b congctl $CA" \
	"ip -n $NS -6 route del fd82:2::/64" \
	"fd82:2::/64 via fd82::1 dev t82b metric 1024 (table main) in network namespace /run/netns/$NS; ip route change or delete it there first"

# still_registered: what a refused unregister leaves as it was.
still_registered() {
	echo "pins=$(find /sys/fs/bpf/ccctl -mindepth 1 | sort | xargs)" \
		"available=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
}
# refused_by DESC LINE: unregister fails with exactly LINE on stderr and
# leaves the registration as it was.
refused_by() {
	REFUSED_STATE=still_registered refused "$1" "$2" ccctl unregister "$CA"
	check_cmp "$1: with exactly that line" "$ERR" = "$2"
}

for i in "${!adds[@]}"; do
	# shellcheck disable=SC2086	# each is a command line
	check "${adds[i]}" ${adds[i]}
	refused_by "only that route names $CA" "${says[i]}"
	# shellcheck disable=SC2086
	check "... ${dels[i]}" ${dels[i]}
done

# shellcheck disable=SC2086
for i in "${!adds[@]}"; do ${adds[i]}; done
# The last check reads the routes this way: it must see them while there.
check_cmp "ip route shows all four routes with congctl $CA" \
	"$(routes_naming "$CA" | wc -l)" -eq 4
# shellcheck disable=SC2086
for i in "${!dels[@]}"; do ${dels[i]}; done

check "with the routes gone, unregister $CA goes through" ccctl unregister "$CA"
ip link del t82a
ip netns del "$NS"
left=$(routes_naming "$CA"; ip -o link show | grep -w t82a; ip netns list | grep -w "$NS"
	grep -w "$CA" /proc/sys/net/ipv4/tcp_available_congestion_control
	find /sys/fs/bpf/ccctl -mindepth 1 2>/dev/null)
check "nothing left behind${left:+: $(echo "$left" | tr '\n' ' ')}" test -z "$left"
