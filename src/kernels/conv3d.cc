// CONV_3D and CONV_3D_TRANSPOSE, NDHWC, FLOAT32 (upstream's only type for
// both in 2.19's builtin kernels).
//
// CONV_3D: input [N, D, H, W, Cin], filter [KD, KH, KW, Cin, Cout], optional
// bias [Cout]; output [N, OD, OH, OW, Cout]. Like CONV_2D (conv.cc) it is an
// im2col + GEMM over tiles of output pixels: a tile's receptive fields become
// rows [KD*KH*KW*Cin] of a patch matrix, multiplied by the filter transposed
// to [Cout, KD*KH*KW*Cin] (once in Prepare when the filter is constant). A
// 1x1x1, stride-1 convolution uses the input itself as the patch matrix.
//
// CONV_3D_TRANSPOSE: inputs output_shape (INT32 [5]), filter
// [KD, KH, KW, Cout, Cin], input [N, D, H, W, Cin] and an optional bias
// [Cout]. Input pixel (z, y, x) adds filter tap (kz, ky, kx) times its values
// to output pixel (z*SD - pad + kz*DD, ...). The filter already is a
// [KD*KH*KW*Cout, Cin] matrix, so a tile of input pixels times its transpose
// gives every tap's contribution ("columns"), which are then added into the
// output (col2im). The output is sized from output_shape, at Eval when that
// tensor is not constant; its padding is that of a CONV_3D from the output
// back to the input, whose size must come out as the input's.
#include <algorithm>
#include <cstring>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/padding.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kConvOp[] = "CONV_3D";
constexpr char kTransposeOp[] = "CONV_3D_TRANSPOSE";


// The three spatial axes, outermost first: depth, height, width.
constexpr int kAxes = 3;

// A CONV_3D's window geometry: `in` is the convolution's input side, `out`
// its output side (for CONV_3D_TRANSPOSE, the op's output and input).
struct Geometry3D {
  int batches;
  int in[kAxes], out[kAxes], filter[kAxes];
  int stride[kAxes], dilation[kAxes], pad_before[kAxes];
  int in_c, out_c;

  int64_t InPixels() const { return int64_t{batches} * in[0] * in[1] * in[2]; }
  int64_t OutPixels() const { return int64_t{batches} * out[0] * out[1] * out[2]; }
  int64_t Taps() const { return int64_t{filter[0]} * filter[1] * filter[2]; }
};

void SetWindowParams(const TfLiteConv3DParams& p, Geometry3D* g) {
  g->stride[0] = p.stride_depth;
  g->stride[1] = p.stride_height;
  g->stride[2] = p.stride_width;
  g->dilation[0] = p.dilation_depth_factor;
  g->dilation[1] = p.dilation_height_factor;
  g->dilation[2] = p.dilation_width_factor;
}

// Computes g->out and g->pad_before from g->in, the filter and the window.
TfLiteStatus ComputeWindow(TfLiteContext* context, const char* op, TfLitePadding padding,
                           Geometry3D* g) {
  static constexpr const internal::WindowAxisNames* kNames[kAxes] = {
      &internal::kDepthAxis, &internal::kHeightAxis, &internal::kWidthAxis};
  for (int a = 0; a < kAxes; ++a) {
    internal::WindowAxis axis;
    TF_LITE_ENSURE_OK(context, internal::ComputeWindowAxis(context, op, *kNames[a],
                                                           {padding, g->stride[a], g->dilation[a]},
                                                           g->in[a], g->filter[a], &axis));
    g->out[a] = axis.out_size;
    g->pad_before[a] = axis.pad_before;
  }
  return kTfLiteOk;
}

// The options both ops read, and the arity check: `min_inputs` to
// `min_inputs` + 1 inputs (the last one the optional bias), one output.
TfLiteStatus GetParams(TfLiteContext* context, const TfLiteNode* node, const char* op,
                       int min_inputs, const TfLiteConv3DParams** params) {
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  *params = static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  return internal::CheckArity(context, node, op, min_inputs, min_inputs + 1, 1);
}

TfLiteStatus ExpectFloat(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                         const TfLiteTensor* filter, const TfLiteTensor* bias,
                         const TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "input", input, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "filter", filter, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "bias", bias, kTfLiteFloat32));
  return internal::ExpectType(context, op, "output", output, kTfLiteFloat32);
}

