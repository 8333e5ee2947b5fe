// CONV_2D, NHWC: input [N, H, W, Cin], filter [Cout, KH, KW, Cin / groups],
// optional bias [Cout], output [N, OH, OW, Cout]. FLOAT32; quantized int8
// (per-channel), uint8 (per-tensor) and int16x8 (int32 or int64 bias), see
// quant_conv.h; FLOAT32 with an INT8 or INT4 filter ("hybrid"), see
// conv_hybrid.h.
//
// Each group is an im2col + GEMM: the receptive fields of a tile of output
// pixels are copied into rows of a patch matrix [pixels, KH*KW*Cin/groups],
// which multiplied by the group's filter rows gives the group's output
// channels for those pixels. Working in tiles bounds the scratch memory and
// lets threads take tiles independently. A 1x1, stride-1 ungrouped
// convolution needs no patches: the input already is the patch matrix.
//
// 8-bit inputs take the same route with integers: patches hold input values
// plus the input offset as int16 (a padding tap is then exactly 0), the
// filter is packed once as int16 with its offset, and qgemm.h accumulates in
// int32 before each value is requantized. int16 activations (int64
// accumulators) are computed directly.
#include <algorithm>
#include <cstring>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_hybrid.h"
#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"
#include "src/kernels/internal/quant_conv.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "CONV_2D";

// Scratch budget per tile, in floats (1 MiB): small enough to stay in cache
// alongside the filter, large enough for an efficient GEMM.
constexpr int64_t kTileFloats = 256 * 1024;
constexpr int64_t kMinTileRows = 16;

struct OpData {
  internal::ConvGeometry g;
  int out_c;
  int groups;
  bool pointwise;              // 1x1, stride 1, one group: no im2col needed
  int64_t patch_cols;          // KH * KW * Cin / groups
  int64_t tile_rows;           // output pixels per tile
  int threads;                 // tiles processed in parallel
  int patches = -1;            // arena scratch: threads * tile_rows * patch_cols floats
  bool quantized;
  internal::ConvWindowParams window;
  internal::QuantConvParams quant;
  // 8-bit path: filter + filter offset as int16 [Cout, patch_cols] (packed in
  // Prepare when the filter is constant, else at every Eval), and per-worker
  // scratch: int16 patches [tile_rows, patch_cols], int32 sums [tile_rows, Cout / groups].
  bool use_qgemm = false;
  bool qfilter_packed = false;
  internal::ScratchVector<int16_t> qfilter;
  int qpatches = -1;  // arena scratch (int16), as qsums (int32)
  int qsums = -1;
  internal::RequantizeTable requant;  // filled in Prepare (bias constant) or Eval
  bool requant_ready = false;
  bool hybrid = false;  // FLOAT32 input, integer filter
  internal::HybridConvData hybrid_data;
};

// Scratch budget per tile for the 8-bit path, in int16 values (256 KiB).
constexpr int64_t kQTileValues = 128 * 1024;

template <typename Filter>
void PackFilter(const Filter* f, int64_t count, int32_t offset, int16_t* out) {
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<int16_t>(f[i] + offset);
}

void PackQuantizedFilter(OpData* d, const TfLiteTensor* filter) {
  const int64_t count = int64_t{d->out_c} * d->patch_cols;
  d->qfilter.resize(static_cast<size_t>(count));
  if (filter->type == kTfLiteUInt8) {
    PackFilter(filter->data.uint8, count, d->quant.filter_offset, d->qfilter.data());
  } else {
    PackFilter(filter->data.int8, count, d->quant.filter_offset, d->qfilter.data());
  }
}

