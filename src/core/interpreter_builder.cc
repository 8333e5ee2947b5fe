#include "src/core/interpreter_builder.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "src/core/blockwise_quantization.h"
#include "src/core/builtin_data.h"
#include "src/core/flatbuffer_read.h"
#include "src/core/tensor_util.h"

namespace tflite_c {
namespace {

template <typename T>
std::vector<int> ToIntVector(const flatbuffers::Vector<T>* v) {
  std::vector<int> out;
  if (v == nullptr) return out;
  out.reserve(v->size());
  for (auto x : *v) out.push_back(static_cast<int>(x));
  return out;
}

TfLiteIntArray* SparseIndexArray(tflite::SparseIndexVector type, const void* vec) {
  switch (type) {
    case tflite::SparseIndexVector_Int32Vector:
      return IntArrayFromVector(ToIntVector(static_cast<const tflite::Int32Vector*>(vec)->values()));
    case tflite::SparseIndexVector_Uint16Vector:
      return IntArrayFromVector(ToIntVector(static_cast<const tflite::Uint16Vector*>(vec)->values()));
    case tflite::SparseIndexVector_Uint8Vector:
      return IntArrayFromVector(ToIntVector(static_cast<const tflite::Uint8Vector*>(vec)->values()));
    default:
      return nullptr;
  }
}

// Converts the schema's sparsity description; nullptr when absent or malformed
// (the latter reported).
TfLiteStatus ConvertSparsity(const tflite::SparsityParameters* src, ErrorReporter* reporter,
                             int tensor_index, TfLiteSparsity** out) {
  *out = nullptr;
  if (src == nullptr) return kTfLiteOk;
  if (src->traversal_order() == nullptr || src->dim_metadata() == nullptr) {
    reporter->Reportf("Tensor %d: sparsity parameters lack traversal_order or dim_metadata",
                      tensor_index);
    return kTfLiteError;
  }
  auto* s = static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  if (s == nullptr) return kTfLiteError;
  s->traversal_order = IntArrayFromVector(ToIntVector(src->traversal_order()));
  s->block_map = IntArrayFromVector(ToIntVector(src->block_map()));
  const auto* dm = src->dim_metadata();
  s->dim_metadata_size = static_cast<int>(dm->size());
  s->dim_metadata = static_cast<TfLiteDimensionMetadata*>(
      std::calloc(dm->size() ? dm->size() : 1, sizeof(TfLiteDimensionMetadata)));
  if (s->dim_metadata == nullptr) {
    TfLiteSparsityFree(s);
    return kTfLiteError;
  }
  for (flatbuffers::uoffset_t i = 0; i < dm->size(); ++i) {
    const tflite::DimensionMetadata* d = dm->Get(i);
    TfLiteDimensionMetadata& o = s->dim_metadata[i];
    if (d == nullptr) {
      TfLiteSparsityFree(s);
      reporter->Reportf("Tensor %d: null dimension metadata %u", tensor_index, i);
      return kTfLiteError;
    }
    if (d->format() == tflite::DimensionType_DENSE) {
      o.format = kTfLiteDimDense;
      o.dense_size = d->dense_size();
    } else {
      o.format = kTfLiteDimSparseCSR;
      o.array_segments = SparseIndexArray(d->array_segments_type(), d->array_segments());
      o.array_indices = SparseIndexArray(d->array_indices_type(), d->array_indices());
      if (o.array_segments == nullptr || o.array_indices == nullptr) {
        TfLiteSparsityFree(s);
        reporter->Reportf("Tensor %d: sparse dimension %u lacks segments or indices",
                          tensor_index, i);
        return kTfLiteError;
      }
    }
  }
  *out = s;
  return kTfLiteOk;
}

TfLiteStatus ConvertQuantization(const tflite::QuantizationParameters* q, int tensor_index,
                                 int rank, ErrorReporter* reporter, TfLiteQuantization* out) {
  out->type = kTfLiteNoQuantization;
  out->params = nullptr;
  if (q != nullptr && q->details_type() == tflite::QuantizationDetails_BlockwiseQuantization) {
    const auto* details = q->details_as_BlockwiseQuantization();  // checked by the verifier
    auto* bq = static_cast<BlockwiseQuantization*>(std::calloc(1, sizeof(BlockwiseQuantization)));
    if (details == nullptr || bq == nullptr) {
      std::free(bq);
      reporter->Reportf("Tensor %d: blockwise quantization details are missing", tensor_index);
      return kTfLiteError;
    }
    bq->scale = details->scales();
    bq->zero_point = details->zero_points();
    bq->blocksize = details->block_size();
    bq->quantized_dimension = q->quantized_dimension();
    out->type = kBlockwiseQuantization;
    out->params = bq;
    return kTfLiteOk;
  }
  if (q == nullptr || q->scale() == nullptr || q->scale()->size() == 0) return kTfLiteOk;
  const auto* scale = q->scale();
  const auto* zp = q->zero_point();
  const int n = static_cast<int>(scale->size());
  if (zp != nullptr && zp->size() != 0 && static_cast<int>(zp->size()) != n) {
    reporter->Reportf("Tensor %d: %d quantization scales but %u zero points", tensor_index, n,
                      zp->size());
    return kTfLiteError;
  }
  if (n > 1 && (q->quantized_dimension() < 0 || q->quantized_dimension() >= rank)) {
    reporter->Reportf("Tensor %d: quantized_dimension %d out of range for rank %d", tensor_index,
                      q->quantized_dimension(), rank);
    return kTfLiteError;
  }
  auto* aq = static_cast<TfLiteAffineQuantization*>(std::calloc(1, sizeof(TfLiteAffineQuantization)));
  if (aq == nullptr) return kTfLiteError;
  aq->scale = TfLiteFloatArrayCreate(n);
  aq->zero_point = TfLiteIntArrayCreate(n);
  if (aq->scale == nullptr || aq->zero_point == nullptr) {
    TfLiteFloatArrayFree(aq->scale);
    TfLiteIntArrayFree(aq->zero_point);
    std::free(aq);
    return kTfLiteError;
  }
  for (int i = 0; i < n; ++i) {
    aq->scale->data[i] = scale->Get(i);
    aq->zero_point->data[i] =
        (zp != nullptr && zp->size() != 0) ? static_cast<int>(ReadElement(zp, i)) : 0;
  }
  aq->quantized_dimension = q->quantized_dimension();
  out->type = kTfLiteAffineQuantization;
  out->params = aq;
  return kTfLiteOk;
}

class Builder {
 public:
  Builder(const Model& model, const OpResolver& resolver, ErrorReporter* reporter)
      : model_(model), fb_(model.fb()), resolver_(resolver), reporter_(reporter) {}

