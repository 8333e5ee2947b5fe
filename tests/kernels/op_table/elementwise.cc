// Op table cases: unary and binary element-wise ops, comparisons.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

float Sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

constexpr auto kNone = tflite::ActivationFunctionType_NONE;
constexpr auto kRelu = tflite::ActivationFunctionType_RELU;
constexpr auto kRelu6 = tflite::ActivationFunctionType_RELU6;
constexpr auto kReluN1To1 = tflite::ActivationFunctionType_RELU_N1_TO_1;

tflite::BuiltinOptionsUnion AddOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::AddOptionsT o;
  o.fused_activation_function = act;
  return Opts(o);
}
tflite::BuiltinOptionsUnion SubOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::SubOptionsT o;
  o.fused_activation_function = act;
  return Opts(o);
}
tflite::BuiltinOptionsUnion MulOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::MulOptionsT o;
  o.fused_activation_function = act;
  return Opts(o);
}
tflite::BuiltinOptionsUnion SoftmaxOpts(float beta) {
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  return Opts(o);
}

}  // namespace

std::vector<OpCase> UnaryCases() {
  struct U {
    const char* name;
    BuiltinOperator op;
    std::function<float(float)> f;
    std::vector<TensorType> types;
    float lo, hi;
    std::vector<TensorType> unsupported = {};
  };
  const std::vector<U> ops = {
      {"ABS", tflite::BuiltinOperator_ABS, [](float x) { return std::fabs(x); }, kF8S, -3, 3},
      {"CEIL", tflite::BuiltinOperator_CEIL, [](float x) { return std::ceil(x); }, kF, -3, 3},
      {"COS", tflite::BuiltinOperator_COS, [](float x) { return std::cos(x); }, kF, -3, 3},
      {"ELU", tflite::BuiltinOperator_ELU, [](float x) { return x < 0 ? std::expm1(x) : x; }, kF8S, -3,
       3},
      {"EXP", tflite::BuiltinOperator_EXP, [](float x) { return std::exp(x); }, kF8S, -2, 1},
      {"FLOOR", tflite::BuiltinOperator_FLOOR, [](float x) { return std::floor(x); }, kF, -3, 3},
      {"GELU", tflite::BuiltinOperator_GELU,
       [](float x) { return 0.5f * x * (1.f + std::erf(x / std::sqrt(2.f))); }, kF8, -3, 3},
      {"HARD_SWISH", tflite::BuiltinOperator_HARD_SWISH,
       [](float x) { return x * std::min(6.f, std::max(0.f, x + 3.f)) / 6.f; }, kF8, -4, 4},
      {"LOG", tflite::BuiltinOperator_LOG, [](float x) { return std::log(x); }, kF, 0.1f, 4},
      {"NEG", tflite::BuiltinOperator_NEG, [](float x) { return -x; }, kF, -3, 3},
      {"RELU", tflite::BuiltinOperator_RELU, [](float x) { return std::max(0.f, x); }, kF816, -3, 3},
      {"RELU6", tflite::BuiltinOperator_RELU6,
       [](float x) { return std::min(6.f, std::max(0.f, x)); }, kF8, -3, 8},
      {"RELU_N1_TO_1", tflite::BuiltinOperator_RELU_N1_TO_1,
       [](float x) { return std::min(1.f, std::max(-1.f, x)); }, kF8, -3, 3},
      {"RELU_0_TO_1", tflite::BuiltinOperator_RELU_0_TO_1,
       [](float x) { return std::min(1.f, std::max(0.f, x)); }, kF8, -3, 3},
      {"ROUND", tflite::BuiltinOperator_ROUND, [](float x) { return std::nearbyint(x); }, kF, -3, 3},
      {"RSQRT", tflite::BuiltinOperator_RSQRT, [](float x) { return 1.f / std::sqrt(x); }, kF, 0.1f, 4},
      {"SIN", tflite::BuiltinOperator_SIN, [](float x) { return std::sin(x); }, kF, -3, 3},
      {"SQRT", tflite::BuiltinOperator_SQRT, [](float x) { return std::sqrt(x); }, kF, 0, 4},
      {"SQUARE", tflite::BuiltinOperator_SQUARE, [](float x) { return x * x; }, kF, -3, 3},
  };
  std::vector<OpCase> cases;
  for (const U& u : ops) {
    for (const std::vector<int>& shape : std::vector<std::vector<int>>{{7}, {2, 3, 5}, {1, 4, 4, 3}}) {
      OpCase c;
      c.name = std::string(u.name) + "_r" + std::to_string(shape.size());
      c.op = u.op;
      c.inputs = {Data(shape)};
      c.ref = UnaryRef(u.f);
      c.types = u.types;
      c.unsupported = u.unsupported;
      c.lo = u.lo;
      c.hi = u.hi;
      c.rtol = 2e-5f;
      cases.push_back(std::move(c));
    }
  }
  // Activations with fixed output quantization (upstream requires these).
  {
    OpCase c;
    c.name = "LOGISTIC";
    c.op = tflite::BuiltinOperator_LOGISTIC;
    c.inputs = {Data({2, 17})};
    c.ref = UnaryRef(Sigmoid);
    c.types = kF8;
    c.types.push_back(tflite::TensorType_INT16);
    c.lo = -6, c.hi = 6;
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 256}, {-128}, 0};
      if (t == tflite::TensorType_UINT8) return {{1.f / 256}, {0}, 0};
      return {{1.f / 32768}, {0}, 0};
    };
    c.lsb = 2.01f;
    cases.push_back(c);
    c.name = "TANH";
    c.op = tflite::BuiltinOperator_TANH;
    c.ref = UnaryRef([](float x) { return std::tanh(x); });
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 128}, {0}, 0};
      if (t == tflite::TensorType_UINT8) return {{1.f / 128}, {128}, 0};
      return {{1.f / 32768}, {0}, 0};
    };
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "LEAKY_RELU";
    c.op = tflite::BuiltinOperator_LEAKY_RELU;
    c.inputs = {Data({3, 11})};
    c.ref = UnaryRef([](float x) { return x < 0 ? 0.2f * x : x; });
    c.types = kF816;
    c.options = [] {
      tflite::LeakyReluOptionsT o;
      o.alpha = 0.2f;
      return Opts(o);
    };
    cases.push_back(c);
  }
  return cases;
}

