// Op table cases: logical and bitwise ops, selection, sign/atan2/add_n, and
// the type conversions (CAST, BITCAST, QUANTIZE, DEQUANTIZE, FAKE_QUANT).
#include <cmath>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

constexpr auto kBoolT = tflite::TensorType_BOOL;
constexpr double kPi = 3.14159265358979323846;

InputSpec B(std::vector<int> shape, std::vector<double> values) {
  return In(std::move(shape), std::move(values), kBoolT);
}

tflite::BuiltinOptionsUnion Reducer(bool keep_dims) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep_dims;
  return Opts(o);
}

tflite::BuiltinOptionsUnion CastOpts(TensorType in, TensorType out) {
  tflite::CastOptionsT o;
  o.in_data_type = in;
  o.out_data_type = out;
  return Opts(o);
}

// TensorFlow's FakeQuant: the range is nudged so that 0 is exactly
// representable, inputs are clamped to it and rounded to the grid.
double FakeQuant(double x, double min, double max, int bits) {
  const double qmax = (1 << bits) - 1;
  const double scale = (max - min) / qmax;
  const double zero_from_min = -min / scale;
  const double zero = zero_from_min < 0 ? 0 : zero_from_min > qmax ? qmax : std::round(zero_from_min);
  const double lo = -zero * scale, hi = (qmax - zero) * scale;
  const double c = x < lo ? lo : x > hi ? hi : x;
  return std::floor((c - lo) / scale + 0.5) * scale + lo;
}

}  // namespace

// clang-format off
std::vector<OpCase> LogicHandCases() {
  return Cases({
      {"Elementwise", tflite::BuiltinOperator_LOGICAL_AND, Opts(tflite::LogicalAndOptionsT()),
       {B({4}, {1, 1, 0, 0}), B({4}, {1, 0, 1, 0})}, B({4}, {1, 0, 0, 0})},
      {"Broadcast", tflite::BuiltinOperator_LOGICAL_AND, Opts(tflite::LogicalAndOptionsT()),
       {B({2, 2}, {1, 1, 0, 1}), B({2}, {1, 0})}, B({2, 2}, {1, 0, 0, 0})},
      {"Elementwise", tflite::BuiltinOperator_LOGICAL_OR, Opts(tflite::LogicalOrOptionsT()),
       {B({4}, {1, 1, 0, 0}), B({4}, {1, 0, 1, 0})}, B({4}, {1, 1, 1, 0})},
      {"Elementwise", tflite::BuiltinOperator_LOGICAL_NOT, Opts(tflite::LogicalNotOptionsT()),
       {B({3}, {1, 0, 1})}, B({3}, {0, 1, 0})},
      {"SameShapes", tflite::BuiltinOperator_SELECT, Opts(tflite::SelectOptionsT()),
       {B({4}, {1, 0, 1, 0}), F32({4}, {1, 2, 3, 4}), F32({4}, {10, 20, 30, 40})},
       F32({4}, {1, 20, 3, 40})},
      {"Broadcast", tflite::BuiltinOperator_SELECT_V2, Opts(tflite::SelectV2OptionsT()),
       {B({2, 1}, {1, 0}), F32({2, 2}, {1, 2, 3, 4}), F32({2}, {10, 20})},
       F32({2, 2}, {1, 2, 10, 20})},
      {"Rows", tflite::BuiltinOperator_REDUCE_ALL, Reducer(false),
       {B({2, 3}, {1, 1, 0, 1, 1, 1}), Ints({1}, {1})}, B({2}, {0, 1})},
      {"Rows", tflite::BuiltinOperator_REDUCE_ANY, Reducer(true),
       {B({2, 3}, {1, 0, 0, 0, 0, 0}), Ints({1}, {1})}, B({2, 1}, {1, 0})},
      {"Coordinates", tflite::BuiltinOperator_WHERE, Opts(tflite::WhereOptionsT()),
       {B({2, 2}, {1, 0, 0, 1})}, I64({2, 2}, {0, 0, 1, 1})},
      {"Float", tflite::BuiltinOperator_SIGN, Opts(tflite::SignOptionsT()),
       {F32({4}, {-2.5, 0, 3, -0.0})}, F32({4}, {-1, 0, 1, 0})},
      {"Int32", tflite::BuiltinOperator_SIGN, Opts(tflite::SignOptionsT()),
       {I32({3}, {-7, 0, 9})}, I32({3}, {-1, 0, 1})},
      {"Int32", tflite::BuiltinOperator_BITWISE_XOR, Opts(tflite::BitwiseXorOptionsT()),
       {I32({3}, {5, 3, -1}), I32({3}, {1, 1, 6})}, I32({3}, {4, 2, -7})},
      {"ArithmeticInt32", tflite::BuiltinOperator_RIGHT_SHIFT, Opts(tflite::RightShiftOptionsT()),
       {I32({3}, {16, -16, 7}), I32({3}, {2, 2, 1})}, I32({3}, {4, -4, 3})},
      {"Quadrants", tflite::BuiltinOperator_ATAN2, Opts(tflite::ATan2OptionsT()),
       {F32({4}, {1, -1, 1, 0}), F32({4}, {1, 1, -1, -1})},
       F32({4}, {kPi / 4, -kPi / 4, 3 * kPi / 4, kPi})},
      {"ThreeInputs", tflite::BuiltinOperator_ADD_N, Opts(tflite::AddNOptionsT()),
       {F32({2}, {1, 2}), F32({2}, {10, 20}), F32({2}, {100, 200})}, F32({2}, {111, 222})},
      {"Int32", tflite::BuiltinOperator_ADD_N, Opts(tflite::AddNOptionsT()),
       {I32({2}, {1, -2}), I32({2}, {3, 4})}, I32({2}, {4, 2})},
      {"Float", tflite::BuiltinOperator_ZEROS_LIKE, Opts(tflite::ZerosLikeOptionsT()),
       {F32({3}, {1, -2, 3})}, F32({3}, {0, 0, 0})},
      {"Int64", tflite::BuiltinOperator_ZEROS_LIKE, Opts(tflite::ZerosLikeOptionsT()),
       {I64({2}, {5, 6})}, I64({2}, {0, 0})},
      // Float to int truncates toward zero.
      {"FloatToInt32", tflite::BuiltinOperator_CAST,
       CastOpts(tflite::TensorType_FLOAT32, tflite::TensorType_INT32),
       {F32({4}, {1.7, -1.7, 0, 5})}, I32({4}, {1, -1, 0, 5})},
      {"BoolToFloat", tflite::BuiltinOperator_CAST,
       CastOpts(tflite::TensorType_BOOL, tflite::TensorType_FLOAT32),
       {B({2}, {1, 0})}, F32({2}, {1, 0})},
      {"Int32ToInt64", tflite::BuiltinOperator_CAST,
       CastOpts(tflite::TensorType_INT32, tflite::TensorType_INT64),
       {I32({2}, {-3, 2147483647})}, I64({2}, {-3, 2147483647})},
      // The bits of 1.0f and -2.0f.
      {"FloatToInt32", tflite::BuiltinOperator_BITCAST, Opts(tflite::BitcastOptionsT()),
       {F32({2}, {1, -2})}, I32({2}, {1065353216, -1073741824})},
  });
}
// clang-format on

