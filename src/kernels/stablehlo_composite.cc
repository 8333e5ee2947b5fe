// STABLEHLO_COMPOSITE: a named composite operation (StableHLOCompositeOptions:
// name, version, attributes) whose meaning is its decomposition subgraph. As
// upstream, the kernel simply runs that subgraph: the node's inputs are the
// subgraph's inputs, its outputs the subgraph's outputs. The name and
// attributes are not interpreted.
//
// The subgraph is reached like the control-flow kernels reach theirs
// (context->AcquireSubgraphContext plus src/core/subgraph_access.h, which
// refuses recursion): Prepare sizes its inputs like the node's and allocates
// it; Eval copies the values in, runs it and copies the results out. When
// the subgraph has dynamic tensors the node's outputs are dynamic too.
#include <cstring>
#include <vector>

#include "src/core/subgraph_access.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STABLEHLO_COMPOSITE";

struct OpData {
  int subgraph_index = -1;
  bool dynamic = false;
};

void* Init(TfLiteContext*, const char* buffer, size_t) {
  auto* data = new OpData;
  if (const auto* params = reinterpret_cast<const TfLiteStablehloCompositeParams*>(buffer)) {
    data->subgraph_index = params->subgraph_index;
  }
  return data;
}

void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

TfLiteStatus Acquire(TfLiteContext* context, int index, TfLiteContext** out) {
  if (context->AcquireSubgraphContext == nullptr ||
      context->AcquireSubgraphContext(context, index, out) != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context, "%s: invalid decomposition subgraph index %d", kOp, index);
    return kTfLiteError;
  }
  if (context->ReleaseSubgraphContext != nullptr) context->ReleaseSubgraphContext(context, index);
  if (index == SubgraphIndexOf(context)) {
    TF_LITE_KERNEL_LOG(context, "%s: decomposition subgraph %d is the subgraph the op is in", kOp,
                       index);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Copies `src`'s bytes into `dst`, (re)allocating a dynamic `dst` to fit.
TfLiteStatus CopyBytes(TfLiteContext* context, const TfLiteTensor* src, TfLiteTensor* dst) {
  if (dst->allocation_type == kTfLiteDynamic &&
      (dst->bytes != src->bytes || dst->data.raw == nullptr)) {
    TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(src->bytes, dst));
    dst->bytes = src->bytes;
  }
  if (dst->bytes != src->bytes) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot copy %zu bytes into a tensor of %zu bytes", kOp,
                       src->bytes, dst->bytes);
    return kTfLiteError;
  }
  if (src->bytes == 0 || src->data.raw_const == dst->data.raw) return kTfLiteOk;
  if (src->data.raw_const == nullptr || dst->data.raw == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: tensor without data", kOp);
    return kTfLiteError;
  }
  std::memcpy(dst->data.raw, src->data.raw_const, src->bytes);
  return kTfLiteOk;
}

