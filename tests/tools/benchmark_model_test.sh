#!/bin/sh
# Golden-format checks of tools/benchmark_model's output (the lines upstream's
# log parsers grep for).
#   benchmark_model_test.sh BENCHMARK_MODEL MODEL CASE
# CASE: run | unknown_flag | bad_value | no_graph
# Exit 77 (skip) when the model file is absent.
bin=$1 model=$2 case=$3
[ -f "$model" ] || { echo "skip: $model not found"; exit 77; }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
expect_out() { grep -Eq -- "$1" "$out" || fail "stdout lacks /$1/"; }
expect_err() { grep -Eq -- "$1" "$err" || fail "stderr lacks /$1/"; }

case $case in
  run)
    "$bin" --graph="$model" --num_runs=3 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      >"$out" 2>"$err" || fail "exit status $?"
    num='[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?'
    expect_out '^INFO: STARTING!$'
    expect_out '^INFO: Log parameter values verbosely: \[0\]$'
    expect_out '^INFO: Min num runs: \[3\]$'
    expect_out "^INFO: Graph: \[$model\]$"
    expect_out "^INFO: Loaded model $model$"
    expect_out "^INFO: The input model file size \(MB\): $num$"
    expect_out "^INFO: Initialized session in ${num}ms\.$"
    expect_out '^INFO: Running benchmark for at least 1 iterations and at least 0 seconds but terminate if exceeding 150 seconds\.$'
    expect_out '^INFO: Running benchmark for at least 3 iterations and at least 0 seconds but terminate if exceeding 150 seconds\.$'
    expect_out "^INFO: count=3 (first=[0-9]+ curr=[0-9]+ min=[0-9]+ max=[0-9]+ avg=$num std=[0-9]+|curr=[0-9]+\(all same\)) p5=[0-9]+ median=[0-9]+ p95=[0-9]+$"
    expect_out "^INFO: Inference timings in us: Init: [0-9]+, First inference: [0-9]+, Warmup \(avg\): $num, Inference \(avg\): $num$"
    expect_out "^INFO: Memory footprint delta from the start of the tool \(MB\): init=-?$num overall=-?$num$"
    [ ! -s "$err" ] || fail "unexpected stderr output"
    ;;
  unknown_flag)
    "$bin" --graph="$model" --no_such_flag=1 >"$out" 2>"$err" && fail "unknown flag accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err '^ERROR: Unknown cmdline flags: --no_such_flag=1$'
    expect_err 'usage: .*benchmark_model <flags>'
    expect_err '--num_runs=50'
    expect_err '^ERROR: Benchmarking failed\.$'
    ;;
  bad_value)
    "$bin" --graph="$model" --num_runs=many >"$out" 2>"$err" && fail "bad value accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err "^ERROR: Failed to parse flag 'num_runs' against argv '--num_runs=many'$"
    ;;
  no_graph)
    "$bin" --num_runs=1 >"$out" 2>"$err" && fail "missing --graph accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err '^ERROR: Please specify the name of your TF Lite input file with --graph$'
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
