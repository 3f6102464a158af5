#!/usr/bin/env bash
# Whole-output golden tests, after SimGrid's tesh: a .tesh file holds
# commands and everything they must print (tests/golden/README.md).
#
#   tesh.sh FILE...            run the commands, compare, exit 1 on a difference
#   tesh.sh --update FILE...   rewrite the expected output from this build
#
# Needs NETSCHED_BIN (the binary `netsched` stands for in the commands) and
# NETSCHED_SOURCE_DIR (the commands run there, so paths stay relative).
set -uo pipefail
update=0
if [[ ${1:-} == --update ]]; then
  update=1
  shift
fi
[[ $# -gt 0 ]] || { echo "usage: tesh.sh [--update] FILE.tesh..." >&2; exit 2; }
bin="${NETSCHED_BIN:?NETSCHED_BIN: the netsched binary}"
src="${NETSCHED_SOURCE_DIR:?NETSCHED_SOURCE_DIR: the source tree}"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# `netsched` in a command is this build's binary, found first on PATH under
# its own name (so messages say "netsched:" whatever the build path is).
mkdir "$work/bin"
ln -s "$bin" "$work/bin/netsched"
export PATH="$work/bin:$PATH" LC_ALL=C

# Runs one command in the source tree; stdout, stderr and status in $work.
run() {
  (cd "$src" && bash -c "$1") >"$work/out" 2>"$work/err"
  echo $? >"$work/status"
}

# The expected block as the file writes it: "! exit N" unless 0, then
# "> line" for stdout and "2> line" for stderr (">" and "2>" alone for an
# empty line, so no line ends in a space). A missing final newline is not
# told apart from a present one.
render() {
  local status
  status=$(cat "$work/status")
  [[ $status -eq 0 ]] || echo "! exit $status"
  awk '{ print ($0 == "" ? ">" : "> " $0) }' "$work/out"
  awk '{ print ($0 == "" ? "2>" : "2> " $0) }' "$work/err"
}

failures=0 passed=0
for file in "$@"; do
  [[ -f $file ]] || { echo "not ok - $file: no such file"; failures=$((failures + 1)); continue; }
  name=$(basename "$file" .tesh)
  out="$work/rewritten"
  : >"$out"
  cmd="" n=0 file_failures=0
  expected="$work/expected"
  : >"$expected"
  # A command's block ends at the next "$ " line or the end of the file.
  finish() {
    [[ -n $cmd ]] || return 0
    n=$((n + 1))
    run "$cmd"
    render >"$work/actual"
    if [[ $update -eq 1 ]]; then
      cat "$work/actual" >>"$out"
    elif cmp -s "$expected" "$work/actual"; then
      passed=$((passed + 1))
    else
      echo "not ok - $name #$n: \$ $cmd"
      diff -u --label expected --label actual "$expected" "$work/actual" | sed 's/^/#   /' | head -40
      failures=$((failures + 1)) file_failures=$((file_failures + 1))
    fi
    : >"$expected"
  }
  while IFS= read -r line || [[ -n $line ]]; do
    case "$line" in
      '$ '*)
        finish
        cmd=${line#\$ }
        echo "$line" >>"$out" ;;
      '> '* | '>' | '2> '* | '2>' | '! exit '*)
        [[ -n $cmd ]] || { echo "not ok - $file: output before any command: $line"; failures=$((failures + 1)); }
        echo "$line" >>"$expected" ;;
      *)
        echo "$line" >>"$out" ;;
    esac
  done <"$file"
  finish
  if [[ $update -eq 1 ]]; then
    if ! cmp -s "$out" "$file"; then
      cp "$out" "$file.tmp" && mv -f "$file.tmp" "$file"
      echo "updated $file"
    fi
  elif [[ $file_failures -eq 0 ]]; then
    echo "ok - $name ($n commands)"
  fi
done
[[ $update -eq 1 ]] && exit 0
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
