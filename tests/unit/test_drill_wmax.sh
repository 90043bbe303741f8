#!/bin/bash
# model -w (the extrapolation of make wmax, docs/bench.md) held against the
# drill model, ACK by ACK, and the figures it gives.
#
# - Where both run, the ACKs at which cwnd changes after the recovery, as
#   the drill's rows show them (the ACK that ends the recovery is ACK 0),
#   are exactly model -w -c's: drill/wmax's scripts (Wmax 2,000, which t_71
#   checks on the kernel) on bpf_bic and the kernel's bic, and scripts of
#   the same shape at smaller Wmax, one ACK per two segments and per
#   segment, on bpf_bic, bic and reno (Reno at Wmax 100 and 400 only: its
#   0.5 Wmax rounds of 0.75 Wmax segments are more than a drill may send
#   beyond that).
# - The figures, which are deterministic: the table of docs/bench.md to
#   the ACK, and how they grow: from Wmax 100,000 to 1,000,000 BIC's
#   rounds back to Wmax grow by 1/160 of the packets added (0.2 Wmax at 32
#   a round: max_increment 16, doubled by the EWMA's 2 packets per ACK),
#   Reno's by exactly 1/2 (0.5 Wmax at one a round).
# - What it refuses, in one line: a Wmax whose BIC arithmetic would wrap,
#   a Wmax or K that is not a number, and a run whose cwnd after the loss
#   is below K (no round could hold an ACK: it never ended).
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"
model=${1:?usage: test_drill_wmax.sh MODEL WMAX_SCRIPTS_DIR}
dir=${2:?usage: test_drill_wmax.sh MODEL WMAX_SCRIPTS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"

# changes CSV: "ACK CWND" from the row that ends the recovery (ca_state,
# field 9, from Recovery to Open: ACK 0) on, at every change of cwnd (7).
changes() {
	awk -F, 'NR > 2 && ps == 3 && $9 == 0 { x = NR; print 0, $7 }
		x && NR > x && $7 != c { print NR - x, $7 } { ps = $9; c = $7 }' "$1"
}

# same ALGO WMAX EVERY SCRIPT: the script's rows against model -w -c.
same() {
	local csv=$tmp/rows.csv
	"$model" -o "$csv" "$4" "$1" || return 1
	changes "$csv" > "$tmp/rows.txt"
	"$model" -w -c -k "$3" "$1" "$2" > "$tmp/ffwd.txt" || return 1
	[ -s "$tmp/rows.txt" ] && cmp -s "$tmp/rows.txt" "$tmp/ffwd.txt"
}

# shape WMAX EVERY: a drill like drill/wmax's (the deliver ends the
# recovery and takes the EWMA back to its fixed point: 3 ACKs of 2 after
# the round's odd segment, or 1 of 1).
shape() {
	local every="every $2" deliver=5
	[ "$2" -eq 1 ] && deliver=1
	printf 'until cwnd %s %s\ndrop 1\nrounds 1 %s\ndeliver %s %s\nwait gate\nuntil cwnd %s %s\n' \
		"$1" "$every" "$every" "$deliver" "$every" "$1" "$every" > "$tmp/shape.ad"
	echo "$tmp/shape.ad"
}

for s in "$dir"/*.ad; do
	w=$(awk '$1 == "until" { print $3; exit }' "$s")
	for a in bpf_bic bic; do
		check "$(basename "$s"): model -w -c $a $w, ACK for ACK as the rows" same "$a" "$w" 2 "$s"
	done
done
for k in 2 1; do
	for w in 100 400 1000; do
		for a in bpf_bic bic reno; do
			[ "$a" = reno ] && [ "$w" -gt 400 ] && continue
			check "Wmax $w every $k: model -w -c $a, ACK for ACK as the rows" \
				same "$a" "$w" "$k" "$(shape "$w" "$k")"
		done
	done
done

# the figures (docs/bench.md), to the ACK
"$model" -w bpf_bic 2000 10000 100000 1000000 > "$tmp/fig.csv"
"$model" -w reno 2000 10000 100000 1000000 | tail -n +2 >> "$tmp/fig.csv"
cat > "$tmp/want.csv" << 'EOF'
algo,every,wmax,ssthresh,rounds_to_0.9,rounds_to_wmax,acks
bpf_bic,2,2000,1599,7,33,31279
bpf_bic,2,10000,7998,32,83,381778
bpf_bic,2,100000,79980,314,646,29153313
bpf_bic,2,1000000,799804,3132,6277,2824983442
reno,2,2000,1000,801,1001,749749
reno,2,10000,5000,4001,5001,18748749
reno,2,100000,50000,40001,50001,1874987499
reno,2,1000000,500000,400001,500001,187499874999
EOF
check "model -w: the table's figures, every ACK counted" cmp -s "$tmp/fig.csv" "$tmp/want.csv"
check "model -w: the drill's Wmax 2000 run on bpf_bic takes 33 rounds back" \
	grep -qx 'bpf_bic,2,2000,1599,7,33,31279' "$tmp/fig.csv"
# rounds(1M) - rounds(100k) over the 900,000 packets between them
slope() { awk -F, -v a="$1" '$1 == a && $3 == 100000 { r = $6 } $1 == a && $3 == 1000000 {
	printf "%.6f\n", ($6 - r) / 900000 }' "$tmp/fig.csv"; }
b=$(slope bpf_bic) r=$(slope reno)
check "BIC's rounds grow by 1/160 of Wmax ($b), within 1%" \
	awk -v s="$b" 'BEGIN { exit !(s * 160 > 0.99 && s * 160 < 1.01) }'
check "Reno's rounds grow by 1/2 of Wmax ($r), exactly" test "$r" = 0.500000
check "one ACK a segment: BIC's growth within 10% of 1/160 (30 a round: the EWMA at 30/16)" \
	awk -v a="$("$model" -w -k 1 bpf_bic 100000 1000000 | awk -F, 'NR > 1 { print $6 }' | paste -sd' ')" \
	'BEGIN { split(a, r, " "); s = (r[2] - r[1]) / 900000; exit !(s * 160 > 0.9 && s * 160 < 1.1) }'

# refused: one line on stderr, nothing run.  The bound is where
# bic_math.h's cwnd * (BICTCP_BETA_SCALE + BIC_BETA) leaves 32 bits,
# 2^32 / 1843; Reno has no such product.
refused() {
	local want=$1 rc=0 out
	shift
	out=$(timeout 10 "$model" -w "$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != "$want" ] || [ "$(wc -l <<<"$out")" != 1 ]; then
		echo "# model -w $*: status $rc (want $want): $out"
		return 1
	fi
}
runs() { "$model" -w "$@" >/dev/null; }
check "model -w bpf_bic 2330421, the last Wmax whose products fit, runs" runs bpf_bic 2330421
check "model -w bpf_bic 2330422 refused in one line, status 2" refused 2 bpf_bic 2330422
check "model -w bpf_bic 6000000 refused (its ssthresh wrapped)" refused 2 bpf_bic 6000000
check "model -w reno 6000000 runs" runs reno 6000000
check "model -w bpf_bic 1000 12x refused before anything runs" refused 2 bpf_bic 1000 12x
check "model -w -k 3x refused" refused 2 -k 3x bpf_bic 1000
check "model -w -k 64 reno 20: cwnd below K after the loss ends it, status 1" \
	refused 1 -k 64 reno 20
summary
