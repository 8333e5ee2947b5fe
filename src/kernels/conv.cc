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
// lets threads take tiles independently (the scaffold: conv_im2col.h). A 1x1,
// stride-1 ungrouped convolution needs no patches: the input already is the
// patch matrix.
//
// 8-bit inputs take the same route with integers: patches hold input values
// plus the input offset as int16 (a padding tap is then exactly 0), the
// filter is packed once as int16 with its offset, and qgemm.h accumulates in
// int32 before each value is requantized. int16 activations (int64
// accumulators) are computed directly.
#include <algorithm>
#include <memory>
#include <new>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/conv_hybrid.h"
#include "src/kernels/internal/conv_im2col.h"
#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/gemm_avx2.h"
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

// The kernel a node runs, chosen in Prepare.
enum class Path {
  kFloatPointwise,  // FLOAT32 1x1, stride 1, one group: the input is the patch matrix
  kFloatIm2Col,     // FLOAT32 im2col + GEMM over tiles of output pixels
  kQuantGemm,       // 8-bit: int16 patches times the packed int16 filter (qgemm.h)
  kQuantDirect,     // int16 activations, or 8-bit filters too deep for kQuantGemm
  kHybrid,          // FLOAT32 input, INT8 or INT4 filter (conv_hybrid.h)
};

struct OpData {
  Path path = Path::kFloatIm2Col;
  internal::ConvGeometry g;
  internal::ConvWindowParams window;
  TfLiteFusedActivation activation = kTfLiteActNone;
  int out_c;
  int groups;
  int64_t patch_cols;          // KH * KW * Cin / groups
  internal::ConvTiling tiling;  // kFloatIm2Col and kQuantGemm
  // Arena scratch per worker: patches, [tile_rows, patch_cols] floats
  // (kFloatIm2Col) or int16 (kQuantGemm), and int32 sums [tile_rows, Cout /
  // groups] (kQuantGemm).
  int patches = -1;
  int sums = -1;
  internal::QuantConvParams quant;
  // kQuantGemm: filter + filter offset as int16 [Cout, patch_cols], packed in
  // Prepare when the filter is constant, else at every Eval; the
  // requantization table, filled in Prepare when the bias is constant.
  bool qfilter_packed = false;
  internal::ScratchVector<int16_t> qfilter;
  internal::RequantizeTable requant;
  bool requant_ready = false;
  internal::HybridConvData hybrid_data;
};

void PackQuantizedFilter(OpData* d, const TfLiteTensor* filter) {
  internal::PackFilterInt16(filter, int64_t{d->out_c} * d->patch_cols, d->quant.filter_offset,
                            &d->qfilter);
}

// Reads the filter's output channels and groups (input channels / filter
// input channels) and checks the bias.
TfLiteStatus PrepareChannels(TfLiteContext* context, const internal::ConvTensors& t,
                             OpData* data) {
  const internal::ConvGeometry& g = data->g;
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
  data->patch_cols = int64_t{g.filter_h} * g.filter_w * filter_in_c;
  return internal::CheckBiasSize(context, kOp, t.bias, data->out_c);
}

// kQuantGemm: tiles, threads, scratch, and the filter and requantization
// table when they are constant.
TfLiteStatus PrepareQGemm(TfLiteContext* context, OpData* d, const TfLiteTensor* filter,
                          const TfLiteTensor* bias) {
  d->requant_ready = bias == nullptr || internal::IsConstantOrPersistent(bias);
  if (d->requant_ready) internal::FillRequantizeTable(d->quant, bias, d->out_c, &d->requant);
  const internal::ConvGeometry& g = d->g;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  d->tiling = internal::PlanConvTiles(context, pixels, d->patch_cols, d->out_c,
                                      internal::kInt16TileValues);
  const int64_t rows = d->tiling.threads * d->tiling.tile_rows;
  TF_LITE_ENSURE_OK(context, internal::RequestArenaScratch(context, kOp, rows * d->patch_cols,
                                                           sizeof(int16_t), &d->patches));
  TF_LITE_ENSURE_OK(context,
                    internal::RequestArenaScratch(context, kOp, rows * (d->out_c / d->groups),
                                                  sizeof(int32_t), &d->sums));
  d->qfilter_packed = internal::IsConstantOrPersistent(filter) && filter->data.raw != nullptr;
  if (d->qfilter_packed) PackQuantizedFilter(d, filter);
  return kTfLiteOk;
}

// kFloatPointwise or kFloatIm2Col, with the latter's tiles and scratch.
TfLiteStatus PrepareFloat(TfLiteContext* context, OpData* d) {
  const internal::ConvGeometry& g = d->g;
  const bool pointwise = g.filter_h == 1 && g.filter_w == 1 && d->window.stride_h == 1 &&
                         d->window.stride_w == 1 && d->groups == 1;
  d->path = pointwise ? Path::kFloatPointwise : Path::kFloatIm2Col;
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  if (pointwise || pixels == 0) {
    d->tiling = internal::ConvTiling{};
    return kTfLiteOk;
  }
  d->tiling = internal::PlanConvTiles(context, pixels, d->patch_cols, d->out_c,
                                      internal::kFloatTileValues);
  return internal::RequestArenaScratch(
      context, kOp, d->tiling.threads * d->tiling.tile_rows * d->patch_cols, sizeof(float),
      &d->patches);
}

