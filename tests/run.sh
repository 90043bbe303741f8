#!/bin/bash
# make test / make vm-test: the guest suite on every chosen kernel and the
# host tests, JOBS at a time (each guest is one QEMU process, one host
# thread: under -icount QEMU runs a guest's vCPUs in turn);
# one closing line that adds everything up.
#
# usage: run.sh [--jobs N] [--out DIR] [--log PREFIX] [--timeout SEC] [--unit CMD]...
#               [--job ID=CMD]... [--kernels "ID:VMLINUZ:INITRD[:CPUS] ..." -- GUEST_COMMAND...]
#   --unit	a host test (a shell command line), repeatable: all of them
#		one after another in one slot, queued last (after the
#		kernels' suites and the jobs), so that they take a slot as it
#		frees rather than delay every guest
#   --job	a test that boots guests of its own (a shell command line),
#		queued after the kernels' suites and run in their slots,
#		repeatable
#   --kernels	the guests: kernel ID's image and initramfs, and its vCPUs
#		(QEMU_SMP; default 1), which the guest command finds in
#		GUEST_CPUS (run-all.sh checks it has them), and QEMU_ICOUNT
#		in GUEST_ICOUNT ("none": real time)
#   --out	guest /out files of kernel ID land in DIR/ID
#   --log	the console of kernel ID is kept in PREFIX-ID.log
#   --timeout	seconds each guest may take (run-vm.sh's --timeout)
# Without --kernels it runs only the jobs and host tests (make debian-test).
# ACCEL_CACHE and the rest of run-vm.sh's environment pass through.
set -uo pipefail

here=$(dirname "$0")
# shellcheck source=guest/tap.sh
. "$here/guest/tap.sh"
jobs=1 out=build/out log=build/vm-test kernels="" units=() timeout_s=900 extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--unit) units+=("$2"); shift 2 ;;
	--job) extra+=("$2"); shift 2 ;;
	--kernels) kernels=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "run: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ -n "$kernels" ] && [ $# -eq 0 ]; then
	echo "run: kernels but no guest command" >&2
	exit 2
fi
if [ -z "$kernels" ] && [ ${#extra[@]} -eq 0 ] && [ ${#units[@]} -eq 0 ]; then
	echo "run: nothing to run (no kernels, jobs or host tests)" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total_pass=0 total_fail=0 total_skip=0 status=0 tallied=()

# tally FILE WHAT: add up the closing line "N passed, N failed[, N skipped]".
tally() {
	local line p f s
	line=$(closing_line < "$1")
	if [ -z "$line" ]; then
		echo "run: $2 printed no result line" >&2
		total_fail=$((total_fail + 1))
		tallied+=("$2: no result line")
		return
	fi
	read -r p f s <<< "$(closing_counts "$line")"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + s))
	tallied+=("$2: $line")
}

# One guest run per kernel; its output is shown whole when it ends, so that
# two guests at once do not interleave their lines.
run_guest() {
	local id=$1 vmlinuz=$2 initrd=$3 cpus=$4 start rc=0
	shift 4
	start=$(date +%s)
	KERNEL=$vmlinuz INITRD=$initrd QEMU_SMP=$cpus "$here/../vm-image/run-vm.sh" \
		--log "$log-$id.log" --out "$out/$id" --timeout "$timeout_s" \
		-- env GUEST_CPUS="$cpus" GUEST_ICOUNT="${QEMU_ICOUNT:-none}" "$@" > "$tmp/guest-$id" 2>&1 || rc=$?
	echo "$rc $(( $(date +%s) - start ))" > "$tmp/done-$id"
}

# run_units: the host tests, in a slot like a guest.
run_units() {
	local i start rc=0
	start=$(date +%s)
	for i in "${!units[@]}"; do
		bash -c "${units[i]}" > "$tmp/unit-$i" 2>&1 || rc=$?
	done
	echo "$rc $(( $(date +%s) - start ))" > "$tmp/done-host"
}

# run_job ID CMD: a --job, in a slot like a guest.
run_job() {
	local id=$1 start rc=0
	start=$(date +%s)
	bash -c "$2" > "$tmp/guest-$id" 2>&1 || rc=$?
	echo "$rc $(( $(date +%s) - start ))" > "$tmp/done-$id"
}

report() {
	local id=$1 rc secs what="guest $1" i
	read -r rc secs < "$tmp/done-$id"
	if [ "$id" = host ]; then
		echo "== host tests (${secs}s)"
		for i in "${!units[@]}"; do
			echo "== unit: ${units[i]}"
			cat "$tmp/unit-$i"
			tally "$tmp/unit-$i" "${units[i]}"
		done
		[ "$rc" -eq 0 ] || status=1
		return
	fi
	if [ -n "${job_cmd[$id]:-}" ]; then
		what="job $id"
		echo "== job $id (${secs}s)"
	else
		echo "== guest suite on $id (${secs}s, ${guest_cpus[$id]} vCPU)"
	fi
	cat "$tmp/guest-$id"
	[ "$rc" -eq 0 ] || status=1
	tally "$tmp/guest-$id" "$what"
}

declare -A running=() job_cmd=() guest_cpus=()
# a free slot: report whoever ended
slot() {
	local r
	while [ "${#running[@]}" -ge "$jobs" ]; do
		wait -n
		for r in "${!running[@]}"; do
			[ -e "$tmp/done-$r" ] && { report "$r"; unset "running[$r]"; }
		done
	done
}
start_all=$(date +%s)
for spec in $kernels; do
	IFS=: read -r id vmlinuz initrd cpus <<< "$spec"
	guest_cpus[$id]=${cpus:-1}
	slot
	run_guest "$id" "$vmlinuz" "$initrd" "${guest_cpus[$id]}" "$@" &
	running[$id]=$!
done
# The jobs (a Debian guest: minutes) before the host tests (about one):
# the longest first, so the short one fills whichever slot frees last.
for spec in "${extra[@]}"; do
	id=${spec%%=*}
	job_cmd[$id]=${spec#*=}
	slot
	run_job "$id" "${job_cmd[$id]}" &
	running[$id]=$!
done
if [ "${#units[@]}" -gt 0 ]; then
	slot
	run_units &
	running[host]=$!
fi
wait
for r in "${!running[@]}"; do
	report "$r"
done

echo "== total ($(( $(date +%s) - start_all ))s of guests, $jobs at a time)"
printf '%s\n' "${tallied[@]}"
closing "$total_pass" "$total_fail" "$total_skip"
[ "$status" -eq 0 ] && [ "$total_fail" -eq 0 ]
