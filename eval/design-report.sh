#!/bin/bash
# make design (and make bench), host side: BIC's design point as measured by
# eval/guest/bench.sh --design, as its own section of docs/bench.md (in
# place of the one there, or after the rest) and printed as well.  Every
# figure is computed here from the guest's samples (DIR/d*/design/*.link)
# and bench-design.tsv, so a definition can be changed without a rerun.
#
# usage: design-report.sh DATA_DIR OUT.md [ICOUNT]
#        design-report.sh --runs DATA_DIR	each run's figures alone
#						(tests/unit/test_design_report.sh)
set -euo pipefail

die() { echo "design-report: $*" >&2; exit 1; }

runs_only=""
if [ "${1:-}" = --runs ] && [ $# -eq 2 ]; then
	runs_only=yes data=$2 out="" icount=""
else
	{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: design-report.sh DATA_DIR OUT.md [ICOUNT]"
	data=$1 out=$2 icount=${3:-}
fi
TITLE="## BIC's design point: windows of 1,000 and 5,000 packets"
mapfile -t tsvs < <(find "$data" -name bench-design.tsv | sort)
[ ${#tsvs[@]} -gt 0 ] || die "no bench-design.tsv below $data: did the guest run eval/bench.sh --design?"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STATS_AWK=$(cat "$(dirname "$0")/stats.awk")	# num, sortn, median, overlap

# Thresholds of the definitions below, in one place.
REGAIN=0.9	# a loss is regained when the link's output over one RTT is 90%
CONV_RTTS=4	# two flows have converged when their goodput over 4 RTTs
CONV_JAIN=0.95	# has a Jain index of 0.95 (rates within 1.55:1)

awk -F'\t' '$1 != "test"' "${tsvs[@]}" > "$tmp/all.tsv"
# tsv TEST CA METRIC [ONE]: the values (one per line), with ONE the first alone
tsv() {
	awk -F'\t' -v t="$1" -v c="$2" -v m="$3" -v one="${4:-}" \
		'$1 == t && $2 == c && $3 == m { print $4; if (one) exit }' "$tmp/all.tsv"
}
# tsv1 TEST CA METRIC: the first value (every boot writes the "all" rows)
tsv1() { tsv "$@" one; }
read -r _ rate rtt_ms _ <<<"$(tsv1 all design path)"
read -r _ rate5 rtt5_ms _ <<<"$(tsv1 all design path5)"
{ [ -n "$rate" ] && [ -n "$rate5" ]; } || die "no path rows in bench-design.tsv"

# metrics FILE RATE RTT_S T0 SECS FLOWS [APART]: one run's figures from
# linkmon's samples ("uptime frames bytes retrans events [peer:port
# acked]..."), as lines "METRIC VALUE":
#   util	the link's output / RATE from the sample by which the first
#		100 frames had left to the end (tx_bytes counts whole
#		frames, as netem's rate does)
#   fill	RTTs from the start to the first RTT whose output reaches
#		REGAIN of RATE (">N": never)
#   events	congestion events (entries into Recovery, RTOs) once data
#		flows
#   regain	per event after fill: RTTs from the sample that counted it to
#		the start of the first RTT whose output reaches REGAIN of
#		RATE (0: it never fell below); ">N" when the next event or the
#		end came first
#   with two flows (FLOWS: their peer:port, in start order), over the
#   second half of the run, from acked bytes:
#   share2	flow 2's share of the two; ratio12 flow 1's over flow 2's;
#   jain	Jain's index of the two
#   conv	RTTs from flow 2's start to the first CONV_RTTS-RTT window in
#		which the two flows' Jain index reaches CONV_JAIN (">N": never)
metrics() {
	awk -v rate="$2" -v rtt="$3" -v t0="$4" -v secs="$5" -v flows="$6" -v apart="${7:-0}" \
		-v regain="$REGAIN" -v cw="$CONV_RTTS" -v cj="$CONV_JAIN" '
	{
		n++; T[n] = $1; B[n] = $3; C[n] = $5
		# a count that fell is a connection that has gone (the
		# largest for its peer is kept)
		for (i = 6; i < NF; i += 2)
			if ($(i + 1) >= top[$i] + 0)
				top[$i] = A[n, $i] = $(i + 1)
	}
	function jain(x, y) { return (x + y) * (x + y) / (2 * (x * x + y * y)) }
	function out(i, j) { return (B[j] - B[i]) * 8 / (rate * (T[j] - T[i])) }
	END {
		# the samples of the flows, not those before the first began
		for (s = 1; s < n && T[s] < t0; s++)
			;
		w = 0; while (s + w + 1 <= n && T[s + w + 1] - T[s] < rtt) w++
		for (f = s; f + w <= n && out(f, f + w) < regain; f++)
			;
		if (f + w <= n)
			printf "fill %.2f\n", (T[f] - T[s]) / rtt
		else
			printf "fill >%.2f\n", (T[n] - T[s]) / rtt
		# from the first data on: a SYN is sent twice (the initial RTO
		# is 1 s, shorter than these RTTs), which is no congestion
		for (d = s; d < n && B[d] - B[s] < 100 * 1514; d++)
			;
		printf "events %d\n", C[n] - C[d]
		printf "util %.4f\n", out(d, n)
		ne = 0
		for (i = f + 1; i <= n; i++)
			if (C[i] > C[i - 1]) E[++ne] = i
		for (k = 1; k <= ne; k++) {
			e = E[k]; stop = k < ne ? E[k + 1] : n - w
			for (j = e; j < stop && out(j, j + w) < regain; j++)
				;
			if (j < stop)
				printf "regain %.2f\n", (T[j] - T[e]) / rtt
			else
				printf "regain >%.2f\n", (T[j] - T[e]) / rtt
		}
		nf = split(flows, F, " ")
		if (nf != 2)
			exit
		# the last sample where both flows are still there
		for (z = n; z > 0 && !(((z, F[1]) in A) && ((z, F[2]) in A)); z--)
			;
		if (z == 0)
			exit
		for (h = 1; h < z && T[h] < t0 + secs / 2; h++)
			;
		x = A[z, F[1]] - A[h, F[1]]; y = A[z, F[2]] - A[h, F[2]]
		if (x + y > 0) {
			printf "share2 %.4f\n", y / (x + y)
			if (y > 0) printf "ratio12 %.4f\n", x / y
			printf "jain %.4f\n", jain(x, y)
		}
		if (apart == 0)
			exit
		wn = w * cw
		for (j = 1; j <= z; j++) {
			if (T[j] < t0 + apart || j - wn < 1 || !((j - wn, F[2]) in A))
				continue
			x = A[j, F[1]] - A[j - wn, F[1]]; y = A[j, F[2]] - A[j - wn, F[2]]
			if (x + y > 0 && jain(x, y) >= cj)
				break
		}
		if (j <= z)
			printf "conv %.2f\n", (T[j] - t0 - apart) / rtt
		else
			printf "conv >%.2f\n", (T[z] - t0 - apart) / rtt
	}' "$1"
}

# Every run's figures: "CELL CA RUN METRIC VALUE" in $tmp/runs.
for f_tsv in "${tsvs[@]}"; do
	dir=$(dirname "$f_tsv")
	for f in "$dir"/design/*.link; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .link)	# TEST.CA, TEST = CELL@RUN
		test=${name%%.*} ca=${name#*.}
		cell=${test%@*} run=${test#*@}
		if [ "$(tsv1 "$test" "$ca" complete)" = no ]; then
			echo "$cell $ca $run" >> "$tmp/left-out"
			continue
		fi
		t0=$(tsv1 "$test" "$ca" t0)
		busy=$(tsv1 "$test" "$ca" busy)
		flows=$(tsv "$test" "$ca" flow | sed 's/^[^@]*@//; s/@.*//' | paste -sd' ')
		apart=$(tsv "$test" "$ca" flow | sed -n '2s/.*@//p')
		case $cell in
		one5k) r=$rate5 ms=$rtt5_ms secs=$(tsv1 all design secs5) ;;
		one1k) r=$rate ms=$rtt_ms secs=$(tsv1 all design secs) ;;
		*) r=$rate ms=$rtt_ms secs=$(tsv1 all design pair_secs) ;;
		esac
		{
			echo "busy $busy"
			metrics "$f" "$r" "$(awk -v ms="$ms" 'BEGIN { print ms / 1000 }')" \
				"$t0" "$secs" "$flows" "${apart:-0}"
		} | sed "s/^/$cell $ca $run /"
	done
done > "$tmp/runs"
[ -s "$tmp/runs" ] || die "no samples (design/*.link) below $data"
if [ -n "$runs_only" ]; then
	sort "$tmp/runs"
	exit 0
fi

# Per run, a congestion event's regain is the median of the run's events
# (a ">" bound when that median is one); then over the runs, for every
# CELL CA METRIC: "median min max n censored" (censored: the median is a
# lower bound).
awk "$STATS_AWK"'
	$4 == "regain" { k = $1 SUBSEP $2 SUBSEP $3; r[k, ++nr[k]] = $5; next }
	{ k = $1 SUBSEP $2 SUBSEP $4; v[k, ++nv[k]] = $5 }
	END {
		for (k in nr) {
			c = nr[k]; delete a
			for (i = 1; i <= c; i++) a[i] = r[k, i]
			sortn(a, c)
			split(k, p, SUBSEP); kk = p[1] SUBSEP p[2] SUBSEP "regain"
			v[kk, ++nv[kk]] = median(a, c) ""	# text, like the values in v
		}
		for (k in nv) {
			c = nv[k]; delete a
			for (i = 1; i <= c; i++) a[i] = v[k, i]
			sortn(a, c)
			split(k, p, SUBSEP); m = median(a, c)
			print p[1], p[2], p[3], num(m), num(a[1]), num(a[c]), c, (m ~ /^>/ ? ">" : "")
		}
	}' "$tmp/runs" > "$tmp/cells"

ALGS=(bpf_bic bic_ref bic cubic bbr reno)
algs=()
for ca in "${ALGS[@]}"; do
	grep -q "^one1k $ca util " "$tmp/cells" && algs+=("$ca")
done

# cell CELL CA METRIC KIND: median (range) of the runs, in KIND's units
cell() {
	awk -v c="$1" -v a="$2" -v m="$3" -v kind="$4" '
	function f(x) {
		if (kind == "pct") return sprintf("%.1f%%", 100 * x)
		if (kind == "int") return sprintf("%d", x)
		if (kind == "rtt") return sprintf("%.1f", x)
		return sprintf("%.2f", x)
	}
	$1 == c && $2 == a && $3 == m {
		s = $8 f($4)
		if ($7 > 1) s = s " (" f($5) "-" f($6) ")"
		print s; found = 1
	}
	END { if (!found) print "-" }' "$tmp/cells"
}
# overlapping_bpf_bic CELL METRIC: the algorithms whose range overlaps
# bpf_bic's (stats.awk's overlap)
overlapping_bpf_bic() {
	awk -v c="$1" -v m="$2" "$STATS_AWK"'$1 == c && $3 == m { lo[$2] = $5; hi[$2] = $6 }
		END { if (!("bpf_bic" in lo)) exit
		      for (a in lo) if (a != "bpf_bic" && overlap(lo[a], hi[a], lo["bpf_bic"], hi["bpf_bic"])) s = s (s ? ", " : "") a
		      print s }' "$tmp/cells"
}
# row LABEL CELL METRIC KIND
row() {
	local ca line="| $1 |"
	for ca in "${algs[@]}"; do
		line+=" $(cell "$2" "$ca" "$3" "$4") |"
	done
	echo "$line $(overlapping_bpf_bic "$2" "$3") |"
}
header() {
	local ca line="| $1 |" sep="|---|"
	for ca in "${algs[@]}"; do
		line+=" $ca |"
		sep+="---|"
	done
	echo "$line overlaps bpf_bic's range |"
	echo "$sep---|"
}

# verdict CELL METRIC WAY PEER: bpf_bic against PEER on one measure, from
# the two ranges: "level" where they overlap, else "ahead" or "behind",
# with both medians.  WAY says what is better: up (more), down (less), one
# (a ratio nearer 1), half (a share nearer 50%).
verdict() {
	awk -v c="$1" -v m="$2" -v way="$3" -v peer="$4" -v kind="$5" '
	function f(x) { return kind == "pct" ? sprintf("%.1f%%", 100 * x) : sprintf(kind == "rtt" ? "%.1f" : "%.2f", x) }
	function d(x) { return way == "one" ? (x > 0 ? (log(x) < 0 ? -log(x) : log(x)) : 99) : \
		way == "half" ? (x < 0.5 ? 0.5 - x : x - 0.5) : x }
	function range(lo, hi, p) {	# the range of d() over [lo, hi]
		a = d(lo); b = d(hi)
		L[p] = a < b ? a : b; H[p] = a < b ? b : a
		if ((way == "one" && lo <= 1 && hi >= 1) || (way == "half" && lo <= 0.5 && hi >= 0.5))
			L[p] = 0
	}
	$1 == c && $3 == m && ($2 == "bpf_bic" || $2 == peer) { med[$2] = $8 f($4); range($5, $6, $2) }
	END {
		if (!("bpf_bic" in med) || !(peer in med)) { print "-"; exit }
		if (med["bpf_bic"] ~ /^>/ && med[peer] ~ /^>/) { print "neither within the run"; exit }
		better = way == "up" ? L["bpf_bic"] > H[peer] : H["bpf_bic"] < L[peer]
		worse = way == "up" ? H["bpf_bic"] < L[peer] : L["bpf_bic"] > H[peer]
		printf "%s (%s, %s)\n", better ? "ahead" : worse ? "behind" : "level", med["bpf_bic"], med[peer]
	}' "$tmp/cells"
}
# vrow LABEL CELL METRIC WAY KIND: bpf_bic against each other algorithm
vrow() {
	local ca line="| $1 |"
	for ca in "${algs[@]:1}"; do
		line+=" $(verdict "$2" "$3" "$4" "$ca" "$5") |"
	done
	echo "$line"
}
# says CELL METRIC WAY PEER AHEAD LEVEL BEHIND: the words for verdict's answer
says() {
	case $(verdict "$1" "$2" "$3" "$4" x) in
	ahead*) echo "$5" ;;
	level*) echo "$6" ;;
	behind*) echo "$7" ;;
	*) echo "not measured against ${4}" ;;
	esac
}
# linear: where bpf_bic's goodput ratios at RTTs 1:2 and 1:4 fall against
# the RTT ratios (linear) and their squares (quadratic, Reno's)
linear() {
	awk -v a="$(med rtt2 bpf_bic ratio12 x)" -v b="$(med rtt4 bpf_bic ratio12 x)" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/) print "not measured"
		else if (a <= 2 && b <= 4) print "reproduced: at or below 2 and 4"
		else if (a <= 4 && b <= 16) print "not reproduced: between linear and quadratic"
		else print "not reproduced: beyond even quadratic (" a " and " b ")"
	}'
}
# med CELL CA METRIC KIND: the median alone
med() {
	cell "$@" | sed 's/ (.*//'
}

