// FAKE_QUANT: FLOAT32 in and out, same shape. Each value is clamped to a
// [min, max] range and snapped to the nearest of 2^num_bits evenly spaced
// levels, as TensorFlow's FakeQuantWithMinMaxArgs does in float:
//  - the range is first "nudged" so that 0 falls exactly on a level: with
//    scale = (max - min) / (2^num_bits - 1), the zero point min / scale
//    below 0 is rounded (half away from zero) and clamped to the levels;
//  - a value becomes round((clamp(x) - nudged_min) / scale) * scale + nudged_min,
//    the division done as a multiplication by 1 / scale.
// NaN clamps to nudged_min. Like upstream, narrow_range is refused; options
// that would divide by zero or overflow (min >= max, non-finite bounds,
// num_bits outside [1, 16]) are refused too.
#include <algorithm>
#include <cmath>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

struct FakeQuantOp {
  static constexpr const char* kName = "FAKE_QUANT";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32};
  struct Data : internal::UnaryOpData {
    float nudged_min = 0.0f, nudged_max = 0.0f, scale = 1.0f;
  };

  static TfLiteStatus CheckOptions(TfLiteContext* context, const TfLiteFakeQuantParams* params) {
    if (params->narrow_range) {
      TF_LITE_KERNEL_LOG(context, "%s: narrow_range is not supported (weights only)", kName);
      return kTfLiteError;
    }
    if (params->num_bits < 1 || params->num_bits > 16) {
      TF_LITE_KERNEL_LOG(context, "%s: num_bits %d is outside [1, 16]", kName, params->num_bits);
      return kTfLiteError;
    }
    if (!std::isfinite(params->min) || !std::isfinite(params->max) ||
        !(params->min < params->max)) {
      TF_LITE_KERNEL_LOG(context, "%s: needs finite min < max, got min %g max %g", kName,
                         params->min, params->max);
      return kTfLiteError;
    }
    return kTfLiteOk;
  }

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor*,
                              TfLiteTensor*, Data* data) {
    TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kName));
    const auto* params = static_cast<const TfLiteFakeQuantParams*>(node->builtin_data);
    TF_LITE_ENSURE_OK(context, CheckOptions(context, params));
    const float levels_min = 0.0f;
    const float levels_max = static_cast<float>((1 << params->num_bits) - 1);
    data->scale = (params->max - params->min) / (levels_max - levels_min);
    const float zero_point_from_min = levels_min - params->min / data->scale;
    float zero_point;
    if (zero_point_from_min < levels_min) {
      zero_point = levels_min;
    } else if (zero_point_from_min > levels_max) {
      zero_point = levels_max;
    } else {
      zero_point = std::round(zero_point_from_min);
    }
    data->nudged_min = (levels_min - zero_point) * data->scale;
    data->nudged_max = (levels_max - zero_point) * data->scale;
    return kTfLiteOk;
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    const float lo = data.nudged_min, hi = data.nudged_max, scale = data.scale;
    const float inverse_scale = 1.0f / scale;
    return internal::MapUnary<float>(context, node, [=](float x) {
      // std::max(lo, NaN) is lo: NaN lands on the lowest level, as upstream.
      const float clamped = std::min(hi, std::max(lo, x));
      return std::round((clamped - lo) * inverse_scale) * scale + lo;
    });
  }
};

}  // namespace

const TfLiteRegistration* Register_FAKE_QUANT() { return internal::RegisterUnaryOp<FakeQuantOp>(); }

}  // namespace kernels
}  // namespace tflite_c