// Chooses the path and prepares it.
TfLiteStatus PreparePath(TfLiteContext* context, const internal::ConvTensors& t, OpData* data) {
  if (internal::IsHybridConv(t)) {
    data->path = Path::kHybrid;
    return internal::PrepareHybridConv(context, kOp, /*depthwise=*/false, t, data->g,
                                       data->window, data->activation, data->out_c, data->groups,
                                       &data->hybrid_data);
  }
  bool quantized = false;
  TF_LITE_ENSURE_OK(context, internal::PrepareConvQuantization(
                                 context, kOp, internal::QuantConvKind::kConv, t,
                                 data->activation, 0, data->out_c, &quantized, &data->quant));
  if (!quantized) return PrepareFloat(context, data);
  if (t.input->type == kTfLiteInt16 || data->patch_cols > internal::kMaxQGemmDepth) {
    data->path = Path::kQuantDirect;
    return kTfLiteOk;
  }
  data->path = Path::kQuantGemm;
  return PrepareQGemm(context, data, t.filter, t.bias);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
  internal::ConvTensors t;
  TF_LITE_ENSURE_OK(context, internal::GetConvTensors(context, node, kOp, &t, /*hybrid_ok=*/true));
  data->window = {params->padding, params->stride_height, params->stride_width,
                  params->dilation_height_factor, params->dilation_width_factor};
  data->activation = params->activation;
  internal::ConvGeometry& g = data->g;
  TF_LITE_ENSURE_OK(context, internal::ComputeConvGeometry(context, kOp, t, data->window, &g));
  TF_LITE_ENSURE_OK(context, PrepareChannels(context, t, data));
  data->patches = -1;
  data->sums = -1;
  TF_LITE_ENSURE_OK(context, PreparePath(context, t, data));
  return internal::ResizeOutput(context, t.output, {g.batches, g.out_h, g.out_w, data->out_c});
}