// Gives the decomposition's inputs the node inputs' shapes and allocates it.
TfLiteStatus SizeSubgraph(TfLiteContext* context, TfLiteNode* node, TfLiteContext* sub) {
  const std::vector<int>& inputs = SubgraphInputs(sub);
  for (int i = 0; i < node->inputs->size; ++i) {
    if (inputs[i] == kTfLiteOptionalTensor) continue;
    const TfLiteTensor* value = internal::InputAt(context, node, i);
    const TfLiteTensor* dst = &sub->tensors[inputs[i]];
    if (dst->type != value->type) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d of subgraph %d is %s but the op passes %s", kOp, i,
                         SubgraphIndexOf(sub), TfLiteTypeGetName(dst->type),
                         TfLiteTypeGetName(value->type));
      return kTfLiteError;
    }
    if (ResizeSubgraphInput(sub, i, value->dims) != kTfLiteOk) {
      TF_LITE_KERNEL_LOG(context, "%s: cannot resize input %d of subgraph %d", kOp, i,
                         SubgraphIndexOf(sub));
      return kTfLiteError;
    }
  }
  return AllocateSubgraph(context, sub);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  if (node->inputs->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: needs at least one input", kOp);
    return kTfLiteError;
  }
  for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
    for (int i = 0; i < list->size; ++i) {
      const int t = list->data[i];
      if (t < 0 || static_cast<size_t>(t) >= context->tensors_size) {
        TF_LITE_KERNEL_LOG(context, "%s: inputs and outputs must all be present tensors", kOp);
        return kTfLiteError;
      }
    }
  }
  TfLiteContext* sub;
  TF_LITE_ENSURE_OK(context, Acquire(context, data->subgraph_index, &sub));
  const std::vector<int>& sub_inputs = SubgraphInputs(sub);
  const std::vector<int>& sub_outputs = SubgraphOutputs(sub);
  if (sub_inputs.size() != static_cast<size_t>(node->inputs->size) ||
      sub_outputs.size() != static_cast<size_t>(node->outputs->size)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the op has %d inputs and %d outputs but subgraph %d has %zu and %zu",
                       kOp, node->inputs->size, node->outputs->size, data->subgraph_index,
                       sub_inputs.size(), sub_outputs.size());
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, SizeSubgraph(context, node, sub));
  data->dynamic = false;
  for (size_t i = 0; i < sub->tensors_size; ++i) {
    if (sub->tensors[i].allocation_type == kTfLiteDynamic) data->dynamic = true;
  }
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* output = internal::OutputAt(context, node, i);
    if (sub_outputs[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: subgraph output %d is missing", kOp, i);
      return kTfLiteError;
    }
    const TfLiteTensor* result = &sub->tensors[sub_outputs[i]];
    if (result->type != output->type) {
      return internal::TypeMismatch(context, kOp, "subgraph output", result->type, "output",
                                    output->type);
    }
    if (data->dynamic) {
      internal::SetTensorToDynamic(output);
    } else {
      TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, result->dims));
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  TfLiteContext* sub;
  TF_LITE_ENSURE_OK(context, Acquire(context, data->subgraph_index, &sub));
  // Another node may have run the same decomposition with other shapes.
  TF_LITE_ENSURE_OK(context, SizeSubgraph(context, node, sub));
  const std::vector<int>& sub_inputs = SubgraphInputs(sub);
  for (int i = 0; i < node->inputs->size; ++i) {
    if (sub_inputs[i] == kTfLiteOptionalTensor) continue;
    TfLiteTensor* dst = &sub->tensors[sub_inputs[i]];
    // An input the subgraph never reads gets no memory: nothing to copy.
    if (dst->data.raw == nullptr && dst->allocation_type == kTfLiteArenaRw) continue;
    TF_LITE_ENSURE_OK(context, CopyBytes(context, internal::InputAt(context, node, i), dst));
  }
  TF_LITE_ENSURE_OK(context, InvokeSubgraph(context, sub));
  const std::vector<int>& sub_outputs = SubgraphOutputs(sub);
  for (int i = 0; i < node->outputs->size; ++i) {
    TF_LITE_ENSURE_OK(context, EnsureSubgraphTensorReadable(sub, sub_outputs[i]));
    const TfLiteTensor* result = &sub->tensors[sub_outputs[i]];
    TfLiteTensor* out = internal::OutputAt(context, node, i);
    if (!internal::SameShape(out->dims, result->dims)) {
      if (!internal::IsDynamic(out)) {
        TF_LITE_KERNEL_LOG(context, "%s: subgraph output %d has an unexpected shape", kOp, i);
        return kTfLiteError;
      }
      TF_LITE_ENSURE_OK(context,
                        context->ResizeTensor(context, out, TfLiteIntArrayCopy(result->dims)));
    }
    TF_LITE_ENSURE_OK(context, CopyBytes(context, result, out));
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_COMPOSITE() {
  static const TfLiteRegistration r = internal::MakeRegistration(Init, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
