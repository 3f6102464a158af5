#!/usr/bin/env bash
# `cmake --install` of this build into a temporary prefix (docs/install.md):
# the installed netsched runs, its man pages and bash completion are there,
# a program built with `pkg-config --cflags --libs netsched` against the
# installed libnetsched plans and verifies a schedule, and — with the
# simulator — the installed netsched finds its netsched-replay in
# LIBEXECDIR/netsched. Needs NETSCHED_BUILD_DIR (tests/CMakeLists.txt sets
# it); skipped (77) without pkg-config or a C compiler.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
build="${NETSCHED_BUILD_DIR:?}"
cc="${NETSCHED_CC:-cc}"
if ! command -v pkg-config >/dev/null || ! command -v "$cc" >/dev/null; then
  echo "1..0 # SKIP pkg-config or a C compiler ($cc) missing"
  exit 77
fi
unset NETSCHED_REPLAY
prefix="$tmp/prefix"

check "cmake --install" 0 cmake --install "$build" --prefix "$prefix"
bin="$prefix/bin/netsched"
check "installed netsched --help" 0 "$bin" --help
expect "help lists verify" "$tmp/out" "verify +verify a schedule"
check "installed netsched --version" 0 "$bin" --version
version=$(cat "$tmp/out")

# A man page as text (its source when man is missing): render_page PAGE OUT.
render_page() {
  if command -v man >/dev/null; then
    MANWIDTH=200 man -l "$1" 2>/dev/null | col -b >"$2"
  else
    cp "$1" "$2"
  fi
}

# ---- man pages: netsched.1 and one per command, from --help ----
man1="$prefix/share/man/man1"
if [[ -f $build/man/netsched.1 ]]; then
  check "netsched.1" 0 test -f "$man1/netsched.1"
  "$bin" --list-commands | while IFS=$'\t' read -r cmd _; do
    [[ -f $man1/netsched-$cmd.1 ]] || echo "$cmd"
  done >"$tmp/missing"
  check "a page per command" 0 test ! -s "$tmp/missing"
  render_page "$man1/netsched-verify.1" "$tmp/page"
  expect "verify page: NAME from the command table" "$tmp/page" "netsched-verify +\\\\?- +verify a schedule"
  expect "verify page: SYNOPSIS" "$tmp/page" "netsched verify \[OPTION"
  expect "verify page: --junit" "$tmp/page" "junit"
  expect "verify page: --require-optimal" "$tmp/page" "require-optimal"
else
  echo "ok - man pages skipped (help2man was not found at configure time) # SKIP"
fi
# man3: a page per documented public function, from its doc block.
man3="$prefix/share/man/man3"
if [[ -d $build/man3 ]]; then
  check "man3: ns_verify.3" 0 test -f "$man3/ns_verify.3"
  check "man3: ns_topology_digest.3" 0 test -f "$man3/ns_topology_digest.3"
  render_page "$man3/ns_topology_digest.3" "$tmp/page3"
  expect "man3: NAME" "$tmp/page3" "ns_topology_digest +\\\\?- +SHA-256 of a topology"
  expect "man3: SYNOPSIS names the header" "$tmp/page3" "platforms/io/topology_digest.h"
  expect "man3: COMPLEXITY" "$tmp/page3" "COMPLEXITY"
else
  echo "ok - man3 pages skipped (python3 was not found at configure time) # SKIP"
fi

# ---- bash completion, calibrations, headers ----
check "bash completion" 0 bash -n "$prefix/share/bash-completion/completions/netsched"
check "bundled calibration" 0 test -f "$prefix/share/netsched/calibrations/lemieux.ini"
check "header" 0 test -f "$prefix/include/netsched/sched/verify/verify.h"
find "$prefix/include" -name '*_private.h' -o -name '*_internal.h' >"$tmp/private"
check "no internal headers installed" 0 test ! -s "$tmp/private"
# Exactly the public headers: every header of the three stages not named
# *_internal.h (and no *_private.h is left in the tree: they were renamed).
(cd "$src" && find platforms sched analysis -name '*.h' ! -name '*_internal.h' | sort) >"$tmp/public"
(cd "$prefix/include/netsched" && find . -name '*.h' | sed 's|^\./||' | sort) >"$tmp/installed"
check "installed = public headers ($(wc -l <"$tmp/public"))" 0 diff "$tmp/public" "$tmp/installed"
(cd "$src" && find platforms sched analysis -name '*_private.h') >"$tmp/private-src"
check "no *_private.h in the tree" 0 test ! -s "$tmp/private-src"
# A public header never includes an internal one (it could not compile
# installed); checked here on the sources, with the names.
(cd "$src" && grep -l '_internal\.h"' $(cat "$tmp/public")) >"$tmp/leaks"
check "no public header includes an internal one" 1 test -s "$tmp/leaks"
[[ -s $tmp/leaks ]] && sed 's/^/#   /' "$tmp/leaks"

# ---- a program against the installed library, through pkg-config ----
pc=$(find "$prefix" -name netsched.pc -print -quit)
check "netsched.pc" 0 test -n "$pc"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
check "pkg-config --modversion" 0 pkg-config --modversion netsched
expect "pkg-config version" "$tmp/out" "^${version#netsched }$"
cat >"$tmp/verify_faraj.c" <<'EOF'
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>