// Sizes tiles, threads and scratch of the 8-bit path (use_qgemm).
TfLiteStatus PrepareQGemm(TfLiteContext* context, OpData* d, const TfLiteTensor* filter,
                          const TfLiteTensor* bias) {
  d->requant_ready = bias == nullptr || internal::IsConstantOrPersistent(bias);
  if (d->requant_ready) internal::FillRequantizeTable(d->quant, bias, d->out_c, &d->requant);
  const internal::ConvGeometry& g = d->g;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  d->tile_rows = std::max<int64_t>(1, std::min(pixels, std::max(kMinTileRows,
                                                                kQTileValues / d->patch_cols)));
  const int64_t tiles = (pixels + d->tile_rows - 1) / d->tile_rows;
  const int64_t work = pixels * d->patch_cols * d->out_c;
  d->threads = static_cast<int>(std::max<int64_t>(
      1, std::min<int64_t>(tiles, internal::ThreadsForWork(internal::KernelThreads(context), work))));
  TF_LITE_ENSURE_OK(context, internal::RequestArenaScratch(
                                 context, kOp, d->threads * d->tile_rows * d->patch_cols,
                                 sizeof(int16_t), &d->qpatches));
  TF_LITE_ENSURE_OK(context, internal::RequestArenaScratch(
                                 context, kOp, d->threads * d->tile_rows * (d->out_c / d->groups),
                                 sizeof(int32_t), &d->qsums));
  d->qfilter_packed = internal::IsConstantOrPersistent(filter) && filter->data.raw != nullptr;
  if (d->qfilter_packed) PackQuantizedFilter(d, filter);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  if (params == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: missing params", kOp);
    return kTfLiteError;
  }
  internal::ConvTensors t;
  TF_LITE_ENSURE_OK(context, internal::GetConvTensors(context, node, kOp, &t, /*hybrid_ok=*/true));
  const internal::ConvWindowParams window{params->padding, params->stride_height,
                                          params->stride_width, params->dilation_height_factor,
                                          params->dilation_width_factor};
  internal::ConvGeometry& g = data->g;
  TF_LITE_ENSURE_OK(context, internal::ComputeConvGeometry(context, kOp, t, window, &g));
  data->window = window;

  data->out_c = internal::Dim(t.filter, 0);
  const int filter_in_c = internal::Dim(t.filter, 3);
  if (data->out_c <= 0 || filter_in_c <= 0 || g.in_c % filter_in_c != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: filter [%d, %d, %d, %d] does not fit %d input channels (its last "
                       "dimension must divide them)",
                       kOp, data->out_c, g.filter_h, g.filter_w, filter_in_c, g.in_c);
    return kTfLiteError;
  }
  data->groups = g.in_c / filter_in_c;
  if (data->out_c % data->groups != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: output channels (%d) not a multiple of groups (%d)", kOp,
                       data->out_c, data->groups);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckBiasSize(context, kOp, t.bias, data->out_c));

  data->hybrid = internal::IsHybridConv(t);
  if (data->hybrid) {
    data->quantized = false;
    TF_LITE_ENSURE_OK(context, internal::PrepareHybridConv(context, kOp, /*depthwise=*/false, t, g,
                                                           window, params->activation, data->out_c,
                                                           data->groups, &data->hybrid_data));
    return internal::ResizeOutput(context, t.output, {g.batches, g.out_h, g.out_w, data->out_c});
  }
  TF_LITE_ENSURE_OK(context, internal::PrepareConvQuantization(
                                 context, kOp, internal::QuantConvKind::kConv, t,
                                 params->activation, 0, data->out_c, &data->quantized,
                                 &data->quant));
  if (data->quantized) {
    data->patch_cols = int64_t{g.filter_h} * g.filter_w * filter_in_c;
    data->patches = -1;
    data->use_qgemm = t.input->type != kTfLiteInt16 && data->patch_cols <= internal::kMaxQGemmDepth;
    if (data->use_qgemm) {
      TF_LITE_ENSURE_OK(context, PrepareQGemm(context, data, t.filter, t.bias));
    }
    return internal::ResizeOutput(context, t.output, {g.batches, g.out_h, g.out_w, data->out_c});
  }
  data->pointwise = g.filter_h == 1 && g.filter_w == 1 && params->stride_height == 1 &&
                    params->stride_width == 1 && data->groups == 1;
  data->patch_cols = int64_t{g.filter_h} * g.filter_w * filter_in_c;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  if (data->pointwise || pixels == 0) {
    data->tile_rows = 0;
    data->threads = 1;
    data->patches = -1;
  } else {
    data->tile_rows = std::min(pixels, std::max(kMinTileRows, kTileFloats / data->patch_cols));
    const int64_t tiles = (pixels + data->tile_rows - 1) / data->tile_rows;
    const int64_t work = pixels * data->patch_cols * data->out_c;
    data->threads = static_cast<int>(
        std::min<int64_t>(tiles, internal::ThreadsForWork(internal::KernelThreads(context), work)));
    TF_LITE_ENSURE_OK(context, internal::RequestArenaScratch(
                                   context, kOp, data->threads * data->tile_rows * data->patch_cols,
                                   sizeof(float), &data->patches));
  }
  return internal::ResizeOutput(context, t.output, {g.batches, g.out_h, g.out_w, data->out_c});
}