std::vector<OpCase> BinaryCases() {
  struct B {
    const char* name;
    BuiltinOperator op;
    std::function<float(float, float)> f;
    std::vector<TensorType> types;
    float lo, hi;
  };
  const std::vector<B> ops = {
      {"ADD", tflite::BuiltinOperator_ADD, std::plus<float>(), kF816, -3, 3},
      {"SUB", tflite::BuiltinOperator_SUB, std::minus<float>(), kF816, -3, 3},
      {"MUL", tflite::BuiltinOperator_MUL, std::multiplies<float>(), kF816, -3, 3},
      {"DIV", tflite::BuiltinOperator_DIV, std::divides<float>(), kFU8, 0.5f, 3},
      {"MAXIMUM", tflite::BuiltinOperator_MAXIMUM, [](float a, float b) { return std::max(a, b); },
       kF816, -3, 3},
      {"MINIMUM", tflite::BuiltinOperator_MINIMUM, [](float a, float b) { return std::min(a, b); },
       kF816, -3, 3},
      {"POW", tflite::BuiltinOperator_POW, [](float a, float b) { return std::pow(a, b); }, kF, 0.5f, 2},
      {"SQUARED_DIFFERENCE", tflite::BuiltinOperator_SQUARED_DIFFERENCE,
       [](float a, float b) { return (a - b) * (a - b); }, kF8S, -3, 3},
      {"FLOOR_DIV", tflite::BuiltinOperator_FLOOR_DIV,
       [](float a, float b) { return std::floor(a / b); }, kF, 0.5f, 5},
      {"FLOOR_MOD", tflite::BuiltinOperator_FLOOR_MOD,
       [](float a, float b) { const float r = std::fmod(a, b); return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r; },
       kF, 0.5f, 5},
  };
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> shapes = {
      {{2, 3}, {2, 3}}, {{2, 1, 4}, {3, 1}}, {{1, 5, 5, 3}, {3}}, {{4}, {1}}};
  std::vector<OpCase> cases;
  for (const B& b : ops) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      OpCase c;
      c.name = std::string(b.name) + "_s" + std::to_string(s);
      c.op = b.op;
      c.inputs = {Data(shapes[s].first), Data(shapes[s].second)};
      c.ref = BinaryRef(b.f);
      c.types = b.types;
      c.lo = b.lo;
      c.hi = b.hi;
      c.rtol = 2e-5f;
      // Quantized MAXIMUM/MINIMUM compare raw values: upstream requires the
      // output to share the inputs' quantization.
      c.out_like_input =
          b.op == tflite::BuiltinOperator_MAXIMUM || b.op == tflite::BuiltinOperator_MINIMUM;
      cases.push_back(std::move(c));
    }
  }
  // Comparisons produce BOOL.
  const std::vector<B> cmps = {
      {"EQUAL", tflite::BuiltinOperator_EQUAL, [](float a, float b) { return a == b ? 1.f : 0.f; }, kF8, -3, 3},
      {"NOT_EQUAL", tflite::BuiltinOperator_NOT_EQUAL, [](float a, float b) { return a != b ? 1.f : 0.f; }, kF8, -3, 3},
      {"GREATER", tflite::BuiltinOperator_GREATER, [](float a, float b) { return a > b ? 1.f : 0.f; }, kF8, -3, 3},
      {"GREATER_EQUAL", tflite::BuiltinOperator_GREATER_EQUAL, [](float a, float b) { return a >= b ? 1.f : 0.f; }, kF8, -3, 3},
      {"LESS", tflite::BuiltinOperator_LESS, [](float a, float b) { return a < b ? 1.f : 0.f; }, kF8, -3, 3},
      {"LESS_EQUAL", tflite::BuiltinOperator_LESS_EQUAL, [](float a, float b) { return a <= b ? 1.f : 0.f; }, kF8, -3, 3},
  };
  for (const B& b : cmps) {
    OpCase c;
    c.name = b.name;
    c.op = b.op;
    c.inputs = {Data({2, 1, 4}), Data({3, 1})};
    c.ref = BinaryRef(b.f);
    c.types = b.types;
    c.lo = -2, c.hi = 2;
    c.out_type_override = tflite::TensorType_BOOL;
    c.atol = 0;
    c.rtol = 0;
    cases.push_back(std::move(c));
  }
  return cases;
}


