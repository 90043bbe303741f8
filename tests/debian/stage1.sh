# shellcheck shell=bash
# Boot 1 of make debian-test: the package installs offline with apt, its
# unit is enabled and applies the shipped /etc/bpf-bic.conf at once; a cgroup
# assignment is written into the file for the next boot.  The operator's
# default is reno then (not cubic, stop's fallback): a stop of the unit that
# fails (ccctl refusing set-default, by a stand-in the unit is pointed at)
# keeps /run/bpf-bic/default-before though systemd stops the unit, the
# start after it keeps it, and the good stop after that puts reno back.

check_is "the default before the package is the kernel's" \
	"$(sysctl -n net.ipv4.tcp_congestion_control)" cubic
sysctl -qw net.ipv4.tcp_congestion_control=reno

debs=("$T"/bpf-bic_*_amd64.deb)
deb=${debs[0]}
# apt would fetch what the package needs from the archive; this guest has
# no network, so all of it must be installed already.
sim=$(apt-get install --simulate "$deb" 2>&1)
check_is "apt installs the package and nothing else (all it depends on is here)" \
	"$(awk '$1 == "Inst" { print $2 }' <<< "$sim" | tr '\n' ' ')" "bpf-bic "
if apt install -y "$deb" > "$STATE/apt-install.log" 2>&1; then
	ok "apt install ./${deb##*/}, offline"
else
	not_ok "apt install ./${deb##*/}, offline"
	sed 's/^/#   /' "$STATE/apt-install.log" | tail -n 15
fi
check_is "bpf-bic.service is enabled" "$(systemctl is-enabled bpf-bic.service 2>&1)" enabled
check_is "bpf-bic.service is active" "$(systemctl is-active bpf-bic.service 2>&1)" active
check_is "the default is bpf_bic once installed" \
	"$(sysctl -n net.ipv4.tcp_congestion_control)" bpf_bic
check_is "the operator's default is saved" "$(cat /run/bpf-bic/default-before 2>&1)" reno

# left_behind: what the unit and ccctl have, for a failure to show.
left_behind() {
	info "left behind: default $(sysctl -n net.ipv4.tcp_congestion_control)," \
		"saved '$(cat /run/bpf-bic/default-before 2>&1)'," \
		"unit $(systemctl is-active bpf-bic.service)"
	ccctl list 2>&1 | sed 's/^/#   /'
	journalctl -b -u bpf-bic.service --no-pager -n 5 2>&1 | sed 's/^/#   /'
}
fails=$(failures)
check_is "the unit keeps /run/bpf-bic when it stops" \
	"$(systemctl show -P RuntimeDirectoryPreserve bpf-bic.service)" yes
# Every stage runs under the unit's sandbox (its comment says what it keeps).
check_is "the unit sees the host's files read-only" \
	"$(systemctl show -P ProtectSystem bpf-bic.service)" strict
info "systemd-analyze security: $(systemd-analyze security bpf-bic.service 2>&1 | tail -n 1)"
fake=/run/bic-debtest-ccctl
cat > "$fake" <<EOF
#!/bin/sh
[ "\$1" != set-default ] || { echo "ccctl: refused by the test" >&2; exit 1; }
exec $(command -v ccctl) "\$@"
EOF
chmod +x "$fake"
mkdir -p /run/systemd/system/bpf-bic.service.d
printf '[Service]\nEnvironment=CCCTL=%s\n' "$fake" > /run/systemd/system/bpf-bic.service.d/fail.conf
systemctl daemon-reload
systemctl stop bpf-bic.service 2>/dev/null
check "systemctl stop bpf-bic, set-default refused: the unit failed" \
	systemctl is-failed -q bpf-bic.service
check_is "... and leaves bpf_bic the default" "$(sysctl -n net.ipv4.tcp_congestion_control)" bpf_bic
check_is "... and the saved default, though systemd stopped the unit" \
	"$(cat /run/bpf-bic/default-before 2>&1)" reno
rm -r /run/systemd/system/bpf-bic.service.d "$fake"
systemctl daemon-reload
systemctl reset-failed bpf-bic.service
check "systemctl start bpf-bic again" systemctl start bpf-bic.service
check_is "... keeps the saved default" "$(cat /run/bpf-bic/default-before 2>&1)" reno
check "systemctl stop bpf-bic" systemctl stop bpf-bic.service
check_is "... puts the operator's default back, reno, not cubic" \
	"$(sysctl -n net.ipv4.tcp_congestion_control)" reno
check "... and removes the saved default" test ! -e /run/bpf-bic/default-before
check_is "... and nothing of ccctl's is left" "$(find /sys/fs/bpf -mindepth 1 | head -n 3 | tr '\n' ' ')" ""
[ "$(failures)" -eq "$fails" ] || left_behind
# The unit stays stopped: it is enabled, and starts at the next boot.

printf 'register bpf_bic_2611 2611\nassign bpf_bic_2611 /sys/fs/cgroup/bictest\n' \
	>> /etc/bpf-bic.conf
info "assign bpf_bic_2611 /sys/fs/cgroup/bictest added to /etc/bpf-bic.conf"
next_boot
