#!/bin/bash
# Print the Debian mirror of the host's own bookworm apt sources, whichever
# format they use: every package the build fetches comes from there.
set -euo pipefail

{
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk '/^URIs:/ { uri = $2 } /^Suites:.*bookworm/ && uri ~ /debian\/?$/ { print uri; exit }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		awk '$1 == "deb" && $3 ~ /^bookworm/ && $2 ~ /debian\/?$/ { print $2; exit }' "$f"
	done
} | head -n 1 | grep . || { echo "mirror: no Debian bookworm mirror in /etc/apt sources" >&2; exit 1; }
