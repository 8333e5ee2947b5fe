#!/bin/sh
# tools/inference_diff: builtin kernels vs a delegate.
#   inference_diff_test.sh INFERENCE_DIFF MODEL DUMMY_PLUGIN WRONG_PLUGIN CASE
# CASE: exact | wrong | bad_flag | no_delegate | bad_model
# Exit 77 (skip) when the model file is absent.
bin=$1 model=$2 dummy=$3 wrong=$4 case=$5
[ -f "$model" ] || { echo "skip: $model not found"; exit 77; }
. "$(dirname "$0")/test_lib.sh"
num='[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?'

case $case in
  exact)
    # The dummy delegate computes ADD exactly like the builtin kernel.
    "$bin" --graph="$model" --external_delegate_path="$dummy" --num_runs=5 --max_abs_error=0 \
      >"$out" 2>"$err" || fail "exit status $?"
    expect_out "^Delegate under test: external delegate $dummy$"
    expect_out '^Num evaluation runs: 5$'
    expect_out "^Reference run latency: avg=$num\(us\), std_dev=$num\(us\)$"
    expect_out "^Test run latency: avg=$num\(us\), std_dev=$num\(us\)$"
    expect_out '^OutputDiff\[0\] \([^)]*\): avg_error=0, std_dev=0, max_abs_error=0$'
    ;;
  wrong)
    # A delegate that adds 1 to every ADD result: error 1 exactly.
    "$bin" --graph="$model" --external_delegate_path="$wrong" --num_runs=3 --max_abs_error=0.5 \
      >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
    # avg_error 1 and max_abs_error 1, up to float rounding of a + b + 1.
    line=$(grep -E '^OutputDiff\[0\] ' "$out") || fail "no OutputDiff[0] line"
    echo "$line" | awk -F'[=,]' '{ a = $2 + 0; s = $4 + 0; m = $6 + 0;
      exit !(a > 0.9999 && a < 1.0001 && s < 1e-4 && m > 0.9999 && m < 1.0001) }' ||
      fail "unexpected error figures: $line"
    expect_err 'max absolute error 1(\.0+[0-9]*)? exceeds --max_abs_error=0\.5'
    # Without a tolerance the same difference is only reported.
    "$bin" --graph="$model" --external_delegate_path="$wrong" --num_runs=2 >"$out" 2>"$err" ||
      fail "exit status $? without --max_abs_error"
    ;;
  bad_flag)
    "$bin" --graph="$model" --no_such_flag=1 >"$out" 2>"$err" && fail "unknown flag accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err '^ERROR: Unknown flag: --no_such_flag=1$'
    "$bin" --graph="$model" --use_xnnpack=true --num_runs=zero >"$out" 2>"$err" &&
      fail "bad value accepted"
    [ $? -eq 1 ] || fail "exit status is not 1 for a bad value"
    expect_err '^ERROR: bad flag value'
    ;;
  no_delegate)
    "$bin" --graph="$model" >"$out" 2>"$err" && fail "missing delegate accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err 'exactly one of --use_xnnpack=true and --external_delegate_path'
    ;;
  bad_model)
    bad=$(mktemp)
    printf 'not a flatbuffer at all' >"$bad"
    "$bin" --graph="$bad" --external_delegate_path="$dummy" >"$out" 2>"$err"
    rc=$?
    rm -f "$bad"
    [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
    expect_err 'could not load the model'
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
