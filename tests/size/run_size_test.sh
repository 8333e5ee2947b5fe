#!/usr/bin/env bash
# Size budget and selective-build tests (label "size"). Both configure extra
# builds of the library next to the main build directory
# (<build>-size-<name>: siblings have the same relative paths to the sources,
# so the compiler cache serves their objects from the main build's) and keep
# them, so a repeated run only relinks.
#
#   run_size_test.sh budget    SRC BUILD SHARED_DIR WITH_XNNPACK XNNPACK_ROOT STRIP BUILD_TYPE RUN_MODEL
#   run_size_test.sh selective SRC BUILD SHARED_DIR WITH_XNNPACK XNNPACK_ROOT STRIP BUILD_TYPE RUN_MODEL MODEL_INSPECTOR
#
# budget: prints the stripped sizes and fails over budget (MB/KB here are
#   MiB/KiB, as ls -lh prints them):
#     full library, XNNPACK on (the main build)         <= 3.2 MB
#     MobileNet-v2 int8 only, XNNPACK off, MinSizeRel    <= 400 KB
#     MobileNet-v2 int8 only, XNNPACK on, MinSizeRel     <= 2 MB
#   (the full library without XNNPACK is printed, with no budget). The small
#   libraries are MinSizeRel builds, which keep the quantized convolution
#   loops at -O3 (top-level CMakeLists.txt); each also runs MobileNet.
# selective: a library built for two shared models (MobileNet-v2 int8 and
#   BlazeFace short range) passes both models' goldens (golden_test of that
#   build), runs both through run_model, and refuses a third model
#   (java_float32: SPACE_TO_DEPTH) with the unresolved-operator message; the
#   op list it was built from equals "model_inspector --list_ops".
# Environment: CC, CXX; TFLITE_C_RUN and TFLITE_C_TOOLCHAIN_FILE in a cross
# build (cross_env.sh). Exit status 77 (skip) without the shared models.
set -euo pipefail
mode=$1 src=$2 build=$3 shared=$4 with_xnnpack=$5 xnnpack_root=$6 strip=$7 build_type=$8
run_model=$9
model_inspector=${10:-}
source "$src/tests/install/cross_env.sh"

models=$shared/models/files
mnv2=$models/tflm_mobilenet_v2_quantized_1x3x224x224.tflite
face=$models/mp_face_detection_short_range.tflite
third=$models/java_float32.tflite
for m in "$mnv2" "$face" "$third"; do
  [ -f "$m" ] || { echo "skip: $m not found (no shared models)"; exit 77; }
done
case "$with_xnnpack" in ON|on|1|TRUE|true|YES|yes) xnn=1 ;; *) xnn=0 ;; esac

fail() { echo "size: FAIL: $*" >&2; exit 1; }
mib=$((1024 * 1024))

# subbuild NAME TARGETS BUILD_TYPE CMAKE_ARGS...: configure and build.
subbuild() {
  local name=$1 targets=$2 type=$3
  shift 3
  local dir="${build}-size-${name}"
  local start=$SECONDS
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  mkdir -p "$dir"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$src" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE="$type" "${toolchain[@]}" \
      ${CC:+-DCMAKE_C_COMPILER="$CC"} ${CXX:+-DCMAKE_CXX_COMPILER="$CXX"} \
      -DTFLITE_C_BUILD_TOOLS=OFF -DTFLITE_C_BUILD_TESTS=OFF "$@" >"$dir/size_test.configure.log" 2>&1 ||
      { cat "$dir/size_test.configure.log"; fail "configuring $name"; }
  else
    cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >"$dir/size_test.configure.log" 2>&1 ||
      { cat "$dir/size_test.configure.log"; fail "configuring $name"; }
  fi
  # shellcheck disable=SC2086
  cmake --build "$dir" --target $targets >"$dir/size_test.build.log" 2>&1 ||
    { tail -n 40 "$dir/size_test.build.log"; fail "building $name"; }
  echo "size: built $name in $((SECONDS - start)) s ($dir)"
  subdir=$dir
}

# stripped_size LIB: bytes of LIB after strip.
stripped_size() {
  local tmp
  tmp=$(mktemp)
  "$strip" -o "$tmp" "$1"
  stat -c %s "$tmp"
  rm -f "$tmp"
}

human() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%.2f MB", b / 1048576; else printf "%.0f KB", b / 1024 }'; }

# run_with LIBDIR MODEL: run_model on MODEL with the library of LIBDIR
# (LD_LIBRARY_PATH wins over run_model's RUNPATH).
run_with() {
  LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$run_model" "$2" --runs 1
}

xnn_args=(-DTFLITE_C_WITH_XNNPACK=OFF)
[ "$xnn" = 1 ] && xnn_args=(-DTFLITE_C_WITH_XNNPACK=ON -DTFLITE_C_XNNPACK_ROOT="$xnnpack_root")

