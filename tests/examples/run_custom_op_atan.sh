#!/usr/bin/env bash
# example_custom_op_atan test: installs the build tree into a scratch prefix,
# builds examples/custom_op_atan against that prefix only (find_package), and
# runs its demo on a model with an ATAN custom op.
#
#   run_custom_op_atan.sh BUILD_DIR WORK_DIR MODEL_WRITER EXAMPLE_DIR
set -euo pipefail
build=$1 work=$2 writer=$3 example=$4
fail() { echo "example_custom_op_atan: FAIL: $*" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/../install/cross_env.sh"

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || fail "cmake --install"

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$example" -B "$work/build" "${gen[@]}" "${toolchain[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" ${CC:+-DCMAKE_C_COMPILER="$CC"} >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring the example"; }
cmake --build "$work/build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building the example"; }

# The op is a separate shared object that exports only its registration.
so="$work/build/libatan_op.so"
[ -f "$so" ] || fail "libatan_op.so was not built"
exported="$(nm -D --defined-only "$so" | awk 'NF >= 3 {print $3}' | grep -v '^_' || true)"
[ "$exported" = "AtanOpRegistrationExternal" ] || fail "libatan_op.so exports: $exported"
# ... and needs nothing from the runtime beyond its public C API.
undefined="$(nm -D --undefined-only "$so" | awk '{print $2}' | sed 's/@.*//' |
  grep -Ev '^(TfLite|atanf$|__|_ITM|_Jv)' || true)"
[ -z "$undefined" ] || fail "libatan_op.so needs non-API symbols: $undefined"

"$writer" "$work/atan.tflite" || fail "writing the model"
"${run[@]}" "$work/build/atan_demo" "$work/atan.tflite" || fail "atan_demo"
echo "example_custom_op_atan: OK"
rm -rf "$work"
