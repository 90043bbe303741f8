#!/bin/bash
# study-merge.sh DATA_DIR HOST_WALL_SECS: make study's guests, one per part
# of the matrix (DATA_DIR/part-*/, in the order given by STUDY_PARTS), as
# one run for eval/study-report.sh: DATA_DIR/study.tsv with the notes of
# the first part, the column line once, every part's rows and "# point"
# lines, the longest guest time and the host's wall time of all; the parts'
# host-points.txt one after the other; their traces in DATA_DIR/traces.
set -euo pipefail
die() { echo "study-merge: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: study-merge.sh DATA_DIR HOST_WALL_SECS PART..."
data=$1 wall=$2
shift 2
first=1 guest=0
: > "$data/study.tsv.new"
: > "$data/host-points.txt"
mkdir -p "$data/traces"
for p in "$@"; do
	d=$data/part-$p
	[ -s "$d/study.tsv" ] || die "no $d/study.tsv"
	if [ "$first" = 1 ]; then
		grep '^# ' "$d/study.tsv" | grep -v '^# point \|^# guest_secs ' >> "$data/study.tsv.new"
		grep -v '^#' "$d/study.tsv" | head -n 1 >> "$data/study.tsv.new"
		first=0
	fi
	grep -v '^#' "$d/study.tsv" | tail -n +2 >> "$data/study.tsv.new"
	grep '^# point ' "$d/study.tsv" >> "$data/study.tsv.new" || true
	g=$(awk '$2 == "guest_secs" { print $3 }' "$d/study.tsv")
	[ "${g:-0}" -gt "$guest" ] && guest=$g
	[ -e "$d/host-points.txt" ] && cat "$d/host-points.txt" >> "$data/host-points.txt"
	[ -d "$d/traces" ] && { cp -p "$d"/traces/* "$data/traces/" 2>/dev/null || true; }
done
{
	echo "# parts $#"
	echo "# guest_secs $guest"
	echo "# host_wall_secs $wall"
} >> "$data/study.tsv.new"
mv "$data/study.tsv.new" "$data/study.tsv"
