#!/bin/bash
# The guest side of make debian-test, run by bic-debtest.service at every
# boot of the Debian guest: it runs the next stage (stageN.sh), whose checks
# add up on the disk across reboots.  A stage ends by rebooting into the
# next one (next_boot) or by printing the closing line and powering off
# (finish).  A boot that finds a stage still marked running came from a
# reboot nobody asked for: that is a failure, and the run ends there.
# shellcheck disable=SC2317	# what the stages call
set -u

T=/opt/debtest STATE=/var/lib/bic-debtest
export RESULTS=$STATE/results
# shellcheck source=tests/guest/lib.sh
. "$T/lib.sh"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive

mkdir -p "$STATE"
boot=$(( $(cat "$STATE/boots" 2>/dev/null || echo 0) + 1 ))
echo "$boot" > "$STATE/boots"
echo "BIC-BOOT $boot (guest uptime $(cut -d' ' -f1 /proc/uptime)s)"

# check_is DESCRIPTION GOT WANT: one result from a string comparison.
check_is() {
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else not_ok "$1 (got '$2', want '$3')"; fi
}

finish() {
	local rc=0
	summary || rc=1
	echo "BIC-GUEST-EXIT=$rc"
	sync
	# as systemctl poweroff does, without asking logind (no D-Bus here)
	systemctl start --no-block --job-mode=replace-irreversibly poweroff.target
	exit 0
}

next_boot() {
	echo $((stage + 1)) > "$STATE/next"
	rm -f "$STATE/running"
	sync
	echo "BIC-REBOOT after stage $stage (guest uptime $(cut -d' ' -f1 /proc/uptime)s)"
	systemctl start --no-block --job-mode=replace-irreversibly reboot.target
	exit 0
}

if [ -e "$STATE/running" ]; then
	not_ok "boot $boot: stage $(cat "$STATE/running") had not finished (an unexpected reboot)"
	finish
fi
stage=$(cat "$STATE/next" 2>/dev/null || echo 1)
if [ ! -r "$T/stage$stage.sh" ]; then
	not_ok "boot $boot: there is no stage $stage to run"
	finish
fi
echo "$stage" > "$STATE/running"
sync
info "stage $stage, boot $boot"
# shellcheck source=/dev/null
. "$T/stage$stage.sh"
not_ok "stage $stage returned without rebooting or finishing"
finish