  TfLiteStatus ResolveOpcodes() {
    const auto* codes = fb_->operator_codes();
    const flatbuffers::uoffset_t n = codes ? codes->size() : 0;
    registrations_.assign(n, nullptr);
    placeholders_.resize(n);
    TfLiteStatus status = kTfLiteOk;
    for (flatbuffers::uoffset_t i = 0; i < n; ++i) {
      const tflite::OperatorCode* oc = codes->Get(i);
      const int32_t code = std::max<int32_t>(oc->deprecated_builtin_code(), oc->builtin_code());
      const int version = oc->version();
      if (code != tflite::BuiltinOperator_CUSTOM) {
        registrations_[i] = resolver_.FindOp(code, version);
        if (registrations_[i] == nullptr) {
          reporter_->Reportf(
              "Didn't find op for builtin opcode '%s' version '%d'. This build of tflite-c has "
              "no kernel for it (an older version of this builtin might be supported).",
              BuiltinOperatorName(code), version);
          status = kTfLiteUnresolvedOps;
        }
        continue;
      }
      if (oc->custom_code() == nullptr) {
        reporter_->Reportf("Operator code %u is CUSTOM but has no custom_code.", i);
        return kTfLiteError;
      }
      const char* name = oc->custom_code()->c_str();
      const TfLiteRegistration* found = resolver_.FindOp(name, version);
      if (found != nullptr) {
        // Nodes keep a copy of the registration; its name must outlive the
        // resolver, so it points at the model's own string.
        placeholders_[i] = *found;
        placeholders_[i].custom_name = name;
        registrations_[i] = &placeholders_[i];
      } else {
        // May still be claimed by a delegate; fails at Prepare otherwise.
        placeholders_[i] = Subgraph::UnresolvedCustomOpRegistration(name);
        registrations_[i] = &placeholders_[i];
      }
    }
    return status;
  }

