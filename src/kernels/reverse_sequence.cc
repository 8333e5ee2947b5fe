// REVERSE_SEQUENCE (input, seq_lengths): for each position b along
// batch_dim, reverses the first seq_lengths[b] elements along seq_dim and
// leaves the rest in place. seq_lengths is 1-D INT32 or INT64 with one entry
// per batch; a length outside [0, size of seq_dim] fails Invoke. Any
// fixed-size element type (upstream: FLOAT32, UINT8, INT16, INT32, INT64),
// values moved unchanged.
#include <algorithm>
#include <cstring>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "REVERSE_SEQUENCE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *lengths;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &lengths));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  size_t element_bytes;
  TF_LITE_ENSURE_OK(context,
                    internal::CheckSameMovableType(context, kOp, input, output, &element_bytes));
  if (lengths->type != kTfLiteInt32 && lengths->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "seq_lengths", lengths->type);
  }
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteReverseSequenceParams*>(node->builtin_data);
  const int rank = internal::NumDims(input);
  if (params->seq_dim < 0 || params->seq_dim >= rank || params->batch_dim < 0 ||
      params->batch_dim >= rank || params->seq_dim == params->batch_dim) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: seq_dim and batch_dim must be distinct dimensions in [0, %d), got "
                       "%d and %d",
                       kOp, rank, params->seq_dim, params->batch_dim);
    return kTfLiteError;
  }
  if (internal::NumDims(lengths) != 1 ||
      internal::Dim(lengths, 0) != internal::Dim(input, params->batch_dim)) {
    TF_LITE_KERNEL_LOG(context, "%s: seq_lengths must be 1-D with one entry per batch (%d)", kOp,
                       internal::Dim(input, params->batch_dim));
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteReverseSequenceParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int64_t> lengths;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "seq_lengths",
                                                     internal::InputAt(context, node, 1),
                                                     &lengths));
  const int seq_size = internal::Dim(input, params.seq_dim);
  for (int64_t len : lengths) {
    if (len < 0 || len > seq_size) {
      TF_LITE_KERNEL_LOG(context, "%s: sequence length %lld is outside [0, %d]", kOp,
                         static_cast<long long>(len), seq_size);
      return kTfLiteError;
    }
  }
  // View the input as [outer, first, middle, second, inner], where first and
  // second are the batch and sequence dimensions in axis order.
  const int first = std::min(params.seq_dim, params.batch_dim);
  const int second = std::max(params.seq_dim, params.batch_dim);
  const int rank = internal::NumDims(input);
  const int64_t outer = internal::DimsProduct(input->dims, 0, first);
  const int64_t first_size = internal::Dim(input, first);
  const int64_t middle = internal::DimsProduct(input->dims, first + 1, second);
  const int64_t second_size = internal::Dim(input, second);
  const int64_t block =
      internal::DimsProduct(input->dims, second + 1, rank) * internal::ElementBytes(input->type);
  const bool seq_first = params.seq_dim == first;
  const char* in = input->data.raw_const;
  char* out = output->data.raw;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < first_size; ++i) {
      for (int64_t m = 0; m < middle; ++m) {
        for (int64_t j = 0; j < second_size; ++j) {
          const int64_t batch = seq_first ? j : i;
          const int64_t seq = seq_first ? i : j;
          const int64_t from = seq < lengths[batch] ? lengths[batch] - 1 - seq : seq;
          const int64_t src_i = seq_first ? from : i;
          const int64_t src_j = seq_first ? j : from;
          const int64_t row = ((o * first_size + i) * middle + m) * second_size + j;
          const int64_t src_row = ((o * first_size + src_i) * middle + m) * second_size + src_j;
          std::memcpy(out + row * block, in + src_row * block, block);
        }
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_REVERSE_SEQUENCE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
