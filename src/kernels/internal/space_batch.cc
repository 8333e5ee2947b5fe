#include "src/kernels/internal/space_batch.h"

#include <cstring>

#include "src/kernels/internal/index_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

namespace {

// Reads block_shape (input 1) and paddings/crops (input 2, [m, 2]) for the
// input, checking that block sizes are positive and padding/crops
// non-negative, then sizes output 0 with `shape_fn`.
TfLiteStatus ResizeSpaceBatchOutput(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    SpaceBatchShapeFn shape_fn, SpaceBatchOpData* data) {
  const TfLiteTensor* space = InputAt(context, node, 0);
  std::vector<int> after;
  std::vector<int> pads;
  TF_LITE_ENSURE_OK(context, ReadIntValues(context, op, "block_shape", InputAt(context, node, 1),
                                           &data->block));
  TF_LITE_ENSURE_OK(context, ReadIntValues(context, op, "paddings/crops",
                                           InputAt(context, node, 2), &pads));
  const int m = static_cast<int>(data->block.size());
  if (m < 1 || static_cast<int>(pads.size()) != 2 * m || NumDims(space) < m + 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %d block sizes and %zu paddings/crops do not fit rank %d",
                       op, m, pads.size(), NumDims(space));
    return kTfLiteError;
  }
  data->before.resize(m);
  after.resize(m);
  for (int i = 0; i < m; ++i) {
    data->before[i] = pads[2 * i];
    after[i] = pads[2 * i + 1];
    if (data->block[i] < 1 || pads[2 * i] < 0 || pads[2 * i + 1] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: block size %d or paddings/crops %d, %d are invalid", op,
                         data->block[i], pads[2 * i], pads[2 * i + 1]);
      return kTfLiteError;
    }
  }
  IntArrayPtr shape(TfLiteIntArrayCopy(space->dims));
  TF_LITE_ENSURE_OK(context, shape_fn(context, *data, after, shape.get()));
  return context->ResizeTensor(context, OutputAt(context, node, 0), shape.release());
}

}  // namespace

TfLiteStatus PrepareSpaceBatchOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                 SpaceBatchShapeFn shape_fn) {
  auto* data = static_cast<SpaceBatchOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 3, 3, 1));
  const TfLiteTensor *input, *block, *pads;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 1, op, &block));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 2, op, &pads));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  TF_LITE_ENSURE_OK(context,
                    CheckSameMovableType(context, op, input, output, &data->element_bytes));
  if (input->params.scale != output->params.scale ||
      input->params.zero_point != output->params.zero_point) {
    TF_LITE_KERNEL_LOG(context, "%s: output quantization differs from the input's", op);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckLayoutRank(context, op, "input", input));
  if (block->type != kTfLiteInt32 || pads->type != kTfLiteInt32 || NumDims(block) != 1 ||
      NumDims(pads) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: block_shape must be 1-D and paddings/crops 2-D, both INT32",
                       op);
    return kTfLiteError;
  }
  data->planned_in_prepare = IsConstantOrPersistent(block) && IsConstantOrPersistent(pads);
  if (data->planned_in_prepare) return ResizeSpaceBatchOutput(context, node, op, shape_fn, data);
  SetTensorToDynamic(output);
  return kTfLiteOk;
}

namespace {

// Copies between the two tensors; `to_batch` writes the batch side (and
// `pad`, one element, where the space position is outside), else the space
// side.
void MoveSpaceBatch(const SpaceBatchOpData& data, const TfLiteTensor* space_shape,
                    const TfLiteTensor* batch_shape, char* space, char* batch, bool to_batch,
                    const void* pad) {
  const int m = static_cast<int>(data.block.size());
  const int rank = NumDims(space_shape);
  const int64_t batch_count = Dim(space_shape, 0);
  const size_t row = DimsProduct(space_shape->dims, m + 1, rank) * data.element_bytes;
  int64_t space_strides[kMaxLayoutRank];
  RowMajorStrides(space_shape->dims, space_strides);
  const int64_t positions = NumElements(batch_shape) / DimsProduct(batch_shape->dims, m + 1, rank);
  std::vector<int64_t> q(m + 1);  // batch-side coordinates, q[0] the batch index
  for (int64_t p = 0; p < positions; ++p, batch += row) {
    int64_t rem = p;
    for (int d = m; d >= 0; --d) {
      q[d] = rem % Dim(batch_shape, d);
      rem /= Dim(batch_shape, d);
    }
    int64_t k = q[0] / batch_count, offset = (q[0] % batch_count) * space_strides[0];
    bool inside = true;
    for (int d = m; d >= 1; --d) {
      const int64_t ki = k % data.block[d - 1];
      k /= data.block[d - 1];
      const int64_t s = q[d] * data.block[d - 1] + ki - data.before[d - 1];
      inside = inside && s >= 0 && s < Dim(space_shape, d);
      offset += s * space_strides[d];
    }
    char* at = space + offset * data.element_bytes;
    if (inside) {
      std::memcpy(to_batch ? batch : at, to_batch ? at : batch, row);
    } else if (to_batch) {
      FillElements(batch, row / data.element_bytes, pad, data.element_bytes);
    }
  }
}

}  // namespace

TfLiteStatus EvalSpaceBatchOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                              bool to_batch, SpaceBatchShapeFn shape_fn) {
  auto* data = static_cast<SpaceBatchOpData*>(node->user_data);
  if (!data->planned_in_prepare) {
    TF_LITE_ENSURE_OK(context, ResizeSpaceBatchOutput(context, node, op, shape_fn, data));
  }
  const TfLiteTensor* input = InputAt(context, node, 0);
  TfLiteTensor* output = OutputAt(context, node, 0);
  if (NumElements(output) == 0 || NumElements(input) == 0) return kTfLiteOk;
  uint64_t pad = 0;  // real zero: the zero point of quantized types
  if (data->element_bytes == 1) {
    const uint8_t zero = static_cast<uint8_t>(input->params.zero_point);
    std::memcpy(&pad, &zero, 1);
  } else if (data->element_bytes == 2) {
    const int16_t zero = static_cast<int16_t>(input->params.zero_point);
    std::memcpy(&pad, &zero, 2);
  }
  if (to_batch) {
    MoveSpaceBatch(*data, input, output, input->data.raw, output->data.raw, true, &pad);
  } else {
    MoveSpaceBatch(*data, output, input, output->data.raw, input->data.raw, false, nullptr);
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