// ---- hand-computed cases (fused activations, int32/int64, errors) ------------------------
// One case per line group, name first; clang-format would put every field on
// its own line.
// clang-format off

std::vector<OpCase> BinaryHandCases() {
  using B = BuiltinOperator;
  constexpr B kAdd = tflite::BuiltinOperator_ADD;
  constexpr B kSub = tflite::BuiltinOperator_SUB;
  constexpr B kMul = tflite::BuiltinOperator_MUL;
  return Cases({
      {"SameShape", kAdd, AddOpts(),
       {F32({1, 2, 2, 1}, {1, 2, 3, 4}), F32({1, 2, 2, 1}, {10, 20, 30, 40})},
       F32({1, 2, 2, 1}, {11, 22, 33, 44})},
      {"BroadcastRow", kAdd, AddOpts(),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), Const(F32({3}, {10, 20, 30}))},
       F32({2, 3}, {11, 22, 33, 14, 25, 36})},
      {"BroadcastBothSides", kAdd, AddOpts(),
       {F32({2, 1}, {1, 2}), F32({1, 3}, {10, 20, 30})},
       F32({2, 3}, {11, 21, 31, 12, 22, 32})},
      {"BroadcastSixDims", kAdd, AddOpts(),
       {F32({2, 1, 1, 1, 1, 1}, {1, 2}), F32({1, 1, 1, 1, 1, 3}, {10, 20, 30})},
       F32({2, 1, 1, 1, 1, 3}, {11, 21, 31, 12, 22, 32})},
      {"ScalarRelu", kAdd, AddOpts(kRelu),
       {F32({}, {-1}), F32({4}, {-2, 0.5, 3, 1})},
       F32({4}, {0, 0, 2, 0})},
      {"Relu6", kAdd, AddOpts(kRelu6),
       {F32({4}, {1, 5, 7, -1}), F32({4}, {0, 2, 0, 0})},
       F32({4}, {1, 6, 6, 0})},
      {"ReluN1To1", kAdd, AddOpts(kReluN1To1),
       {F32({4}, {-3, 0.25, 2, 0}), F32({4}, {0, 0, 0, 0.5})},
       F32({4}, {-1, 0.25, 1, 0.5})},
      {"Int32", kAdd, AddOpts(),
       {I32({3}, {1, -2, 3}), I32({1}, {10})},
       I32({3}, {11, 8, 13})},
      {"Int32Relu", kAdd, AddOpts(kRelu),
       {I32({3}, {1, -20, 3}), I32({3}, {1, 2, 3})},
       I32({3}, {2, 0, 6})},
      {"Int64", kAdd, AddOpts(),
       {I64({2}, {5000000000.0, 1}), I64({2}, {1, 2})},
       I64({2}, {5000000001.0, 3})},
      {"Int8Unsupported", kAdd, AddOpts(),
       {Typed(tflite::TensorType_INT8, {2}), Typed(tflite::TensorType_INT8, {2})},
       Typed(tflite::TensorType_INT8, {2}), Outcome::kPrepareFails, "INT8"},
      {"MixedTypes", kAdd, AddOpts(),
       {F32({2}, {1, 2}), I32({2}, {1, 2})},
       F32({2}, {0, 0}), Outcome::kPrepareFails, "ADD"},
      {"NotBroadcastable", kAdd, AddOpts(),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({4, 3}, std::vector<double>(12, 1.0))},
       F32({4, 3}, {}), Outcome::kPrepareFails, "not broadcastable"},
      {"Broadcast", kSub, SubOpts(),
       {F32({2, 2}, {5, 6, 7, 8}), F32({2}, {1, 2})},
       F32({2, 2}, {4, 4, 6, 6})},
      {"ReversedBroadcastRelu", kSub, SubOpts(kRelu),
       {F32({2}, {1, 2}), F32({2, 2}, {5, 0, 0, 5})},
       F32({2, 2}, {0, 2, 1, 0})},
      {"Int32", kSub, SubOpts(),
       {I32({2}, {5, -5}), I32({2}, {7, -7})},
       I32({2}, {-2, 2})},
      {"ScalarBroadcast", kMul, MulOpts(),
       {F32({2, 2}, {1, 2, 3, 4}), Const(F32({1}, {-2}))},
       F32({2, 2}, {-2, -4, -6, -8})},
      {"Relu", kMul, MulOpts(kRelu),
       {F32({2, 2}, {1, -2, 3, -4}), F32({2, 1}, {2, -1})},
       F32({2, 2}, {2, 0, 0, 4})},
      {"Int32", kMul, MulOpts(),
       {I32({3}, {2, -3, 4}), I32({3}, {5, 6, -7})},
       I32({3}, {10, -18, -28})},
      {"ShapeMismatch", kMul, MulOpts(),
       {F32({3}, {1, 2, 3}), F32({2}, {1, 2})},
       F32({3}, {}), Outcome::kPrepareFails, "MUL"},
  });
}

