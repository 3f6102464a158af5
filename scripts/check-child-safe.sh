#!/usr/bin/env bash
# Between fork and exec, a child of a process that may have threads may
# call only async-signal-safe functions (POSIX, System Interfaces 2.4.3):
# a lock another thread held at fork (malloc's, stdio's, g_strerror's)
# stays held in the child forever. sim/child.c keeps that code between
# two markers; this lists every call made there and fails on one that is
# not in the list below (system calls; setrlimit and prctl are Linux
# system calls without locks, though not in POSIX's list). It also fails
# when a fork() appears in library or CLI code other than sim/child.c
# (every child that execs goes through ns_child_spawn) and the two
# fork-only workers listed here, which exec nothing and run on in the
# child by design (their parents have one thread when they fork).
# What it proves: the source calls nothing else there. Not that a given
# libc's wrapper takes no lock (checked by hand with gdb; docs/security.md).
# Usage: scripts/check-child-safe.sh [SOURCE_DIR]
set -uo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" || exit 2
file=sim/child.c
begin='^/\* ---- between fork and exec'
end='^/\* ---- end of the code between fork and exec'
safe=' setpgid prctl getppid setrlimit open dup2 close chdir execve write _exit '
own=' child_fail exec_child ' # the functions defined between the markers
keywords=' if while for switch return sizeof do '
status=0

if ! grep -q "$begin" "$file" || ! grep -q "$end" "$file"; then
  echo "$file: no markers around the code between fork and exec"
  exit 1
fi
# The code between the markers, comments and string literals removed.
code=$(sed -n "\\|$begin|,\\|$end|p" "$file" |
       perl -0pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s{"(\\.|[^"\\])*"}{""}g')
calls=$(grep -oE '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' <<<"$code" | tr -d '( \t' | sort -u)
for f in $calls; do
  case "$safe$own$keywords" in
  *" $f "*) ;;
  *)
    echo "$file: $f() between fork and exec is not async-signal-safe"
    status=1
    ;;
  esac
done

# Every fork() of the library and the CLI.
allowed='sim/child.c analysis/pool.c sim/routes.c'
while IFS=: read -r path line _; do
  case " $allowed " in
  *" $path "*) ;;
  *)
    echo "$path:$line: fork() outside ns_child_spawn (sim/child.h)"
    status=1
    ;;
  esac
done < <(grep -rnE --include='*.c' --include='*.cc' --include='*.cpp' '(^|[^[:alnum:]_])fork[[:space:]]*\(' \
           platforms sched analysis sim cli --exclude-dir=bin | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)')
if [[ $status -eq 0 ]]; then
  echo "ok - only async-signal-safe calls between fork and exec ($(wc -w <<<"$calls") names: $(tr '\n' ' ' <<<"$calls"))"
fi
exit $status
