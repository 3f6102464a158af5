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

