#!/usr/bin/env bash
# Prepares a Debian 12 (bookworm) machine to build and test tflite-c.
# Safe to run again: apt is skipped when everything is installed, and the
# XNNPACK build is skipped when its cache is complete.
#
#   third_party/setup_debian.sh [--arch arm64|armhf]... [--no-xnnpack] [--no-npm]
#     --arch A      also prepare cross-building for Debian architecture A (arm64
#                   or armhf; repeatable): the cross compiler, qemu-user, the
#                   target's googletest (multiarch), and XNNPACK cross-built
#                   into its own cache prefix. The host build is set up too.
#     --no-xnnpack  skip building the pinned XNNPACK into the cache
#     --no-npm      do not install npm (only tools/fetch_blazeface.sh needs it)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
with_xnnpack=1
with_npm=1
arches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-xnnpack) with_xnnpack=0 ;;
    --no-npm) with_npm=0 ;;
    --arch) arches+=("${2:-}"); shift ;;
    --arch=*) arches+=("${1#--arch=}") ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "setup_debian.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
for a in "${arches[@]}"; do
  case "$a" in
    arm64|armhf) ;;
    *) echo "setup_debian.sh: unknown --arch '$a' (arm64 or armhf)" >&2; exit 2 ;;
  esac
done

log() { echo "[setup] $*" >&2; }

# Build tools, schema compiler, test/benchmark libraries, what the XNNPACK
# build needs (python3 for its configure step, xz-utils to unpack), and clang
# with its sanitizer/libFuzzer runtimes (the "asan" preset and fuzz/).
# The googletest libraries are named with the host's architecture: they are
# Multi-Arch "same", and once a cross target's copy is installed an unqualified
# dpkg-query prints one status per architecture (the check below then took them
# for missing on every run, and asked apt for them even on a ready machine).
host_arch=$(dpkg --print-architecture)
packages=(
  cmake ninja-build g++ gcc make pkg-config binutils
  flatbuffers-compiler libflatbuffers-dev
  googletest "libgtest-dev:$host_arch" "libgmock-dev:$host_arch" libbenchmark-dev
  libeigen3-dev nlohmann-json3-dev
  python3 xz-utils curl ca-certificates util-linux ccache patch time
  clang libclang-rt-dev
)
# npm may come from another package (e.g. a nodejs build that bundles it):
# only ask apt for it when no npm is on PATH.
if [ "$with_npm" = 1 ] && ! command -v npm >/dev/null; then
  packages+=(npm)
fi

# Cross targets: compiler, emulator, and the target's static googletest from
# Debian's multiarch packages (header-only dependencies are shared with the host).
foreign=()
for a in "${arches[@]}"; do
  case "$a" in
    arm64) triplet=aarch64-linux-gnu ;;
    armhf) triplet=arm-linux-gnueabihf ;;
  esac
  packages+=("g++-$triplet" "gcc-$triplet" "binutils-$triplet" qemu-user
             "libgtest-dev:$a" "libgmock-dev:$a")
  dpkg --print-foreign-architectures | grep -qx "$a" || foreign+=("$a")
done

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  log "all apt packages present"
else
  log "installing: ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { log "not root and no sudo: install ${missing[*]} by hand"; exit 1; }
    SUDO=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt_install() {
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends "${missing[@]}"
  }
  # apt-get update exits non-zero when any one index fails, e.g. a mirror caught
  # mid-sync ("File has unexpected size"). Retry a few times with a pause; if an
  # index still fails, go on with what was fetched: the install below is what
  # decides whether the packages we need are reachable.
  apt_update() {
    local attempt
    for attempt in 1 2 3 4; do
      if "${SUDO[@]}" apt-get update -q -o Acquire::Retries=3; then
        return 0
      fi
      [ "$attempt" = 4 ] && break
      log "apt-get update failed (attempt $attempt of 4); retrying in $((attempt * 20)) s"
      sleep $((attempt * 20))
    done
    log "apt-get update still reports failed indexes; trying the install with the lists it got"
    return 0
  }
  # Update the package lists only when they are absent or too old to know a
  # package (a fresh container ships without lists).
  have_lists=0
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null && have_lists=1
  # A newly added architecture needs its package lists.
  for a in "${foreign[@]}"; do
    "${SUDO[@]}" dpkg --add-architecture "$a"
    have_lists=0
  done
  for a in "${arches[@]}"; do
    compgen -G "/var/lib/apt/lists/*binary-${a}_Packages*" >/dev/null || have_lists=0
  done
  if [ "$have_lists" = 0 ]; then
    apt_update
    apt_install || { log "install failed; waiting 60 s, updating and retrying"; sleep 60; apt_update; apt_install; }
  elif ! apt_install; then
    log "install failed with the current lists; updating them and retrying"
    apt_update
    apt_install
  fi
fi

if [ "$with_xnnpack" = 1 ]; then
  for a in host "${arches[@]}"; do
    "$here/xnnpack/build.sh" --arch "$a" >/dev/null
    log "XNNPACK ($a) ready: $("$here/xnnpack/build.sh" --arch "$a" --print-prefix)"
  done
fi
log "done"
