#!/bin/bash
# study-timed.sh FILE COMMAND...: run COMMAND (make study's guest), passing
# its output through, and append "HOST_EPOCH_SECS LINE" to FILE for each
# line with "STUDY-POINT" in it as it arrives: the host's clock for each
# point of the study (eval/guest/study.sh prints one line as a point
# begins and one as it ends), so its cost in host time is measured, not
# derived from the guest's clock, which under -icount is the emulated one.
# Exits with COMMAND's status.
set -uo pipefail
f=${1:?usage: study-timed.sh FILE COMMAND...}
shift
"$@" | while IFS= read -r l; do
	printf '%s\n' "$l"
	case $l in
	*STUDY-POINT*) printf '%s %s\n' "$(date +%s)" "${l//$'\r'/}" >> "$f" ;;
	esac
done
exit "${PIPESTATUS[0]}"
