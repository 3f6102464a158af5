#!/usr/bin/env bash
# Library code reports through a GError or a warning callback (NsWarnFunc),
# never by printing: the program that links it decides what reaches the
# terminal. Lists every line of platforms/, sched/, analysis/ and sim/ that
# writes to stderr or stdout on its own (printf and its kin, dprintf to a
# descriptor, fprintf or fputs to either stream); exits 1 when there is one.
# Writing to a FILE* the caller passed (a report, a table) is not listed.
# Exempt: sim/bin/, the main() of netsched-replay, a program of its own: its
# two diagnostics are written before (or instead of) the shared-memory
# channel to its parent, and the parent shows the child's stderr. Lines
# that start with a string literal are the text of programs netsched
# writes (a generated MPI routine, SMPI's timing program), not calls.
# Usage: scripts/check-library-output.sh [SOURCE_DIR]
set -uo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" || exit 2
pattern='fprintf\((stderr|stdout)|fputs\([^;]*(stderr|stdout)|(^|[^[:alnum:]_])(printf|dprintf|puts|perror|g_printerr|g_print|g_printf|g_message|g_warning|g_info)\(|std::cerr|std::cout'
found=$(grep -rnE --include='*.c' --include='*.h' --include='*.cpp' "$pattern" \
          platforms sched analysis sim --exclude-dir=bin |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//|")')
if [[ -n $found ]]; then
  echo "library code printing by itself (report through the GError or an NsWarnFunc):"
  echo "$found"
  exit 1
fi
echo "ok - no library code prints by itself ($(find platforms sched analysis sim -path sim/bin -prune -o \( -name '*.c' -o -name '*.cpp' \) -print | wc -l) files)"
