// A one-operator model for kernel tests: inputs (fed at Invoke) and
// constants in the order added, then outputs, joined by one builtin op.
// Built with ModelBuilder and run through the public C API, so each test
// also covers loading, AllocateTensors (Prepare) and Invoke.
//
//   OneOpModel m;
//   m.Input(tflite::TensorType_FLOAT32, {2});
//   m.Output(tflite::TensorType_FLOAT32, {2});
//   m.Op(tflite::BuiltinOperator_RELU);
//   ASSERT_TRUE(m.Allocate()) << m.log();
//   m.Set<float>(0, {-1, 2});
//   ASSERT_TRUE(m.Invoke()) << m.log();
//   EXPECT_EQ(m.Get<float>(), (std::vector<float>{0, 2}));
#ifndef TFLITE_C_TESTS_UTIL_ONE_OP_MODEL_H_
#define TFLITE_C_TESTS_UTIL_ONE_OP_MODEL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {

// An options union holding `value` (any generated *OptionsT).
template <typename T>
tflite::BuiltinOptionsUnion Opts(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

// Per-tensor quantization.
inline Quantization Q(float scale, int64_t zero_point) { return {{scale}, {zero_point}, 0}; }

class OneOpModel {
 public:
  OneOpModel() = default;
  OneOpModel(const OneOpModel&) = delete;
  OneOpModel& operator=(const OneOpModel&) = delete;
  ~OneOpModel();

  int Input(tflite::TensorType type, std::vector<int> shape, Quantization q = {});
  template <typename T>
  int Const(std::vector<int> shape, std::vector<T> values,
            tflite::TensorType type = TensorTypeOf<T>(), Quantization q = {}) {
    const int t = builder_.AddConstant(type, shape, values);
    if (!q.scale.empty()) builder_.SetQuantization(t, q);
    inputs_.push_back(t);
    return t;
  }
  // A constant given as raw bytes (any type, e.g. quantized weights).
  int ConstBytes(tflite::TensorType type, std::vector<int> shape, std::vector<uint8_t> bytes,
                 Quantization q = {}) {
    const int t = builder_.AddConstantBytes(type, shape, std::move(bytes));
    if (!q.scale.empty()) builder_.SetQuantization(t, q);
    inputs_.push_back(t);
    return t;
  }
  // A variable tensor (e.g. a recurrent state, zero at first) as the next
  // operator input; not a model input.
  int Variable(tflite::TensorType type, std::vector<int> shape) {
    const int t = builder_.AddTensor(type, shape);
    builder_.SetVariable(t);
    inputs_.push_back(t);
    return t;
  }
  // An optional input left out (index -1 in the operator's input list).
  void Omitted() { inputs_.push_back(-1); }
  int Output(tflite::TensorType type, std::vector<int> shape, Quantization q = {});
  void Op(tflite::BuiltinOperator op, tflite::BuiltinOptionsUnion options = {}, int version = 1);
  // A custom operator `name` with `options` as its custom_options bytes.
  void CustomOp(const std::string& name, std::vector<uint8_t> options = {}, int version = 1);

  // Loads the model and allocates tensors; false when any step fails.
  bool Allocate();
  template <typename T>
  void Set(int input, const std::vector<T>& values) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter_, input);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(t, values.data(), values.size() * sizeof(T)), kTfLiteOk);
  }
  void SetBytes(int input, const std::vector<uint8_t>& bytes) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter_, input);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(t, bytes.data(), bytes.size()), kTfLiteOk);
  }
  // AllocateTensors again (after custom allocations were set).
  bool Reallocate() { return TfLiteInterpreterAllocateTensors(interpreter_) == kTfLiteOk; }
  bool Invoke() { return TfLiteInterpreterInvoke(interpreter_) == kTfLiteOk; }
  template <typename T>
  std::vector<T> Get(int output = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter_, output);
    std::vector<T> values(TfLiteTensorByteSize(t) / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), TfLiteTensorData(t), values.size() * sizeof(T));
    return values;
  }
  std::vector<uint8_t> GetBytes(int output = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter_, output);
    const uint8_t* p = static_cast<const uint8_t*>(TfLiteTensorData(t));
    return p ? std::vector<uint8_t>(p, p + TfLiteTensorByteSize(t)) : std::vector<uint8_t>();
  }
  std::vector<int> Shape(int output = 0) const;
  const std::string& log() const { return log_; }
  ModelBuilder& builder() { return builder_; }
  TfLiteInterpreter* interpreter() const { return interpreter_; }
  // The model's tensor index of output `output` (for tensor-level C APIs).
  int OutputTensorIndex(int output) const { return outputs_[output]; }
  // Called on the interpreter options before the interpreter is created
  // (e.g. to add kernels the default resolver lacks).
  std::function<void(TfLiteInterpreterOptions*)> configure_options;

 private:
  ModelBuilder builder_;
  std::vector<int> inputs_, outputs_;
  std::vector<uint8_t> bytes_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  std::string log_;
};

// Declares op `op` on `m` with inputs of the given shapes and one output, all
// of element type `type`.
void SameTypeOp(OneOpModel& m, tflite::BuiltinOperator op, tflite::TensorType type,
                const std::vector<std::vector<int>>& inputs, const std::vector<int>& output);

// Expects that AllocateTensors fails and the log mentions `message`.
void ExpectPrepareError(OneOpModel& m, const std::string& message);

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_ONE_OP_MODEL_H_