// Checks that input and filter are 5-D, with positive filter dimensions
// whose product fits int64 (so every product of some of them does too).
TfLiteStatus CheckShapes(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                         const TfLiteTensor* filter) {
  if (internal::NumDims(input) != 5 || internal::NumDims(filter) != 5) {
    TF_LITE_KERNEL_LOG(context, "%s: input and filter must be 5-D, got ranks %d and %d", op,
                       internal::NumDims(input), internal::NumDims(filter));
    return kTfLiteError;
  }
  int64_t elements = 1;
  for (int i = 0; i < 5; ++i) {
    const int d = internal::Dim(filter, i);
    if (d <= 0 || __builtin_mul_overflow(elements, int64_t{d}, &elements)) {
      TF_LITE_KERNEL_LOG(context, "%s: filter dimensions must be positive and their product fit",
                         op);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// Largest scratch buffer (1 GiB of floats) a convolution may ask for; beyond
// it Prepare fails instead of attempting the allocation.
constexpr int64_t kMaxScratchFloats = int64_t{1} << 28;

// Sizes `scratch` to `floats` zeros, or reports that it is too large.
TfLiteStatus AllocateScratch(TfLiteContext* context, const char* op, int64_t floats,
                             internal::ScratchVector<float>* scratch) {
  if (floats > kMaxScratchFloats) {
    TF_LITE_KERNEL_LOG(context, "%s: scratch of %lld floats is too large (not supported)", op,
                       static_cast<long long>(floats));
    return kTfLiteError;
  }
  scratch->assign(static_cast<size_t>(floats), 0.0f);
  return kTfLiteOk;
}

// ---- CONV_3D ------------------------------------------------------------------------

struct ConvData {
  Geometry3D g;
  bool pointwise;            // 1x1x1, stride 1: the input is the patch matrix
  int64_t patch_cols;        // KD * KH * KW * Cin
  internal::ConvTiling tiling;  // tiles of output pixels and threads
  internal::ScratchVector<float> patches;   // threads * tile_rows * patch_cols
  bool filter_ready = false;    // filter_t holds the constant filter
  internal::ScratchVector<float> filter_t;  // [Cout, patch_cols]
};

void TransposeFilter(ConvData* d, const float* filter) {
  const int64_t rows = d->patch_cols, cols = d->g.out_c;
  d->filter_t.resize(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) d->filter_t[c * rows + r] = filter[r * cols + c];
  }
}

TfLiteStatus ConvPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<ConvData*>(node->user_data);
  const TfLiteConv3DParams* params = nullptr;
  TF_LITE_ENSURE_OK(context, GetParams(context, node, kConvOp, 2, &params));
  const TfLiteTensor *input, *filter;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kConvOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kConvOp, &filter));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kConvOp, &output));
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 2);
  TF_LITE_ENSURE_OK(context, ExpectFloat(context, kConvOp, input, filter, bias, output));
  TF_LITE_ENSURE_OK(context, CheckShapes(context, kConvOp, input, filter));

  Geometry3D& g = d->g;
  g.batches = internal::Dim(input, 0);
  g.in_c = internal::Dim(input, 4);
  g.out_c = internal::Dim(filter, 4);
  for (int a = 0; a < kAxes; ++a) {
    g.in[a] = internal::Dim(input, a + 1);
    g.filter[a] = internal::Dim(filter, a);
  }
  if (internal::Dim(filter, 3) != g.in_c) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: filter [%d, %d, %d, %d, %d] does not fit %d input channels (its "
                       "dimension 3 must equal them)",
                       kConvOp, g.filter[0], g.filter[1], g.filter[2], internal::Dim(filter, 3),
                       g.out_c, g.in_c);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckBiasSize(context, kConvOp, bias, g.out_c));
  SetWindowParams(*params, &g);
  TF_LITE_ENSURE_OK(context, ComputeWindow(context, kConvOp, params->padding, &g));

  d->patch_cols = g.Taps() * g.in_c;
  d->pointwise = g.Taps() == 1 && g.stride[0] == 1 && g.stride[1] == 1 && g.stride[2] == 1;
  const int64_t pixels = g.OutPixels();
  if (d->pointwise || pixels == 0) {
    d->tiling = internal::ConvTiling{};
    d->patches.clear();
  } else {
    d->tiling = internal::PlanConvTiles(context, pixels, d->patch_cols, g.out_c,
                                        internal::kFloatTileValues);
    TF_LITE_ENSURE_OK(context, AllocateScratch(context, kConvOp,
                                               d->tiling.threads * d->tiling.tile_rows *
                                                   d->patch_cols,
                                               &d->patches));
  }
  d->filter_ready = internal::IsConstantOrPersistent(filter) && filter->data.raw != nullptr;
  if (d->filter_ready) TransposeFilter(d, filter->data.f);
  return internal::ResizeOutput(context, output, {g.batches, g.out[0], g.out[1], g.out[2], g.out_c});
}

