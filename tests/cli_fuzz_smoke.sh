#!/usr/bin/env bash
# A short libFuzzer run of every input reader (native, Slurm, GraphML, SimGrid,
# schedule JSON, generator specifications, sweep, scenario and size pattern files): 10 s
# each from the seed corpora, ASan + UBSan + leak checks. Any crash, leak or undefined behaviour fails the test. Longer
# runs: scripts/fuzz.sh.
set -uo pipefail
src="${NETSCHED_SOURCE_DIR:?}"
if ! command -v clang >/dev/null; then
  echo "1..0 # SKIP clang not installed (scripts/install-deps.sh --test installs it)"
  exit 77
fi
out=$(FUZZ_TIMEOUT=300 bash "$src/scripts/fuzz.sh" "${FUZZ_SECONDS:-10}" 2>&1)
status=$?
echo "$out" | tail -n 20
if [[ $status -eq 0 ]]; then
  echo "9 passed, 0 failed"
else
  echo "0 passed, 1 failed"
fi
exit $status