std::vector<OpCase> ConversionCases() {
  std::vector<OpCase> cases;
  {
    // Float in, quantized out (the output's parameters cover the values).
    OpCase c;
    c.name = "QUANTIZE_FromFloat";
    c.op = tflite::BuiltinOperator_QUANTIZE;
    InputSpec x = Data({3, 7});
    x.type = tflite::TensorType_FLOAT32;
    c.inputs = {x};
    c.ref = UnaryRef([](double v) { return v; });
    c.types = {tflite::TensorType_INT8, tflite::TensorType_UINT8, tflite::TensorType_INT16};
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "DEQUANTIZE_ToFloat";
    c.op = tflite::BuiltinOperator_DEQUANTIZE;
    c.inputs = {Data({3, 7})};
    c.ref = UnaryRef([](double v) { return v; });
    c.types = {tflite::TensorType_INT8, tflite::TensorType_UINT8, tflite::TensorType_INT16};
    c.out_type_override = tflite::TensorType_FLOAT32;
    c.version = 2;
    cases.push_back(c);
  }
  for (int bits : {8, 4}) {
    OpCase c;
    c.name = "FAKE_QUANT_" + std::to_string(bits) + "bits";
    c.op = tflite::BuiltinOperator_FAKE_QUANT;
    c.inputs = {Data({4, 9})};
    c.ref = UnaryRef([bits](double v) { return FakeQuant(v, -1.0, 1.5, bits); });
    c.options = [bits] {
      tflite::FakeQuantOptionsT o;
      o.min = -1.f;
      o.max = 1.5f;
      o.num_bits = bits;
      return Opts(o);
    };
    c.types = kF;
    c.lo = -2, c.hi = 2;
    cases.push_back(c);
  }
  return cases;
}

}  // namespace op_table
}  // namespace tflite_c
