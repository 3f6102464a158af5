#!/usr/bin/env bash
# The simulator's replay child (netsched-replay, netsched-ns3) is started,
# waited for and stopped like every other child (sim/child.h): in a
# process group of its own with a private TMPDIR. A `netsched simulate`
# stopped by SIGTERM or by --wall-limit sends the group SIGTERM first
# (the child may clean up), SIGKILL after the grace to what ignores it,
# and leaves no process and no file in TMPDIR. (The real netsched-replay,
# stopped in its own group: cli_reliability.sh, section 4.)
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
if [[ "${NETSCHED_SIMULATOR:-1}" == 0 ]]; then
  echo "1..0 # SKIP needs the simulator"
  exit 77
fi
cd "$tmp" || exit 1
# Whatever a failing run leaves (main's replay left the grandchild) goes too.
trap 'pkill -KILL -f "$tmp/nap"; rm -rf "$tmp"' EXIT
mkdir private
export TMPDIR="$tmp/private" # where the child's private directory goes

# A replay that writes a temporary file, starts a grandchild that ignores
# SIGTERM (a copy of sleep, found by its path), notes SIGTERM and exits.
cp "$(command -v sleep)" nap
cat > stub.sh <<STUB
#!/bin/sh
touch "\$TMPDIR/scratch"
echo "\$TMPDIR" > "$tmp/child-tmpdir"
(trap '' TERM; exec "$tmp/nap" 600) &
trap 'echo TERM > "$tmp/got-term"; exit 143' TERM
echo started > "$tmp/started"
while :; do sleep 1; done
STUB
chmod +x stub.sh

# Starts a simulation with the stub as its replay, in the background;
# returns when the stub is running (or after 20 s).
start_stubbed() {
  rm -f started got-term child-tmpdir
  NETSCHED_REPLAY="$tmp/stub.sh" "$ns" simulate -T gen:star:4 -a ring "$@" \
    >"$tmp/run.out" 2>"$tmp/run.err" &
  pid=$!
  for _ in $(seq 200); do
    [[ -e started ]] && break
    sleep 0.1
  done
}

# ---- SIGTERM: the child's group gets SIGTERM, then SIGKILL; nothing is left --------
start_stubbed
check "the stub started" 0 test -e started
check "its TMPDIR is a private one inside TMPDIR" 0 grep -Eq "^$tmp/private/netsched-child-[A-Za-z0-9]{6}\$" child-tmpdir
kill -TERM "$pid"
wait "$pid"
status=$?
check "SIGTERM ends simulate by the signal (143)" 0 test "$status" -eq 143
check "the child got SIGTERM first" 0 test -e got-term
check "no grandchild left (SIGKILL after the grace)" 1 pgrep -f "$tmp/nap"
check "no child left" 1 pgrep -f "$tmp/stub.sh"
check "TMPDIR is empty afterwards" 0 test -z "$(ls -A private)"

# ---- the wall-time limit stops it the same way, with its message -------------------
start_stubbed --wall-limit 1
wait "$pid"
status=$?
check "the wall-time limit: exit 2" 0 test "$status" -eq 2
expect "says so" run.err '^netsched: simulation stopped after the wall-time limit of 1 s: 0 of [0-9]+ messages delivered, 0\.000 s simulated$'
check "the child got SIGTERM at the limit" 0 test -e got-term
check "no grandchild left at the limit" 1 pgrep -f "$tmp/nap"
check "no child left at the limit" 1 pgrep -f "$tmp/stub.sh"
check "TMPDIR is empty after the limit" 0 test -z "$(ls -A private)"

# ---- a replay that cannot run: reported by netsched, in the model's words ------------
# The child only writes exec's errno to a close-on-exec pipe and exits 127;
# the parent words it (was: the child formatted it with g_strerror after
# fork, not async-signal-safe). Same message and exit status as before.
check "a missing replay: exit 2" 2 env NETSCHED_REPLAY=/nonexistent/netsched-replay \
  "$ns" simulate -T gen:star:4 -a ring
expect "names it" "$tmp/err" '^netsched: simulation failed: cannot run /nonexistent/netsched-replay: No such file or directory$'
check "no time printed" 1 grep -q completion "$tmp/out"
printf '#!/bin/sh\nexit 0\n' > not-executable.sh
chmod 644 not-executable.sh
check "a replay that is not executable: exit 2" 2 env NETSCHED_REPLAY="$tmp/not-executable.sh" \
  "$ns" simulate -T gen:star:4 -a ring
expect "says why (EACCES)" "$tmp/err" "^netsched: simulation failed: cannot run $tmp/not-executable.sh: Permission denied\$"
check "TMPDIR is empty after a replay that did not run" 0 test -z "$(ls -A private)"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