// Splits `pixel` (an index over [N, out...]) into its batch, returned, and
// the input position of its window's first tap along each axis. int64, as a
// huge dilation can put taps beyond int.
int64_t WindowOrigin(const Geometry3D& g, int64_t pixel, int64_t pos[kAxes]) {
  for (int a = kAxes - 1; a >= 0; --a) {
    pos[a] = (pixel % g.out[a]) * g.stride[a] - g.pad_before[a];
    pixel /= g.out[a];
  }
  return pixel;
}

// Fills `patches` with the receptive fields of output pixels
// [first, first + count); taps in the padding are zero.
void Im2Col3D(const ConvData& d, const float* input, int64_t first, int64_t count,
              float* patches) {
  const Geometry3D& g = d.g;
  const size_t tap_bytes = sizeof(float) * g.in_c;
  for (int64_t r = 0; r < count; ++r) {
    int64_t pos[kAxes];
    const int64_t b = WindowOrigin(g, first + r, pos);
    float* dst = patches + r * d.patch_cols;
    for (int kz = 0; kz < g.filter[0]; ++kz) {
      const int64_t iz = pos[0] + int64_t{kz} * g.dilation[0];
      for (int ky = 0; ky < g.filter[1]; ++ky) {
        const int64_t iy = pos[1] + int64_t{ky} * g.dilation[1];
        for (int kx = 0; kx < g.filter[2]; ++kx, dst += g.in_c) {
          const int64_t ix = pos[2] + int64_t{kx} * g.dilation[2];
          if (iz < 0 || iz >= g.in[0] || iy < 0 || iy >= g.in[1] || ix < 0 || ix >= g.in[2]) {
            std::memset(dst, 0, tap_bytes);
            continue;
          }
          const int64_t offset = (((b * g.in[0] + iz) * g.in[1] + iy) * g.in[2] + ix) * g.in_c;
          std::memcpy(dst, input + offset, tap_bytes);
        }
      }
    }
  }
}

TfLiteStatus ConvEval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<ConvData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  const Geometry3D& g = d->g;
  const float* input = internal::InputAt(context, node, 0)->data.f;
  if (!d->filter_ready) TransposeFilter(d, internal::InputAt(context, node, 1)->data.f);
  const TfLiteTensor* bias_tensor = internal::GetOptionalInput(context, node, 2);
  const float* bias = bias_tensor ? bias_tensor->data.f : nullptr;
  float* output = internal::OutputAt(context, node, 0)->data.f;
  const auto range = internal::GetActivationRange<float>(params.activation);
  const int64_t pixels = g.OutPixels();
  if (pixels == 0) return kTfLiteOk;
  const internal::ConstMatrix filter{d->filter_t.data(), g.out_c, d->patch_cols, d->patch_cols};

  if (d->pointwise) {
    internal::MatMulTransposedRhs({input, pixels, g.in_c, g.in_c}, filter,
                                  {output, pixels, g.out_c, g.out_c},
                                  internal::KernelThreads(context));
    internal::AddBiasAndClamp(output, pixels, g.out_c, bias, range);
    return kTfLiteOk;
  }
  // Threads go to tiles when there are several, else into the GEMM itself.
  const int gemm_threads = d->tiling.threads == 1 ? internal::KernelThreads(context) : 1;
  internal::ForEachConvTile(d->tiling.threads, pixels, d->tiling.tile_rows,
                            [&](int64_t worker, int64_t first, int64_t count) {
    float* patches = d->patches.data() + worker * d->tiling.tile_rows * d->patch_cols;
    Im2Col3D(*d, input, first, count, patches);
    float* out = output + first * g.out_c;
    internal::MatMulTransposedRhs({patches, count, d->patch_cols, d->patch_cols}, filter,
                                  {out, count, g.out_c, g.out_c}, gemm_threads);
    internal::AddBiasAndClamp(out, count, g.out_c, bias, range);
  });
  return kTfLiteOk;
}

