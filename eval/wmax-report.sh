#!/bin/bash
# make wmax (and make bench): BIC's way back after one loss at Wmax of
# 2,000 to 1,000,000 packets, against Reno's on the same model, as the
# drill model computes it (model -w, drill/wmax.c), written as its own
# section of docs/bench.md (in place of the one there, or after the rest)
# and printed as well.  Host only, a fraction of a second.
#
# usage: wmax-report.sh MODEL OUT.md
set -euo pipefail

die() { echo "wmax-report: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: wmax-report.sh MODEL OUT.md"
model=$1 out=$2
[ -x "$model" ] || die "no model at $model"
TITLE="## BIC beyond the guest: one loss at Wmax up to 1,000,000 packets"
SIZES="2000 10000 100000 1000000"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086	# the sizes are words
for k in 2 1 8; do
	"$model" -w -k "$k" bpf_bic $SIZES | tail -n +2
	"$model" -w -k "$k" reno $SIZES | tail -n +2
done > "$tmp/runs.csv" || die "model -w failed"

# field ALGO EVERY WMAX N: field N of that run
field() {
	awk -F, -v a="$1" -v k="$2" -v w="$3" -v n="$4" \
		'$1 == a && $2 == k && $3 == w { print $n }' "$tmp/runs.csv"
}
# growth ALGO EVERY: rounds back per packet of Wmax, from 100,000 to 1,000,000
growth() {
	awk -v a="$(field "$1" "$2" 100000 6)" -v b="$(field "$1" "$2" 1000000 6)" \
		'BEGIN { printf "1/%.1f", 900000 / (b - a) }'
}
# paths WMAX: a path of that many 1,500-byte packets in flight
paths() {
	case $1 in
	2000) echo "1 Gbit/s x 24 ms" ;;
	10000) echo "10 Gbit/s x 12 ms" ;;
	100000) echo "10 Gbit/s x 120 ms, 100 Gbit/s x 12 ms" ;;
	1000000) echo "100 Gbit/s x 120 ms" ;;
	esac
}
# at MS ROUNDS: that many rounds of MS ms, in s, min or h
at() {
	awk -v ms="$1" -v r="$2" 'BEGIN { s = ms * r / 1000
		if (s < 120) printf "%.1f s", s
		else if (s < 7200) printf "%.0f min", s / 60
		else printf "%.1f h", s / 3600 }'
}
rtt_of() {
	case $1 in
	2000) echo 24 ;; 10000) echo 12 ;; *) echo 120 ;;
	esac
}

