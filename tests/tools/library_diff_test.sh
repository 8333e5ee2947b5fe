#!/bin/sh
# tools/library_diff: one model through two TFLite C libraries.
#   library_diff_test.sh LIBRARY_DIFF OUR_LIBRARY MODELS_DIR CASE
# CASE: same | xnnpack_on_off | strict | bad_lib | bad_model | bad_flag
# Both sides are our own library here (upstream's is not part of the build).
# Exit 77 (skip) when the models are absent.
bin=$1 lib=$2 models=$3 case=$4
add=$models/java_add.tflite
hand=$models/mp_hand_landmark_lite.tflite
[ -f "$add" ] && [ -f "$hand" ] || { echo "skip: models not found in $models"; exit 77; }
. "$(dirname "$0")/test_lib.sh"

case $case in
  same)
    # The same library twice: every output identical, whatever the model.
    "$bin" --graph="$hand" --lib_a="$lib" --lib_b="$lib" --atol=0 --rtol=0 >"$out" 2>"$err" ||
      fail "exit status $?"
    expect_out "^A: $lib \(XNNPACK default\)$"
    expect_out '^output 0: FLOAT32 \[1,63\]: max abs diff 0, 0 of 63 elements differ, 0 beyond tolerance$'
    expect_out '^MATCH$'
    ;;
  xnnpack_on_off)
    # XNNPACK against the builtin kernels, within the default tolerance.
    "$bin" --graph="$hand" --lib_a="$lib" --lib_b="$lib" --xnnpack_a=on --xnnpack_b=off \
      >"$out" 2>"$err" || fail "exit status $?"
    expect_out "^B: $lib \(XNNPACK off\)$"
    expect_out '^output 3: FLOAT32 \[1,63\]: '
    expect_out '^MATCH$'
    ;;
  strict)
    # No tolerance: the two paths sum in different orders, so some floats differ.
    "$bin" --graph="$hand" --lib_a="$lib" --lib_b="$lib" --xnnpack_a=on --xnnpack_b=off \
      --atol=0 --rtol=0 >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
    expect_out '[1-9][0-9]* beyond tolerance \(first at [0-9]+: '
    expect_out '^DIFFER$'
    ;;
  bad_lib)
    "$bin" --graph="$add" --lib_a="$lib" --lib_b=/no/such/libtensorflowlite_c.so >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
    expect_out '^B failed: cannot load /no/such/libtensorflowlite_c\.so'
    ;;
  bad_model)
    bad=$(mktemp)
    printf 'not a flatbuffer at all' >"$bad"
    "$bin" --graph="$bad" --lib_a="$lib" --lib_b="$lib" >"$out" 2>"$err"
    rc=$?
    rm -f "$bad"
    [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
    expect_out '^A failed: cannot load the model'
    ;;
  bad_flag)
    "$bin" --graph="$add" --lib_a="$lib" --lib_b="$lib" --xnnpack_a=maybe >"$out" 2>"$err"
    [ $? -eq 2 ] || fail "bad value accepted"
    expect_err "bad value in '--xnnpack_a=maybe'"
    "$bin" --graph="$add" --lib_a="$lib" >"$out" 2>"$err"
    [ $? -eq 2 ] || fail "missing --lib_b accepted"
    expect_err 'are required'
    "$bin" --graph="$add" --lib_a="$lib" --lib_b="$lib" --frobnicate=1 >"$out" 2>"$err"
    [ $? -eq 2 ] || fail "unknown flag accepted"
    expect_err "unknown flag '--frobnicate=1'"
    ;;
  *)
    fail "unknown case $case"
    ;;
esac
exit 0
