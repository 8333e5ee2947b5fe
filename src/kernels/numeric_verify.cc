// NumericVerify (custom op; upstream's default resolver registers it): the
// debugging op a converter inserts after a quantized tensor to compare it
// with the float tensor it replaces. Inputs: the quantized tensor (UINT8,
// INT8, INT16 or FLOAT16; per-channel INT8/UINT8 too) and the FLOAT32
// reference with as many elements. Output FLOAT32 shaped like the input:
// dequantized - reference. Options (flexbuffer map): tolerance (float,
// default 0) and log_if_failed (bool, default false).
// With log_if_failed and tolerance >= 0.1 the op fails at the first element
// whose |difference| exceeds tolerance * scale (the per-tensor scale, 0 for
// per-channel or FLOAT16 inputs); otherwise it reports the mean, standard
// deviation and largest |difference| through the error reporter, as
// upstream does on every run, and succeeds.
#include <cmath>
#include <new>
#include <string>

#include "src/kernels/internal/custom_options.h"
#include "src/kernels/internal/dequantize_util.h"
#include "src/kernels/internal/flex_map.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "NumericVerify";
// Below this tolerance only statistics are reported (upstream's rule).
constexpr float kMinCheckedTolerance = 0.1f;

struct OpData {
  float tolerance = 0.0f;
  bool log_if_failed = false;
  std::string error;  // why the options are unusable, reported by Prepare
};

void* Init(TfLiteContext*, const char* buffer, size_t length) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  internal::FlexMap map;
  int log_if_failed = 0;
  if (buffer == nullptr || !map.Parse(buffer, length)) {
    data->error = "custom options are missing or not a flexbuffer map";
  } else if (internal::FlexFloat(map, "tolerance", false, &data->tolerance, &data->error) &&
             internal::FlexInt(map, "log_if_failed", false, &log_if_failed, &data->error)) {
    data->log_if_failed = log_if_failed != 0;
  }
  return data;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckParsedOptions(context, kOp, data));
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *ref;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &ref));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(input->type,
                        {kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16, kTfLiteFloat16})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "reference", ref, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::CheckDequantizable(context, kOp, input));
  if (internal::NumElements(ref) != internal::NumElements(input)) {
    char a[64], b[64];
    TF_LITE_KERNEL_LOG(context, "%s: reference shape %s and input shape %s differ in size", kOp,
                       internal::ShapeToString(ref->dims, a, sizeof(a)),
                       internal::ShapeToString(input->dims, b, sizeof(b)));
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

int32_t StoredValue(const TfLiteTensor* t, int64_t i) {
  switch (t->type) {
    case kTfLiteUInt8: return t->data.uint8[i];
    case kTfLiteInt8: return t->data.int8[i];
    case kTfLiteInt16: return t->data.i16[i];
    default: return 0;  // FLOAT16 has no integer value
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const float* ref = internal::InputAt(context, node, 1)->data.f;
  float* out = internal::OutputAt(context, node, 0)->data.f;
  const int64_t n = internal::NumElements(input);
  const internal::QuantParams q = internal::LegacyQuantParams(input);
  // The output first holds the dequantized values, then their differences.
  internal::DequantizeToFloat(input, out);
  if (data->log_if_failed && data->tolerance >= kMinCheckedTolerance) {
    const float max_diff = data->tolerance * q.scale;
    for (int64_t i = 0; i < n; ++i) {
      const float dequantized = out[i];
      out[i] = dequantized - ref[i];
      if (std::fabs(out[i]) > max_diff) {
        TF_LITE_KERNEL_LOG(context,
                           "%s: mismatch at element %lld: %f is quantized to %d with scale %f "
                           "and zero point %d; |%f - %f| = %f > %f (tolerance %f)",
                           kOp, static_cast<long long>(i), ref[i],
                           static_cast<int>(StoredValue(input, i)), q.scale, q.zero_point,
                           ref[i], dequantized, std::fabs(out[i]), max_diff, data->tolerance);
        return kTfLiteError;
      }
    }
    return kTfLiteOk;
  }
  if (n == 0) return kTfLiteOk;
  double sum = 0.0, largest = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] -= ref[i];
    sum += out[i];
    largest = std::fmax(largest, std::fabs(static_cast<double>(out[i])));
  }
  const double mean = sum / n;
  double squares = 0.0;
  for (int64_t i = 0; i < n; ++i) squares += (out[i] - mean) * (out[i] - mean);
  TF_LITE_KERNEL_LOG(context, "%s: std: %f, mean: %f, max_diff: %f (scale: %f, zero_point: %d)",
                     kOp, std::sqrt(squares / n), mean, largest, q.scale, q.zero_point);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_NUMERIC_VERIFY() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(Init, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
