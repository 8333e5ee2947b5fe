#!/bin/sh
# tools/model_inspector on shared models: text, JSON, partition preview,
# malformed input.
#   model_inspector_test.sh MODEL_INSPECTOR MODELS_DIR DUMMY_PLUGIN CASE
# CASE: text | json | multi_signature | quantized | unsupported | preview | malformed
# Exit 77 (skip) when the shared models are absent.
bin=$1 dir=$2 dummy=$3 case=$4
[ -f "$dir/java_add.tflite" ] || { echo "skip: $dir not found"; exit 77; }
. "$(dirname "$0")/test_lib.sh"
# Checks the JSON report's shape with python3 (skipped when absent).
check_json() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 - "$out" "$@" <<'PY' || fail "JSON check failed"
import json, sys
r = json.load(open(sys.argv[1]))
assert set(r) == {"model", "subgraphs", "signatures", "operators", "delegate_preview"}, r.keys()
for sg in r["subgraphs"]:
    for t in sg["inputs"] + sg["outputs"]:
        assert set(t) == {"index", "name", "type", "shape", "shape_signature", "is_variable",
                          "quantization"}, t
        assert isinstance(t["shape"], list)
for op in r["operators"]:
    assert {"op", "custom", "version", "count", "supported"} <= set(op), op
for check in sys.argv[2:]:
    assert eval(check, {"r": r}), check
PY
}

case $case in
  text)
    "$bin" "$dir/java_add.tflite" >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^Model: .*java_add\.tflite \([0-9]+ bytes, schema version 3\)$'
    expect_out '^Subgraphs: 1$'
    expect_out '^    Inputs \(1\):$'
    expect_out '^      \[[0-9]+\] input  FLOAT32 \[1,8,8,3\]$'
    expect_out '^      \[[0-9]+\] output  FLOAT32 \[1,8,8,3\]$'
    expect_out '^Operators: 2 in 1 kinds$'
    expect_out '^      2  ADD \(v1\)$'
    expect_out '^Not runnable by this build: none$'
    ;;
  json)
    "$bin" --json "$dir/java_add.tflite" >"$out" 2>"$err" || fail "exit status $?"
    check_json 'r["operators"] == [{"op": "ADD", "custom": False, "version": 1, "count": 2, "supported": True}]' \
               'r["subgraphs"][0]["inputs"][0]["shape"] == [1, 8, 8, 3]' \
               'r["delegate_preview"] is None'
    ;;
  multi_signature)
    "$bin" --json "$dir/java_multi_signature_def.tflite" >"$out" 2>"$err" || fail "exit status $?"
    check_json 'len(r["signatures"]) == 2' \
               'all(s["inputs"] and s["outputs"] for s in r["signatures"])' \
               'len(r["subgraphs"]) >= 2'
    "$bin" "$dir/java_multi_signature_def.tflite" >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^Signatures: 2$'
    expect_out '^  "[^"]+" \(subgraph [0-9]+\)$'
    ;;
  quantized)
    "$bin" "$dir/java_quantized.tflite" >"$out" 2>"$err" || fail "exit status $?"
    expect_out 'UINT8 \[.*\]  quantization: scale=[0-9.e-]+ zero_point=-?[0-9]+'
    "$bin" --json "$dir/java_quantized.tflite" >"$out" 2>"$err" || fail "exit status $?"
    check_json 'any(t["quantization"] for sg in r["subgraphs"] for t in sg["inputs"] + sg["outputs"])'
    ;;
  unsupported)
    # A custom op no kernel of this build implements: listed, not an error.
    "$bin" "$dir/tflite_custom_sinh.tflite" >"$out" 2>"$err" || fail "exit status $?"
    expect_out '^  CUSTOM Sinh \(v1\), 1 node\(s\): no kernel for this custom op'
    "$bin" --json "$dir/tflite_custom_sinh.tflite" >"$out" 2>"$err" || fail "exit status $?"
    check_json '[o for o in r["operators"] if not o["supported"]] == [{"op": "Sinh", "custom": True, "version": 1, "count": 1, "supported": False, "reason": "no kernel for this custom op (a delegate or the application must provide it)"}]'
    ;;
  preview)
    # The dummy delegate takes both ADD nodes into one kernel.
    "$bin" --external_delegate_path="$dummy" "$dir/java_add.tflite" >"$out" 2>"$err" ||
      fail "exit status $?"
    expect_out "^Delegate partition preview \($dummy\):$"
    expect_out '^  Subgraph 0: 1 delegate kernel\(s\) take 2 node\(s\); 0 node\(s\) stay on the CPU$'
    expect_out '^    node 2 DummyDelegate <- nodes \[0-1\]$'
    # Only SUB allowed: nothing taken, both ADDs stay on the CPU.
    "$bin" --json --external_delegate_path="$dummy" \
      --external_delegate_options='allowed_builtin_code:41' "$dir/java_add.tflite" >"$out" 2>"$err" ||
      fail "exit status $?"
    check_json 'r["delegate_preview"]["applied"]' \
               'r["delegate_preview"]["subgraphs"][0]["delegate_kernels"] == []' \
               '[n["op"] for n in r["delegate_preview"]["subgraphs"][0]["cpu_nodes"]] == ["ADD", "ADD"]'
    ;;
  malformed)
    "$bin" "$dir/java_invalid_model.tflite" >"$out" 2>"$err" && fail "invalid model accepted"
    [ $? -eq 1 ] || fail "exit status is not 1"
    expect_err '^ERROR: .*java_invalid_model\.tflite is not a loadable TFLite model'
    bad=$(mktemp)
    head -c 100 "$dir/java_add.tflite" >"$bad"
    "$bin" --json "$bad" >"$out" 2>"$err"
    rc=$?
    rm -f "$bad"
    [ $rc -eq 1 ] || fail "truncated model: exit status $rc, expected 1"
    expect_err 'is not a loadable TFLite model'
    [ ! -s "$out" ] || fail "output printed for a malformed model"
    "$bin" "$dir/does_not_exist.tflite" >"$out" 2>"$err" && fail "missing file accepted"
    "$bin" --bogus "$dir/java_add.tflite" >"$out" 2>"$err" && fail "unknown flag accepted"
    [ $? -eq 1 ] || fail "unknown flag: exit status is not 1"
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
