#!/usr/bin/env bash
# install_consumer test: install a build tree into a scratch prefix, then
# build and run tests/install/consumer.c against it twice: through pkg-config
# (both .pc names) and through find_package(tflite_c).
#
#   run_install_test.sh BUILD_DIR WORK_DIR [MODEL] [SANITIZE(ON|OFF)]
# Environment: CC (target C compiler); for a cross build TFLITE_C_RUN (the
# emulator command, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu") and
# TFLITE_C_TOOLCHAIN_FILE (handed to the CMake consumer).
set -euo pipefail
build=$1 work=$2 model=${3:-} sanitize=${4:-OFF}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CC=${CC:-cc}
source "$(dirname "${BASH_SOURCE[0]}")/cross_env.sh"
san=()
case "$sanitize" in ON|on|1|TRUE|true) san=(-fsanitize=address,undefined) ;; esac
[ -n "$model" ] && [ ! -f "$model" ] && model=""

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

fail() { echo "install_consumer: FAIL: $*" >&2; exit 1; }
libdir=""
for d in "$prefix"/lib "$prefix"/lib64 "$prefix"/lib/*-linux-gnu; do
  [ -d "$d/pkgconfig" ] && { libdir=$d; break; }
done
[ -n "$libdir" ] || fail "no lib*/pkgconfig under $prefix"

# Layout checks.
for f in include/tensorflow/lite/c/c_api.h; do
  [ -f "$prefix/$f" ] || fail "missing $f"
done
[ -L "$libdir/libtensorflowlite_c.so" ] || fail "libtensorflowlite_c.so is not an installed symlink"
[ -e "$libdir/libtensorflowlite_c.so" ] || fail "libtensorflowlite_c.so is a dangling symlink"
ls "$libdir"/libtflite_c.so* >/dev/null 2>&1 || fail "missing libtflite_c.so*"
[ -f "$libdir/cmake/tflite_c/tflite_cConfig.cmake" ] || fail "missing tflite_cConfig.cmake"
[ -f "$libdir/cmake/tflite_c/tflite_cConfigVersion.cmake" ] || fail "missing tflite_cConfigVersion.cmake"
if grep -rqs -- "$build" "$prefix/include" "$libdir/pkgconfig" "$libdir/cmake"; then
  fail "installed files refer to the build tree $build"
fi
echo "install_consumer: layout OK ($prefix)"

# 1. pkg-config, under both names.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
for pc in tensorflowlite_c tflite_c; do
  pkg-config --exists "$pc" || fail "pkg-config cannot find $pc"
  # shellcheck disable=SC2046
  "$CC" -std=c99 -Wall -Wextra -Werror -pedantic "${san[@]}" "$here/consumer.c" -o "$work/consumer_$pc" \
    $(pkg-config --cflags --libs "$pc") -Wl,-rpath,"$(pkg-config --variable=libdir "$pc")"
  "${run[@]}" "$work/consumer_$pc" ${model:+"$model"}
  echo "install_consumer: pkg-config $pc ($(pkg-config --modversion "$pc")) OK"
done

# 2. find_package(tflite_c).
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$here" -B "$work/cmake-consumer" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  "${toolchain[@]}" -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$prefix" \
  ${san:+-DCMAKE_C_FLAGS="${san[*]}"} >"$work/cmake-consumer.log" 2>&1 ||
  { cat "$work/cmake-consumer.log"; fail "configuring the find_package consumer"; }
grep -m1 'tflite_c ' "$work/cmake-consumer.log" || true
cmake --build "$work/cmake-consumer" >>"$work/cmake-consumer.log" 2>&1 ||
  { cat "$work/cmake-consumer.log"; fail "building the find_package consumer"; }
"${run[@]}" "$work/cmake-consumer/consumer" ${model:+"$model"}
if [ -x "$work/cmake-consumer/consumer_static" ]; then
  "${run[@]}" "$work/cmake-consumer/consumer_static" ${model:+"$model"}
  echo "install_consumer: find_package static archive OK"
fi
echo "install_consumer: find_package OK"
rm -rf "$work"
