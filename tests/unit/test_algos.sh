#!/bin/bash
# The table of algorithms (bpf/algos.h, as build/algos.tsv writes it) held
# against what is written by hand and does not come from it: the man pages
# (ccctl.8, bpf-bic.conf.5), the shipped bpf-bic.conf, and the algorithms
# that t_70 and test_drill_model.sh drill.  In the text as it reads (troff's
# font escapes gone, the words of .IR and its kind joined as they print):
#   - every list of variants (fixed|2611|restore, an object after it or
#     not) is the table's, in its order;
#   - every --variant V names a variant, and where the text says which
#     algorithm V is ("--variant V for ... (named NAME", "NAME (--variant
#     V)", "register NAME V") it is V's;
#   - ccctl.8's default is the table's first variant and algorithm;
#   - ccctl.8's UNDO RULES give each algorithm the table's rule, and its
#     FILES the objects the table ships;
#   - t_70 and test_drill_model.sh drill the algorithms the model predicts.
# usage: test_algos.sh ALGOS.TSV
set -uo pipefail
# shellcheck source=../guest/tap.sh
. "$(dirname "$0")/../guest/tap.sh"
tsv=${1:?usage: test_algos.sh ALGOS.TSV}
top=$(dirname "$(realpath "$0")")/../..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_begin "$tmp/results"
same() { [ "$1" = "$2" ] || { echo "# got:  '$1'"; echo "# want: '$2'"; return 1; }; }

variants=() modelled=() objects=()
declare -A algo_of=() rule=()
while IFS=$'\t' read -r name object variant undo _bic model; do
	[ "$object" = - ] || objects+=("$object.bpf.o")
	[ "$variant" = - ] || { variants+=("$variant"); algo_of[$variant]=$name; }
	[ "$model" = 0 ] || modelled+=("$name")
	rule[$name]=$undo
done < "$tsv"
check "the table has variants and algorithms the model predicts" \
	test "${#variants[@]}" -gt 0 -a "${#modelled[@]}" -gt 0
all=$(IFS='|'; echo "${variants[*]}")

# text FILE: FILE as it reads, a line for a line.
text() {
	awk '
	# the arguments of a macro line, quotes and all
	function args(s,    out, n, q) {
		n = 0
		while (s != "") {
			sub(/^[ \t]+/, "", s)
			if (s == "")
				break
			if (substr(s, 1, 1) == "\"") {
				q = index(substr(s, 2), "\"")
				if (!q)
					q = length(s)
				a[++n] = substr(s, 2, q - 1)
				s = substr(s, q + 2)
			} else {
				match(s, /^[^ \t]+/)
				a[++n] = substr(s, 1, RLENGTH)
				s = substr(s, RLENGTH + 1)
			}
		}
		return n
	}
	/^\.(IR|BR|RI|RB|IB|BI|B|I|SM) / {
		macro = substr($1, 2)
		n = args(substr($0, length($1) + 2))
		line = ""
		for (i = 1; i <= n; i++)
			line = line (i > 1 && length(macro) == 1 ? " " : "") a[i]
		print line
		next
	}
	{ print }' "$1" | sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(em/--/g'
}

# hold FILE: what FILE says of the variants, against the table.
hold() {
	local f=$1 name=${1##*/} body joined l item n=0 w v a
	local -a items
	body=$(text "$f")
	joined=$(tr '\n' ' ' <<< "$body" | tr -s ' ')

	while read -r l; do
		[ -n "$l" ] || continue
		IFS='|' read -ra items <<< "$l"
		while [ "${#items[@]}" -gt 0 ] && [[ ${items[-1]} == /* ]]; do unset 'items[-1]'; done
		for item in "${items[@]}"; do
			[ -n "${algo_of[$item]:-}" ] || continue
			n=$((n + 1))
			check "$name: the variants '$l' are the table's" \
				same "$(IFS='|'; echo "${items[*]}")" "$all"
			break
		done
	done < <(grep -oE '[A-Za-z0-9_./]+(\|[A-Za-z0-9_./]+)+' <<< "$body")
	check "$name: lists the variants ($n lists)" test "$n" -gt 0

	while read -r w v; do
		check "$name: '$w $v' names a variant" test -n "${algo_of[$v]:-}"
	done < <(grep -oE -- '--variant [a-z0-9_]+' <<< "$joined")
	while read -r v a; do
		check "$name: --variant $v is $a" same "${algo_of[$v]:-}" "$a"
	done < <(sed -nE 's/.*--variant ([a-z0-9_]+) for [^(]*\(named ([a-z0-9_]+).*/\1 \2/p' \
		<<< "$(grep -oE -- '--variant [a-z0-9_]+ for [^(]*\(named [a-z0-9_]+' <<< "$joined")")
	while read -r a v; do
		check "$name: $a is --variant $v" same "${algo_of[$v]:-}" "$a"
	done < <(grep -oE -- '[a-z0-9_]+ \(--variant [a-z0-9_]+\)' <<< "$joined" | tr -d '()' |
		sed 's/--variant //')
	while read -r _ a v; do
		[ -n "${algo_of[$v]:-}" ] || continue
		check "$name: 'register $a $v' registers $v under its name" same "$a" "${algo_of[$v]}"
	done < <(grep -oE 'register [a-z0-9_]+ +[a-z0-9_]+' <<< "$body")
}

hold "$top/man/ccctl.8"
hold "$top/man/bpf-bic.conf.5"
hold "$top/dist/bpf-bic.conf"

joined=$(text "$top/man/ccctl.8" | tr '\n' ' ' | tr -s ' ')
check "ccctl.8: the default variant is the table's first" same \
	"$(grep -oE 'implementation to load \(default: [a-z0-9_]+\)' <<< "$joined")" \
	"implementation to load (default: ${variants[0]})"
check "ccctl.8: the default algorithm is the table's first" same \
	"$(grep -oE '\(named [a-z0-9_]+\) by default' <<< "$joined")" \
	"(named ${algo_of[${variants[0]}]}) by default"

check "ccctl.8: FILES names the objects the table ships, in its order" same \
	"$(sed -n '/^\.SH FILES/,/^\.SH/p' "$top/man/ccctl.8" | text /dev/stdin |
		grep -oE '[a-z0-9_/]+\.bpf\.o' | grep -v / | paste -sd ' ')" "${objects[*]}"

n=0
while IFS=$'\t' read -r a r _; do
	a=${a%% *}
	[ -n "${rule[$a]:-}" ] || continue
	n=$((n + 1))
	check "ccctl.8: UNDO RULES give $a the table's rule" same "$r" "${rule[$a]}"
done < <(sed -n '/^\.TS/,/^\.TE/p' "$top/man/ccctl.8" | sed -e 's/\\-/-/g')
check "ccctl.8: UNDO RULES name algorithms of the table ($n)" test "$n" -gt 0

check "t_70 drills the algorithms the model predicts" same \
	"$(sed -n 's/^algos=(\(.*\))$/\1/p' "$top/tests/guest/t_70_drill.sh")" "${modelled[*]}"
check "test_drill_model.sh holds them all to the model's rules" same \
	"$(grep -m 1 '^for a in' "$top/tests/unit/test_drill_model.sh" | sed 's/^for a in \(.*\); do$/\1/')" \
	"${modelled[*]}"

summary