// ---- CONV_3D_TRANSPOSE ---------------------------------------------------------------

struct TransposeData {
  int64_t tile_rows;          // input pixels per tile
  internal::ScratchVector<float> columns;  // tile_rows * KD*KH*KW*Cout
};

TfLiteStatus ResizeFromShapeTensor(TfLiteContext* context, const TfLiteTensor* shape,
                                   TfLiteTensor* output) {
  const int32_t* s = shape->data.i32;
  for (int i = 0; i < 5; ++i) {
    if (s[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: output_shape has a negative dimension %d", kTransposeOp,
                         s[i]);
      return kTfLiteError;
    }
  }
  return internal::ResizeOutput(context, output, {s[0], s[1], s[2], s[3], s[4]});
}

// Reads the geometry once the output is sized, checking it against the input.
TfLiteStatus GetTransposeGeometry(TfLiteContext* context, const TfLiteConv3DParams& p,
                                  const TfLiteTensor* filter, const TfLiteTensor* input,
                                  const TfLiteTensor* output, Geometry3D* g) {
  g->batches = internal::Dim(output, 0);
  g->in_c = internal::Dim(output, 4);   // the convolution's input: our output
  g->out_c = internal::Dim(input, 4);
  for (int a = 0; a < kAxes; ++a) {
    g->in[a] = internal::Dim(output, a + 1);
    g->filter[a] = internal::Dim(filter, a);
  }
  if (g->batches != internal::Dim(input, 0) || g->in_c != internal::Dim(filter, 3)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: output_shape's batches (%d) and channels (%d) must equal the input's "
                       "batches (%d) and the filter's dimension 3 (%d)",
                       kTransposeOp, g->batches, g->in_c, internal::Dim(input, 0),
                       internal::Dim(filter, 3));
    return kTfLiteError;
  }
  SetWindowParams(p, g);
  TF_LITE_ENSURE_OK(context, ComputeWindow(context, kTransposeOp, p.padding, g));
  for (int a = 0; a < kAxes; ++a) {
    if (g->out[a] != internal::Dim(input, a + 1)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: output_shape [%d, %d, %d] would be convolved to [%d, %d, %d], not "
                         "the input's [%d, %d, %d]",
                         kTransposeOp, g->in[0], g->in[1], g->in[2], g->out[0], g->out[1],
                         g->out[2], internal::Dim(input, 1), internal::Dim(input, 2),
                         internal::Dim(input, 3));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus TransposePrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<TransposeData*>(node->user_data);
  const TfLiteConv3DParams* params = nullptr;
  TF_LITE_ENSURE_OK(context, GetParams(context, node, kTransposeOp, 3, &params));
  const TfLiteTensor *shape, *filter, *input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kTransposeOp, &shape));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kTransposeOp, &filter));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kTransposeOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kTransposeOp, &output));
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 3);
  TF_LITE_ENSURE_OK(context, ExpectFloat(context, kTransposeOp, input, filter, bias, output));
  TF_LITE_ENSURE_OK(context, CheckShapes(context, kTransposeOp, input, filter));
  if (shape->type != kTfLiteInt32 || internal::NumDims(shape) != 1 ||
      internal::NumElements(shape) != 5) {
    TF_LITE_KERNEL_LOG(context, "%s: output_shape must be a 1-D INT32 tensor of 5 elements",
                       kTransposeOp);
    return kTfLiteError;
  }
  const int in_c = internal::Dim(input, 4);
  if (internal::Dim(filter, 4) != in_c) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the filter's last dimension (%d) must equal the input's channels (%d)",
                       kTransposeOp, internal::Dim(filter, 4), in_c);
    return kTfLiteError;
  }
  const int out_c = internal::Dim(filter, 3);
  TF_LITE_ENSURE_OK(context, internal::CheckBiasSize(context, kTransposeOp, bias, out_c));
  // The columns of a tile: one row of KD*KH*KW*Cout per input pixel.
  const int64_t cols = internal::NumElements(filter) / in_c;
  const int64_t in_pixels = internal::NumElements(input) / in_c;
  d->tile_rows = internal::ConvTileRows(in_pixels, cols, internal::kFloatTileValues);
  TF_LITE_ENSURE_OK(context, AllocateScratch(context, kTransposeOp,
                                             in_pixels == 0 ? 0 : d->tile_rows * cols,
                                             &d->columns));

  if (!internal::IsConstantOrPersistent(shape)) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(context, ResizeFromShapeTensor(context, shape, output));
  Geometry3D g;
  return GetTransposeGeometry(context, *params, filter, input, output, &g);
}

