// Op table cases: reductions over axes.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

std::vector<OpCase> ReductionCases() {
  struct R {
    const char* name;
    BuiltinOperator op;
    float init;
    std::function<float(float, float)> step;
    std::function<float(float, int)> finish;
    std::vector<TensorType> types;
    bool like_input;
  };
  auto id = [](float a, int) { return a; };
  const std::vector<R> ops = {
      {"MEAN", tflite::BuiltinOperator_MEAN, 0.f, std::plus<float>(),
       [](float a, int n) { return a / n; }, kF816, false},
      {"SUM", tflite::BuiltinOperator_SUM, 0.f, std::plus<float>(), id, kF8, false},
      {"REDUCE_MAX", tflite::BuiltinOperator_REDUCE_MAX, -std::numeric_limits<float>::infinity(),
       [](float a, float b) { return std::max(a, b); }, id, kF8, true},
      {"REDUCE_MIN", tflite::BuiltinOperator_REDUCE_MIN, std::numeric_limits<float>::infinity(),
       [](float a, float b) { return std::min(a, b); }, id, kF8, true},
      {"REDUCE_PROD", tflite::BuiltinOperator_REDUCE_PROD, 1.f, std::multiplies<float>(), id,
       kF8S, false},  // INT16: reduce_prod_quantized_test (upstream's 16-bit step multiplier)
  };
  const std::vector<std::pair<std::vector<int32_t>, bool>> axes = {
      {{1, 2}, true}, {{-1}, false}, {{0}, false}, {{0, 1, 2, 3}, false}};
  std::vector<OpCase> cases;
  for (const R& r : ops) {
    for (size_t a = 0; a < axes.size(); ++a) {
      OpCase c;
      c.name = std::string(r.name) + "_a" + std::to_string(a);
      c.op = r.op;
      const std::vector<int32_t> ax = axes[a].first;
      const bool keep = axes[a].second;
      c.inputs = {Data({2, 3, 4, 2}), Ints({static_cast<int>(ax.size())}, ax)};
      c.ref = [r, ax, keep](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
        return std::vector<FTensor>{Reduce(d[0], ax, keep, r.init, r.step, r.finish)};
      };
      c.options = [keep] {
        tflite::ReducerOptionsT o;
        o.keep_dims = keep;
        return Opts(o);
      };
      c.types = r.types;
      c.out_like_input = r.like_input;
      c.lo = r.op == tflite::BuiltinOperator_REDUCE_PROD ? 0.8f : -3.f;
      c.hi = r.op == tflite::BuiltinOperator_REDUCE_PROD ? 1.2f : 3.f;
      c.rtol = 1e-4f;
      c.atol = 1e-4f;
      c.lsb = 1.51f;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}


}  // namespace op_table
}  // namespace tflite_c
