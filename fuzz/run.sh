#!/usr/bin/env bash
# Runs one fuzz target of fuzz/ for a while (see fuzz/README.md).
#
#   fuzz/run.sh <target> [seconds] [-- libFuzzer flags...]
#   fuzz/run.sh all [seconds-per-target]
#
# <target>: model_fuzzer structured_fuzzer signature_fuzzer resize_fuzzer
# custom_options_fuzzer (built by `cmake --preset asan && cmake --build
# build-asan --target fuzzers`). Default 60 s.
#
# Environment:
#   TFLITE_C_FUZZ_BUILD  build dir holding the fuzzers (default build-asan)
#   TFLITE_C_FUZZ_WORK   where corpora and crash artifacts go (default
#                        <build>/fuzz-work/<target>/{corpus,artifacts});
#                        a corpus is kept and grows across runs
#   TFLITE_C_FUZZ_MODELS folder of seed .tflite models (default
#                        ../shared/models/files)
#   TFLITE_C_FUZZ_JOBS   libFuzzer -fork=N workers (default 1: in-process)
#   TFLITE_C_FUZZ_TIMEOUT seconds one input may run before libFuzzer reports
#                        a timeout (default 60: a legitimate 16x8 CONV_2D over
#                        a [1,8,100000,2] input takes 0.8 s in Release and
#                        over 25 s under ASan+UBSan on a busy 2-core machine)
#
# Exit status: 0 when the run found nothing; otherwise libFuzzer's (the
# reproducer is in the artifacts folder, its path printed at the end).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TFLITE_C_FUZZ_BUILD:-$root/build-asan}"
models="${TFLITE_C_FUZZ_MODELS:-$root/../shared/models/files}"
targets=(model_fuzzer structured_fuzzer signature_fuzzer resize_fuzzer custom_options_fuzzer)

target="${1:?usage: fuzz/run.sh <target>|all [seconds] [-- libFuzzer flags]}"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
extra=("$@")

if [ "$target" = all ]; then
  rc=0
  for t in "${targets[@]}"; do
    "$0" "$t" "$seconds" -- "${extra[@]}" || rc=$?
  done
  exit "$rc"
fi

bin="$build/fuzz/$target"
[ -x "$bin" ] || { echo "run.sh: no $bin (cmake --preset asan && cmake --build build-asan --target $target)" >&2; exit 2; }
work="${TFLITE_C_FUZZ_WORK:-$build/fuzz-work}/$target"
corpus="$work/corpus"
artifacts="$work/artifacts"
mkdir -p "$corpus" "$artifacts"
export TFLITE_C_FUZZ_MODELS="$models"

# ---- seeds (only into an empty corpus) ---------------------------------------
if [ -z "$(ls -A "$corpus")" ]; then
  small_models() { find "$models" -maxdepth 1 -name '*.tflite' -size -257k | sort; }
  case "$target" in
    model_fuzzer)  # one byte (bit 0: XNNPACK) + the model
      while read -r f; do
        n=$(basename "$f" .tflite)
        { printf '\x00'; cat "$f"; } >"$corpus/$n.builtin"
        { printf '\x01'; cat "$f"; } >"$corpus/$n.xnnpack"
      done < <(small_models) ;;
    structured_fuzzer)
      while read -r f; do cp "$f" "$corpus/"; done < <(small_models) ;;
    signature_fuzzer|resize_fuzzer)  # model index, flags, then choices
      for i in $(seq 0 159); do
        { printf "\\x$(printf %02x "$i")\\x$(printf %02x $(( i & 1 )))";
          printf '%s' "$i" | sha256sum | cut -c1-32; } >"$corpus/seed$i"
      done ;;
    custom_options_fuzzer)
      TFLITE_C_FUZZ_WRITE_SEEDS="$corpus" "$bin" >/dev/null 2>&1 || true ;;
    *) echo "run.sh: unknown target $target" >&2; exit 2 ;;
  esac
fi

echo "== $target: ${seconds}s, corpus $corpus ($(ls "$corpus" | wc -l) files)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Leaks inside XNNPACK's own error paths (see tests/lsan.supp).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/lsan.supp}"
jobs="${TFLITE_C_FUZZ_JOBS:-1}"
fork=()
[ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0)
set +e
"$bin" -max_total_time="$seconds" -timeout="${TFLITE_C_FUZZ_TIMEOUT:-60}" -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "${fork[@]}" "${extra[@]}" "$corpus" 2>&1 |
  tee "$work/last.log" | grep -E '^(#[0-9]+ *(DONE|INITED)|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*runtime error)' 
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  echo "== $target: FAILED (exit $rc); log $work/last.log, reproducer in $artifacts/" >&2
fi
exit "$rc"