// Adds the columns of input pixels [first, first + count) into the output.
void Col2Im3D(const Geometry3D& g, const float* columns, int64_t first, int64_t count,
              float* output) {
  const int out_c = g.in_c;  // the convolution's input channels
  for (int64_t r = 0; r < count; ++r) {
    int64_t pos[kAxes];
    const int64_t b = WindowOrigin(g, first + r, pos);
    const float* src = columns + r * g.Taps() * out_c;
    for (int kz = 0; kz < g.filter[0]; ++kz) {
      const int64_t oz = pos[0] + int64_t{kz} * g.dilation[0];
      for (int ky = 0; ky < g.filter[1]; ++ky) {
        const int64_t oy = pos[1] + int64_t{ky} * g.dilation[1];
        for (int kx = 0; kx < g.filter[2]; ++kx, src += out_c) {
          const int64_t ox = pos[2] + int64_t{kx} * g.dilation[2];
          if (oz < 0 || oz >= g.in[0] || oy < 0 || oy >= g.in[1] || ox < 0 || ox >= g.in[2]) {
            continue;
          }
          float* dst = output + (((b * g.in[0] + oz) * g.in[1] + oy) * g.in[2] + ox) * out_c;
          for (int c = 0; c < out_c; ++c) dst[c] += src[c];
        }
      }
    }
  }
}

TfLiteStatus TransposeEval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<TransposeData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  const TfLiteTensor* filter = internal::InputAt(context, node, 1);
  const TfLiteTensor* input = internal::InputAt(context, node, 2);
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 3);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context,
                      ResizeFromShapeTensor(context, internal::InputAt(context, node, 0), output));
  }
  Geometry3D g;
  TF_LITE_ENSURE_OK(context, GetTransposeGeometry(context, params, filter, input, output, &g));
  float* out = output->data.f;
  const int64_t out_pixels = g.InPixels();
  if (out_pixels == 0) return kTfLiteOk;
  std::fill(out, out + out_pixels * g.in_c, 0.0f);
  const int64_t in_pixels = g.OutPixels();
  const int64_t cols = g.Taps() * g.in_c;
  // The filter [KD, KH, KW, Cout, Cin] read as [KD*KH*KW*Cout, Cin].
  const internal::ConstMatrix taps{filter->data.f, cols, g.out_c, g.out_c};
  for (int64_t first = 0; first < in_pixels; first += d->tile_rows) {
    const int64_t count = std::min(d->tile_rows, in_pixels - first);
    internal::MatMulTransposedRhs({input->data.f + first * g.out_c, count, g.out_c, g.out_c}, taps,
                                  {d->columns.data(), count, cols, cols},
                                  internal::KernelThreads(context));
    Col2Im3D(g, d->columns.data(), first, count, out);
  }
  internal::AddBiasAndClamp(out, out_pixels, g.in_c, bias ? bias->data.f : nullptr,
                            internal::GetActivationRange<float>(params.activation));
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_CONV_3D() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<ConvData>, internal::FreeOpData<ConvData>, ConvPrepare, ConvEval);
  return &r;
}

const TfLiteRegistration* Register_CONV_3D_TRANSPOSE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<TransposeData>,
                                 internal::FreeOpData<TransposeData>, TransposePrepare,
                                 TransposeEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
