#include "src/kernels/internal/string_gather.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "src/core/string_util.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus CheckStringTensor(TfLiteContext* context, const char* op, const char* what,
                               const TfLiteTensor* input) {
  const int count = StringTensorCount(input);
  if (count < 0 || count != NumElements(input)) {
    TF_LITE_KERNEL_LOG(context, "%s: STRING %s is malformed (%d strings for %lld elements)", op,
                       what, count, static_cast<long long>(NumElements(input)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

namespace {

// The largest STRING buffer (offsets are int32).
constexpr uint64_t kMaxStringBytes = static_cast<uint64_t>(std::numeric_limits<int32_t>::max());

void WriteInt32(char* p, int32_t v) { std::memcpy(p, &v, sizeof(v)); }

TfLiteStatus TooLarge(TfLiteContext* context, const char* op, int64_t count) {
  TF_LITE_KERNEL_LOG(context, "%s: %lld output strings do not fit in a STRING tensor (2 GiB)", op,
                     static_cast<long long>(count));
  return kTfLiteError;
}

}  // namespace

TfLiteStatus WriteStrings(TfLiteContext* context, const char* op, const TfLiteTensor* strings,
                          const int64_t* index, int64_t count, const TfLiteIntArray* dims,
                          TfLiteTensor* output) {
  if (count < 0 || static_cast<uint64_t>(count) > kMaxStringBytes / sizeof(int32_t) - 2) {
    return TooLarge(context, op, count);
  }
  // First pass: validate and size; second: encode straight into the buffer.
  const uint64_t header = (static_cast<uint64_t>(count) + 2) * sizeof(int32_t);
  uint64_t total = header;
  const char* str = nullptr;
  int len = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int at = index == nullptr ? 0 : static_cast<int>(index[i]);
    if (!StringTensorGet(strings, at, &str, &len)) {
      TF_LITE_KERNEL_LOG(context, "%s: STRING input is malformed", op);
      return kTfLiteError;
    }
    total += static_cast<uint64_t>(len);
    if (total > kMaxStringBytes) return TooLarge(context, op, count);
  }
  IntArrayPtr shape(TfLiteIntArrayCopy(dims));
  char* buffer = static_cast<char*>(std::malloc(static_cast<size_t>(total)));
  if (shape == nullptr || buffer == nullptr) {
    std::free(buffer);
    TF_LITE_KERNEL_LOG(context, "%s: cannot allocate %llu bytes of output strings", op,
                       static_cast<unsigned long long>(total));
    return kTfLiteError;
  }
  WriteInt32(buffer, static_cast<int32_t>(count));
  int32_t offset = static_cast<int32_t>(header);
  for (int64_t i = 0; i < count; ++i) {
    StringTensorGet(strings, index == nullptr ? 0 : static_cast<int>(index[i]), &str, &len);
    WriteInt32(buffer + sizeof(int32_t) * (1 + i), offset);
    if (len > 0) std::memcpy(buffer + offset, str, static_cast<size_t>(len));
    offset += len;
  }
  WriteInt32(buffer + sizeof(int32_t) * (1 + count), offset);
  // Free only what the output owns (heap data), then hand it the new buffer.
  TfLiteTensorDataFree(output);
  output->data.raw = buffer;
  output->bytes = static_cast<size_t>(total);
  output->allocation_type = kTfLiteDynamic;
  TfLiteIntArrayFree(output->dims);
  output->dims = shape.release();
  return kTfLiteOk;
}

void GatherPositions(const AxisGather& g, int64_t input_count, int64_t output_count,
                     std::vector<int64_t>* positions) {
  std::vector<int64_t> all(static_cast<size_t>(input_count));
  std::iota(all.begin(), all.end(), int64_t{0});
  positions->assign(static_cast<size_t>(output_count), 0);
  if (output_count > 0) RunAxisGather(g, all.data(), positions->data(), sizeof(int64_t));
}

TfLiteStatus RunInt4Gather(TfLiteContext* context, const char* op, const AxisGather& g,
                           const TfLiteTensor* input, TfLiteTensor* output) {
  const int64_t in_count = NumElements(input), out_count = NumElements(output);
  TF_LITE_ENSURE_OK(context, CheckInt4Bytes(context, op, "input", input));
  TF_LITE_ENSURE_OK(context, CheckInt4Bytes(context, op, "output", output));
  std::vector<int64_t> positions;
  GatherPositions(g, in_count, out_count, &positions);
  const auto* in = reinterpret_cast<const uint8_t*>(input->data.raw_const);
  auto* out = reinterpret_cast<uint8_t*>(output->data.raw);
  if (out_count % 2 != 0) out[out_count / 2] = 0;  // the unused high nibble
  for (int64_t i = 0; i < out_count; ++i) {
    SetInt4Bits(out, i, Int4Bits(in, positions[static_cast<size_t>(i)]));
  }
  return kTfLiteOk;
}

TfLiteStatus RunStringGather(TfLiteContext* context, const char* op, const AxisGather& g,
                             const TfLiteTensor* input, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, CheckStringTensor(context, op, "input", input));
  const int64_t count = NumElements(output);
  if (static_cast<uint64_t>(count) > kMaxStringBytes / sizeof(int32_t) - 2) {
    return TooLarge(context, op, count);
  }
  std::vector<int64_t> selected;
  GatherPositions(g, NumElements(input), count, &selected);
  return WriteStrings(context, op, input, selected.data(), count, output->dims, output);
}

TfLiteStatus GetPackedGatherTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    int num_inputs, int packed, GatherOpData* data,
                                    const TfLiteTensor** inputs, TfLiteTensor** output) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, num_inputs, num_inputs, 1));
  TF_LITE_ENSURE_OK(context, GetInputsAndOutput(context, node, op, num_inputs, inputs, output));
  const TfLiteTensor* input = inputs[0];
  if ((*output)->type != input->type) {
    return TypeMismatch(context, op, "input", input->type, "output", (*output)->type);
  }
  data->element_bytes = 0;
  const bool is_packed = (input->type == kTfLiteString && (packed & kGatherStrings) != 0) ||
                         (input->type == kTfLiteInt4 && (packed & kGatherInt4) != 0);
  if (is_packed) return kTfLiteOk;
  return GetElementBytes(context, op, "input", input->type, &data->element_bytes);
}

TfLiteStatus EvalPackedGatherOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                GatherPlanFn plan) {
  auto* data = static_cast<GatherOpData*>(node->user_data);
  const TfLiteTensor* input = InputAt(context, node, 0);
  if (!data->planned_in_prepare) TF_LITE_ENSURE_OK(context, plan(context, node, data));
  if (input->type != kTfLiteString && input->type != kTfLiteInt4) {
    return RunGatherOp(context, node, *data);
  }
  TfLiteTensor* output = OutputAt(context, node, 0);
  if (input->type == kTfLiteInt4) return RunInt4Gather(context, op, data->gather, input, output);
  return RunStringGather(context, op, data->gather, input, output);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