// Fills `patches` with the receptive fields of output pixels [first, first + count)
// restricted to the input channels of `group`. Taps outside the image are zero.
void Im2Col(const OpData& d, const TfLiteConvParams& p, const float* input, int group,
            int64_t first, int64_t count, float* patches) {
  const internal::ConvGeometry& g = d.g;
  const int group_c = g.in_c / d.groups;
  const size_t tap_bytes = sizeof(float) * group_c;
  for (int64_t r = 0; r < count; ++r) {
    const int64_t pixel = first + r;
    const int x = static_cast<int>(pixel % g.out_w);
    const int y = static_cast<int>((pixel / g.out_w) % g.out_h);
    const int64_t b = pixel / (int64_t{g.out_w} * g.out_h);
    float* dst = patches + r * d.patch_cols;
    const int y0 = y * p.stride_height - g.pad_top;
    const int x0 = x * p.stride_width - g.pad_left;
    for (int ky = 0; ky < g.filter_h; ++ky) {
      const int iy = y0 + ky * p.dilation_height_factor;
      for (int kx = 0; kx < g.filter_w; ++kx, dst += group_c) {
        const int ix = x0 + kx * p.dilation_width_factor;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::memset(dst, 0, tap_bytes);
        } else {
          const float* src = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c + group * group_c;
          std::memcpy(dst, src, tap_bytes);
        }
      }
    }
  }
}

// Padding taps are skipped, which equals reading the input's zero point.
template <typename T, typename Filter>
void EvalQuantized(TfLiteContext* context, const OpData& d, const TfLiteTensor* input,
                   const TfLiteTensor* filter, const TfLiteTensor* bias, TfLiteTensor* output) {
  const internal::QuantConvParams& q = d.quant;
  const T* in = static_cast<const T*>(input->data.data);
  const Filter* f = static_cast<const Filter*>(filter->data.data);
  const int group_c = d.g.in_c / d.groups;
  const int group_out_c = d.out_c / d.groups;
  internal::RunQuantConv<T>(context, d.g, d.out_c, d.patch_cols, q, bias, output,
                            [&](int64_t b, int y, int x, int oc) {
    const T* src = in + (oc / group_out_c) * group_c;
    const Filter* taps = f + int64_t{oc} * d.patch_cols;
    internal::QuantAcc<T> acc = 0;
    internal::ForEachInputTap(d.g, d.window, b, y, x, [&](int64_t offset, int tap) {
      const Filter* w = taps + int64_t{tap} * group_c;
      for (int ic = 0; ic < group_c; ++ic) {
        acc += static_cast<internal::QuantAcc<T>>(src[offset + ic] + q.input_offset) *
               static_cast<internal::QuantAcc<T>>(w[ic] + q.filter_offset);
      }
    });
    return acc;
  });
}

