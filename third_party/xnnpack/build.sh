#!/usr/bin/env bash
# Builds the pinned XNNPACK (plus cpuinfo, pthreadpool, FXdiv) from the Debian
# pool's upstream tarballs into a per-version cache prefix:
#
#   ${XDG_CACHE_HOME:-$HOME/.cache}/tflite-c/xnnpack-<key>/{include,lib}
#
# <key> names the XNNPACK snapshot plus a digest of every pin, patch
# (patches/*.patch) and build flag below, so changing any gives a fresh prefix
# instead of a stale one.
# A prefix is used only when its ".complete" stamp exists; the stamp is the
# last thing written, so an interrupted build is simply redone.
#
# Facts (versions, checksums, flags, link order) follow
# shared/notes/xnnpack-build.md. Why the flags matter:
#   * tests/benchmarks OFF: otherwise XNNPACK forces ALL_MICROKERNELS (4.6x the
#     work) and tries to download googletest/benchmark.
#   * *_SOURCE_DIR set: otherwise configure tries to git-clone dependencies.
#   * static + PIC: the archives are linked into our shared library later.
#
# Usage: third_party/xnnpack/build.sh [--arch host|arm64|armhf] [--print-prefix] [--force]
#   --arch          target: the build machine (default), or a Debian ARM
#                   architecture cross-compiled with cmake/toolchains/ (each
#                   target has its own prefix, xnnpack-<arch>-<key>)
#   --print-prefix  print the prefix path and exit (no build)
#   --force         rebuild even when the cache is complete
# Environment: JOBS (default nproc), XNNPACK_MIRROR (Debian mirror root ending
#   in /debian; default: taken from /etc/apt sources).
set -euo pipefail

# ---- pins --------------------------------------------------------------------
# pool-subdir  file  sha256   (all from Debian trixie, cpuinfo from sid)
PINS="
x/xnnpack xnnpack_0.0~git20241108.4ea82e5.orig.tar.xz 90bde2caef0f880f627bab0dc805a86c4b8070cd98e3243db3046ab3f3be1a99
p/pthreadpool pthreadpool_0.0~git20240616.560c60d.orig.tar.xz 4cc3cbd933b28131d2a34edc54f76af9fb41bc490af5eae1a5bd3cd07ea90708
f/fxdiv fxdiv_0.0~git20200417.b408327.orig.tar.xz 7953482badaf4cb34026c3487c257b8e4ab2df061c019bd6fabbbc12ad52c44b
c/cpuinfo cpuinfo_0.0~git20250905.877328f.orig.tar.xz 557ca404a3836b9f335a3a06b65ff9fe9dbaaefab7fb5c0185f53d9f33615a10
"
CMAKE_FLAGS=(
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_INSTALL_LIBDIR=lib
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DXNNPACK_LIBRARY_TYPE=static
  -DXNNPACK_BUILD_TESTS=OFF
  -DXNNPACK_BUILD_BENCHMARKS=OFF
  -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF
  -DXNNPACK_USE_SYSTEM_LIBS=OFF
)
# What a complete prefix contains (libraries in link order).
LIBS=(XNNPACK microkernels-prod pthreadpool cpuinfo)
HEADERS=(xnnpack.h pthreadpool.h cpuinfo.h fxdiv.h)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
force=0
print_prefix=0
arch=host
while [ $# -gt 0 ]; do
  case "$1" in
    --print-prefix) print_prefix=1 ;;
    --force) force=1 ;;
    --arch) arch=${2:-}; shift ;;
    --arch=*) arch=${1#--arch=} ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

# Cross targets: the project's toolchain file; KleidiAI (Arm-only) would be
# downloaded at configure time, so it stays off. Run-time dispatch (cpuinfo)
# picks NEON / dot product / fp16 / i8mm kernels on the device; nothing here
# raises the architecture baseline.
RUNNER=()
TRIPLET=""
case "$arch" in
  host|"$(uname -m)") arch=host ;;
  arm64|aarch64) arch=arm64; TRIPLET=aarch64-linux-gnu; RUNNER=(qemu-aarch64 -L /usr/$TRIPLET) ;;
  armhf|arm) arch=armhf; TRIPLET=arm-linux-gnueabihf; RUNNER=(qemu-arm -L /usr/$TRIPLET) ;;
  *) echo "build.sh: unknown --arch '$arch' (host, arm64, armhf)" >&2; exit 2 ;;
esac
if [ -n "$TRIPLET" ]; then
  CMAKE_FLAGS+=(
    -DCMAKE_TOOLCHAIN_FILE="$here/../../cmake/toolchains/$TRIPLET.cmake"
    -DXNNPACK_ENABLE_KLEIDIAI=OFF
  )
