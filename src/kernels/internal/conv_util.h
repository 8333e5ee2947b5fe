// What CONV_2D and DEPTHWISE_CONV_2D have in common: NHWC tensors, a
// 4-D filter whose dimensions 1 and 2 are the window, and a window geometry.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/parallel.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct ConvTensors {
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  const TfLiteTensor* bias;  // null when omitted
  TfLiteTensor* output;
};

struct ConvWindowParams {
  TfLitePadding padding;
  int stride_h, stride_w;
  int dilation_h, dilation_w;
};

struct ConvGeometry {
  int batches, in_h, in_w, in_c;
  int filter_h, filter_w;
  int out_h, out_w;
  int pad_top, pad_left;  // padding before the first row / column
};

// Checks 2 or 3 inputs (input, filter, optional bias) and 1 output, all
// FLOAT32 unless the input is quantized (see quant_conv.h), with a 4-D input
// and filter. With `hybrid_ok`, a FLOAT32 input may come with a non-FLOAT32
// filter, whose types the caller checks (see conv_hybrid.h).
TfLiteStatus GetConvTensors(TfLiteContext* context, const TfLiteNode* node, const char* op,
                            ConvTensors* tensors, bool hybrid_ok = false);

// Reads the input and window sizes (all must be positive) and computes the
// output size and padding.
TfLiteStatus ComputeConvGeometry(TfLiteContext* context, const char* op, const ConvTensors& t,
                                 const ConvWindowParams& window, ConvGeometry* geometry);

// Calls tap(input_offset, tap_index) for each tap of output pixel (b, y, x)'s
// window that lies inside the input: input_offset indexes the input pixel's
// first channel, tap_index is ky * filter_w + kx. Taps in the padding are
// skipped (they contribute nothing).
template <typename Fn>
inline void ForEachInputTap(const ConvGeometry& g, const ConvWindowParams& w, int64_t b, int y,
                            int x, Fn tap) {
  const int y0 = y * w.stride_h - g.pad_top;
  const int x0 = x * w.stride_w - g.pad_left;
  for (int ky = 0; ky < g.filter_h; ++ky) {
    const int iy = y0 + ky * w.dilation_h;
    if (iy < 0 || iy >= g.in_h) continue;
    for (int kx = 0; kx < g.filter_w; ++kx) {
      const int ix = x0 + kx * w.dilation_w;
      if (ix < 0 || ix >= g.in_w) continue;
      tap(((b * g.in_h + iy) * g.in_w + ix) * g.in_c, ky * g.filter_w + kx);
    }
  }
}

// Windows of up to this many taps gather their tap pointers (4 KB on the
// stack); larger ones, rare, take DepthwisePixelSums' tap-by-tap loop.
constexpr int kMaxGatheredTaps = 256;

// Per-thread scratch of GatherDepthwiseTaps: one pointer pair per window tap.
struct DepthwiseTapScratch {
  const uint8_t* inputs[kMaxGatheredTaps];
  const int16_t* filters[kMaxGatheredTaps];
};

// The taps of output pixel (b, y, x) that lie inside the image, for 8-bit
// input bytes at `input` and a [KH * KW, out_c] int16 `filter` of at most
// kMaxGatheredTaps taps: fills s->inputs[i] (channel 0 of the tap's input
// pixel) and s->filters[i] (the tap's filter row) in tap order and returns
// how many there are.
int GatherDepthwiseTaps(const ConvGeometry& g, const ConvWindowParams& w, const uint8_t* input,
                        const int16_t* filter, int out_c, int64_t b, int y, int x,
                        DepthwiseTapScratch* s);

// A depthwise multiply-add costs about this many of a GEMM's (measured on
// MobileNet v2 and hand landmark lite's layers: 2-6x): nothing loaded is
// reused across output channels. Depthwise work is counted with it.
constexpr int64_t kDepthwiseMacCost = 4;

// Runs rows(begin, end) over the output rows (one per batch and y) on as many
// threads as `work_per_row` x rows justifies (in GEMM multiply-adds).
template <typename Fn>
void ForOutputRows(TfLiteContext* context, const ConvGeometry& g, int64_t work_per_row, Fn rows) {
  const int64_t count = int64_t{g.batches} * g.out_h;
  ParallelFor(ThreadsForWork(KernelThreads(context), count * work_per_row), count, rows);
}

// Checks that an optional bias has one element per output channel.
TfLiteStatus CheckBiasSize(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                           int channels);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_
