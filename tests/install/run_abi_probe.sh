#!/usr/bin/env bash
# abi_probe_installed test: compile shared/conformance/abi/abi_probe.c as
# C99 against the INSTALLED headers and compare its output with upstream's.
# Exit 77 (skipped) when the shared folder is absent.
#
#   run_abi_probe.sh BUILD_DIR SHARED_DIR WORK_DIR
# Environment: CC (target C compiler); for a cross build TFLITE_C_RUN (the
# emulator command) and TFLITE_C_TARGET_ARCH (32-bit ARM targets compare with
# abi_expected_armhf.txt, upstream's ILP32 layout; 64-bit ones with the LP64
# abi_expected.txt).
set -euo pipefail
build=$1 shared=$2 work=$3
abi="$shared/conformance/abi"
source "$(dirname "${BASH_SOURCE[0]}")/cross_env.sh"
expected="$abi/abi_expected.txt"
case "${TFLITE_C_TARGET_ARCH:-}" in
  arm|armv*) expected="$abi/abi_expected_armhf.txt" ;;
esac
if [ ! -f "$abi/abi_probe.c" ] || [ ! -f "$expected" ]; then
  echo "abi_probe_installed: skipped: $abi not found"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
${CC:-cc} -std=c99 -I"$work/prefix/include" "$abi/abi_probe.c" -o "$work/abi_probe"
"${run[@]}" "$work/abi_probe" >"$work/abi_actual.txt"
if ! diff -u "$expected" "$work/abi_actual.txt"; then
  echo "abi_probe_installed: FAIL: layout differs from TensorFlow Lite 2.19 (diff above: - expected, + ours)"
  exit 1
fi
echo "abi_probe_installed: $(wc -l <"$expected") lines of $(basename "$expected") match"
rm -rf "$work"
