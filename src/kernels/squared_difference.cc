// SQUARED_DIFFERENCE: out = (x - y)^2, broadcasting x against y. FLOAT32,
// INT32 (wrapping), and INT8 quantized (inputs rescaled to a common scale
// with 7 bits of headroom, then the square requantized, as upstream).
#include <cstdint>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SQUARED_DIFFERENCE";
constexpr int kHeadroomBits = 7;

struct OpData : internal::BroadcastOpData {
  internal::InputRescale rescale[2];
  int32_t out_zero_point = 0;
  internal::QuantizedMultiplier output_multiplier;
};

struct SquaredDifferenceOp {
  static constexpr const char* kName = kOp;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt8};
  using Data = OpData;

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, OpData* data) {
    if (internal::OutputAt(context, node, 0)->type != kTfLiteInt8) return kTfLiteOk;
    internal::QuantParams q[2], out;
    for (int i = 0; i < 2; ++i) {
      TF_LITE_ENSURE_OK(context,
                        internal::GetQuantParams(context, kOp, i == 0 ? "input 0" : "input 1",
                                                 internal::InputAt(context, node, i), &q[i]));
    }
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output",
                                                        internal::OutputAt(context, node, 0),
                                                        &out));
    data->out_zero_point = out.zero_point;
    // Both inputs go to the scale 2 * max(scale) / 2^7, the square to the output's.
    const double twice_max = internal::RescaleToTwiceMax(q[0], q[1], kHeadroomBits,
                                                         &data->rescale[0], &data->rescale[1]);
    data->output_multiplier = internal::QuantizeMultiplier(
        twice_max * twice_max / ((1 << (2 * kHeadroomBits)) * static_cast<double>(out.scale)));
    return kTfLiteOk;
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    switch (internal::OutputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        internal::MapBinary<float>(context, node, d, [](float a, float b) {
          const float diff = a - b;
          return diff * diff;
        });
        return kTfLiteOk;
      case kTfLiteInt32:
        internal::MapBinary<int32_t>(context, node, d, [](int32_t a, int32_t b) {
          const int32_t diff = internal::WrappingSub(a, b);
          return internal::WrappingMul(diff, diff);
        });
        return kTfLiteOk;
      default:
        internal::MapBinary<int8_t>(context, node, d, [&d](int8_t a, int8_t b) {
          const int32_t diff = d.rescale[0].Apply(a) - d.rescale[1].Apply(b);
          return internal::ClampTo<int8_t>(
              internal::MultiplyByQuantizedMultiplier(diff * diff, d.output_multiplier) +
              d.out_zero_point);
        });
        return kTfLiteOk;
    }
  }
};

}  // namespace

const TfLiteRegistration* Register_SQUARED_DIFFERENCE() {
  return internal::RegisterBinaryOp<SquaredDifferenceOp>();
}

}  // namespace kernels
}  // namespace tflite_c
