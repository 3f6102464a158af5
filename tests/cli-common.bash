# Helpers shared by the end-to-end CLI tests (tests/cli_*.sh), sourced
# first: sets ns (the netsched binary), src (the source tree), topo (the
# bundled topologies) and tmp (a scratch directory removed at exit);
# check runs a command and compares its exit status, expect greps a file;
# both count into `passed` and `failures`. Scripts end with:
#   echo "$passed passed, $failures failed"; [[ $failures -eq 0 ]]
set -uo pipefail
ns="${NETSCHED_BIN:?}"
src="${NETSCHED_SOURCE_DIR:?}"
topo="$src/scenarios/topologies"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 passed=0

check() { # check NAME EXPECTED_STATUS COMMAND... ; output in $tmp/out, $tmp/err
  local name=$1 want=$2
  shift 2
  # Written aside, then moved: a command that reads $tmp/out or $tmp/err
  # (check "..." 1 grep -q X "$tmp/out") reads the previous command's
  # output, not a file the redirection just emptied.
  "$@" >"$tmp/out.next" 2>"$tmp/err.next"
  local got=$?
  mv -f "$tmp/out.next" "$tmp/out"
  mv -f "$tmp/err.next" "$tmp/err"
  if [[ $got -ne $want ]]; then
    echo "not ok - $name: exit $got, expected $want"; sed 's/^/#   /' "$tmp/err" | head -5
    failures=$((failures + 1))
  else
    echo "ok - $name"; passed=$((passed + 1))
  fi
}
expect() { # expect NAME FILE PATTERN (extended regex)
  if grep -Eq -- "$3" "$2"; then
    echo "ok - $1"; passed=$((passed + 1))
  else
    echo "not ok - $1: /$3/ not in $(basename "$2")"; sed 's/^/#   /' "$2" | head -5
    failures=$((failures + 1))
  fi
}


close_to() { # close_to NAME MEASURED PREDICTED TOLERANCE: |measured - predicted| / measured < tolerance
  local rel
  rel=$(awk -v a="$2" -v b="$3" 'BEGIN { if (a <= 0) { print 1; exit } d = (a - b) / a; if (d < 0) d = -d; printf "%.6f", d }')
  if [[ -n "$2" && -n "$3" ]] && awk -v r="$rel" -v t="$4" 'BEGIN { exit !(r < t) }'; then
    echo "ok - $1: measured $2 s, predicted $3 s, difference $(awk -v r="$rel" 'BEGIN { printf "%.3f", 100 * r }') %"
    passed=$((passed + 1))
  else
    echo "not ok - $1: measured '$2' s, predicted '$3' s (relative difference $rel, tolerance $4)"
    failures=$((failures + 1))
  fi
}

# peak_private_kb PID NAME DIR: waits for PID and prints the largest private
# (anonymous) resident memory, in kB, that a process whose command line
# matches NAME and that runs in DIR or below it (smpirun's simulation) had,
# sampled every 0.1 s; SMPI's shared blocks are not private.
peak_private_kb() {
  local peak=0 p kb cwd
  while kill -0 "$1" 2>/dev/null; do
    for p in $(pgrep -f "$2"); do
      cwd=$(readlink "/proc/$p/cwd" 2>/dev/null)
      [[ "$cwd" == "$3" || "$cwd" == "$3"/* ]] || continue
      kb=$(awk '/^RssAnon:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
      [[ -n "$kb" && $kb -gt $peak ]] && peak=$kb
    done
    sleep 0.1
  done
  wait "$1"
  echo "$peak"
}

require_smpi() { # skips the script (exit 77) without smpicc/smpirun (libsimgrid-dev) or the simulator
  if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
    echo "1..0 # SKIP smpicc/smpirun not installed (libsimgrid-dev)"
    exit 77
  fi
  if [[ "${NETSCHED_SIMULATOR:-1}" == 0 ]]; then
    echo "1..0 # SKIP needs the simulator"
    exit 77
  fi
}
