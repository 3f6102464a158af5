# Helpers of the tests that run libnetsched-mpi under mpirun
# (tests/cli_mpi_lib.sh, tests/cli_mpi_adaptive.sh), sourced after
# cli-common.bash: skips (77) without mpicc/mpirun, fails when they are
# there but NETSCHED_MPI_LIB (tests/CMakeLists.txt sets it) names no
# library; sets lib, preload (the library, after the sanitizer runtime in a
# sanitized build) and sanitize_flags (for programs linked with it);
# defines run, gen, same and no_line.
lib="${NETSCHED_MPI_LIB:-}"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
  echo "1..0 # SKIP mpicc/mpirun missing (libopenmpi-dev, openmpi-bin)"
  exit 77
fi
if [[ -z $lib || ! -f $lib ]]; then # MPI is here, so the build should have made it
  echo "not ok - libnetsched-mpi not built (NETSCHED_MPI_LIB='$lib')"
  exit 1
fi
export ASAN_OPTIONS=detect_leaks=0
# A sanitized library needs the sanitizer runtime first in the process
# (preloaded before it; linked into a linked driver).
preload="$lib" sanitize_flags=()
if [[ ${NETSCHED_SANITIZE:-0} == 1 ]]; then
  preload="$(${NETSCHED_CC:-cc} -print-file-name=libasan.so) $lib"
  sanitize_flags=(-fsanitize=address,undefined)
fi

# run NP [NAME=VALUE...] -- PROGRAM ARGS...: mpirun with the library
# preloaded and the NETSCHED_MPI_* variables given, none inherited.
run() {
  local np=$1 envs=()
  shift
  while [[ $1 != -- ]]; do envs+=(-x "$1"); shift; done
  shift
  env -u NETSCHED_MPI_CONFIG -u NETSCHED_MPI_SCHEDULES -u NETSCHED_MPI_RANKMAP \
      -u NETSCHED_MPI_VERBOSE -u NETSCHED_MPI_ON_ERROR -u NETSCHED_MPI_CANDIDATES \
      -u NETSCHED_MPI_MEASURE \
    timeout 300 mpirun --allow-run-as-root --oversubscribe -np "$np" \
      -x LD_PRELOAD="$preload" -x ASAN_OPTIONS "${envs[@]}" "$@"
}
gen() { # gen OUT.nsr ARGS...: a routine table from netsched generate
  local out=$1
  shift
  "$ns" generate "$@" -o "$out" >/dev/null 2>"$tmp/gen.err" ||
    { echo "not ok - generate $*"; sed 's/^/#   /' "$tmp/gen.err"; failures=$((failures + 1)); }
}
# same NAME: lib_check (tests/mpi/lib_check.c) found the library's buffers PMPI's
same() { expect "$1: buffers identical to PMPI's" "$tmp/out" "calls compared, 0 differ"; }
no_line() { # no_line NAME FILE PATTERN: no line of FILE matches
  if grep -Eq -- "$3" "$2"; then
    echo "not ok - $1: /$3/ in $(basename "$2")"; grep -E -- "$3" "$2" | sed 's/^/#   /' | head -3
    failures=$((failures + 1))
  else
    echo "ok - $1"; passed=$((passed + 1))
  fi
}