else
  case "$(uname -m)" in
    aarch64|arm*) CMAKE_FLAGS+=(-DXNNPACK_ENABLE_KLEIDIAI=OFF) ;;  # native build on a device
  esac
fi

# Our fixes to the snapshot, applied in name order after unpacking (each one
# says what it fixes; README "XNNPACK" lists them).
PATCHES=("$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"/patches/*.patch)
# And to the pthreadpool snapshot built with it.
PTHREADPOOL_PATCHES=("$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"/patches/pthreadpool/*.patch)

# The key hashes pins, patches and flags; toolchain paths are hashed by file name and
# content, not by where the checkout is.
key_input() {
  printf '%s\n' "$PINS"
  cat "${PATCHES[@]}" "${PTHREADPOOL_PATCHES[@]}"
  local f
  for f in "${CMAKE_FLAGS[@]}"; do
    case "$f" in
      -DCMAKE_TOOLCHAIN_FILE=*) echo "toolchain=$TRIPLET"; cat "${f#*=}" "$(dirname "${f#*=}")/cross-debian.cmake" ;;
      *) echo "$f" ;;
    esac
  done
}
KEY="git20241108.4ea82e5-$(key_input | sha256sum | cut -c1-8)"
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/tflite-c"
if [ "$arch" = host ]; then
  PREFIX="$CACHE_ROOT/xnnpack-$KEY"
else
  PREFIX="$CACHE_ROOT/xnnpack-$arch-$KEY"
fi
if [ "$print_prefix" = 1 ]; then echo "$PREFIX"; exit 0; fi

log() { echo "[xnnpack] $*" >&2; }

is_complete() {
  [ -f "$PREFIX/.complete" ] || return 1
  local f
  for f in "${LIBS[@]}"; do [ -s "$PREFIX/lib/lib$f.a" ] || return 1; done
  for f in "${HEADERS[@]}"; do [ -s "$PREFIX/include/$f" ] || return 1; done
}

if [ "$force" = 0 ] && is_complete; then
  log "cached: $PREFIX"
  echo "$PREFIX"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
# One build at a time per cache (a second caller waits, then finds the cache).
exec 9>"$CACHE_ROOT/.xnnpack-$KEY.lock"
flock 9
if [ "$force" = 0 ] && is_complete; then
  log "cached (built by a concurrent run): $PREFIX"
  echo "$PREFIX"
  exit 0
fi

CC_FOR_TARGET=cc
[ -n "$TRIPLET" ] && CC_FOR_TARGET=$TRIPLET-gcc
for tool in cmake "$CC_FOR_TARGET" python3 tar xz sha256sum ${RUNNER[0]:+"${RUNNER[0]}"}; do
  command -v "$tool" >/dev/null || { log "missing tool: $tool (run third_party/setup_debian.sh)"; exit 1; }
done

# ---- mirror: the same Debian mirror the system's apt uses ------------------------
find_mirror() {
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{for (i = 2; i <= NF; i++) if ($i ~ /^(https?|ftp):/) { print $i; break }}'
  } | grep -E '/debian/?$' | head -n1 | sed 's#/$##'
}
MIRROR="${XNNPACK_MIRROR:-$(find_mirror || true)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

DL="$CACHE_ROOT/downloads"
mkdir -p "$DL"
download_failed() {
  log "cannot download $1 from $MIRROR/pool/main/."
  log "Debian drops superseded files from the pool (sid first, where cpuinfo comes from):"
  log "look up the current version (apt-cache madison / showsrc with deb-src lines for"
  log "trixie and sid) and update PINS in $0."
  rm -f "$DL/$1" "$DL/$1.part" "$DL/$1.FAILED"
  exit 1
}
fetch() { # pool-subdir file sha256
  local dir=$1 file=$2 sum=$3
  if [ -f "$DL/$file" ] && echo "$sum  $DL/$file" | sha256sum -c --quiet - 2>/dev/null; then
    return 0
  fi
  rm -f "$DL/$file" "$DL/$file.FAILED"
  log "download $file"
  if [ -x /usr/lib/apt/apt-helper ]; then
    # apt's helper honours the apt proxy settings and checks the hash itself.
    # As root, apt would warn that its _apt sandbox user cannot write here.
    local opts=()
    [ "$(id -u)" = 0 ] && opts=(-o APT::Sandbox::User=root)
    /usr/lib/apt/apt-helper "${opts[@]}" download-file "$MIRROR/pool/main/$dir/$file" "$DL/$file" "SHA256:$sum" >/dev/null ||
      download_failed "$file"
  else
    curl -fsSL -o "$DL/$file.part" "$MIRROR/pool/main/$dir/$file" || download_failed "$file"
    mv "$DL/$file.part" "$DL/$file"
  fi
  echo "$sum  $DL/$file" | sha256sum -c --quiet - || {
    log "checksum mismatch for $file"
    rm -f "$DL/$file"; exit 1; }
}

start=$(date +%s)
while read -r dir file sum; do
  [ -n "$dir" ] || continue
  fetch "$dir" "$file" "$sum"
done <<<"$PINS"

# ---- unpack (xnnpack's tarball has no top-level directory) ----------------------
WORK="$CACHE_ROOT/.xnnpack-work-$KEY"
rm -rf "$WORK"
mkdir -p "$WORK/src/xnnpack" "$WORK/src/pthreadpool" "$WORK/src/fxdiv" "$WORK/src/cpuinfo"
STAGE="$PREFIX.tmp"
trap 'rm -rf "$WORK" "$STAGE"' EXIT
tar -xf "$DL"/xnnpack_*.orig.tar.xz -C "$WORK/src/xnnpack"
for p in pthreadpool fxdiv cpuinfo; do
  tar -xf "$DL/$(awk -v p="$p" '$2 ~ "^"p"_" {print $2}' <<<"$PINS")" -C "$WORK/src/$p" --strip-components=1
done
for p in "${PATCHES[@]}"; do
  log "patch $(basename "$p")"
  patch -d "$WORK/src/xnnpack" -p1 --quiet --forward <"$p" || { log "patch failed: $p"; exit 1; }
done
for p in "${PTHREADPOOL_PATCHES[@]}"; do
  log "patch pthreadpool/$(basename "$p")"
  patch -d "$WORK/src/pthreadpool" -p1 --quiet --forward <"$p" || { log "patch failed: $p"; exit 1; }
done

# ---- configure, build, install into a staging prefix, then publish ---------------
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
rm -rf "$STAGE"
# Compiler cache (not part of the key: it changes how, not what, is built).
# Paths under $WORK are hashed relative to it, so a patch change (a new key, a
# new work directory) recompiles only the files the patch touched.
LAUNCHER=()
if [ "${TFLITE_C_CCACHE:-ON}" != OFF ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$WORK" CCACHE_NOHASHDIR=1
  LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
log "configure"
cmake -S "$WORK/src/xnnpack" -B "$WORK/build" "${GEN[@]}" "${CMAKE_FLAGS[@]}" "${LAUNCHER[@]}" \
  -DCMAKE_INSTALL_PREFIX="$STAGE" \
  -DCPUINFO_SOURCE_DIR="$WORK/src/cpuinfo" \
  -DPTHREADPOOL_SOURCE_DIR="$WORK/src/pthreadpool" \
  -DFXDIV_SOURCE_DIR="$WORK/src/fxdiv" >"$WORK/configure.log" 2>&1 ||
  { tail -n 40 "$WORK/configure.log" >&2; exit 1; }
log "build (2-10 min on 2 cores cold, much less with a warm ccache)"
cmake --build "$WORK/build" -j "${JOBS:-$(nproc)}" >"$WORK/build.log" 2>&1 ||
  { tail -n 60 "$WORK/build.log" >&2; exit 1; }
cmake --install "$WORK/build" >/dev/null

# ---- smoke test: link in the documented order and run ----------------------------
cat >"$WORK/smoke.c" <<'C'
#include <stdio.h>
#include <xnnpack.h>
#include <pthreadpool.h>
int main(void) {
  if (xnn_initialize(NULL) != xnn_status_success) { puts("xnn_initialize failed"); return 1; }
  pthreadpool_t pool = pthreadpool_create(2);
  size_t n = pthreadpool_get_threads_count(pool);
  pthreadpool_destroy(pool);
  xnn_deinitialize();
  return n == 2 ? 0 : 1;
}
C
link=()
for f in "${LIBS[@]}"; do link+=("$STAGE/lib/lib$f.a"); done
"$CC_FOR_TARGET" -std=c11 -I"$STAGE/include" "$WORK/smoke.c" -o "$WORK/smoke" "${link[@]}" -lm -lpthread
"${RUNNER[@]}" "$WORK/smoke"

rm -rf "$PREFIX"
mv "$STAGE" "$PREFIX"
{ echo "key=$KEY"; echo "arch=$arch"; echo "mirror=$MIRROR"; echo "link_order=${LIBS[*]} m pthread"; } >"$PREFIX/build-info.txt"
touch "$PREFIX/.complete"
log "built in $(( $(date +%s) - start )) s: $PREFIX"
echo "$PREFIX"
