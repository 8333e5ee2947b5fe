#include "src/kernels/internal/conv_util.h"

#include "src/kernels/internal/padding.h"
#include "src/kernels/internal/quant_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus GetConvTensors(TfLiteContext* context, const TfLiteNode* node, const char* op,
                            ConvTensors* t, bool hybrid_ok) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 2, 3, 1));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &t->input));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 1, op, &t->filter));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &t->output));
  t->bias = GetOptionalInput(context, node, 2);
  // Quantized tensors are checked by PrepareQuantConv.
  const bool hybrid = hybrid_ok && t->input->type == kTfLiteFloat32 &&
                      t->filter->type != kTfLiteFloat32;
  if (!IsQuantizedType(t->input->type) && !hybrid) {
    TF_LITE_ENSURE_OK(context, ExpectType(context, op, "input", t->input, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, ExpectType(context, op, "filter", t->filter, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, ExpectType(context, op, "bias", t->bias, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, ExpectType(context, op, "output", t->output, kTfLiteFloat32));
  }
  if (NumDims(t->input) != 4 || NumDims(t->filter) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: input and filter must be 4-D, got ranks %d and %d", op,
                       NumDims(t->input), NumDims(t->filter));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ComputeConvGeometry(TfLiteContext* context, const char* op, const ConvTensors& t,
                                 const ConvWindowParams& w, ConvGeometry* g) {
  g->batches = Dim(t.input, 0);
  g->in_h = Dim(t.input, 1);
  g->in_w = Dim(t.input, 2);
  g->in_c = Dim(t.input, 3);
  g->filter_h = Dim(t.filter, 1);
  g->filter_w = Dim(t.filter, 2);
  if (g->batches < 0 || g->in_h <= 0 || g->in_w <= 0 || g->in_c <= 0 || g->filter_h <= 0 ||
      g->filter_w <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: input and filter dimensions must be positive", op);
    return kTfLiteError;
  }
  WindowAxis rows, cols;
  TF_LITE_ENSURE_OK(context, ComputeWindowAxis(context, op, kHeightAxis,
                                               {w.padding, w.stride_h, w.dilation_h}, g->in_h,
                                               g->filter_h, &rows));
  TF_LITE_ENSURE_OK(context, ComputeWindowAxis(context, op, kWidthAxis,
                                               {w.padding, w.stride_w, w.dilation_w}, g->in_w,
                                               g->filter_w, &cols));
  g->out_h = rows.out_size;
  g->out_w = cols.out_size;
  g->pad_top = rows.pad_before;
  g->pad_left = cols.pad_before;
  return kTfLiteOk;
}

TfLiteStatus CheckBiasSize(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                           int channels) {
  if (bias == nullptr || NumElements(bias) == channels) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: bias has %lld elements, expected %d (output channels)", op,
                     static_cast<long long>(NumElements(bias)), channels);
  return kTfLiteError;
}

int GatherDepthwiseTaps(const ConvGeometry& g, const ConvWindowParams& w, const uint8_t* input,
                        const int16_t* filter, int out_c, int64_t b, int y, int x,
                        DepthwiseTapScratch* s) {
  int count = 0;
  ForEachInputTap(g, w, b, y, x, [&](int64_t in_offset, int tap) {
    s->inputs[count] = input + in_offset;
    s->filters[count] = filter + int64_t{tap} * out_c;
    ++count;
  });
  return count;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
