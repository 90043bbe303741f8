#!/bin/bash
# make scale and make bench, host side: the guest's raw numbers
# (eval/guest/scale.sh) as the "ccctl at scale" section of docs/bench.md,
# in place of the one there (or after the rest), printed as well.
#
# usage: scale-report.sh DATA_DIR OUT.md [ICOUNT]
#   ICOUNT	the -icount option the boot ran with (shift=N,...), so guest
#		time can be told in emulated instructions
set -euo pipefail

die() { echo "scale-report: $*" >&2; exit 1; }

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: scale-report.sh DATA_DIR OUT.md [ICOUNT]"
data=$1 out=$2 icount=${3:-}
tsv=$data/scale.tsv metafile=$data/scale-meta.tsv
if [ ! -s "$tsv" ] || [ ! -s "$metafile" ]; then
	die "no $tsv or $metafile: did the guest run eval/scale.sh?"
fi
TITLE="## ccctl at scale"

declare -A meta
while IFS=$'\t' read -r k v; do
	meta[$k]=$v
done < <(tail -n +2 "$metafile")

# shellcheck source=eval/icount.sh
. "$(dirname "$0")/icount.sh"
ns_per_insn=$(ns_per_insn "$icount")

# stats: per command and N, over the repetitions: sockets, then median, min
# and max of wall time, medians of user and system CPU (all in us), the
# median peak RSS, the median, smallest and largest cgroup memory peak (KiB),
# and the repetitions.
stats() {
	awk -F'\t' 'NR > 1 {
		k = $2 "\t" $1
		if (!(k in cnt)) order[++nk] = k
		i = ++cnt[k]
		w[k, i] = $4; u[k, i] = $5; s[k, i] = $6; r[k, i] = $7; p[k, i] = $8
		sock[k] = $9
	}
	function median(a, k, n,    i, j, t, x) {
		for (i = 1; i <= n; i++)
			x[i] = a[k, i]
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
		lo = x[1]; hi = x[n]
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	END {
		for (j = 1; j <= nk; j++) {
			k = order[j]; n = cnt[k]
			mu = median(u, k, n); ms = median(s, k, n); mr = median(r, k, n)
			mp = median(p, k, n); pmin = lo; pmax = hi
			mw = median(w, k, n)
			printf "%s\t%s\t%.0f\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%s\t%d\n", k, sock[k], \
				mw, lo, hi, mu, ms, mr, mp, pmin, pmax, n
		}
	}' "$tsv"
}

# fit: per command, least squares of median wall time (us) on sockets over
# every N: the fixed cost (us), the cost per socket (us) and the largest
# distance of a median from the line (us).
fit() {
	stats | awk -F'\t' '{
		c = $1; x = 2 * $2 + 1; y = $4
		if (!(c in n)) order[++nc] = c
		i = ++n[c]; X[c, i] = x; Y[c, i] = y
		sx[c] += x; sy[c] += y; sxx[c] += x * x; sxy[c] += x * y
	}
	END {
		for (j = 1; j <= nc; j++) {
			c = order[j]; m = n[c]
			d = m * sxx[c] - sx[c] * sx[c]
			b = d ? (m * sxy[c] - sx[c] * sy[c]) / d : 0
			a = (sy[c] - b * sx[c]) / m
			r = 0
			for (i = 1; i <= m; i++) {
				e = Y[c, i] - a - b * X[c, i]
				if (e < 0) e = -e
				if (e > r) r = e
			}
			printf "%s\t%.0f\t%.2f\t%.0f\t%d\n", c, a, b, r, m
		}
	}'
}

label() {
	case $1 in
	migrate) echo "\`migrate bpf_bic bpf_bic_2611\`" ;;
	migrate_back) echo "\`migrate bpf_bic_2611 bpf_bic\`" ;;
	list) echo "\`list\`" ;;
	list_json) echo "\`list --json\`" ;;
	swap) echo "\`swap bpf_bic\` (to 2611 and back, alternately)" ;;
	features) echo "\`features\` (for reference: start, BTF, probes)" ;;
	*) echo "\`$1\`" ;;
	esac
}

ms() { awk -v x="$1" 'BEGIN { printf "%.1f", x / 1000 }'; }
mib() { awk -v x="$1" 'BEGIN { if (x == "-") print "-"; else printf "%.1f", x / 1024 }'; }
# insn US: emulated instructions in US microseconds of guest time
insn() { awk -v x="$1" -v n="$ns_per_insn" 'BEGIN { printf "%.0f", x * 1000 / n }'; }

