#!/usr/bin/env bash
# Fuzz the input readers: scripts/fuzz.sh [SECONDS]
#
# Configures a clang build in build-fuzz/ (-DNETSCHED_FUZZ=ON; FUZZ_BUILD_DIR
# names another directory), builds the libFuzzer harnesses of fuzz/ (native,
# slurm, graphml, simgrid, schedule, gen, sweep, scenario, pattern) and runs each for SECONDS
# (default 60) on a temporary copy of its seed corpus (fuzz/corpus/<harness>/),
# inputs of at most 4096 bytes. Prints one line per harness: "N runs, no crash", or the
# saved reproducer and the end of the log. Exits 1 if any harness found a
# crash, leak, timeout or out-of-memory, 2 if the build fails.
#
# Reproducers are kept in build-fuzz/artifacts/<harness>/; replay one with
#   build-fuzz/fuzz/fuzz_<harness> build-fuzz/artifacts/<harness>/crash-...
# Idempotent: rerunning reuses the build and never modifies the seeds.
# NETSCHED_FUZZ_READ_ONLY=1 makes fuzz_native skip its write-and-reread
# check (to keep fuzzing the reader while a writer bug is open).
# FUZZ_TIMEOUT (seconds per input, default 10): inputs slower than that count
# as failures. A few hundred bytes of hostlists can legitimately describe a
# million machines (the readers' cap), which takes seconds under ASan; the
# test suite's smoke run (tests/cli_fuzz_smoke.sh) raises it so that only
# crashes, leaks and undefined behaviour fail CI.
set -euo pipefail

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS]   (a positive whole number, default 60)" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
harnesses=(native slurm graphml simgrid schedule gen sweep scenario pattern)

cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "fuzz.sh: $cc not found (libFuzzer needs clang; set FUZZ_CC to use another one)" >&2
  exit 2
fi

generator=()
if command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
# An existing build dir keeps its generator; only pass one on first configure.
if [[ -f "$build/CMakeCache.txt" ]]; then
  generator=()
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/netsched-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== configuring and building harnesses in $build/"
if ! cmake -S "$root" -B "$build" "${generator[@]}" \
       -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DNETSCHED_FUZZ=ON -DNETSCHED_SANITIZE=OFF -DBUILD_TESTING=OFF \
       >"$work/configure.log" 2>&1; then
  cat "$work/configure.log" >&2
  echo "fuzz.sh: cmake configure failed" >&2
  exit 2
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
if ! cmake --build "$build" --target "${targets[@]}" -- >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  echo "fuzz.sh: build failed (full log: $build/fuzz-build.log)" >&2
  exit 2
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
for h in "${harnesses[@]}"; do
  corpus="$work/corpus-$h"
  artifacts="$work/artifacts-$h"
  mkdir -p "$corpus" "$artifacts"
  if [[ -d "$root/fuzz/corpus/$h" ]]; then
    find "$root/fuzz/corpus/$h" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
  fi
  dict=()
  if [[ -f "$root/fuzz/$h.dict" ]]; then
    dict=(-dict="$root/fuzz/$h.dict")
  fi
  log="$work/$h.log"
  rc=0
  "$build/fuzz/fuzz_$h" -max_total_time="$seconds" -max_len=4096 -timeout="${FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "${dict[@]}" "$corpus" >"$log" 2>&1 || rc=$?
  runs=$(awk '/^stat::number_of_executed_units:/ { n = $2 } END { print n + 0 }' "$log")
  found=$(find "$artifacts" -maxdepth 1 -type f \
            \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
            | sort)
  if [[ $rc -eq 0 && -z $found ]]; then
    printf 'fuzz_%-9s %s runs in %ss, no crash\n' "$h" "$runs" "$seconds"
    continue
  fi
  status=1
  keep="$build/artifacts/$h"
  mkdir -p "$keep"
  printf 'fuzz_%-9s FAILED after %s runs (exit %d)\n' "$h" "$runs" "$rc"
  if [[ -n $found ]]; then
    while IFS= read -r f; do
      cp "$f" "$keep/"
      echo "  reproducer: $keep/$(basename "$f")"
    done <<<"$found"
  fi
  cp "$log" "$keep/last-run.log"
  echo "  log: $keep/last-run.log; the report:"
  # From the sanitizer's / the harness's first report line to SUMMARY.
  report=$(awk '/ERROR: |runtime error|fuzz contract violated/ { p = 1 }
                p { print } /^SUMMARY/ { if (p) exit }' "$log" | head -n 45)
  if [[ -z $report ]]; then
    report=$(grep -v '^#[0-9]' "$log" | tail -n 30)
  fi
  sed 's/^/    /' <<<"$report"
done
exit $status
