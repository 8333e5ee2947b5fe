// ONE_HOT (indices, depth, on_value, off_value): inserts a dimension of
// size `depth` at `axis` (-1: last); the element at position d along it is
// on_value where the index equals d, else off_value. indices INT32 or
// INT64; depth a scalar INT32; on/off values and the output of one type:
// FLOAT32, INT8, UINT8, INT16, INT32, INT64 or BOOL. A non-constant depth
// makes the output dynamic.
#include <cstring>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "ONE_HOT";

int Axis(const TfLiteNode* node, int indices_rank) {
  const int axis = static_cast<const TfLiteOneHotParams*>(node->builtin_data)->axis;
  return axis == -1 ? indices_rank : axis;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = internal::InputAt(context, node, 0);
  const TfLiteTensor* depth = internal::InputAt(context, node, 1);
  const int rank = internal::NumDims(indices);
  const int axis = Axis(node, rank);
  if (depth->data.i32[0] < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: depth %d is negative", kOp, depth->data.i32[0]);
    return kTfLiteError;
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank + 1));
  for (int d = 0, i = 0; d <= rank; ++d) {
    shape->data[d] = d == axis ? depth->data.i32[0] : internal::Dim(indices, i++);
  }
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0), shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 4, 4, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor *indices, *depth, *on, *off;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &depth));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &on));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 3, kOp, &off));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (indices->type != kTfLiteInt32 && indices->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "indices", indices->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "depth", depth, kTfLiteInt32));
  if (internal::NumElements(depth) != 1 || internal::NumElements(on) != 1 ||
      internal::NumElements(off) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: depth, on_value and off_value must be scalars", kOp);
    return kTfLiteError;
  }
  if (!internal::TypeIn(output->type, {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16,
                                       kTfLiteInt32, kTfLiteInt64, kTfLiteBool})) {
    return internal::UnsupportedType(context, kOp, "output", output->type);
  }
  if (on->type != output->type || off->type != output->type) {
    return internal::TypeMismatch(context, kOp, "on/off value", on->type, "output", output->type);
  }
  const int axis = Axis(node, internal::NumDims(indices));
  if (axis < 0 || axis > internal::NumDims(indices)) {
    TF_LITE_KERNEL_LOG(context, "%s: axis %d is out of range", kOp, axis);
    return kTfLiteError;
  }
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(depth),
                                 ResizeOutput);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeOutput));
  std::vector<int64_t> idx;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "indices", indices, &idx));
  const int axis = Axis(node, internal::NumDims(indices));
  const int64_t prefix = internal::DimsProduct(indices->dims, 0, axis);
  const int64_t suffix = internal::DimsProduct(indices->dims, axis, internal::NumDims(indices));
  const int64_t depth = internal::Dim(output, axis);
  const size_t es = internal::ElementBytes(output->type);
  const char* on = internal::InputAt(context, node, 2)->data.raw;
  const char* off = internal::InputAt(context, node, 3)->data.raw;
  char* out = output->data.raw;
  for (int64_t p = 0; p < prefix; ++p) {
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t s = 0; s < suffix; ++s, out += es) {
        std::memcpy(out, idx[p * suffix + s] == d ? on : off, es);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_ONE_HOT() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