  TfLiteStatus BuildSubgraph(const tflite::SubGraph* sg, Subgraph* out) {
    if (sg->name() != nullptr) out->SetName(sg->name()->str());
    const auto* tensors = sg->tensors();
    const int num_tensors = tensors ? static_cast<int>(tensors->size()) : 0;
    TF_LITE_ENSURE_STATUS(out->AddTensors(num_tensors));
    std::vector<int> variables;
    for (int i = 0; i < num_tensors; ++i) {
      const tflite::Tensor* t = tensors->Get(i);
      TfLiteType type;
      if (!ConvertSchemaTensorType(t->type(), &type)) {
        reporter_->Reportf("Tensor %d has unsupported type %d", i, static_cast<int>(t->type()));
        return kTfLiteError;
      }
      const std::vector<int> dims = ToIntVector(t->shape());
      const std::vector<int> signature = ToIntVector(t->shape_signature());
      const char* name = t->name() ? t->name()->c_str() : nullptr;
      TfLiteQuantization quant;
      TF_LITE_ENSURE_STATUS(ConvertQuantization(t->quantization(), i,
                                                static_cast<int>(dims.size()), reporter_, &quant));
      TfLiteSparsity* sparsity = nullptr;
      if (ConvertSparsity(t->sparsity(), reporter_, i, &sparsity) != kTfLiteOk) {
        TfLiteQuantizationFree(&quant);
        return kTfLiteError;
      }
      const uint8_t* data = nullptr;
      size_t size = 0;
      // Upstream's notion of a constant: a non-zero buffer that has data.
      const bool constant = model_.GetTensorData(*t, &data, &size) && !t->is_variable();
      if (constant) {
        TF_LITE_ENSURE_STATUS(out->SetTensorParametersReadOnly(
            i, type, name, dims, quant, reinterpret_cast<const char*>(data), size, sparsity));
      } else {
        TF_LITE_ENSURE_STATUS(out->SetTensorParametersReadWrite(
            i, type, name, dims, quant, t->is_variable(), &signature, sparsity));
        if (t->is_variable()) variables.push_back(i);
      }
      if (!signature.empty() && constant) {
        // Constants keep their signature too, for callers that inspect it.
        TfLiteTensor* tt = out->tensor(i);
        tt->dims_signature = IntArrayFromVector(signature);
      }
    }

    const auto* ops = sg->operators();
    const int num_ops = ops ? static_cast<int>(ops->size()) : 0;
    for (int i = 0; i < num_ops; ++i) {
      const tflite::Operator* op = ops->Get(i);
      const uint32_t opcode_index = op->opcode_index();
      if (opcode_index >= registrations_.size()) {
        reporter_->Reportf("Operator %d has opcode_index %u out of range", i, opcode_index);
        return kTfLiteError;
      }
      const TfLiteRegistration* reg = registrations_[opcode_index];
      const auto* oc = fb_->operator_codes()->Get(opcode_index);
      const int32_t code = std::max<int32_t>(oc->deprecated_builtin_code(), oc->builtin_code());
      const std::vector<int> inputs = ToIntVector(op->inputs());
      const std::vector<int> outputs = ToIntVector(op->outputs());
      const std::vector<int> intermediates = ToIntVector(op->intermediates());
      if (code == tflite::BuiltinOperator_CUSTOM) {
        const char* init = nullptr;
        size_t init_size = 0;
        if (op->large_custom_options_offset() > 1) {
          const uint64_t off = op->large_custom_options_offset();
          const uint64_t len = op->large_custom_options_size();
          if (off > model_.size() || len > model_.size() - off) {
            reporter_->Reportf("Operator %d: custom options lie outside the model file", i);
            return kTfLiteError;
          }
          init = reinterpret_cast<const char*>(model_.bytes() + off);
          init_size = static_cast<size_t>(len);
        } else if (op->custom_options() != nullptr) {
          init = reinterpret_cast<const char*>(op->custom_options()->data());
          init_size = op->custom_options()->size();
        }
        TF_LITE_ENSURE_STATUS(out->AddNodeWithParameters(inputs, outputs, intermediates, init,
                                                         init_size, nullptr, reg));
      } else {
        void* builtin_data = nullptr;
        if (ParseBuiltinData(op, static_cast<tflite::BuiltinOperator>(code), reporter_,
                             &builtin_data) != kTfLiteOk) {
          reporter_->Reportf("Operator %d (%s): invalid builtin options", i,
                             BuiltinOperatorName(code));
          return kTfLiteError;
        }
        TF_LITE_ENSURE_STATUS(out->AddNodeWithParameters(inputs, outputs, intermediates, nullptr,
                                                         0, builtin_data, reg));
      }
    }
    TF_LITE_ENSURE_STATUS(out->SetInputs(ToIntVector(sg->inputs())));
    TF_LITE_ENSURE_STATUS(out->SetOutputs(ToIntVector(sg->outputs())));
    TF_LITE_ENSURE_STATUS(out->SetVariables(std::move(variables)));
    return kTfLiteOk;
  }