std::vector<OpCase> ActivationHandCases() {
  constexpr auto kSoftmax = tflite::BuiltinOperator_SOFTMAX;
  constexpr auto kLogistic = tflite::BuiltinOperator_LOGISTIC;
  const double ln3 = std::log(3.0);
  // softmax([1, 2, 3]) = [e^-2, e^-1, 1] / (e^-2 + e^-1 + 1).
  const double s = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  auto ramp = [] { return F32({6}, {-3, -0.5, 0, 0.5, 3, 7}); };
  return Cases({
      {"Basic", kSoftmax, SoftmaxOpts(1.0f), {F32({1, 3}, {1, 2, 3})},
       F32({1, 3}, {std::exp(-2.0) / s, std::exp(-1.0) / s, 1.0 / s})},
      // beta 2 on [0, ln3 / 2] gives weights 1 : 3.
      {"Beta", kSoftmax, SoftmaxOpts(2.0f), {F32({2, 2}, {0, ln3 / 2, 1, 1})},
       F32({2, 2}, {0.25, 0.75, 0.5, 0.5})},
      {"Rank3LastDim", kSoftmax, SoftmaxOpts(1.0f),
       {F32({2, 1, 2}, {0, ln3, ln3, 0})}, F32({2, 1, 2}, {0.25, 0.75, 0.75, 0.25})},
      {"BetaZeroIsUniform", kSoftmax, SoftmaxOpts(0.0f), {F32({4}, {1, 5, -2, 9})},
       F32({4}, {0.25, 0.25, 0.25, 0.25})},
      {"Int32Unsupported", kSoftmax, SoftmaxOpts(1.0f), {I32({2}, {1, 2})},
       I32({2}, {}), Outcome::kPrepareFails, "INT32"},
      {"ScalarRejected", kSoftmax, SoftmaxOpts(1.0f), {F32({}, {1})}, F32({}, {}),
       Outcome::kPrepareFails, "SOFTMAX"},
      {"Basic", kLogistic, {}, {F32({2, 2}, {0, ln3, -ln3, 30})},
       F32({2, 2}, {0.5, 0.75, 0.25, 1})},
      {"Int32Unsupported", kLogistic, {}, {I32({2}, {1, 2})}, I32({2}, {}),
       Outcome::kPrepareFails, "LOGISTIC"},
      {"Basic", tflite::BuiltinOperator_RELU, {}, {ramp()}, F32({6}, {0, 0, 0, 0.5, 3, 7})},
      {"Basic", tflite::BuiltinOperator_RELU6, {}, {ramp()}, F32({6}, {0, 0, 0, 0.5, 3, 6})},
      {"Basic", tflite::BuiltinOperator_RELU_N1_TO_1, {}, {ramp()},
       F32({6}, {-1, -0.5, 0, 0.5, 1, 1})},
      {"Basic", tflite::BuiltinOperator_RELU_0_TO_1, {}, {ramp()},
       F32({6}, {0, 0, 0, 0.5, 1, 1})},
      {"KeepsShape", tflite::BuiltinOperator_RELU, {}, {F32({1, 2, 1, 2}, {-1, 2, -3, 4})},
       F32({1, 2, 1, 2}, {0, 2, 0, 4})},
      {"Int8Unsupported", tflite::BuiltinOperator_RELU, {},
       {Typed(tflite::TensorType_INT8, {2})}, Typed(tflite::TensorType_INT8, {2}),
       Outcome::kPrepareFails, "RELU"},
  });
}
// clang-format on

}  // namespace op_table
}  // namespace tflite_c
