// model_inspector: what the flatbuffer holds (subgraphs, tensors,
// signatures, operators) and which operators this build has kernels for,
// asked of the library's own builtin resolver.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model_inspector/inspection.h"
#include "schema_generated.h"
#include "src/core/op_resolver.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"
#include "src/kernels/register.h"

namespace tflite_c_inspector {
namespace {

int32_t BuiltinCode(const tflite::OperatorCode* oc) {
  return std::max<int32_t>(oc->deprecated_builtin_code(), oc->builtin_code());
}

template <typename V>
std::vector<int64_t> ToVector(const V* v) {
  std::vector<int64_t> out;
  if (v != nullptr) {
    for (auto x : *v) out.push_back(static_cast<int64_t>(x));
  }
  return out;
}

TensorInfo DescribeTensor(const tflite::SubGraph* sg, int index) {
  TensorInfo t;
  t.index = index;
  const auto* tensors = sg->tensors();
  if (tensors == nullptr || index < 0 || static_cast<uint32_t>(index) >= tensors->size()) {
    t.name = "<invalid tensor index>";
    return t;
  }
  const tflite::Tensor* fb = tensors->Get(index);
  t.name = fb->name() ? fb->name()->str() : "";
  const char* type = tflite::EnumNameTensorType(fb->type());
  t.type = (type && *type) ? type : "UNKNOWN";
  t.shape = ToVector(fb->shape());
  t.shape_signature = ToVector(fb->shape_signature());
  t.is_variable = fb->is_variable();
  if (const tflite::QuantizationParameters* q = fb->quantization()) {
    if (q->scale()) {
      for (float s : *q->scale()) t.scale.push_back(s);
    }
    t.zero_point = ToVector(q->zero_point());
    t.quantized_dimension = q->quantized_dimension();
  }
  return t;
}

SubgraphInfo DescribeSubgraph(const tflite::SubGraph* sg, int index) {
  SubgraphInfo info;
  info.index = index;
  info.name = sg->name() ? sg->name()->str() : "";
  info.num_tensors = sg->tensors() ? static_cast<int>(sg->tensors()->size()) : 0;
  info.num_operators = sg->operators() ? static_cast<int>(sg->operators()->size()) : 0;
  if (sg->inputs()) {
    for (int32_t t : *sg->inputs()) info.inputs.push_back(DescribeTensor(sg, t));
  }
  if (sg->outputs()) {
    for (int32_t t : *sg->outputs()) info.outputs.push_back(DescribeTensor(sg, t));
  }
  return info;
}

// Why `key`, which the resolver has no kernel for, cannot run: no kernel at
// all, or not this version (then the versions this build has).
std::string UnsupportedReason(const OpKey& key, const tflite_c::MutableOpResolver& resolver) {
  auto version_reason = [&key](const std::pair<int, int>& range) {
    return "version " + std::to_string(key.version) + " not supported (this build: v" +
           std::to_string(range.first) + "-v" + std::to_string(range.second) + ")";
  };
  if (key.custom) {
    const auto ranges = resolver.CustomVersionRanges();
    auto it = ranges.find(key.name);
    return it == ranges.end()
               ? "no kernel for this custom op (a delegate or the application must provide it)"
               : version_reason(it->second);
  }
  const auto ranges = resolver.BuiltinVersionRanges();
  auto it = ranges.find(key.code);
  return it == ranges.end() ? "no kernel in this build" : version_reason(it->second);
}

// Counts the operators of `sg` into r->ops; the first of each kind is looked
// up in the resolver.
void CountOperators(const tflite::SubGraph* sg,
                    const flatbuffers::Vector<flatbuffers::Offset<tflite::OperatorCode>>* codes,
                    const tflite_c::MutableOpResolver& resolver, Report* r) {
  for (uint32_t o = 0; sg->operators() != nullptr && o < sg->operators()->size(); ++o) {
    const tflite::Operator* op = sg->operators()->Get(o);
    OpKey key;
    if (codes == nullptr || op->opcode_index() >= codes->size()) {
      key.name = "<invalid opcode index>";
      r->ops[key].count++;
      r->ops[key].supported = false;
      r->ops[key].reason = "the operator code index is out of range";
      continue;
    }
    const tflite::OperatorCode* oc = codes->Get(op->opcode_index());
    key.code = BuiltinCode(oc);
    key.version = oc->version();
    key.custom = key.code == tflite::BuiltinOperator_CUSTOM;
    key.name = key.custom ? (oc->custom_code() ? oc->custom_code()->str() : "")
                          : tflite_c::BuiltinOperatorName(key.code);
    OpStat& stat = r->ops[key];
    stat.count++;
    if (stat.count > 1) continue;
    const TfLiteRegistration* reg = key.custom ? resolver.FindOp(key.name.c_str(), key.version)
                                               : resolver.FindOp(key.code, key.version);
    if (reg != nullptr) continue;
    stat.supported = false;
    stat.reason = UnsupportedReason(key, resolver);
  }
}

std::vector<std::pair<std::string, int>> TensorMaps(
    const flatbuffers::Vector<flatbuffers::Offset<tflite::TensorMap>>* maps) {
  std::vector<std::pair<std::string, int>> out;
  if (maps != nullptr) {
    for (const tflite::TensorMap* m : *maps) {
      out.emplace_back(m->name() ? m->name()->str() : "", static_cast<int>(m->tensor_index()));
    }
  }
  return out;
}

}  // namespace

void DescribeModel(const tflite::Model* fb, Report* r) {
  r->version = fb->version();
  r->description = fb->description() ? fb->description()->str() : "";
  const auto* subgraphs = fb->subgraphs();
  tflite_c::MutableOpResolver resolver;
  tflite_c::RegisterBuiltinKernels(&resolver);
  tflite_c::RegisterMediaPipeKernels(&resolver);
  for (uint32_t s = 0; subgraphs != nullptr && s < subgraphs->size(); ++s) {
    const tflite::SubGraph* sg = subgraphs->Get(s);
    r->subgraphs.push_back(DescribeSubgraph(sg, static_cast<int>(s)));
    CountOperators(sg, fb->operator_codes(), resolver, r);
  }
  if (const auto* sigs = fb->signature_defs()) {
    for (const tflite::SignatureDef* sd : *sigs) {
      SignatureInfo s;
      s.key = sd->signature_key() ? sd->signature_key()->str() : "";
      s.subgraph = static_cast<int>(sd->subgraph_index());
      s.inputs = TensorMaps(sd->inputs());
      s.outputs = TensorMaps(sd->outputs());
      r->signatures.push_back(std::move(s));
    }
  }
}

}  // namespace tflite_c_inspector
