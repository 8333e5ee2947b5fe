#!/usr/bin/env bash
# Runs each model through benchmark_model twice -- configuration A and B, which
# may be two builds of the tool (--bin_a/--bin_b), two flag sets
# (--flags_a/--flags_b), two environments (--env_a/--env_b) or any mix -- and
# prints a table of the "Inference (avg)" and "Init" times and the peak RSS of
# both and their ratios B/A, preceded by the machine it ran on. With
# --repeat=N the two configurations run interleaved (A B B A A B ...), N times
# each, and the table shows medians.
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
#   --repeat=N                      run each configuration N times, interleaved
#                                   with the other; medians (default 1)
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

# One benchmark_model run; prints "<init_us> <avg_us> <peak_rss_kb>".
# $1 binary, $2 extra flags, $3 environment, $4 model.
run_one() {
  local log line init avg rss out
  out="$(mktemp)"
  # shellcheck disable=SC2086  # flags and env are word lists on purpose
  local timer=()
  # GNU time gives the peak RSS (package "time"); without it the column is 0.
  [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -f 'peak_rss_kb %M' -o "$out")
  if ! log="$(env $3 "${timer[@]}" "$1" --graph="$4" $flags $2 2>&1)"; then
    local why
    why="$(grep -m5 -i 'error' <<<"$log" || tail -n 5 <<<"$log")"
    printf 'compare.sh: %s failed on %s:\n%s\n' "$1" "$4" "$why" >&2
    rm -f "$out"
    return 2
  fi
  rss="$(awk '/peak_rss_kb/ {print $2}' "$out")"
  rm -f "$out"
  line="$(grep -m1 'Inference timings in us:' <<<"$log")"
  if [[ -z "$line" ]]; then
    printf 'compare.sh: no timing line from %s on %s:\n%s\n' "$1" "$4" "$log" >&2
    return 2
  fi
  init="$(sed -n 's/.*Init: \([0-9.]*\).*/\1/p' <<<"$line")"
  avg="$(sed -n 's/.*Inference (avg): \([0-9.e+]*\).*/\1/p' <<<"$line")"
  echo "$init $avg ${rss:-0}"
}

# Median of the numbers on stdin.
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "machine: ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores, $(uname -sm)"
echo "A (${label_a}): ${env_a:+$env_a }${bin_a} ${flags} ${flags_a}"
echo "B (${label_b}): ${env_b:+$env_b }${bin_b} ${flags} ${flags_b}"
[[ $repeat -gt 1 ]] && echo "medians of $repeat interleaved runs each (A B B A ...)"
if [[ $markdown -eq 1 ]]; then
  echo
  echo "| model | ${label_a} init (ms) | ${label_b} init (ms) | init ${label_b}/${label_a} | ${label_a} avg (ms) | ${label_b} avg (ms) | avg ${label_b}/${label_a} | ${label_a} peak RSS (MB) | ${label_b} peak RSS (MB) | RSS ${label_b}/${label_a} |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
else
  printf '%-40s %9s %9s %6s %9s %9s %6s %8s %8s %6s\n' model "A init" "B init" "B/A" "A avg" "B avg" "B/A" "A MB" "B MB" "B/A"
fi

status=0
for m in "${models[@]}"; do
  name="$(basename "$m" .tflite)"
  ra=() rb=() failed=0
  for ((i = 0; i < repeat; ++i)); do
    # A B, then B A: each configuration runs first half the time.
    if ((i % 2 == 0)); then order="a b"; else order="b a"; fi
    for w in $order; do
      if [[ $w == a ]]; then
        r="$(run_one "$bin_a" "$flags_a" "$env_a" "$m")" || { failed=1; break; }
        ra+=("$r")
      else
        r="$(run_one "$bin_b" "$flags_b" "$env_b" "$m")" || { failed=1; break; }
        rb+=("$r")
      fi
    done
    ((failed)) && break
  done
  if ((failed)); then status=2; continue; fi
  col() { printf '%s\n' "${@:2}" | awk -v c="$1" '{print $c}' | median; }
  ai="$(col 1 "${ra[@]}")" aa="$(col 2 "${ra[@]}")" am="$(col 3 "${ra[@]}")"
  bi="$(col 1 "${rb[@]}")" ba="$(col 2 "${rb[@]}")" bm="$(col 3 "${rb[@]}")"
  awk -v n="$name" -v ai="$ai" -v aa="$aa" -v am="$am" -v bi="$bi" -v ba="$ba" -v bm="$bm" \
      -v md="$markdown" 'BEGIN {
    ri = (ai > 0) ? sprintf("%.2f", bi / ai) : "n/a"
    ra = (aa > 0) ? sprintf("%.2f", ba / aa) : "n/a"
    rm = (am > 0) ? sprintf("%.2f", bm / am) : "n/a"
    if (md) printf "| %s | %.2f | %.2f | %s | %.3f | %.3f | %s | %.1f | %.1f | %s |\n", n, ai/1000, bi/1000, ri, aa/1000, ba/1000, ra, am/1024, bm/1024, rm
    else printf "%-40s %9.2f %9.2f %6s %9.3f %9.3f %6s %8.1f %8.1f %6s\n", n, ai/1000, bi/1000, ri, aa/1000, ba/1000, ra, am/1024, bm/1024, rm
  }'
done
exit $status
