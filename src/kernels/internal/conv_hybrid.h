// CONV_2D and DEPTHWISE_CONV_2D with FLOAT32 input/output and INT8 (or, for
// CONV_2D, INT4) filters: "hybrid" or dynamic-range convolutions, as
// upstream computes them.
//
// At every Eval each batch of the input is quantized to int8 on its own:
//  - CONV_2D with one filter scale (or equal per-channel scales) and one
//    group: symmetric, scale max|x| / 127, zero point 0;
//  - otherwise (CONV_2D with differing per-channel scales or groups, and
//    every DEPTHWISE_CONV_2D): asymmetric over [min(x, 0), max(x, 0)] with a
//    nudged zero point zp.
// Each output value is the exact integer sum of filter * (q - zp) over the
// window (padding taps contribute nothing, i.e. they are a float 0), scaled
// back by filter_scale[c] and input_scale[b], plus bias[c], clamped to the
// fused activation's range. The two scales are applied in the order of the
// upstream kernel that x86 runs: their product for CONV_2D (its reference
// kernel, channel scale first, for grouped convolutions), input scale first
// for DEPTHWISE_CONV_2D.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CONV_HYBRID_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CONV_HYBRID_H_

#include <cstdint>
#include <vector>

#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Whether a node with these tensors is hybrid: FLOAT32 input, integer filter.
inline bool IsHybridConv(const ConvTensors& t) {
  return t.input->type == kTfLiteFloat32 && t.filter->type != kTfLiteFloat32;
}

// How float(sum) is scaled (see above).
enum class HybridScaling { kProduct, kChannelFirst, kInputFirst };

struct HybridConvData {
  bool depthwise = false;
  bool asymmetric = false;           // per-batch zero points (see above)
  HybridScaling scaling = HybridScaling::kProduct;
  int out_c = 0;
  int groups = 1;
  int multiplier = 1;                // depthwise: output channels per input channel
  int64_t patch_cols = 0;            // CONV_2D: KH * KW * Cin / groups
  ConvWindowParams window{};
  TfLiteFusedActivation activation = kTfLiteActNone;
  internal::ScratchVector<float> channel_scales;  // out_c entries
  // Filter values as int16 (INT4 unpacked), in the filter's own layout;
  // packed in Prepare when the filter is constant, else at every Eval.
  bool filter_packed = false;
  internal::ScratchVector<int16_t> filter;
  // Per-Eval scratch.
  internal::ScratchVector<int8_t> qinput;         // the quantized input
  internal::ScratchVector<float> batch_scales;    // input scale of each batch
  internal::ScratchVector<int32_t> batch_offsets; // its zero point (0 when symmetric)
  ConvTiling tiling;                  // CONV_2D: tiles of output pixels and threads
  internal::ScratchVector<int16_t> patches;       // threads * tile_rows * patch_cols
  internal::ScratchVector<int32_t> sums;          // threads * tile_rows * out_c / groups
};

// Checks the filter (INT8 or INT4 for CONV_2D, INT8 for DEPTHWISE_CONV_2D,
// constant or not), its affine quantization (one scale, or one per output
// channel along the output-channel dimension; zero points 0), the FLOAT32
// bias and output, and sizes the scratch. `g` is the computed geometry; for
// CONV_2D `groups` = input channels / filter input channels, for
// DEPTHWISE_CONV_2D `groups` is ignored.
TfLiteStatus PrepareHybridConv(TfLiteContext* context, const char* op, bool depthwise,
                               const ConvTensors& t, const ConvGeometry& g,
                               const ConvWindowParams& window, TfLiteFusedActivation activation,
                               int out_c, int groups, HybridConvData* d);

// Computes the output. `filter` is re-packed first unless it was constant.
void EvalHybridConv(TfLiteContext* context, HybridConvData* d, const ConvGeometry& g,
                    const TfLiteTensor* input, const TfLiteTensor* filter,
                    const TfLiteTensor* bias, TfLiteTensor* output);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CONV_HYBRID_H_
