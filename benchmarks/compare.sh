#!/usr/bin/env bash
# Runs each model through benchmark_model twice -- configuration A and B, which
# may be two builds of the tool (--bin_a/--bin_b), two flag sets
# (--flags_a/--flags_b), two environments (--env_a/--env_b) or any mix -- and
# prints a table of the "Inference (avg)" and "Init" times of both and their
# ratio B/A, preceded by the machine it ran on.
#
#   benchmarks/compare.sh --bin_a=build/tools/benchmark_model \
#       --env_a=TFLITE_C_DISABLE_XNNPACK=1 --label_a=builtin --label_b=xnnpack \
#       --flags="--num_threads=1 --num_runs=30" model1.tflite model2.tflite
#
# Options (all optional except at least one model):
#   --bin_a=PATH, --bin_b=PATH      benchmark_model binaries (B defaults to A;
#                                   A defaults to build/tools/benchmark_model)
#   --flags="..."                   flags given to both runs (besides --graph)
#   --flags_a="...", --flags_b="..." flags given to one run only
#   --env_a="K=V ...", --env_b=...  environment of one run only
#   --label_a=NAME, --label_b=NAME  column names (default A and B)
#   --repeat=N                      run each configuration N times, keep the
#                                   fastest average (default 1)
#   --markdown                      print a Markdown table
# Exit status: 0 when every run succeeded, 1 on bad arguments, 2 when a run
# failed or printed no timing line (its log is shown).
set -u -o pipefail

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

here="$(cd "$(dirname "$0")/.." && pwd)"
bin_a="${here}/build/tools/benchmark_model"
bin_b=""
flags="" flags_a="" flags_b="" env_a="" env_b=""
label_a="A" label_b="B" repeat=1 markdown=0
models=()
for arg in "$@"; do
  case "$arg" in
    --bin_a=*) bin_a="${arg#*=}" ;;
    --bin_b=*) bin_b="${arg#*=}" ;;
    --flags=*) flags="${arg#*=}" ;;
    --flags_a=*) flags_a="${arg#*=}" ;;
    --flags_b=*) flags_b="${arg#*=}" ;;
    --env_a=*) env_a="${arg#*=}" ;;
    --env_b=*) env_b="${arg#*=}" ;;
    --label_a=*) label_a="${arg#*=}" ;;
    --label_b=*) label_b="${arg#*=}" ;;
    --repeat=*) repeat="${arg#*=}" ;;
    --markdown) markdown=1 ;;
    -h|--help) usage; exit 0 ;;
    --*) echo "compare.sh: unknown option '$arg' (see --help)" >&2; exit 1 ;;
    *) models+=("$arg") ;;
  esac
done
[[ -n "$bin_b" ]] || bin_b="$bin_a"
if [[ ${#models[@]} -eq 0 ]]; then
  echo "compare.sh: no model given (see --help)" >&2; exit 1
fi
if ! [[ "$repeat" =~ ^[1-9][0-9]*$ ]]; then
  echo "compare.sh: --repeat needs a positive integer, got '$repeat'" >&2; exit 1
fi
for b in "$bin_a" "$bin_b"; do
  [[ -x "$b" ]] || { echo "compare.sh: '$b' is not an executable" >&2; exit 1; }
done
for m in "${models[@]}"; do
  [[ -r "$m" ]] || { echo "compare.sh: cannot read model '$m'" >&2; exit 1; }
done

# One benchmark_model run; prints "<init_us> <avg_us>" (fastest of $repeat).
# $1 binary, $2 extra flags, $3 environment, $4 model.
run_one() {
  local best_init="" best_avg="" i log line init avg
  for ((i = 0; i < repeat; ++i)); do
    # shellcheck disable=SC2086  # flags and env are word lists on purpose
    if ! log="$(env $3 "$1" --graph="$4" $flags $2 2>&1)"; then
      local why
      why="$(grep -m5 -i 'error' <<<"$log" || tail -n 5 <<<"$log")"
      printf 'compare.sh: %s failed on %s:\n%s\n' "$1" "$4" "$why" >&2
      return 2
    fi
    line="$(grep -m1 'Inference timings in us:' <<<"$log")"
    if [[ -z "$line" ]]; then
      printf 'compare.sh: no timing line from %s on %s:\n%s\n' "$1" "$4" "$log" >&2
      return 2
    fi
    init="$(sed -n 's/.*Init: \([0-9.]*\).*/\1/p' <<<"$line")"
    avg="$(sed -n 's/.*Inference (avg): \([0-9.e+]*\).*/\1/p' <<<"$line")"
    if [[ -z "$best_avg" ]] || awk -v a="$avg" -v b="$best_avg" 'BEGIN{exit !(a < b)}'; then
      best_avg="$avg"; best_init="$init"
    fi
  done
  echo "$best_init $best_avg"
}

cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "machine: ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores, $(uname -sm)"
echo "A (${label_a}): ${env_a:+$env_a }${bin_a} ${flags} ${flags_a}"
echo "B (${label_b}): ${env_b:+$env_b }${bin_b} ${flags} ${flags_b}"
if [[ $markdown -eq 1 ]]; then
  echo
  echo "| model | ${label_a} init (ms) | ${label_b} init (ms) | ${label_a} avg (ms) | ${label_b} avg (ms) | ${label_b}/${label_a} |"
  echo "|---|---|---|---|---|---|"
else
  printf '%-44s %10s %10s %10s %10s %8s\n' model "A init ms" "B init ms" "A avg ms" "B avg ms" "B/A"
fi

status=0
for m in "${models[@]}"; do
  name="$(basename "$m" .tflite)"
  if ! a="$(run_one "$bin_a" "$flags_a" "$env_a" "$m")" ||
     ! b="$(run_one "$bin_b" "$flags_b" "$env_b" "$m")"; then
    status=2
    continue
  fi
  read -r ai aa <<<"$a"
  read -r bi ba <<<"$b"
  awk -v n="$name" -v ai="$ai" -v aa="$aa" -v bi="$bi" -v ba="$ba" -v md="$markdown" 'BEGIN {
    r = (aa > 0) ? sprintf("%.2f", ba / aa) : "n/a"
    if (md) printf "| %s | %.2f | %.2f | %.3f | %.3f | %s |\n", n, ai/1000, bi/1000, aa/1000, ba/1000, r
    else printf "%-44s %10.2f %10.2f %10.3f %10.3f %8s\n", n, ai/1000, bi/1000, aa/1000, ba/1000, r
  }'
done
exit $status
