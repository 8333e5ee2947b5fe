// Shared by the XNNPACK resource-variable tests (xnnpack_variables_test.cc,
// xnnpack_variables_subgraphs_test.cc): the delegate, the accumulator models
// (v = READ(acc); y = v + x; ASSIGN(acc, y), set up by a CALL_ONCE init
// subgraph) and running a model several times while its state accumulates.
#ifndef TFLITE_C_TESTS_DELEGATES_XNNPACK_VARIABLES_TEST_UTIL_H_
#define TFLITE_C_TESTS_DELEGATES_XNNPACK_VARIABLES_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {

// A single-threaded XNNPACK delegate, taking the variable operators when
// `variables` is set.
inline XnnPtr VariablesDelegate(bool variables = true) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  if (variables) o.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

// One model built twice: `builtin` without a delegate, `on` with
// VariablesDelegate() (declared first, so it outlives both sessions).
struct BuiltinAndDelegated {
  explicit BuiltinAndDelegated(const std::vector<uint8_t>& bytes) : delegate(VariablesDelegate()) {
    builtin.Create(bytes, {});
    on.Create(bytes, {delegate.get()});
  }
  XnnPtr delegate;
  Session builtin, on;
};

inline tflite::VarHandleOptionsT Var(const std::string& name) {
  tflite::VarHandleOptionsT o;
  o.shared_name = name;
  return o;
}

inline void CallOnce(ModelBuilder* b) {
  tflite::CallOnceOptionsT once;
  once.init_subgraph_index = 1;
  b->AddOperator(tflite::BuiltinOperator_CALL_ONCE, {}, {}, once);
}

struct AccumulatorTensors {
  int x, v, y;
};

// The primary subgraph of an accumulator over variable `var` of `type`:
// input x [4], CALL_ONCE(subgraph 1), v = READ(var) (declared `read_shape`),
// y = v + x, ASSIGN(var, y), output y [4]. The caller adds subgraph 1.
inline AccumulatorTensors AddAccumulator(ModelBuilder* b, tflite::TensorType type,
                                         const std::string& var,
                                         const std::vector<int>& read_shape = {4}) {
  AccumulatorTensors t;
  t.x = b->AddInput(type, {4}, "x");
  const int h = b->AddTensor(tflite::TensorType_RESOURCE, {});
  t.v = b->AddTensor(type, read_shape);
  t.y = b->AddOutput(type, {4}, "y");
  CallOnce(b);
  b->AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {h}, Var(var));
  b->AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {t.v});
  b->AddOperator(tflite::BuiltinOperator_ADD, {t.v, t.x}, {t.y}, tflite::AddOptionsT());
  b->AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h, t.y}, {});
  return t;
}

// int8 accumulator over "acc8" (scale 0.5; x and the reads at zero point -3,
// the assigned y at `assign_zero_point`); init subgraph 1 assigns
// {-3, 1, -7, 10} quantized with zero point `init_zero_point`.
inline std::vector<uint8_t> Int8Accumulator(int assign_zero_point = -3, int init_zero_point = -3) {
  const auto I8 = tflite::TensorType_INT8;
  const Quantization q{{0.5f}, {-3}, 0};
  ModelBuilder b;
  const AccumulatorTensors t = AddAccumulator(&b, I8, "acc8");
  b.SetQuantization(t.x, q);
  b.SetQuantization(t.v, q);
  b.SetQuantization(t.y, Quantization{{0.5f}, {assign_zero_point}, 0});
  b.AddSubgraph("init");
  b.SetCurrentSubgraph(1);
  const int ih = b.AddTensor(tflite::TensorType_RESOURCE, {});
  const int c = b.AddConstant<int8_t>(I8, {4}, {-3, 1, -7, 10});
  b.SetQuantization(c, Quantization{{0.5f}, {init_zero_point}, 0});
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {ih}, Var("acc8"));
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ih, c}, {});
  b.SetCurrentSubgraph(0);
  return b.Finish();
}

// The int8 input of run k: {k, -2, 3, -k}.
inline void SetInt8Input(TfLiteTensor* in, int k) {
  const std::vector<int8_t> x = {static_cast<int8_t>(k), -2, 3, static_cast<int8_t>(-k)};
  EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, x.data(), x.size()), kTfLiteOk);
}

// Output 0 of `invokes` runs, as raw bytes; `set_input(input 0, k)` fills
// the input of run k.
template <typename SetInput>
std::vector<std::vector<uint8_t>> RunOutput0(Session* s, int invokes, SetInput set_input) {
  std::vector<std::vector<uint8_t>> all;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
  for (int k = 0; k < invokes; ++k) {
    set_input(TfLiteInterpreterGetInputTensor(s->interpreter.get(), 0), k);
    EXPECT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(s->interpreter.get(), 0);
    const auto* p = static_cast<const uint8_t*>(TfLiteTensorData(t));
    all.emplace_back(p, p + TfLiteTensorByteSize(t));
  }
  return all;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_DELEGATES_XNNPACK_VARIABLES_TEST_UTIL_H_
