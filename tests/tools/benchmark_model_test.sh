#!/bin/sh
# Golden-format checks of tools/benchmark_model's output (the lines upstream's
# log parsers grep for).
#   benchmark_model_test.sh BENCHMARK_MODEL MODEL CASE
# CASE: run | unknown_flag | bad_value | no_graph | op_profiling | op_profiling_csv |
#       op_profiling_subgraphs | bad_profiling_mode
# Exit 77 (skip) when the model file is absent.
bin=$1 model=$2 case=$3
[ -f "$model" ] || { echo "skip: $model not found"; exit 77; }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
T=$(printf '\t')
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
  op_profiling)
    # The rows of the builtin kernels, not of the library's default XNNPACK.
    export TFLITE_C_DISABLE_XNNPACK=1
    "$bin" --graph="$model" --num_runs=4 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --enable_op_profiling=true >"$out" 2>"$err" || fail "exit status $?"
    f='[0-9]+\.[0-9]{3}'
    expect_out '^INFO: Enable op profiling: \[1\]$'
    expect_out '^INFO: Operator-wise Profiling Info for Regular Benchmark Runs:$'
    expect_out '^============================== Run Order ==============================$'
    expect_out '^============================== Top by Computation Time ==============================$'
    expect_out '^============================== Summary by node type ==============================$'
    hdr="^${T} +\\[node type\\]${T} +\\[first\\]${T} +\\[avg ms\\]${T} +\\[%\\]${T} +\\[cdf%\\]${T} +\\[mem KB\\]${T}\\[times called\\]${T}\\[Name\\]\$"
    [ "$(grep -Ec "$hdr" "$out")" -eq 2 ] || fail "expected the column header twice"
    # Every ADD node of the model is a row: type, first, avg, %, cdf%, mem, times called, name.
    # (Percentages are right-aligned in 7 columns: 100.000% fills them.)
    expect_out "^${T} +ADD${T} +$f${T} +$f${T} *$f%${T} *$f%${T} +0\.000${T} +1${T}\[[^]]*\]:[0-9]+$"
    expect_out '^Number of nodes executed: [0-9]+$'
    expect_out "^${T} +\\[Node type\\]${T} +\\[count\\]${T} +\\[avg ms\\]${T} +\\[avg %\\]${T} +\\[cdf %\\]${T} +\\[mem KB\\]${T}\\[times called\\]\$"
    expect_out "^Timings \(microseconds\): count=4 "
    expect_out '^Memory \(bytes\): count=0$'
    expect_out '^[0-9]+ nodes observed$'
    # The run order table ends at 100% cumulative time.
    awk '/Run Order/{on=1;next} on&&/^$/{exit} on' "$out" | tail -1 | grep -Eq "${T}100\\.000%${T}" ||
      fail "the last Run Order row is not at cdf 100%"
    [ ! -s "$err" ] || fail "unexpected stderr output"
    ;;
  op_profiling_csv)
    export TFLITE_C_DISABLE_XNNPACK=1
    csv=$(mktemp)
    trap 'rm -f "$out" "$err" "$csv"' EXIT
    "$bin" --graph="$model" --num_runs=2 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --enable_op_profiling=true --profiling_output_csv_file="$csv" >"$out" 2>"$err" ||
      fail "exit status $?"
    grep -q 'Operator-wise Profiling Info' "$out" && fail "profile printed although a file was given"
    grep -Eq '^Operator-wise Profiling Info for Regular Benchmark Runs:$' "$csv" || fail "csv lacks header"
    grep -Eq '^node type, first, avg_ms, %, cdf%, mem KB, times called, name$' "$csv" ||
      fail "csv lacks column names"
    grep -Eq '^ADD, [0-9.]+, [0-9.]+, [0-9.]+%, [0-9.]+%, 0\.000, 1, ' "$csv" || fail "csv lacks an ADD row"
    ;;
  op_profiling_subgraphs)
    # A WHILE model (next to MODEL): one block per subgraph, named as in the
    # model; the loop body's nodes run several times per Invoke.
    while_model=$(dirname "$model")/tflite_multi_subgraphs_while.tflite
    [ -f "$while_model" ] || { echo "skip: $while_model not found"; exit 77; }
    export TFLITE_C_DISABLE_XNNPACK=1
    "$bin" --graph="$while_model" --num_runs=3 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --enable_op_profiling=true >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^Primary graph \(name: [^)]*\) profile:$'
    expect_out '^Subgraph \(index: 1, name: [^)]*\) profile:$'
    expect_out '^Subgraph \(index: 2, name: [^)]*\) profile:$'
    expect_out "^${T} +WHILE${T}.*${T} +1${T}\\[[^]]*\\]:0\$"
    expect_out '^Subgraph \(index: 1, name: [^)]*\) Timings \(microseconds\): count=3'
    # The body runs more than once per Invoke: [times called] > 1.
    awk '/^Subgraph \(index: 2/{on=1} on' "$out" | grep -Eq "${T} +[2-9]${T}\\[" ||
      fail "the loop body's nodes are not called several times per run"
    ;;
  bad_profiling_mode)
    "$bin" --graph="$model" --enable_op_profiling=true --op_profiling_output_mode=xml \
      >"$out" 2>"$err" && fail "bad mode accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err "^ERROR: Output modexml is not supported. Supported values are: 'stdout', 'csv' and 'proto'\.$"
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
