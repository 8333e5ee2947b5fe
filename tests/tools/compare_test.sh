#!/bin/sh
# benchmarks/compare.sh: two configurations of benchmark_model, one table.
#   compare_test.sh COMPARE_SH BENCHMARK_MODEL MODEL CASE
# CASE: table | markdown | bad_args | failing_run
# Exit 77 (skip) when the model file is absent.
script=$1 bin=$2 model=$3 case=$4
[ -f "$model" ] || { echo "skip: $model not found"; exit 77; }
. "$(dirname "$0")/test_lib.sh"
num='[0-9]+\.[0-9]+'
name=$(basename "$model" .tflite)

case $case in
  table)
    bash "$script" --bin_a="$bin" --env_a=TFLITE_C_DISABLE_XNNPACK=1 --flags_b=--use_xnnpack=false \
      --flags="--num_runs=2 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0" --repeat=2 \
      "$model" "$model" >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^machine: .*, [0-9]+ cores, '
    expect_out "^A \(A\): TFLITE_C_DISABLE_XNNPACK=1 $bin "
    expect_out "^B \(B\): $bin .*--use_xnnpack=false"
    expect_out '^medians of 2 interleaved runs each'
    r="($num|n/a)"
    [ "$(grep -Ec "^$name +$num +$num +$r +$num +$num +$r +$num +$num +$r\$" "$out")" -eq 2 ] ||
      fail "expected two table rows for $name"
    ;;
  markdown)
    bash "$script" --bin_a="$bin" --bin_b="$bin" --label_a=one --label_b=two --markdown \
      --flags="--num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0" \
      "$model" >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^\| model \| one init \(ms\) \| two init \(ms\) \| init two/one \| one avg \(ms\) \| two avg \(ms\) \| avg two/one \| one peak RSS \(MB\) \| two peak RSS \(MB\) \| RSS two/one \|$'
    r="($num|n/a)"
    expect_out "^\| $name \| $num \| $num \| $r \| $num \| $num \| $r \| $num \| $num \| $r \|$"
    ;;
  bad_args)
    bash "$script" --bin_a="$bin" >"$out" 2>"$err"
    [ $? -eq 1 ] || fail "no model: exit status not 1"
    expect_err 'no model given'
    bash "$script" --bin_a="$bin" --repeat=0 "$model" >"$out" 2>"$err"
    [ $? -eq 1 ] || fail "--repeat=0: exit status not 1"
    expect_err 'positive integer'
    bash "$script" --bin_a=/nonexistent/benchmark_model "$model" >"$out" 2>"$err"
    [ $? -eq 1 ] || fail "missing binary: exit status not 1"
    expect_err 'is not an executable'
    bash "$script" --bin_a="$bin" --what "$model" >"$out" 2>"$err"
    [ $? -eq 1 ] || fail "unknown option: exit status not 1"
    expect_err "unknown option '--what'"
    ;;
  failing_run)
    # B's flags are refused by benchmark_model: exit 2 with its message.
    bash "$script" --bin_a="$bin" --flags="--num_runs=1 --min_secs=0" --flags_b=--no_such_flag=1 \
      "$model" >"$out" 2>"$err"
    [ $? -eq 2 ] || fail "exit status not 2"
    expect_err "failed on $model"
    expect_err 'Unknown cmdline flags: --no_such_flag=1'
    ;;
  *) echo "unknown case $case"; exit 1 ;;
esac
echo PASS