# commas N: 1000000 as 1,000,000
commas() { echo "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }

section() {
	local w b r rows r10
	r10=$("$model" -w -r bpf_bic 2000 | awk '$1 == 10 { print $3 }')
	"$model" -o "$tmp/rows.csv" drill/wmax/wmax_2000.ad bpf_bic || die "model failed"
	rows=$(commas $(($(wc -l < "$tmp/rows.csv") - 1)))
	echo "$TITLE"
	echo
	cat << 'EOF'
Written by `make wmax` (and `make bench`; eval/wmax-report.sh, host only):
the drill model's answer where no guest can follow.  After a single loss
at cwnd Wmax, in round trips: BIC (bpf_bic, bic_ref and the kernel's bic
alike: the run has no undo) from its ssthresh, 819/1024 of Wmax, back to
0.9 Wmax and to Wmax, and Reno on the same model from half of Wmax.  The
path is limited by the window alone, the receiver ACKs every second
segment (a delayed-ACK receiver), and nothing else is lost.  A round is
the ACKs for one window's segments, counted from the ACK that ends the
recovery; the time beside it is at the RTT of the path named (1,500-byte
packets).

| Wmax (packets) | a path that holds it | BIC ssthresh | BIC rounds to 0.9 Wmax | BIC rounds to Wmax | BIC, at the first path's RTT | Reno ssthresh | Reno rounds to 0.9 Wmax | Reno rounds to Wmax | Reno, at the first path's RTT | Reno / BIC |
|---|---|---|---|---|---|---|---|---|---|---|
EOF
	for w in $SIZES; do
		b=$(field bpf_bic 2 "$w" 6) r=$(field reno 2 "$w" 6)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
			"$(commas "$w")" "$(paths "$w")" "$(commas "$(field bpf_bic 2 "$w" 4)")" \
			"$(commas "$(field bpf_bic 2 "$w" 5)")" "$(commas "$b")" "$(at "$(rtt_of "$w")" "$b")" \
			"$(commas "$(field reno 2 "$w" 4)")" "$(commas "$(field reno 2 "$w" 5)")" "$(commas "$r")" \
			"$(at "$(rtt_of "$w")" "$r")" "$(awk -v a="$r" -v b="$b" 'BEGIN { printf "%.0f", a / b }')"
	done
	echo
	cat << EOF
How it grows, from Wmax 100,000 to 1,000,000: BIC needs $(growth bpf_bic 2) round
trip more per packet of Wmax, Reno $(growth reno 2).  Reno gains one packet a
round, so it needs 0.5 Wmax rounds.  BIC closes the 0.2 Wmax below Wmax
in its largest steps while it is more than 67 away, then halves the
distance a round, then crawls through the last 7 segments at one per
5 x cwnd acked (smooth_part): 0.2 Wmax / 32 + about 21 rounds, whatever
Wmax is.  Its largest step is 32 segments a round, not max_increment's
16: in Linux, BIC divides its count by its EWMA of packets per ACK
(32/16 here) and tcp_cong_avoid_ai() credits every packet an ACK acks,
so the correction for delayed ACKs is made twice.  The drill at Wmax
2,000 shows it on the kernel (below): $(commas "$r10") after the first 10 rounds from 1,599.

The receiver's ACKs matter to BIC, hardly to Reno.  With an ACK for every segment, BIC
takes $(commas "$(field bpf_bic 1 1000000 6)") rounds at Wmax 1,000,000 ($(growth bpf_bic 1) a packet: the ACK that
shows the loss acks nothing in Open and leaves the EWMA at 30/16, which
one segment an ACK keeps), Reno $(commas "$(field reno 1 1000000 6)"); with stretch ACKs of 8 segments
(a receiver's GRO or LRO), BIC $(commas "$(field bpf_bic 8 1000000 6)"), Reno $(commas "$(field reno 8 1000000 6)") (the tests hold model -w
against the drill's rows at one and two segments an ACK, not at 8).

How far this rests on the kernel:

- \`model -w\` (drill/wmax.c) runs, per ACK after the recovery, the two
  calls of the model that such an ACK makes (pkts_acked and cong_avoid,
  bic_math.h inside them), and skips only ACKs that provably add the
  segments they ack to cwnd_cnt and nothing else (BIC's EWMA at its
  fixed point, its count computed for this cwnd, cwnd_cnt still short of
  it): Wmax 1,000,000 is $(commas "$(field bpf_bic 2 1000000 7)") ACKs for BIC and
  $(commas "$(field reno 2 1000000 7)") for Reno, a few ms.
  No arithmetic is approximated.
- drill/wmax/wmax_2000.ad is the same run at Wmax 2,000, ACK by ACK
  ($rows rows): tests/guest/t_71_drill_wmax.sh checks every row on the
  kernel, byte for byte, for bpf_bic and the kernel's bic, and
  tests/unit/test_drill_wmax.sh checks that model -w's cwnd changes there,
  and at Wmax 100 to 1,000 (every segment or every second one acked, on
  BIC and Reno), fall on exactly the ACKs of the drill model's rows.
- What is not run ACK by ACK beyond 2,000 is the slow start and the loss
  round.  model -w starts from what they leave in the drills: BIC's EWMA
  at its fixed point, one ACK in Open that acks nothing (it shows the
  loss), ssthresh() at Wmax, and the ACK that ends the recovery with cwnd
  at ssthresh.  That is how the model's loss goes at every size it was
  run at; at larger windows the kernel walks a larger scoreboard, which
  the rows at 2,000 do not prove it does the same way.
- Time: the drills freeze jiffies between ACKs and open BIC's HZ/32 gate
  only at \`wait gate\`.  Once the EWMA is back at its fixed point (two
  ACKs after the recovery), BIC's count is a function of cwnd, Wmax and
  the EWMA, so a gate that opens any number of times a round changes
  nothing; the one wait, where the EWMA has just settled, is in the drill
  and in model -w alike.
- The path: the window is the only limit (the socket buffers that a
  window of 1,000,000 packets needs, 1.5 GB each way, are assumed), the
  ACK clock is perfect, and the only loss is the one.  Another loss on
  the way back starts a new episode; the table is how long the way back
  is undisturbed, not how often a real path allows it.
EOF
}

mkdir -p "$(dirname "$out")"
section > "$tmp/section"
cat "$tmp/section"
"$(dirname "$0")/put-section.sh" "$out" "$TITLE" "$tmp/section"