# frames RATE MS: the path's BDP in 1,514-byte frames
frames() { awk -v r="$1" -v ms="$2" 'BEGIN { printf "%.0f", r * ms / 1000 / (1514 * 8) }'; }
read -r _ _ _ queue <<<"$(tsv1 all design path)"
read -r _ _ _ queue5 <<<"$(tsv1 all design path5)"
secs=$(tsv1 all design secs) secs5=$(tsv1 all design secs5)
pair_secs=$(tsv1 all design pair_secs)
runs=$(awk '{ print $3 }' "$tmp/runs" | sort -u | wc -l)
guest=$(tsv all design guest_secs | awk '{ s += $1 } END { print s }')
boots=${#tsvs[@]}
p1="$((rate / 1000000)) Mbit/s, $rtt_ms ms RTT, BDP $(frames "$rate" "$rtt_ms") frames, $queue-frame queue"
p5="$((rate5 / 1000000)) Mbit/s, $rtt5_ms ms RTT, BDP $(frames "$rate5" "$rtt5_ms") frames, $queue5-frame queue"
pct=$(awk -v r="$REGAIN" 'BEGIN { print 100 * r }')
apart=$(tsv1 all design apart)
{
	echo "$TITLE"
	echo
	echo "Written by \`make design\` and \`make bench\` (eval/guest/bench.sh --design in"
	echo "the guest, eval/design-report.sh on the host); rerun it rather than editing"
	echo "this section.  Guest: $(tsv1 all design kernel) under QEMU"
	echo "${icount:+-icount $icount, }$guest s of guest time in $boots boots, $runs runs a cell."
	echo
	echo "BIC was made for windows of thousands of packets.  The emulated CPU"
	echo "carries tens of Mbit/s, so these paths reach such windows with long"
	echo "round trips: $p1; and $p5."
	echo "The drop-tail queue holds a tenth of the BDP, so an algorithm that backs"
	echo "off below ${pct}% of it after a loss leaves the link idle until it has grown"
	echo "back.  Each flow is one connection (eval/tools/tcpblast) that sends for"
	echo "the cell's time and is then reset; every one sends its SYN twice (Linux's"
	echo "initial RTO, 1 s, is shorter than these RTTs), whatever its algorithm."
	echo "Each cell is the median and, in brackets, the range of the runs; the"
	echo "last column names the algorithms whose range overlaps bpf_bic's, from"
	echo "which these runs show no measurable difference.  Every figure is"
	echo "computed on the host from the guest's samples (eval/tools/linkmon),"
	echo "every quarter of the longest RTT: the frames the bottleneck sent, the"
	echo "sender's congestion events (entries into Recovery, RTOs) and each"
	echo "flow's acked bytes."
	if [ -s "$tmp/left-out" ]; then
		echo "Left out, as a flow of theirs did not end well (see the guest's log):"
		echo "$(awk '{ printf "%s%s run %s on %s", (NR > 1 ? ", " : ""), $1, $3, $2 }' "$tmp/left-out")."
	fi
	echo
	echo "- utilization: the frames the bottleneck sent, from when its first 100"
	echo "  had left (the handshake takes RTTs, its SYN sent twice) to the"
	echo "  end, slow start included, against what it could send."
	echo "- RTTs to ${pct}%: from the start to the first RTT in which the bottleneck"
	echo "  sent ${pct}% of what it could; \">\": not within the run."
	echo "- congestion events: counted once data flows."
	echo "- RTTs to regain ${pct}% after a loss: for each congestion event after the"
	echo "  link first reached ${pct}%, the RTTs until the first RTT that reaches it"
	echo "  again (0: it never fell below); a run's median of its events, \">\" when"
	echo "  that is a lower bound (the next loss, or the end, came first); \"-\": no"
	echo "  such event."
	echo "- two flows: goodput over the second half of the run.  Convergence: RTTs"
	echo "  from the second flow's start to the first ${CONV_RTTS}-RTT window in which the"
	echo "  two flows' Jain index reaches $CONV_JAIN (rates within 1.55:1)."
	echo "- guest CPU busy: its share of the run (the sampling included); near 90%"
	echo "  the emulator, not the algorithm, would set the pace."
	echo
	header "one flow"
	row "BDP $(frames "$rate" "$rtt_ms"), $secs s: utilization" one1k util pct
	row "RTTs to ${pct}% of the link" one1k fill rtt
	row "congestion events" one1k events int
	row "RTTs to regain ${pct}% after a loss" one1k regain rtt
	row "guest CPU busy" one1k busy pct
	row "BDP $(frames "$rate5" "$rtt5_ms"), $secs5 s: utilization" one5k util pct
	row "RTTs to ${pct}% of the link" one5k fill rtt
	row "congestion events" one5k events int
	row "RTTs to regain ${pct}% after a loss" one5k regain rtt
	row "guest CPU busy" one5k busy pct
	echo
	header "two flows, BDP $(frames "$rate" "$rtt_ms"), $pair_secs s"
	row "second starts $apart s later: RTTs to converge" conv conv rtt
	row "Jain index" conv jain x
	row "utilization" conv util pct
	row "guest CPU busy" conv busy pct
	row "RTT 1:2: short/long RTT flow's goodput" rtt2 ratio12 x
	row "Jain index" rtt2 jain x
	row "guest CPU busy" rtt2 busy pct
	row "RTT 1:4: short/long RTT flow's goodput" rtt4 ratio12 x
	row "Jain index" rtt4 jain x
	row "guest CPU busy" rtt4 busy pct
	row "beside one reno: its share of the two" friend share2 pct
	row "utilization" friend util pct
	row "guest CPU busy" friend busy pct
	echo
	echo "### Where bpf_bic stands"
	echo
	echo "From the tables above: ahead, level or behind each peer on each measure"
	echo "(level: the ranges overlap), with bpf_bic's median and the peer's."
	echo "Nearer is better for the RTT ratios (to 1) and for the share beside Reno"
	echo "(to 50%: TCP friendliness).  bpf_bic and bic run the same arithmetic:"
	echo "where they part here it is chaos (the seed's path, below), and under"
	echo "-icount runs repeat so closely that even chaos can leave ranges apart."
	echo
	printf '| measure |'; printf ' %s |' "${algs[@]:1}"; echo
	printf '|---|'; printf -- '---|%.0s' "${algs[@]:1}"; echo
	vrow "BDP $(frames "$rate" "$rtt_ms"): utilization" one1k util up pct
	vrow "BDP $(frames "$rate" "$rtt_ms"): RTTs to ${pct}%" one1k fill down rtt
	vrow "BDP $(frames "$rate" "$rtt_ms"): RTTs to regain ${pct}% after a loss" one1k regain down rtt
	vrow "BDP $(frames "$rate5" "$rtt5_ms"): utilization" one5k util up pct
	vrow "BDP $(frames "$rate5" "$rtt5_ms"): RTTs to ${pct}%" one5k fill down rtt
	vrow "two flows: RTTs to converge" conv conv down rtt
	vrow "two flows: Jain index" conv jain up x
	vrow "RTT 1:2: goodput ratio" rtt2 ratio12 one x
	vrow "RTT 1:4: goodput ratio" rtt4 ratio12 one x
	vrow "beside one reno: share" friend share2 half pct
	echo
	echo "### What the paper and later work said, beside these numbers"
	echo
	echo "- Scalability.  The BIC paper (Xu, Harfoush and Rhee, INFOCOM 2004):"
	echo "  \"When the congestion window is large, additive increase with a large"
	echo "  increment ensures linear RTT fairness as well as good scalability.\""
	echo "  ([abstract](https://1library.net/document/yjj5g0my-binary-increase-congestion-control-fast-long-distance-networks.html))."
	echo "  Here, at a BDP of $(frames "$rate5" "$rtt5_ms") frames, bpf_bic reached ${pct}% of the link in"
	echo "  $(med one5k bpf_bic fill rtt) RTTs and used $(med one5k bpf_bic util pct) of it, reno $(med one5k reno fill rtt) and $(med one5k reno util pct),"
	echo "  cubic $(med one5k cubic fill rtt) and $(med one5k cubic util pct); at $(frames "$rate" "$rtt_ms"), $(med one1k bpf_bic util pct) against reno's"
	echo "  $(med one1k reno util pct): $(says one1k util up reno "ahead of Reno" "level with Reno" "behind Reno"),"
	echo "  $(says one1k util up cubic "ahead of CUBIC" "level with CUBIC" "behind CUBIC") and $(says one1k util up bbr "ahead of BBR" "level with BBR" "behind BBR")."
	echo "  These runs end before BIC's window is steady on these shallow queues:"
	echo "  they show how fast each algorithm grows to a large window; the"
	echo "  model's view of what follows, for Wmax up to 1,000,000, is the section"
	echo "  \"BIC beyond the guest\"."
	echo "- RTT fairness.  The same abstract: BIC \"ensures linear RTT fairness under"
	echo "  large windows\"; RFC 8312, section 3, citing that paper: \"the throughput"
	echo "  ratio of Standard TCP flows with different RTTs is quadratically"
	echo "  proportional to the inverse of their RTT ratio\""
	echo "  ([RFC 8312](https://www.rfc-editor.org/rfc/rfc8312)).  Linear would"
	echo "  be goodput ratios of 2 and 4 at RTTs 1:2 and 1:4, quadratic 4 and 16."
	echo "  Here: bpf_bic $(med rtt2 bpf_bic ratio12 x) and $(med rtt4 bpf_bic ratio12 x), bic $(med rtt2 bic ratio12 x) and $(med rtt4 bic ratio12 x), reno"
	echo "  $(med rtt2 reno ratio12 x) and $(med rtt4 reno ratio12 x), cubic $(med rtt2 cubic ratio12 x) and $(med rtt4 cubic ratio12 x), bbr $(med rtt2 bbr ratio12 x) and $(med rtt4 bbr ratio12 x):"
	echo "  linear RTT fairness is $(linear) here."
	echo "  Li, Leith and Shorten (IEEE/ACM ToN 2007), on a hardware testbed,"
	echo "  found against the paper: \"Scalable-TCP, HS-TCP, FAST-TCP, and BIC-TCP all"
	echo "  exhibit much greater RTT unfairness than does standard TCP, to the"
	echo "  extent that long RTT flows may be completely starved of bandwidth\""
	echo "  ([abstract](http://eprints.nuim.ie/1726/))."
	echo "- Convergence.  Li, Leith and Shorten, same paper: \"Scalable-TCP, HS-TCP,"
	echo "  and BIC-TCP all exhibit slow convergence and sustained unfairness"
	echo "  following changes in network conditions such as the start-up of a new"
	echo "  flow.\"  Here the second flow, $apart s late, reached Jain $CONV_JAIN after"
	echo "  $(med conv bpf_bic conv rtt) RTTs on bpf_bic, $(med conv bic conv rtt) on bic, $(med conv cubic conv rtt) on cubic, $(med conv reno conv rtt) on reno"
	echo "  and $(med conv bbr conv rtt) on bbr: $(says conv conv down reno "faster than Reno, so slow convergence is not reproduced here" "level with Reno, so slow convergence is not reproduced here" "slower than Reno, as they found")."
	echo "- TCP friendliness.  The paper: \"Under small congestion windows, binary"
	echo "  search increase is designed to provide TCP friendliness\"; below"
	echo "  low_window (14 packets) Linux's BIC is Reno.  RFC 8312, section 1: CUBIC"
	echo "  \"is designed to be less aggressive and fairer to Standard TCP in"
	echo "  bandwidth usage than BIC-TCP\".  These windows are not small: beside one"
	echo "  reno, bpf_bic took $(med friend bpf_bic share2 pct) of the two flows' goodput, bic"
	echo "  $(med friend bic share2 pct), cubic $(med friend cubic share2 pct), bbr $(med friend bbr share2 pct) (reno beside reno: $(med friend reno share2 pct)):"
	echo "  $(says friend share2 half cubic "CUBIC took more from Reno than BIC did, the opposite of that claim at this window" "CUBIC and BIC took alike" "CUBIC took less from Reno than BIC did, as claimed")."
} > "$tmp/section.md"
cat "$tmp/section.md"
"$(dirname "$0")/put-section.sh" "$out" "$TITLE" "$tmp/section.md"