int main(void)
{
  GError *error = NULL;
  NsTopology *topo = ns_shape_from_spec("chain:4,8", &error); /* Faraj-Yuan (c) */
  NsPlanParams params = { .msize = 64 * 1024 };
  NsSchedule *s = topo ? ns_plan(topo, NS_COLL_ALLTOALL, "faraj", &params, &error) : NULL;
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  NsVerifyReport report;
  if (s == NULL || !ns_verify(topo, s, &opt, &report, &error)) {
    fprintf(stderr, "%s\n", error->message);
    return 2;
  }
  gboolean ok = ns_verify_passed(&report, NS_REQUIRE_OPTIMAL);
  printf("alltoall/faraj on chain:4,8: %llu phases, %s\n", (unsigned long long)report.n_phases,
         ok ? "complete, contention-free and optimal" : "FAILED");
  ns_verify_report_clear(&report);
  ns_schedule_free(s);
  ns_topology_free(topo);
  return ok ? 0 : 1;
}
EOF
read -r -a flags <<<"$(pkg-config --cflags --libs netsched)"
read -r -a cflags <<<"$(pkg-config --cflags netsched)"
read -r -a extra <<<"${NETSCHED_INSTALL_CFLAGS:-}"
# Every installed header compiles on its own with the .pc's Cflags (its
# Requires name every library a public header includes).
(cd "$prefix/include/netsched" && find . -name '*.h' | sed 's|^\./||' | sort) >"$tmp/headers"
while read -r h; do
  printf '#include "%s"\n' "$h" | "$cc" -std=c17 -fsyntax-only "${cflags[@]}" -x c - 2>&1 |
    head -3 | sed "s|^|$h: |"
done <"$tmp/headers" >"$tmp/header-errors"
check "installed headers compile alone ($(wc -l <"$tmp/headers"))" 0 test ! -s "$tmp/header-errors"
[[ -s $tmp/header-errors ]] && sed 's/^/#   /' "$tmp/header-errors" | head -10
check "compile against the installed library" 0 \
  "$cc" "${extra[@]}" "$tmp/verify_faraj.c" -o "$tmp/verify_faraj" "${flags[@]}"
libdir=$(pkg-config --variable=libdir netsched)
check "run it" 0 env LD_LIBRARY_PATH="$libdir" "$tmp/verify_faraj"
expect "contention-free" "$tmp/out" "^alltoall/faraj on chain:4,8: [0-9]+ phases, complete, contention-free and optimal$"
if command -v ldd >/dev/null; then
  check "ldd" 0 env LD_LIBRARY_PATH="$libdir" ldd "$tmp/verify_faraj"
  expect "libnetsched from the prefix" "$tmp/out" "libnetsched\.so\.0 => $prefix/"
fi

# ---- the simulator: installed replay, or a clear refusal ----
replay="$prefix/libexec/netsched/netsched-replay"
if [[ ${NETSCHED_SIMULATOR:-1} != 0 ]]; then
  check "netsched-replay in libexec" 0 test -x "$replay"
  check "installed simulate" 0 "$bin" simulate -T gen:star:4 -a ring -m 8KiB
  expect "simulated" "$tmp/out" "^completion"
  # The lookup order (sim/sim.c): next to the program, then LIBEXECDIR/netsched
  # relative to it, then the configured prefix, then the build tree. A copy of
  # the prefix elsewhere whose replay leaves a mark shows the relative step is
  # taken before the build tree's replay.
  cp -a "$prefix" "$tmp/moved"
  mv "$tmp/moved/libexec/netsched/netsched-replay" "$tmp/moved/libexec/netsched/real-replay"
  printf '#!/bin/sh\n: >"%s"\nexec "%s" "$@"\n' "$tmp/replay-used" \
    "$tmp/moved/libexec/netsched/real-replay" >"$tmp/moved/libexec/netsched/netsched-replay"
  chmod +x "$tmp/moved/libexec/netsched/netsched-replay"
  check "moved prefix: simulate" 0 "$tmp/moved/bin/netsched" simulate -T gen:star:4 -a ring -m 8KiB
  check "moved prefix: its own libexec replay ran" 0 test -e "$tmp/replay-used"
else
  check "no netsched-replay" 1 test -e "$replay"
  check "simulate refused" 2 "$bin" simulate -T gen:star:4 -a ring -m 8KiB
  expect "says why" "$tmp/err" "built without the simulator \(-DNETSCHED_SIMULATOR=OFF\)"
  if command -v ldd >/dev/null; then
    ldd "$bin" >"$tmp/ldd"
    check "netsched does not link SimGrid" 1 grep -q simgrid "$tmp/ldd"
  fi
fi

# ---- libnetsched-mpi (docs/mpi-library.md), when MPI was found ----
if [[ -f $build/libnetsched-mpi.so ]]; then
  mpilib=$(find "$prefix" -name libnetsched-mpi.so.0 | head -1)
  check "libnetsched-mpi installed in LIBDIR" 0 test -n "$mpilib"
  check "libnetsched-mpi exports the three collectives only" 0 \
    test "$(nm -D --defined-only "$mpilib" | awk '$2 == "T" && $3 !~ /^_/ { print $3 }' | sort | tr '\n' ' ')" \
    = "MPI_Allgather MPI_Alltoall MPI_Bcast "
fi

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
