#!/bin/sh
# Golden-format checks of tools/benchmark_model's output (the lines upstream's
# log parsers grep for).
#   benchmark_model_test.sh BENCHMARK_MODEL MODEL CASE [DUMMY_EXTERNAL_DELEGATE_SO]
# CASE: run | unknown_flag | bad_value | no_graph | op_profiling | op_profiling_csv |
#       op_profiling_subgraphs | bad_profiling_mode | op_profiling_delegate_internal |
#       op_profiling_xnnpack | dummy_provider | xnnpack_weight_cache |
#       external_then_xnnpack
# Exit 77 (skip) when the model file is absent.
bin=$1 model=$2 case=$3 dummy=$4
[ -f "$model" ] || { echo "skip: $model not found"; exit 77; }
. "$(dirname "$0")/test_lib.sh"
T=$(printf '\t')

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
    expect_out '^INFO: Profiling Info for Benchmark Initialization:$'
    expect_out '^INFO: Operator-wise Profiling Info for Regular Benchmark Runs:$'
    # Initialization: the AllocateTensors event of the primary subgraph, with
    # the growth of the RSS high-water mark in [mem KB].
    expect_out "^${T} +AllocateTensors${T} +$f${T} +$f${T} *$f%${T} *$f%${T} +$f${T} +1${T}AllocateTensors/0$"
    expect_out '^============================== Run Order ==============================$'
    expect_out '^============================== Top by Computation Time ==============================$'
    expect_out '^============================== Summary by node type ==============================$'
    hdr="^${T} +\\[node type\\]${T} +\\[first\\]${T} +\\[avg ms\\]${T} +\\[%\\]${T} +\\[cdf%\\]${T} +\\[mem KB\\]${T}\\[times called\\]${T}\\[Name\\]\$"
    # Run Order and Top by Computation Time, for initialization and for the runs.
    [ "$(grep -Ec "$hdr" "$out")" -eq 4 ] || fail "expected the column header four times"
    # Every ADD node of the model is a row: type, first, avg, %, cdf%, mem, times called, name.
    # (Percentages are right-aligned in 7 columns: 100.000% fills them.)
    expect_out "^${T} +ADD${T} +$f${T} +$f${T} *$f%${T} *$f%${T} +0\.000${T} +1${T}\[[^]]*\]:[0-9]+$"
    expect_out '^Number of nodes executed: [0-9]+$'
    expect_out "^${T} +\\[Node type\\]${T} +\\[count\\]${T} +\\[avg ms\\]${T} +\\[avg %\\]${T} +\\[cdf %\\]${T} +\\[mem KB\\]${T}\\[times called\\]\$"
    expect_out "^Timings \(microseconds\): count=4 "
    expect_out '^Memory \(bytes\): count=0$'
    expect_out '^[0-9]+ nodes observed$'
    # The run order table ends at 100% cumulative time (unless every node
    # took less than the timer's microsecond: then the total is 0 and all
    # rows are at 0%, as upstream prints them).
    table=$(awk '/Regular Benchmark Runs/{run=1} run&&/Run Order/{on=1;next} on&&/^$/{exit} on' "$out")
    echo "$table" | tail -1 | grep -Eq "${T}100\\.000%${T}" ||
      ! echo "$table" | tail -n +2 | grep -Evq "${T} *0\\.000%${T} *0\\.000%${T}" ||
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
  op_profiling_delegate_internal)
    # The dummy delegate (examples/dummy_delegate, loaded as an external
    # delegate) reports each ADD/SUB it runs as a delegate-internal event:
    # upstream's "Delegate internal" section; its node is timed as a whole.
    [ -f "$dummy" ] || { echo "skip: no dummy delegate"; exit 77; }
    "$bin" --graph="$model" --num_runs=3 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --use_xnnpack=false --external_delegate_path="$dummy" --enable_op_profiling=true \
      >"$out" 2>"$err" || fail "exit status $?"
    f='[0-9]+\.[0-9]{3}'
    expect_out '^Delegate internal: $'
    awk '/Regular Benchmark Runs/{run=1} run&&/^Delegate internal: $/{on=1} on' "$out" |
      grep -Eq "^${T} +DelegateOpInvoke${T} +$f${T} +$f${T} *$f%${T} *$f%${T} +0\.000${T} +1${T}Delegate/DummyAdd:0$" ||
      fail "no DelegateOpInvoke row for the dummy delegate's ADD"
    # The delegate kernel itself is an operator row of the primary graph.
    expect_out "^${T} +DummyDelegate${T}"
    # Initialization: ModifyGraphWithDelegate of the external delegate.
    expect_out "^${T} +ModifyGraphWithDelegate${T}.*${T}ModifyGraphWithDelegate/0$"
    ;;
  dummy_provider)
    # benchmark_model_plus_dummy_delegate: the dummy delegate's provider is
    # registered, so --use_dummy_delegate exists and applies it.
    "$bin" --graph="$model" --num_runs=2 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --use_xnnpack=false --use_dummy_delegate=true >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^INFO: Explicitly applied DummyDelegate delegate, and the model graph will be (completely|partially) executed by the delegate'
    "$bin" --help >"$out" 2>"$err"
    expect_err '--use_dummy_delegate=false'
    ;;
  xnnpack_weight_cache)
    # --xnnpack_weight_cache_file_path reaches the XNNPACK delegate: the first
    # run writes the packed weights there, the second loads them; the outputs
    # (same zero input) are byte-identical to a run without the cache.
    face=$(dirname "$model")/mp_face_detection_short_range.tflite
    [ -f "$face" ] || { echo "skip: $face not found"; exit 77; }
    dir=$(mktemp -d)
    head -c $((128 * 128 * 3 * 4)) /dev/zero >"$dir/input.bin"
    common="--graph=$face --num_runs=1 --min_secs=0 --warmup_runs=0 --warmup_min_secs=0 \
      --use_xnnpack=true --input_layer=input --input_layer_shape=1,128,128,3 \
      --input_layer_value_files=input:$dir/input.bin"
    # shellcheck disable=SC2086
    "$bin" $common --output_filepath="$dir/plain.out" >"$out" 2>"$err" || fail "plain run: $?"
    # shellcheck disable=SC2086
    "$bin" $common --xnnpack_weight_cache_file_path="$dir/cache" --output_filepath="$dir/first.out" \
      >"$out" 2>"$err" || fail "first cached run: $?"
    expect_out "^INFO: xnnpack_weight_cache_file_path: \[$dir/cache\]$"
    [ -s "$dir/cache" ] || fail "no weight cache file written"
    size=$(wc -c <"$dir/cache")
    # shellcheck disable=SC2086
    "$bin" $common --xnnpack_weight_cache_file_path="$dir/cache" --output_filepath="$dir/second.out" \
      >"$out" 2>"$err" || fail "second cached run: $?"
    [ "$(wc -c <"$dir/cache")" -eq "$size" ] || fail "the cache file changed size on reuse"
    cmp -s "$dir/plain.out" "$dir/first.out" || fail "outputs differ with a fresh cache"
    cmp -s "$dir/plain.out" "$dir/second.out" || fail "outputs differ with a loaded cache"
    rm -rf "$dir"
    ;;
  external_then_xnnpack)
    # As upstream's lazy default delegate: the external delegate (the dummy,
    # ADD/SUB only) is applied first and the default XNNPACK delegate takes
    # what it left; both show up in the op profile.
    face=$(dirname "$model")/mp_face_detection_short_range.tflite
    [ -f "$face" ] || { echo "skip: $face not found"; exit 77; }
    "$bin" --graph="$face" --num_runs=2 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --external_delegate_path="$dummy" --enable_op_profiling=true >"$out" 2>"$err" ||
      fail "exit status $?"
    expect_out '^INFO: Explicitly applied EXTERNAL delegate, and the model graph will be partially executed by the delegate w/ [0-9]+ delegate kernels\.$'
    expect_out "^${T} *DummyDelegate${T}"
    expect_out "${T}Delegate/Convolution \(NHWC, F32\)[^${T}]*:[0-9]+$"
    ;;
  op_profiling_xnnpack)
    # BlazeFace on the default XNNPACK delegate: XNNPACK's own operators
    # replace the delegate node in the tables (upstream's
    # DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT rows "Delegate/<op>:<index>").
    face=$(dirname "$model")/mp_face_detection_short_range.tflite
    [ -f "$face" ] || { echo "skip: $face not found"; exit 77; }
    "$bin" --graph="$face" --num_runs=3 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0 \
      --enable_op_profiling=true >"$out" 2>"$err" || fail "exit status $?"
    awk '/Regular Benchmark Runs/{run=1} run' "$out" >"$out.run"
    rows=$(grep -Ec "${T}Delegate/[^${T}]+:[0-9]+$" "$out.run")
    rm -f "$out.run"
    [ "$rows" -ge 20 ] || fail "expected XNNPACK operators as rows, found $rows"
    expect_out "^${T} *Convolution \(NHWC, F32\)[^${T}]*${T}.*${T}Delegate/Convolution \(NHWC, F32\)[^${T}]*:[0-9]+$"
    grep -Eq "${T} +TfLiteXNNPackDelegate${T}" "$out" && fail "the delegate node is profiled as a whole"
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