section() {
	local c n med lo hi u sy rss peak pmin pmax a b r prev="" clock="host time"
	local counts
	counts=$(stats | cut -f2 | sort -nu | paste -sd, | sed 's/,/, /g')
	[ -n "$ns_per_insn" ] &&
		clock="QEMU -icount $icount: $ns_per_insn ns of guest time per emulated instruction, so 1 ms is $((1000000 / ns_per_insn)) instructions"
	echo "$TITLE"
	echo
	echo "Written by \`make scale\` and \`make bench\` (eval/guest/scale.sh in the guest,"
	echo "eval/scale-report.sh on the host)."
	echo "Guest: ${meta[kernel]:-?} on ${meta[cpu]:-?}, 1 vCPU, 1 GiB;"
	echo "guest clock: $clock."
	echo "N idle established connections ($counts) between two network"
	echo "namespaces, both ends on bpf_bic: N sockets in the sender's namespace, N and"
	echo "their listener in the receiver's, so 2N + 1 sockets on the algorithm.  Each"
	echo "command ran ${meta[reps]:-?} times at each N, under eval/tools/runstat: time is"
	echo "the guest's monotonic clock from fork() to wait4(), so exec, libbpf's start"
	echo "and the exit are in it; CPU and peak RSS come from wait4(); the memory"
	echo "peak is the memory.peak of a cgroup v2 the command ran alone in, which"
	echo "holds its user pages and the kernel memory charged to it (BPF programs and"
	echo "maps among it).  The run checked that every migrate said it moved 2N + 1"
	echo "sockets, every list counted 2N + 1 on bpf_bic, and after the first migrate"
	echo "at each N ss in every namespace showed all 2N + 1 on the target and none left"
	if [ "${meta[checks_failed]:-?}" = 0 ]; then
		echo "behind: all held."
	else
		echo "behind: **${meta[checks_failed]:-an unknown number of} checks failed** (the guest log says which)."
	fi
	echo
	echo "| command | N | sockets | time ms, median (min-max) | user CPU ms | system CPU ms | peak RSS MiB | memory peak MiB, median (min-max) |"
	echo "|---|---|---|---|---|---|---|---|"
	while IFS=$'\t' read -r c n _ med lo hi u sy rss peak pmin pmax _; do
		if [ "$c" = "$prev" ]; then
			printf '| |'
		else
			printf '| %s |' "$(label "$c")"
		fi
		prev=$c
		printf ' %s | %s | %s (%s-%s) | %s | %s | %s | %s (%s-%s) |\n' "$n" "$((2 * n + 1))" \
			"$(ms "$med")" "$(ms "$lo")" "$(ms "$hi")" "$(ms "$u")" "$(ms "$sy")" \
			"$(mib "$rss")" "$(mib "$peak")" "$(mib "$pmin")" "$(mib "$pmax")"
	done < <(stats)
	echo
	echo "A straight line through each command's medians, time = fixed + sockets x"
	echo "per-socket (least squares over every N):"
	echo
	if [ -n "$ns_per_insn" ]; then
		echo "| command | fixed ms | per socket us | per socket, emulated instructions | largest distance of a median from the line, ms |"
		echo "|---|---|---|---|---|"
	else
		echo "| command | fixed ms | per socket us | largest distance of a median from the line, ms |"
		echo "|---|---|---|---|"
	fi
	while IFS=$'\t' read -r c a b r _; do
		if [ -n "$ns_per_insn" ]; then
			printf '| %s | %s | %.2f | %s | %s |\n' "$(label "$c")" "$(ms "$a")" "$b" \
				"$(insn "$b")" "$(ms "$r")"
		else
			printf '| %s | %s | %.2f | %s |\n' "$(label "$c")" "$(ms "$a")" "$b" "$(ms "$r")"
		fi
	done < <(fit)
	bounds
}

# growth CMD COLUMN: how much a stats column (7: user, 8: system CPU) grows
# per socket from the smallest N to the largest, in us.
growth() {
	stats | awk -F'\t' -v c="$1" -v f="$2" '$1 == c {
		if (!seen++ || $2 + 0 < n0) { n0 = $2; v0 = $f }
		if ($2 + 0 >= n1) { n1 = $2; v1 = $f }
	} END { printf "%.1f", (n1 > n0 ? (v1 - v0) / (2 * (n1 - n0)) : 0) }'
}

# sys_share CMD: system CPU as a share of user and system, in percent, at
# the smallest N.
sys_share() {
	stats | awk -F'\t' -v c="$1" '$1 == c && !seen++ { printf "%.0f", 100 * $8 / ($7 + $8) }'
}

