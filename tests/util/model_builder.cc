#include "tests/util/model_builder.h"

#include <algorithm>

namespace tflite_c {
namespace testing {

ModelBuilder::ModelBuilder() {
  model_.version = 3;
  // Buffer 0 is the empty sentinel that non-constant tensors point at.
  model_.buffers.push_back(std::make_unique<tflite::BufferT>());
  model_.subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
}

int ModelBuilder::AddSubgraph(const std::string& name) {
  auto subgraph = std::make_unique<tflite::SubGraphT>();
  subgraph->name = name;
  model_.subgraphs.push_back(std::move(subgraph));
  return static_cast<int>(model_.subgraphs.size()) - 1;
}

void ModelBuilder::SetCurrentSubgraph(int index) { current_ = index; }

tflite::SubGraphT& ModelBuilder::Current() { return *model_.subgraphs.at(current_); }

std::vector<std::unique_ptr<tflite::OperatorT>>& ModelBuilder::CurrentOperators() {
  return Current().operators;
}

int ModelBuilder::AddTensor(tflite::TensorType type, const std::vector<int>& shape,
                            const std::string& name) {
  auto tensor = std::make_unique<tflite::TensorT>();
  tensor->type = type;
  tensor->shape = shape;
  tensor->name = name;
  tensor->buffer = 0;
  auto& tensors = Current().tensors;
  tensors.push_back(std::move(tensor));
  return static_cast<int>(tensors.size()) - 1;
}

int ModelBuilder::AddInput(tflite::TensorType type, const std::vector<int>& shape,
                           const std::string& name) {
  const int index = AddTensor(type, shape, name);
  Current().inputs.push_back(index);
  return index;
}

int ModelBuilder::AddOutput(tflite::TensorType type, const std::vector<int>& shape,
                            const std::string& name) {
  const int index = AddTensor(type, shape, name);
  Current().outputs.push_back(index);
  return index;
}

uint32_t ModelBuilder::AddBuffer(std::vector<uint8_t> bytes) {
  auto buffer = std::make_unique<tflite::BufferT>();
  buffer->data = std::move(bytes);
  model_.buffers.push_back(std::move(buffer));
  return static_cast<uint32_t>(model_.buffers.size() - 1);
}

int ModelBuilder::AddConstantBytes(tflite::TensorType type, const std::vector<int>& shape,
                                   std::vector<uint8_t> bytes, const std::string& name) {
  const int index = AddTensor(type, shape, name);
  tensor(index).buffer = AddBuffer(std::move(bytes));
  return index;
}

tflite::TensorT& ModelBuilder::tensor(int index) { return *Current().tensors.at(index); }

void ModelBuilder::SetQuantization(int index, const Quantization& q) {
  auto params = std::make_unique<tflite::QuantizationParametersT>();
  params->scale = q.scale;
  params->zero_point = q.zero_point;
  params->quantized_dimension = q.quantized_dimension;
  tensor(index).quantization = std::move(params);
}

void ModelBuilder::SetShapeSignature(int index, const std::vector<int>& signature) {
  tensor(index).shape_signature = signature;
}

void ModelBuilder::SetVariable(int index, bool is_variable) {
  tensor(index).is_variable = is_variable;
}

void ModelBuilder::SetInputs(const std::vector<int>& tensors) { Current().inputs = tensors; }
void ModelBuilder::SetOutputs(const std::vector<int>& tensors) { Current().outputs = tensors; }

int ModelBuilder::OperatorCodeIndex(tflite::BuiltinOperator op, const std::string& custom_name,
                                    int version) {
  auto& codes = model_.operator_codes;
  for (size_t i = 0; i < codes.size(); ++i) {
    if (codes[i]->builtin_code == op && codes[i]->custom_code == custom_name &&
        codes[i]->version == version) {
      return static_cast<int>(i);
    }
  }
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = op;
  // Readers older than the 32-bit field look at the byte one; codes that do
  // not fit in it are written as 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
  code->deprecated_builtin_code = static_cast<int8_t>(std::min<int>(op, 127));
  code->custom_code = custom_name;
  code->version = version;
  codes.push_back(std::move(code));
  return static_cast<int>(codes.size()) - 1;
}

int ModelBuilder::AddOperator(tflite::BuiltinOperator op, const std::vector<int>& inputs,
                              const std::vector<int>& outputs, int version) {
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = static_cast<uint32_t>(OperatorCodeIndex(op, "", version));
  o->inputs = inputs;
  o->outputs = outputs;
  auto& ops = CurrentOperators();
  ops.push_back(std::move(o));
  return static_cast<int>(ops.size()) - 1;
}

int ModelBuilder::AddOperator(tflite::BuiltinOperator op, const std::vector<int>& inputs,
                              const std::vector<int>& outputs,
                              const tflite::BuiltinOptionsUnion& options, int version) {
  const int index = AddOperator(op, inputs, outputs, version);
  CurrentOperators()[index]->builtin_options = options;
  return index;
}

int ModelBuilder::AddCustomOperator(const std::string& custom_name, const std::vector<int>& inputs,
                                    const std::vector<int>& outputs,
                                    std::vector<uint8_t> custom_options, int version) {
  auto o = std::make_unique<tflite::OperatorT>();
  o->opcode_index = static_cast<uint32_t>(
      OperatorCodeIndex(tflite::BuiltinOperator_CUSTOM, custom_name, version));
  o->inputs = inputs;
  o->outputs = outputs;
  o->custom_options = std::move(custom_options);
  o->custom_options_format = tflite::CustomOptionsFormat_FLEXBUFFERS;
  auto& ops = CurrentOperators();
  ops.push_back(std::move(o));
  return static_cast<int>(ops.size()) - 1;
}

tflite::OperatorT& ModelBuilder::op(int index) { return *CurrentOperators().at(index); }

void ModelBuilder::AddSignature(const std::string& key, const std::vector<SignatureTensor>& inputs,
                                const std::vector<SignatureTensor>& outputs, int subgraph_index) {
  auto signature = std::make_unique<tflite::SignatureDefT>();
  signature->signature_key = key;
  signature->subgraph_index = static_cast<uint32_t>(subgraph_index);
  for (const auto& in : inputs) {
    auto map = std::make_unique<tflite::TensorMapT>();
    map->name = in.name;
    map->tensor_index = static_cast<uint32_t>(in.tensor_index);
    signature->inputs.push_back(std::move(map));
  }
  for (const auto& out : outputs) {
    auto map = std::make_unique<tflite::TensorMapT>();
    map->name = out.name;
    map->tensor_index = static_cast<uint32_t>(out.tensor_index);
    signature->outputs.push_back(std::move(map));
  }
  model_.signature_defs.push_back(std::move(signature));
}

void ModelBuilder::AddMetadata(const std::string& name, std::vector<uint8_t> bytes) {
  auto metadata = std::make_unique<tflite::MetadataT>();
  metadata->name = name;
  metadata->buffer = AddBuffer(std::move(bytes));
  model_.metadata.push_back(std::move(metadata));
}

void ModelBuilder::SetDescription(const std::string& description) {
  model_.description = description;
}

std::vector<uint8_t> ModelBuilder::Finish() const {
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &model_));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace testing
}  // namespace tflite_c
