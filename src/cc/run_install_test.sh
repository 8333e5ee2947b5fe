#!/usr/bin/env bash
# cc_install_consumer test: install the build tree into a scratch prefix, then
# build examples/minimal against it as an outside C++ program would: with
# "-ltflite_cc" from pkg-config tflite_cc, and with find_package(tflite_c) +
# tflite_c::tflite_cc. Each binary runs on MODEL when it is given and exists.
#
#   run_install_test.sh BUILD_DIR WORK_DIR [MODEL]
set -euo pipefail
build=$1 work=$2 model=${3:-}
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/examples/minimal"
CXX=${CXX:-c++}
source "$(dirname "${BASH_SOURCE[0]}")/../../tests/install/cross_env.sh"
[ -n "$model" ] && [ ! -f "$model" ] && model=""
fail() { echo "cc_install_consumer: FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=""
for d in "$prefix"/lib "$prefix"/lib64 "$prefix"/lib/*-linux-gnu; do
  [ -f "$d/pkgconfig/tflite_cc.pc" ] && { libdir=$d; break; }
done
[ -n "$libdir" ] || fail "no tflite_cc.pc under $prefix"
for h in interpreter.h interpreter_builder.h model.h model_builder.h kernels/register.h \
         mutable_op_resolver.h op_resolver.h core/api/error_reporter.h signature_runner.h \
         optional_debug_tools.h string_util.h; do
  [ -f "$prefix/include/tensorflow/lite/$h" ] || fail "missing include/tensorflow/lite/$h"
done

run_on_model() { # binary
  if [ -n "$model" ]; then "${run[@]}" "$1" "$model" | tail -n 1; fi
}

# 1. pkg-config: only -ltflite_cc.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
"$CXX" -std=c++17 -Wall -Wextra -Werror "$src/minimal.cc" -o "$work/minimal_pc" \
  $(pkg-config --cflags --libs tflite_cc) -Wl,-rpath,"$libdir" || fail "pkg-config build"
run_on_model "$work/minimal_pc"
echo "cc_install_consumer: pkg-config tflite_cc OK"

# 2. find_package(tflite_c) -> tflite_c::tflite_cc, with the example's own
#    CMakeLists.txt.
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$src" -B "$work/cmake" "${gen[@]}" "${toolchain[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log" 2>&1 &&
  cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; fail "find_package build"; }
run_on_model "$work/cmake/minimal"
echo "cc_install_consumer: find_package tflite_c::tflite_cc OK"
rm -rf "$work"