case "$mode" in
budget)
  over=0
  rows=()
  check() {  # check LABEL BYTES BUDGET_BYTES(0: none)
    local verdict="no budget"
    if [ "$3" -gt 0 ]; then
      verdict="budget $(human "$3"): ok"
      [ "$2" -le "$3" ] || { verdict="budget $(human "$3"): OVER"; over=1; }
    fi
    rows+=("$(printf '%-44s %10d bytes  %-9s %s' "$1" "$2" "$(human "$2")" "$verdict")")
  }
  full=$(ls "$build"/libtflite_c.so.*.* | head -n 1)
  # The budget is for Release; other build types are only printed.
  if [ "$xnn" = 1 ] && [ "$build_type" = Release ]; then
    check "full library, XNNPACK on" "$(stripped_size "$full")" $((325 * mib / 100))
  else
    check "full library, XNNPACK $([ "$xnn" = 1 ] && echo on || echo off), $build_type" "$(stripped_size "$full")" 0
  fi
  subbuild mnv2-noxnn tflite_c MinSizeRel -DTFLITE_C_SELECTED_MODELS="$mnv2" -DTFLITE_C_WITH_XNNPACK=OFF
  run_with "$subdir" "$mnv2" >"$subdir/size_test.run.log" 2>&1 ||
    { cat "$subdir/size_test.run.log"; fail "the MobileNet-only library (XNNPACK off) does not run MobileNet"; }
  check "MobileNet-v2 int8 only, XNNPACK off, -Os" "$(stripped_size "$(ls "$subdir"/libtflite_c.so.*.* | head -n 1)")" $((400 * 1024))
  if [ "$xnn" = 1 ]; then
    subbuild mnv2-xnn tflite_c MinSizeRel -DTFLITE_C_SELECTED_MODELS="$mnv2" "${xnn_args[@]}"
    run_with "$subdir" "$mnv2" >"$subdir/size_test.run.log" 2>&1 ||
      { cat "$subdir/size_test.run.log"; fail "the MobileNet-only library (XNNPACK on) does not run MobileNet"; }
    check "MobileNet-v2 int8 only, XNNPACK on, -Os" "$(stripped_size "$(ls "$subdir"/libtflite_c.so.*.* | head -n 1)")" $((2 * mib))
  else
    echo "size: XNNPACK is off in this build: the budgets with XNNPACK are not checked"
  fi
  echo "size: stripped libtflite_c.so:"
  printf '  %s\n' "${rows[@]}"
  [ "$over" = 0 ] || fail "over budget"
  echo "size: OK"
  ;;
selective)
  subbuild two-models "tflite_c golden_test" "$build_type" "-DTFLITE_C_SELECTED_MODELS=$mnv2;$face" \
    "${xnn_args[@]}" -DTFLITE_C_BUILD_TESTS=ON
  # The op list the library was built from is model_inspector's.
  if [ -n "$model_inspector" ]; then
    "${run[@]}" "$model_inspector" --list_ops "$mnv2" "$face" >"$subdir/size_test.list_ops.txt" ||
      fail "model_inspector --list_ops"
    diff -u "$subdir/size_test.list_ops.txt" "$subdir/generated/selected_model_ops.txt" ||
      fail "the selective build's op list differs from model_inspector --list_ops"
    echo "size: operators: $(tr '\n' ' ' <"$subdir/size_test.list_ops.txt")"
  fi
  # Both models' goldens, through the selective build's own golden_test.
  filter="Golden.$(basename "$mnv2" .tflite):Golden.$(basename "$face" .tflite)"
  "${run[@]}" "$subdir/tests/golden_test" --gtest_filter="$filter" >"$subdir/size_test.golden.log" 2>&1 ||
    { cat "$subdir/size_test.golden.log"; fail "golden_test of the selective build"; }
  grep -q '^\[  PASSED  \] 2 tests' "$subdir/size_test.golden.log" && ! grep -q 'SKIPPED' "$subdir/size_test.golden.log" ||
    { cat "$subdir/size_test.golden.log"; fail "expected both goldens to run and pass"; }
  echo "size: goldens pass: $filter"
  # The shared library itself: both models run, a third is refused at create.
  lib=$(ls "$subdir"/libtflite_c.so.*.* | head -n 1)
  for m in "$mnv2" "$face"; do
    run_with "$subdir" "$m" >"$subdir/size_test.run.log" 2>&1 ||
      { cat "$subdir/size_test.run.log"; fail "the selective library does not run $(basename "$m")"; }
  done
  set +e
  run_with "$subdir" "$third" >"$subdir/size_test.third.log" 2>&1
  rc=$?
  set -e
  [ "$rc" = 3 ] || { cat "$subdir/size_test.third.log"; fail "$(basename "$third"): run_model exit status $rc, expected 3 (missing operators)"; }
  grep -q "Didn't find op for builtin opcode 'SPACE_TO_DEPTH'" "$subdir/size_test.third.log" ||
    { cat "$subdir/size_test.third.log"; fail "no unresolved-operator message for SPACE_TO_DEPTH"; }
  echo "size: $(basename "$third") refused: $(grep -m1 "Didn't find op" "$subdir/size_test.third.log")"
  size=$(stripped_size "$lib")
  echo "size: selective library (2 models, XNNPACK $([ "$xnn" = 1 ] && echo on || echo off)): $size bytes stripped ($(human "$size"))"
  echo "size: OK"
  ;;
*) fail "unknown mode $mode" ;;
esac
