#!/bin/bash
# Print the Debian mirror of the host's own bookworm apt sources, whichever
# format they use: every package the build fetches comes from there.  With
# "security", the host's mirror of bookworm-security instead (the security
# suites are another archive, debian-security).
#
# usage: mirror.sh [security]
set -euo pipefail

if [ "${1:-}" = security ]; then
	suite='bookworm-security' path='debian-security'
else
	suite='bookworm' path='debian'
fi
{
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk -v s="$suite" -v p="$path" '/^URIs:/ { uri = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s && uri ~ (p "/?$")) { print uri; exit } }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		awk -v s="$suite" -v p="$path" '$1 == "deb" && $3 == s && $2 ~ (p "/?$") { print $2; exit }' "$f"
	done
} | head -n 1 | grep . || { echo "mirror: no Debian $suite mirror in /etc/apt sources" >&2; exit 1; }
