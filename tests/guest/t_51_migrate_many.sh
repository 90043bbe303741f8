#!/bin/bash
# Issue 39's migration under a hundred flows, in real time: an iperf3 client
# with 100 streams of 20 kbit/s for 40 s on cubic, all its connections
# (both ends, and the server's listener) migrated to bpf_bic ten seconds
# in, then bpf_bic made the default: the client ends cleanly, every stream
# carried its data to the end, nothing is left on cubic, and no connection
# was reset or aborted up to five seconds before the end (iperf3's own
# teardown then resets some on 6.1: 54 of them in one run, 0 on 7.3;
# printed, not checked).
#
# Real time only (make test's real-time lane, GUEST_ICOUNT=none): under the
# suite's -icount shift=3 every guest instruction counts 8 ns, so the guest
# is a CPU of 125 million instructions a second, and a hundred streams
# through netem need more.  There the client took 145-168 s of guest time
# for its 40 s, with or without the migration, and iperf3's server, whose
# watchdog (server_timer_proc) ends a test that outlasts its duration,
# closed the control connection under it: "unable to send control
# message: Broken pipe".  With shift=1 (500 million a second) or in real
# time the same run, migration and all, ends cleanly in 40 s.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

STREAMS=100 RATE=20k SECS=40 AT=10
if [ "${GUEST_ICOUNT:-}" != none ]; then
	skip "100 migrated streams" \
		"real time only: under -icount ${GUEST_ICOUNT:-(unknown)} the guest's CPU is too slow for them (the header)"
	summary
	exit 0
fi

modules_up
net_up 10mbit 10 100
check "register bpf_bic" ccctl register
rm -f /tmp/srv.5201
in_rcv iperf3 -s -1 -p 5201 -I /tmp/srv.5201 > /tmp/t51.srv 2>&1 &
check "the server listens" wait_for 5 listening in_rcv 5201
t0=$EPOCHREALTIME
# at_s SECS: wait until SECS after the client started
at_s() {
	local until=$(( ${t0/./} + $1 * 1000000 ))
	while (( ${EPOCHREALTIME/./} < until )); do sleep 0.2; done
}
in_snd iperf3 -c "$RCV_ADDR" -p 5201 -P "$STREAMS" -b "$RATE" -t "$SECS" -C cubic -J \
	> /out/t51.json 2> /tmp/t51.err &
client=$!
on_cubic() { [ "$(ss_count cubic)" -ge $((2 * (STREAMS + 1))) ]; }
check "the $STREAMS streams and the control connection run on cubic, both ends" \
	wait_for 20 on_cubic
at_s "$AT"
check_cmp "ccctl migrate cubic bpf_bic moves them all, and the listener" \
	"$(ccctl migrate cubic bpf_bic)" = "moved $((2 * (STREAMS + 1) + 1)) sockets from cubic to bpf_bic"
check "ccctl set-default bpf_bic" ccctl set-default bpf_bic
check_cmp "none left on cubic" "$(ss_count cubic)" -eq 0
check_cmp "all on bpf_bic" "$(ss_count bpf_bic)" -ge $((2 * (STREAMS + 1)))
# Resets while the streams run (five seconds before their end): how iperf3
# tears a test down is its own business.
at_s $((SECS - 5))
check_cmp "no connection reset or aborted under the migration and after" "$(snd_resets)" -eq 0
wait "$client"
check_cmp "the client ends cleanly" "$?" -eq 0
check_cmp "... and says nothing on stderr" "$(wc -c < /tmp/t51.err)" -eq 0
info "the client took $(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000000 )) s for its $SECS s"
check_cmp "every stream's data reached the server to the end" \
	"$(jq '[.end.streams[] | select(.receiver.bytes > 0 and .receiver.end >= '"$SECS"')] | length' /out/t51.json)" \
	-eq "$STREAMS"
info "resets and aborts by the end, teardown included: $(snd_resets)"
reap 5201
check "ccctl set-default cubic" ccctl set-default cubic
net_down
check "ccctl unregister bpf_bic" ccctl unregister bpf_bic
summary