  TfLiteStatus BuildSignatures(Interpreter* interp) {
    const auto* defs = fb_->signature_defs();
    if (defs == nullptr) return kTfLiteOk;
    for (flatbuffers::uoffset_t i = 0; i < defs->size(); ++i) {
      const tflite::SignatureDef* d = defs->Get(i);
      SignatureInfo info;
      info.key = d->signature_key() ? d->signature_key()->str() : std::string();
      info.subgraph_index = static_cast<int>(d->subgraph_index());
      Subgraph* sg = interp->subgraph(info.subgraph_index);
      if (sg == nullptr) {
        reporter_->Reportf("Signature '%s' refers to missing subgraph %d", info.key.c_str(),
                           info.subgraph_index);
        return kTfLiteError;
      }
      auto add = [&](const flatbuffers::Vector<flatbuffers::Offset<tflite::TensorMap>>* maps,
                     std::map<std::string, int>* dst) -> TfLiteStatus {
        if (maps == nullptr) return kTfLiteOk;
        for (const tflite::TensorMap* m : *maps) {
          if (m == nullptr || m->name() == nullptr ||
              sg->tensor(static_cast<int>(m->tensor_index())) == nullptr) {
            reporter_->Reportf("Signature '%s' has an invalid tensor map entry",
                               info.key.c_str());
            return kTfLiteError;
          }
          (*dst)[m->name()->str()] = static_cast<int>(m->tensor_index());
        }
        return kTfLiteOk;
      };
      TF_LITE_ENSURE_STATUS(add(d->inputs(), &info.inputs));
      TF_LITE_ENSURE_STATUS(add(d->outputs(), &info.outputs));
      interp->signatures().push_back(std::move(info));
    }
    return kTfLiteOk;
  }

  void CollectMetadata(Interpreter* interp) {
    const auto* md = fb_->metadata();
    if (md == nullptr) return;
    for (const tflite::Metadata* m : *md) {
      if (m == nullptr || m->name() == nullptr) continue;
      const uint8_t* data = nullptr;
      size_t size = 0;
      if (!model_.GetBuffer(m->buffer(), &data, &size)) continue;
      interp->shared()->metadata[m->name()->str()] = {reinterpret_cast<const char*>(data), size};
    }
  }

 private:
  const Model& model_;
  const tflite::Model* fb_;
  const OpResolver& resolver_;
  ErrorReporter* reporter_;
  std::vector<const TfLiteRegistration*> registrations_;
  std::vector<TfLiteRegistration> placeholders_;
};

}  // namespace

TfLiteStatus BuildInterpreter(std::shared_ptr<const Model> model, const OpResolver& resolver,
                              ErrorReporter* reporter, std::unique_ptr<Interpreter>* out) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  out->reset();
  if (model == nullptr || model->fb() == nullptr) {
    reporter->Reportf("BuildInterpreter: null model");
    return kTfLiteError;
  }
  Builder builder(*model, resolver, reporter);
  TF_LITE_ENSURE_STATUS(builder.ResolveOpcodes());
  auto interp = std::make_unique<Interpreter>(reporter);
  const auto* subgraphs = model->fb()->subgraphs();
  const int n = subgraphs ? static_cast<int>(subgraphs->size()) : 0;
  if (n == 0) {
    reporter->Reportf("Model has no subgraphs");
    return kTfLiteError;
  }
  interp->AddSubgraphs(n - 1);
  for (int i = 0; i < n; ++i) {
    if (builder.BuildSubgraph(subgraphs->Get(i), interp->subgraph(i)) != kTfLiteOk) {
      reporter->Reportf("Failed to build subgraph %d", i);
      return kTfLiteError;
    }
  }
  TF_LITE_ENSURE_STATUS(builder.BuildSignatures(interp.get()));
  // Callers and control-flow ops write subgraph and signature inputs; a
  // constant among them must not share the model's bytes.
  for (int i = 0; i < n; ++i) {
    Subgraph* sg = interp->subgraph(i);
    std::vector<int> writable = sg->inputs();
    for (const SignatureInfo& sig : interp->signatures()) {
      if (sig.subgraph_index != i) continue;
      for (const auto& kv : sig.inputs) writable.push_back(kv.second);
    }
    sg->PrivatizeConstants(writable);
  }
  builder.CollectMetadata(interp.get());
  interp->SetModel(std::move(model));
  *out = std::move(interp);
  return kTfLiteOk;
}

}  // namespace tflite_c
