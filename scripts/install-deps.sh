#!/usr/bin/env bash
# Installs the Debian 12 packages netsched needs, and nothing when they are
# all there already (idempotent, a quick no-op on a prepared machine).
#   scripts/install-deps.sh                build + run dependencies
#   scripts/install-deps.sh --test         plus what the test suite uses (clang for
#                                          the libFuzzer smoke run, Open MPI for the
#                                          sweep's MPI mode and generated routines,
#                                          MPICH beside it: mpicc.mpich, priority
#                                          below Open MPI's, so mpicc stays Open MPI)
#   scripts/install-deps.sh --verify-only  only what a verify-only build needs
#                                          (cmake -DNETSCHED_SIMULATOR=OFF): no
#                                          SimGrid, no ns-3, no gnuplot
#   scripts/install-deps.sh --bench        plus python3-igraph, which only
#                                          bench/sweep_vs_igraph.sh uses (CI never)
# Options combine (--verify-only --test). Runs apt-get as root, or through
# sudo when not root; never asks anything (DEBIAN_FRONTEND=noninteractive).
set -euo pipefail

usage() {
  sed -n '2,16s/^# \{0,1\}//p' "$0"
}

test=0 verify_only=0 bench=0
for arg in "$@"; do
  case "$arg" in
    --test) test=1 ;;
    --verify-only) verify_only=1 ;;
    --bench) bench=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-deps: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done

# The verify-only build: the core libraries, the command, the man pages
# (help2man for man1, python3 for the man3 pages of the library).
packages=(build-essential cmake pkg-config libglib2.0-dev libjson-glib-dev libigraph-dev
          libzstd-dev help2man python3)
if [[ $verify_only -eq 0 ]]; then
  # The simulator (libsimgrid-dev brings SimGrid's ns-3 backend), ns-3's own
  # headers for the ns3 model's child (sim/ns3/, netsched-ns3) and plots.
  packages+=(libsimgrid-dev libns3-dev gnuplot-nox)
fi
if [[ $bench -eq 1 ]]; then
  packages+=(python3-igraph)
fi
if [[ $test -eq 1 ]]; then
  packages+=(clang libclang-rt-14-dev openmpi-bin libopenmpi-dev libmpich-dev gnuplot-nox)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    [[ " ${missing[*]} " == *" $p "* ]] || missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 2; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