// kQuantDirect. Padding taps are skipped, which equals reading the input's
// zero point.
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
    using Acc = internal::QuantAcc<T>;
    Acc acc = 0;
    internal::ForEachInputTap(d.g, d.window, b, y, x, [&](int64_t offset, int tap) {
      const Filter* w = taps + int64_t{tap} * group_c;
      for (int ic = 0; ic < group_c; ++ic) {
        acc = internal::WrappingAdd<Acc>(acc, static_cast<Acc>(src[offset + ic] + q.input_offset) *
                                                  static_cast<Acc>(w[ic] + q.filter_offset));
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
  const int64_t tile_rows = d->tiling.tile_rows;
  internal::ForEachConvTile(d->tiling.threads, pixels, tile_rows, [&](int64_t w, int64_t first,
                                                                      int64_t count) {
    int16_t* patches = all_patches + w * tile_rows * d->patch_cols;
    int32_t* sums = all_sums + w * tile_rows * group_out_c;
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

TfLiteStatus EvalQGemmPath(TfLiteContext* context, OpData* d, const internal::ConvTensors& t) {
  int16_t* patches = internal::ArenaScratch<int16_t>(context, d->patches);
  int32_t* sums = internal::ArenaScratch<int32_t>(context, d->sums);
  if (patches == nullptr || sums == nullptr) return kTfLiteError;
  if (t.input->type == kTfLiteUInt8) {
    EvalQGemm<uint8_t>(d, t.input, t.filter, t.bias, t.output, patches, sums);
  } else {
    EvalQGemm<int8_t>(d, t.input, t.filter, t.bias, t.output, patches, sums);
  }
  return kTfLiteOk;
}

// The AVX2 GEMM packs the filter for every product; with several threads a
// small layer's row chunks would each pack it again. Instead each thread
// packs it once, into its own transient buffer, for all the chunks it
// claims. Returns false (nothing done) without the AVX2 path, for a filter
// above kMaxPackedFloats, or when the buffers cannot be allocated.
bool EvalPointwisePerThreadPacks(const OpData& d, const internal::ConvTensors& t, int threads,
                                 int64_t blocks, internal::ActivationRange<float> range) {
  constexpr int64_t kMaxPackedFloats = int64_t{1} << 18;  // 1 MB per thread
  const int64_t size = internal::PackedRhsSize(d.out_c, d.g.in_c);
  if (!internal::Avx2GemmAvailable() || size > kMaxPackedFloats) return false;
  const int64_t tasks = internal::TasksFor(threads, blocks);
  const int slots = static_cast<int>(std::min<int64_t>(threads, tasks));
  std::unique_ptr<float[]> packs(new (std::nothrow) float[static_cast<size_t>(size * slots)]);
  std::unique_ptr<bool[]> packed(new (std::nothrow) bool[slots]());
  if (packs == nullptr || packed == nullptr) return false;
  const int64_t pixels = int64_t{d.g.batches} * d.g.out_h * d.g.out_w;
  const int in_c = d.g.in_c, out_c = d.out_c;
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  const internal::ConstMatrix filter{t.filter->data.f, out_c, in_c, in_c};
  internal::ParallelTasks(threads, tasks, [&](int slot, int64_t task) {
    float* pack = packs.get() + size * slot;
    if (!packed[slot]) {
      internal::PackRhsForAvx2(filter, pack);
      packed[slot] = true;
    }
    const int64_t b0 = blocks * task / tasks, b1 = blocks * (task + 1) / tasks;
    const int64_t first = pixels * b0 / blocks, count = pixels * b1 / blocks - first;
    float* out = t.output->data.f + first * out_c;
    internal::MatMulTransposedRhs({t.input->data.f + first * in_c, count, in_c, in_c}, filter,
                                  {out, count, out_c, out_c}, 1, pack);
    internal::AddBiasAndClamp(out, count, out_c, bias, range);
  });
  return true;
}

// kFloatPointwise and kFloatIm2Col.
TfLiteStatus EvalFloat(TfLiteContext* context, const OpData& d, const internal::ConvTensors& t) {
  const internal::ConvGeometry& g = d.g;
  const float* input = t.input->data.f;
  const float* filter = t.filter->data.f;
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  float* output = t.output->data.f;
  const auto range = internal::GetActivationRange<float>(d.activation);
  const int64_t pixels = int64_t{g.batches} * g.out_h * g.out_w;
  const int out_c = d.out_c;
  if (pixels == 0) return kTfLiteOk;

  if (d.path == Path::kFloatPointwise) {
    // Rows of pixels, each run through the GEMM and then the bias while in cache.
    const int threads = internal::ThreadsForWork(internal::KernelThreads(context),
                                                 pixels * g.in_c * out_c);
    // Blocks of at least kMinConvTileRows rows: each block re-packs the filter.
    const int64_t blocks = (pixels + internal::kMinConvTileRows - 1) / internal::kMinConvTileRows;
    if (threads > 1 && EvalPointwisePerThreadPacks(d, t, threads, blocks, range)) {
      return kTfLiteOk;
    }
    internal::ParallelFor(threads, blocks, [&](int64_t b0, int64_t b1) {
      const int64_t first = pixels * b0 / blocks, count = pixels * b1 / blocks - first;
      internal::MatMulTransposedRhs({input + first * g.in_c, count, g.in_c, g.in_c},
                                    {filter, out_c, g.in_c, g.in_c},
                                    {output + first * out_c, count, out_c, out_c}, 1);
      internal::AddBiasAndClamp(output + first * out_c, count, out_c, bias, range);
    });
    return kTfLiteOk;
  }

  float* all_patches = internal::ArenaScratch<float>(context, d.patches);
  if (all_patches == nullptr) return kTfLiteError;
  const int group_out_c = out_c / d.groups;
  const int64_t tile_rows = d.tiling.tile_rows;
  // Threads go to tiles when there are several, else into the GEMM itself.
  const int gemm_threads = d.tiling.threads == 1 ? internal::KernelThreads(context) : 1;
  internal::ForEachConvTile(d.tiling.threads, pixels, tile_rows, [&](int64_t w, int64_t first,
                                                                     int64_t count) {
    float* patches = all_patches + w * tile_rows * d.patch_cols;
    for (int group = 0; group < d.groups; ++group) {
      internal::Im2ColFloat(g, d.window, d.groups, d.patch_cols, input, group, first, count,
                            patches);
      internal::MatMulTransposedRhs(
          {patches, count, d.patch_cols, d.patch_cols},
          {filter + group * group_out_c * d.patch_cols, group_out_c, d.patch_cols, d.patch_cols},
          {output + first * out_c + group * group_out_c, count, group_out_c, out_c},
          gemm_threads);
    }
    internal::AddBiasAndClamp(output + first * out_c, count, out_c, bias, range);
  });
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const internal::ConvTensors t{internal::InputAt(context, node, 0),
                                internal::InputAt(context, node, 1),
                                internal::GetOptionalInput(context, node, 2),
                                internal::OutputAt(context, node, 0)};
  switch (data->path) {
    case Path::kHybrid:
      internal::EvalHybridConv(context, &data->hybrid_data, data->g, t.input, t.filter, t.bias,
                               t.output);
      return kTfLiteOk;
    case Path::kQuantGemm:
      return EvalQGemmPath(context, data, t);
    case Path::kQuantDirect:
      internal::DispatchQuantConvTypes(t.input->type, [&](auto in, auto f) {
        EvalQuantized<decltype(in), decltype(f)>(context, *data, t.input, t.filter, t.bias,
                                                 t.output);
      });
      return kTfLiteOk;
    case Path::kFloatPointwise:
    case Path::kFloatIm2Col:
      return EvalFloat(context, *data, t);
  }
  return kTfLiteError;
}

}  // namespace

const TfLiteRegistration* Register_CONV_2D() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
