// Builds real .tflite flatbuffers in tests, through the generated schema API.
//
//   ModelBuilder b;
//   int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
//   int w = b.AddConstant<float>({1, 4}, {1, 2, 3, 4});
//   int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
//   tflite::AddOptionsT add;
//   add.fused_activation_function = tflite::ActivationFunctionType_RELU;
//   b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {y}, add);
//   std::vector<uint8_t> bytes = b.Finish();
//
// Tensors and operators go to the current subgraph (subgraph 0 unless
// SetCurrentSubgraph says otherwise). Subgraph inputs/outputs are the tensors
// added with AddInput/AddOutput, in order, unless SetInputs/SetOutputs
// replaces them. Operator codes are shared and deduplicated per
// (op, custom name, version). Nothing is validated: tests may build broken
// models on purpose.
#ifndef TFLITE_C_TESTS_UTIL_MODEL_BUILDER_H_
#define TFLITE_C_TESTS_UTIL_MODEL_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "schema_generated.h"

namespace tflite_c {
namespace testing {

// The schema type of a C++ element type (float -> FLOAT32, int32_t -> INT32, ...).
template <typename T>
constexpr tflite::TensorType TensorTypeOf() {
  if constexpr (std::is_same_v<T, float>) return tflite::TensorType_FLOAT32;
  if constexpr (std::is_same_v<T, double>) return tflite::TensorType_FLOAT64;
  if constexpr (std::is_same_v<T, int32_t>) return tflite::TensorType_INT32;
  if constexpr (std::is_same_v<T, uint32_t>) return tflite::TensorType_UINT32;
  if constexpr (std::is_same_v<T, int64_t>) return tflite::TensorType_INT64;
  if constexpr (std::is_same_v<T, uint64_t>) return tflite::TensorType_UINT64;
  if constexpr (std::is_same_v<T, int16_t>) return tflite::TensorType_INT16;
  if constexpr (std::is_same_v<T, uint16_t>) return tflite::TensorType_UINT16;
  if constexpr (std::is_same_v<T, int8_t>) return tflite::TensorType_INT8;
  if constexpr (std::is_same_v<T, uint8_t>) return tflite::TensorType_UINT8;
  if constexpr (std::is_same_v<T, bool>) return tflite::TensorType_BOOL;
  static_assert(!std::is_void_v<T>, "no tensor type for this C++ type");
  return tflite::TensorType_FLOAT32;
}

// Per-tensor (one scale) or per-channel affine quantization.
struct Quantization {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int quantized_dimension = 0;
};

class ModelBuilder {
 public:
  ModelBuilder();

  // ---- subgraphs ----------------------------------------------------------
  // Adds an empty subgraph and returns its index; does not make it current.
  int AddSubgraph(const std::string& name = "");
  void SetCurrentSubgraph(int index);
  int current_subgraph() const { return current_; }

  // ---- tensors (in the current subgraph); each returns the tensor index ----
  int AddTensor(tflite::TensorType type, const std::vector<int>& shape,
                const std::string& name = "");
  // A tensor listed in the subgraph's inputs / outputs.
  int AddInput(tflite::TensorType type, const std::vector<int>& shape,
               const std::string& name = "");
  int AddOutput(tflite::TensorType type, const std::vector<int>& shape,
                const std::string& name = "");
  // A constant: the bytes get their own buffer.
  int AddConstantBytes(tflite::TensorType type, const std::vector<int>& shape,
                       std::vector<uint8_t> bytes, const std::string& name = "");
  template <typename T>
  int AddConstant(const std::vector<int>& shape, const std::vector<T>& values,
                  const std::string& name = "") {
    return AddConstant(TensorTypeOf<T>(), shape, values, name);
  }
  // With an explicit type, e.g. INT8 weights given as int8_t.
  template <typename T>
  int AddConstant(tflite::TensorType type, const std::vector<int>& shape,
                  const std::vector<T>& values, const std::string& name = "") {
    static_assert(!std::is_same_v<T, bool>, "use AddConstantBytes for BOOL");
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return AddConstantBytes(type, shape, std::move(bytes), name);
  }

  // Tensor attributes, for tensor `index` of the current subgraph.
  void SetQuantization(int index, const Quantization& q);
  void SetShapeSignature(int index, const std::vector<int>& signature);
  void SetVariable(int index, bool is_variable = true);
  // Direct access for anything else (sparsity, has_rank, ...).
  tflite::TensorT& tensor(int index);

  // Replace the subgraph's input / output lists.
  void SetInputs(const std::vector<int>& tensors);
  void SetOutputs(const std::vector<int>& tensors);

  // ---- operators (in the current subgraph); each returns the operator index
  // Without options.
  int AddOperator(tflite::BuiltinOperator op, const std::vector<int>& inputs,
                  const std::vector<int>& outputs, int version = 1);
  // `options` is any generated options object (tflite::AddOptionsT, ...), for
  // either the BuiltinOptions or the BuiltinOptions2 union.
  template <typename OptionsT>
  int AddOperator(tflite::BuiltinOperator op, const std::vector<int>& inputs,
                  const std::vector<int>& outputs, const OptionsT& options, int version = 1) {
    const int index = AddOperator(op, inputs, outputs, version);
    tflite::OperatorT& o = *CurrentOperators()[index];
    if constexpr (tflite::BuiltinOptionsUnionTraits<OptionsT>::enum_value !=
                  tflite::BuiltinOptions_NONE) {
      o.builtin_options.Set(OptionsT(options));
    } else {
      static_assert(
          tflite::BuiltinOptions2UnionTraits<OptionsT>::enum_value != tflite::BuiltinOptions2_NONE,
          "not an operator options type");
      o.builtin_options_2.Set(OptionsT(options));
    }
    return index;
  }
  // With an options union built elsewhere (e.g. stored in a test table).
  int AddOperator(tflite::BuiltinOperator op, const std::vector<int>& inputs,
                  const std::vector<int>& outputs, const tflite::BuiltinOptionsUnion& options,
                  int version = 1);
  int AddCustomOperator(const std::string& custom_name, const std::vector<int>& inputs,
                        const std::vector<int>& outputs, std::vector<uint8_t> custom_options = {},
                        int version = 1);
  // Direct access for anything else (intermediates, raw option unions, ...).
  tflite::OperatorT& op(int index);

  // ---- model level ----------------------------------------------------------
  struct SignatureTensor {
    std::string name;
    int tensor_index;
  };
  void AddSignature(const std::string& key, const std::vector<SignatureTensor>& inputs,
                    const std::vector<SignatureTensor>& outputs, int subgraph_index = 0);
  void AddMetadata(const std::string& name, std::vector<uint8_t> bytes);
  void SetDescription(const std::string& description);
  // Direct access to the whole object tree.
  tflite::ModelT& model() { return model_; }

  // Serializes the model (file identifier "TFL3"). May be called repeatedly.
  std::vector<uint8_t> Finish() const;

 private:
  tflite::SubGraphT& Current();
  std::vector<std::unique_ptr<tflite::OperatorT>>& CurrentOperators();
  int OperatorCodeIndex(tflite::BuiltinOperator op, const std::string& custom_name, int version);
  uint32_t AddBuffer(std::vector<uint8_t> bytes);

  tflite::ModelT model_;
  int current_ = 0;
};

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_MODEL_BUILDER_H_