template <typename T>
void EvalQGemm(OpData* d, const TfLiteTensor* input, const TfLiteTensor* filter,
               const TfLiteTensor* bias, TfLiteTensor* output, int16_t* all_patches,
               int32_t* all_sums) {
  if (!d->qfilter_packed) PackQuantizedFilter(d, filter);
  if (!d->requant_ready) internal::FillRequantizeTable(d->quant, bias, d->out_c, &d->requant);
  const internal::ConvGeometry& g = d->g;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  if (pixels == 0) return;
  const T* in = static_cast<const T*>(input->data.data);
  T* out = static_cast<T*>(output->data.data);
  const int out_c = d->out_c;
  const int group_out_c = out_c / d->groups;
  const int workers = d->threads;
  internal::ForEachConvTile(workers, pixels, d->tile_rows, [&](int64_t w, int64_t first,
                                                               int64_t count) {
    int16_t* patches = all_patches + w * d->tile_rows * d->patch_cols;
    int32_t* sums = all_sums + w * d->tile_rows * group_out_c;
    for (int group = 0; group < d->groups; ++group) {
      // Patches hold input + input offset; taps outside the image are 0 (the
      // input's zero point plus its offset).
      internal::Im2ColWidened(g, d->window, d->groups, d->patch_cols, in, group, first, count,
                              [&](int64_t) { return d->quant.input_offset; }, patches);
      const int oc0 = group * group_out_c;
      internal::QGemmS16(patches, count, d->patch_cols,
                         d->qfilter.data() + int64_t{oc0} * d->patch_cols, group_out_c,
                         d->patch_cols, d->patch_cols, sums, group_out_c);
      const internal::RequantizeParams rp = d->requant.At(oc0);
      for (int64_t r = 0; r < count; ++r) {
        internal::RequantizeRow(sums + r * group_out_c, group_out_c, rp,
                                out + (first + r) * out_c + oc0);
      }
    }
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto& params = *static_cast<const TfLiteConvParams*>(node->builtin_data);
  if (data->hybrid) {
    internal::EvalHybridConv(context, &data->hybrid_data, data->g, internal::InputAt(context, node, 0),
                             internal::InputAt(context, node, 1),
                             internal::GetOptionalInput(context, node, 2),
                             internal::OutputAt(context, node, 0));
    return kTfLiteOk;
  }
  if (data->quantized) {
    const TfLiteTensor* input = internal::InputAt(context, node, 0);
    if (data->use_qgemm) {
      const TfLiteTensor* filter = internal::InputAt(context, node, 1);
      const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 2);
      TfLiteTensor* output = internal::OutputAt(context, node, 0);
      int16_t* patches = internal::ArenaScratch<int16_t>(context, data->qpatches);
      int32_t* sums = internal::ArenaScratch<int32_t>(context, data->qsums);
      if (patches == nullptr || sums == nullptr) return kTfLiteError;
      if (input->type == kTfLiteUInt8) {
        EvalQGemm<uint8_t>(data, input, filter, bias, output, patches, sums);
      } else {
        EvalQGemm<int8_t>(data, input, filter, bias, output, patches, sums);
      }
      return kTfLiteOk;
    }
    internal::DispatchQuantConvTypes(input->type, [&](auto t, auto f) {
      EvalQuantized<decltype(t), decltype(f)>(
          context, *data, input, internal::InputAt(context, node, 1),
          internal::GetOptionalInput(context, node, 2), internal::OutputAt(context, node, 0));
    });
    return kTfLiteOk;
  }
  const internal::ConvGeometry& g = data->g;
  const float* input = internal::InputAt(context, node, 0)->data.f;
  const float* filter = internal::InputAt(context, node, 1)->data.f;
  const TfLiteTensor* bias_tensor = internal::GetOptionalInput(context, node, 2);
  const float* bias = bias_tensor ? bias_tensor->data.f : nullptr;
  float* output = internal::OutputAt(context, node, 0)->data.f;
  const auto range = internal::GetActivationRange<float>(params.activation);
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  const int out_c = data->out_c;
  if (pixels == 0) return kTfLiteOk;

  if (data->pointwise) {
    internal::MatMulTransposedRhs({input, pixels, g.in_c, g.in_c}, {filter, out_c, g.in_c, g.in_c},
                                  {output, pixels, out_c, out_c}, internal::KernelThreads(context));
    internal::AddBiasAndClamp(output, pixels, out_c, bias, range);
    return kTfLiteOk;
  }

  float* all_patches = internal::ArenaScratch<float>(context, data->patches);
  if (all_patches == nullptr) return kTfLiteError;
  const int64_t tiles = (pixels + data->tile_rows - 1) / data->tile_rows;
  const int group_out_c = out_c / data->groups;
  // Threads go to tiles when there are several, else into the GEMM itself.
  const int gemm_threads = data->threads == 1 ? internal::KernelThreads(context) : 1;
  auto run_tiles = [&](int64_t worker, int64_t tile_begin, int64_t tile_end) {
    float* patches = all_patches + worker * data->tile_rows * data->patch_cols;
    for (int64_t tile = tile_begin; tile < tile_end; ++tile) {
      const int64_t first = tile * data->tile_rows;
      const int64_t count = std::min(data->tile_rows, pixels - first);
      for (int group = 0; group < data->groups; ++group) {
        Im2Col(*data, params, input, group, first, count, patches);
        internal::MatMulTransposedRhs(
            {patches, count, data->patch_cols, data->patch_cols},
            {filter + group * group_out_c * data->patch_cols, group_out_c, data->patch_cols,
             data->patch_cols},
            {output + first * out_c + group * group_out_c, count, group_out_c, out_c},
            gemm_threads);
      }
      internal::AddBiasAndClamp(output + first * out_c, count, out_c, bias, range);
    }
  };
  // Worker w takes a contiguous run of tiles and owns scratch slot w.
  const int workers = data->threads;
  internal::ParallelFor(workers, workers, [&](int64_t w_begin, int64_t w_end) {
    for (int64_t w = w_begin; w < w_end; ++w) {
      run_tiles(w, tiles * w / workers, tiles * (w + 1) / workers);
    }
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_CONV_2D() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
