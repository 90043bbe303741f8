#!/bin/bash
# make debian-test: the Debian package on a real Debian guest with systemd.
# A disk image is made for this run from the cached root (mkdebian.sh), the
# package, and the guest side of the test (guest.sh and its stages, run at
# each boot by bic-debtest.service), with mkfs.ext4 -d: nothing is mounted.
# The guest boots from it under run-vm.sh, reboots itself between stages
# and powers off at the end.  The host adds its own checks: the guest's
# status, that it rebooted only when a stage asked for it, and a closing
# line from the guest.
#
# usage: run.sh ROOT DEB WORKDIR [TIMEOUT_SEC]
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"

die() { echo "debian-test: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: run.sh ROOT DEB WORKDIR [TIMEOUT_SEC]"
root=$1 deb=$2 work=$3 timeout_s=${4:-900}
here=$(dirname "$0")
for f in vmlinuz initrd.img; do
	[ -r "$root/$f" ] || die "no $f in $root"
done
[ -r "$deb" ] || die "no package at $deb"
case ${deb##*/} in
bpf-bic_*_amd64.deb) ;;
*) die "not a bpf-bic amd64 package: $deb" ;;
esac

t0=$(date +%s)
img=$work/disk.img stage=$work/stage console=$work/console.log
rm -rf "$work"
mkdir -p "$work" || die "cannot make $work"
# The root's files are hard links here: only new files are added, so the
# cached root stays as it is.
cp -al "$root" "$stage" || die "cannot copy $root"
d=$stage/opt/debtest
if ! { mkdir -p "$d" "$stage/etc/systemd/system.conf.d" &&
	cp "$here/guest.sh" "$here/stage1.sh" "$here/stage2.sh" "$deb" "$d/" &&
	cp "$here/../guest/lib.sh" "$here/../guest/tap.sh" "$d/" &&
	cp "$here/bic-debtest.service" "$stage/etc/systemd/system/" &&
	ln -s ../bic-debtest.service "$stage/etc/systemd/system/multi-user.target.wants/" &&
	printf '[Manager]\nShowStatus=error\n' > "$stage/etc/systemd/system.conf.d/bic-debtest.conf"; }; then
	die "cannot fill $stage"
fi
mkfs.ext4 -q -F -L debian -d "$stage" "$img" 1G > /dev/null || die "mkfs.ext4 -d $stage failed"
rm -rf "$stage"
t1=$(date +%s)
echo "# disk image $img made in $((t1 - t0))s"

# plain: the console's lines without a terminal's control sequences.
# trixie's systemd (257) writes a terminal reset (ESC [ ! p, ESC ] 104 BEL,
# ESC [ ? 7 h) ahead of the stage unit's first line on the tty, though the
# unit has TTYReset=no: a stage's line would not start the console's line.
plain() { sed -u -e 's/\x1b\][^\x07]*\x07//g' -e 's/\x1b\[[0-9;?!]*[A-Za-z]//g' -e 's/\r$//'; }

# The console as it comes, with the host's time at each boot and stage end.
rc=0
DISK=$img KERNEL=$root/vmlinuz INITRD=$root/initrd.img "$here/../../vm-image/run-vm.sh" \
	--log "$console" --timeout "$timeout_s" 2>&1 | plain | while IFS= read -r line; do
	printf '%s\n' "$line"
	case $line in
	BIC-BOOT*|BIC-REBOOT*|BIC-GUEST-EXIT*) echo "# host +$(( $(date +%s) - t1 ))s" ;;
	esac
done
rc=${PIPESTATUS[0]}
echo "# guest run ${rc:+(status $rc) }$(( $(date +%s) - t1 ))s, image and guest $(( $(date +%s) - t0 ))s"

tap_begin "$work/results"
log=$(plain < "$console")
boots=$(grep -c '^BIC-BOOT ' <<< "$log")
reboots=$(grep -c '^BIC-REBOOT ' <<< "$log")
# what Debian's initramfs says first at every boot
kernels=$(grep -c '^Loading, please wait' <<< "$log")
if [ "$rc" -eq 0 ]; then ok "the guest ran every stage and powered off with status 0"
else not_ok "the guest's status is $rc"; fi
if [ "$boots" -eq 2 ] && [ "$reboots" -eq 1 ] && [ "$kernels" -eq 2 ]; then
	ok "the guest booted twice and rebooted only when its stage asked"
else
	not_ok "boots: $kernels kernels started, $boots stages began, $reboots reboots asked (want 2, 2, 1)"
fi
# The guest's own results add up with these.
line=$(closing_line <<< "$log")
if [ -n "$line" ]; then
	read -r p f s <<< "$(closing_counts "$line")"
	tap_add "$p" "$f" "$s"
	ok "the guest printed its closing line: $line"
else
	not_ok "the guest printed no closing line"
fi
summary