# What bounds each figure: the measured parts of it, then why.
bounds() {
	local f nmax open_k open_us
	f=$(fit)
	get() { awk -F'\t' -v c="$1" -v i="$2" '$1 == c { print $i }' <<< "$f"; }
	nmax=$(stats | cut -f2 | sort -n | tail -n 1)
	open_k=$(printf '%s\n' "${!meta[@]}" | sed -n 's/^open_us_//p' | sort -n | tail -n 1)
	open_us=${meta[open_us_$open_k]:-}
	echo
	echo "What bounds each figure:"
	echo
	echo "- Every command but \`list\` starts alike: exec, then libbpf reads the kernel's BTF"
	echo "  (/sys/kernel/btf/vmlinux, $(mib "$(( ${meta[btf_bytes]:-0} / 1024 ))") MiB here) whole and indexes it, a"
	echo "  large part of every command's peak RSS and memory peak, neither of which"
	echo "  grows with N.  The memory peak is about 10 MiB, and 2 MiB more in some"
	echo "  runs of each of them at every N, \`features\` included: a step of the"
	echo "  allocator, probably one transparent huge page (THP is always on in this"
	echo "  kernel), not of N.  \`features\` is that start and ccctl's probes of the"
	echo "  kernel (a struct_ops map created and dropped), about $(ms "$(get features 2)") ms"
	echo "  ($(sys_share features)% of it system CPU); no figure below but \`list\`'s gets under it."
	echo "- \`migrate\` (fixed $(ms "$(get migrate 2)") ms) skips the probes but opens its"
	echo "  skeleton, loads and verifies the TCP iterator (bpf/migrate.bpf.c) and runs"
	echo "  it in every network namespace (${meta[netns_$nmax]:-?} here: the initial one and the"
	echo "  test's two), each run walking all ${meta[tcp_ehash]:-?} buckets of the established hash"
	echo "  table they share, then counts through sock_diag what is left on the old"
	echo "  algorithm there, as \`list\` does, and runs the iterator again where some is"
	echo "  (the kernel's iterator skips a bucket on 6.12 and 6.1: see migrate_netns()"
	echo "  in loader/migrate.c).  Per socket it adds $(get migrate 3) us ($(insn "$(get migrate 3)") instructions), mostly"
	echo "  system CPU ($(growth migrate 8) us a socket, $(growth migrate 7) us user): in the kernel, where the"
	echo "  iterator batches each bucket, takes every socket's lock, reads its"
	echo "  algorithm's name, and bpf_setsockopt(TCP_CONGESTION) drops the old"
	echo "  algorithm's reference and runs the new one's init, and then the count,"
	echo "  which costs about what \`list\` costs a socket.  The medians lie within"
	echo "  $(ms "$(get migrate 4)") ms of the line: linear in the sockets, nothing else grows."
	echo "- \`list\` (fixed $(ms "$(get list 2)") ms) loads no BPF and reads no BTF: it asks"
	echo "  sock_diag (NETLINK_SOCK_DIAG, as ss does) for the TCP sockets of each"
	echo "  namespace with their algorithm's name, once for IPv4 and once for IPv6,"
	echo "  and compares each name with every registered one: $(get list 3) us a socket"
	echo "  ($(growth list 8) us system, $(growth list 7) us user CPU; each dump walks the"
	echo "  whole table and the kernel builds a netlink message per socket), no"
	echo "  per-socket state in ccctl, so its RSS stays flat.  \`--json\` only prints"
	echo "  differently."
	echo "- \`swap\` ($(ms "$(get swap 2)") ms) runs the probes, has libbpf read the BTF a second"
	echo "  time, loads and verifies the struct_ops object (${meta[reg_progs]:-?} programs,"
	echo "  ${meta[reg_insns]:-?} BPF instructions after verification), gives the"
	echo "  new map its value and moves the link over (BPF_LINK_UPDATE).  It touches no"
	echo "  socket, so it does not grow with N: the fit's $(get swap 3) us a socket (medians"
	echo "  within $(ms "$(get swap 4)") ms of the line) is the repetitions' spread, not a slope."
	echo "  Running sockets keep the old instance, whose programs and map"
	echo "  (${meta[reg_memlock_kb]:-?} KiB of bpftool's bytes_memlock for one) stay in the kernel until"
	echo "  none uses them: here until the next round's migrate moved them."
	echo "- The connections themselves: ${meta[tcp_obj_bytes]:-?} bytes of TCP socket slab each end,"
	echo "  bpf_bic's state inside it (icsk_ca_priv), so a migrate allocates nothing per"
	echo "  socket.${open_us:+  Opening $open_k of them took $(awk -v u="$open_us" 'BEGIN { printf "%.1f", u / 1e6 }') s of guest time.}"
}

mkdir -p "$(dirname "$out")"
section > "$out.section"
"$(dirname "$0")/put-section.sh" "$out" "$TITLE" "$out.section"
rm -f "$out.section"
sed -n "/^$TITLE\$/,/^## /p" "$out"
