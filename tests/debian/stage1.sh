# shellcheck shell=bash
# Boot 1 of make debian-test: the package installs offline with apt, its
# unit is enabled and applies the shipped /etc/bpf-bic.conf at once; a cgroup
# assignment is written into the file for the next boot.

check_is "the default before the package is the kernel's" \
	"$(sysctl -n net.ipv4.tcp_congestion_control)" cubic

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

printf 'register bpf_bic_2611 2611\nassign bpf_bic_2611 /sys/fs/cgroup/bictest\n' \
	>> /etc/bpf-bic.conf
info "assign bpf_bic_2611 /sys/fs/cgroup/bictest added to /etc/bpf-bic.conf"
next_boot
