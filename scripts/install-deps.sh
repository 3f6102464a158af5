#!/usr/bin/env bash
# Installs the Debian 12 packages netsched needs, and nothing when they are
# all there already (idempotent, a quick no-op on a prepared machine).
#   scripts/install-deps.sh          build + run dependencies
#   scripts/install-deps.sh --test   plus what the test suite uses (clang for
#                                    the libFuzzer smoke run)
# Runs apt-get as root, or through sudo when not root.
set -euo pipefail

packages=(build-essential cmake pkg-config libglib2.0-dev libjson-glib-dev libigraph-dev
          libsimgrid-dev gnuplot-nox)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
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
