// GATHER (input, positions): picks slices of the input along `axis` at the
// given positions; with batch_dims = b, the first b dimensions of input and
// positions are shared batch dimensions. Output shape: input[:axis] +
// positions[b:] + input[axis+1:]. positions are INT16, INT32 or INT64; a
// position outside [0, input[axis]) fails Invoke. Any fixed-size element
// type (quantized values unchanged), packed INT4 (two values per byte, low
// nibble first; op version 7; any axis and batch_dims, including rows that
// start inside a byte), and 1-D STRING inputs.
#include <cstring>
#include <vector>

#include "src/core/string_util.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "GATHER";

struct OpData {
  int axis = 0, batch_dims = 0;
  size_t element_bytes = 0;  // 0 for strings and INT4
  bool int4 = false;
};

// Reads positions and checks each is below `limit`.
TfLiteStatus ReadPositions(TfLiteContext* context, const TfLiteTensor* positions, int64_t limit,
                           std::vector<int64_t>* values) {
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "positions", positions, values));
  for (int64_t v : *values) {
    if (v < 0 || v >= limit) {
      TF_LITE_KERNEL_LOG(context, "%s: position %lld is out of range [0, %lld)", kOp,
                         static_cast<long long>(v), static_cast<long long>(limit));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

internal::IntArrayPtr OutputShape(const OpData& data, const TfLiteTensor* input,
                                  const TfLiteTensor* positions) {
  const int rank = internal::NumDims(input), prank = internal::NumDims(positions);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank - 1 + prank - data.batch_dims));
  int o = 0;
  for (int d = 0; d < data.axis; ++d) shape->data[o++] = internal::Dim(input, d);
  for (int d = data.batch_dims; d < prank; ++d) shape->data[o++] = internal::Dim(positions, d);
  for (int d = data.axis + 1; d < rank; ++d) shape->data[o++] = internal::Dim(input, d);
  return shape;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteGatherParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *positions;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &positions));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (positions->type != kTfLiteInt32 && positions->type != kTfLiteInt64 &&
      positions->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, kOp, "positions", positions->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  const int rank = internal::NumDims(input), prank = internal::NumDims(positions);
  TF_LITE_ENSURE_OK(context,
                    internal::NormalizeAxis(context, kOp, params->axis, rank, &data->axis));
  data->batch_dims = params->batch_dims;
  if (data->batch_dims < 0) data->batch_dims += prank;
  if (data->batch_dims < 0 || data->batch_dims > data->axis || data->batch_dims > prank) {
    TF_LITE_KERNEL_LOG(context, "%s: batch_dims %d is invalid for axis %d and positions rank %d",
                       kOp, params->batch_dims, data->axis, prank);
    return kTfLiteError;
  }
  for (int d = 0; d < data->batch_dims; ++d) {
    if (internal::Dim(input, d) != internal::Dim(positions, d)) {
      TF_LITE_KERNEL_LOG(context, "%s: batch dimension %d differs between input and positions",
                         kOp, d);
      return kTfLiteError;
    }
  }
  if (input->type == kTfLiteString) {
    if (rank != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: STRING input must be 1-D, has rank %d", kOp, rank);
      return kTfLiteError;
    }
    data->element_bytes = 0;
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  data->int4 = input->type == kTfLiteInt4;
  if (data->int4) {
    data->element_bytes = 0;
    return context->ResizeTensor(context, output, OutputShape(*data, input, positions).release());
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->element_bytes));
  return context->ResizeTensor(context, output, OutputShape(*data, input, positions).release());
}

TfLiteStatus EvalString(TfLiteContext* context, const OpData& data, const TfLiteTensor* input,
                        const std::vector<int64_t>& pos, const TfLiteTensor* positions,
                        TfLiteTensor* output) {
  std::vector<const char*> strings(pos.size());
  std::vector<int> lengths(pos.size());
  for (size_t i = 0; i < pos.size(); ++i) {
    if (!StringTensorGet(input, static_cast<int>(pos[i]), &strings[i], &lengths[i])) {
      TF_LITE_KERNEL_LOG(context, "%s: STRING input is malformed", kOp);
      return kTfLiteError;
    }
  }
  TF_LITE_ENSURE_OK(context, StringTensorWrite(output, strings.data(), lengths.data(),
                                               static_cast<int>(pos.size())));
  TfLiteIntArrayFree(output->dims);
  output->dims = OutputShape(data, input, positions).release();
  return kTfLiteOk;
}

// Packed INT4: the rows are copied nibble by nibble (a byte at a time when
// both start on a byte boundary); the unused nibble of an odd count is 0.
TfLiteStatus EvalInt4(TfLiteContext* context, const OpData& data, const TfLiteTensor* input,
                      const std::vector<int64_t>& pos, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "output", output));
  const int rank = internal::NumDims(input);
  const int64_t coord = internal::Dim(input, data.axis);
  const int64_t batch = internal::DimsProduct(input->dims, 0, data.batch_dims);
  const int64_t outer = internal::DimsProduct(input->dims, data.batch_dims, data.axis);
  const int64_t row = internal::DimsProduct(input->dims, data.axis + 1, rank);
  const int64_t npos = batch == 0 ? 0 : static_cast<int64_t>(pos.size()) / batch;
  const auto* in = reinterpret_cast<const uint8_t*>(input->data.raw_const);
  auto* out = reinterpret_cast<uint8_t*>(output->data.raw);
  const int64_t out_count = internal::NumElements(output);
  if (out_count % 2 != 0) out[out_count / 2] = 0;
  int64_t to = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const int64_t base = (b * outer + o) * coord * row;
      for (int64_t p = 0; p < npos; ++p, to += row) {
        internal::CopyInt4(in, base + pos[b * npos + p] * row, out, to, row);
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* positions = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rank = internal::NumDims(input);
  const int64_t coord = internal::Dim(input, data.axis);
  std::vector<int64_t> pos;
  TF_LITE_ENSURE_OK(context, ReadPositions(context, positions, coord, &pos));
  if (data.int4) return EvalInt4(context, data, input, pos, output);
  if (data.element_bytes == 0) return EvalString(context, data, input, pos, positions, output);

  const int64_t batch = internal::DimsProduct(input->dims, 0, data.batch_dims);
  const int64_t outer = internal::DimsProduct(input->dims, data.batch_dims, data.axis);
  const int64_t row = internal::DimsProduct(input->dims, data.axis + 1, rank) * data.element_bytes;
  const int64_t npos = batch == 0 ? 0 : static_cast<int64_t>(pos.size()) / batch;
  char* out = output->data.raw;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const char* in = input->data.raw + (b * outer + o) * coord * row;
      for (int64_t p = 0; p < npos; ++p, out += row) {
        std::memcpy(out, in + pos[b * npos + p] * row, row);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_GATHER() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
