// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (input [N, H, W, C], size
// INT32 [2] = {OH, OW}) → [N, OH, OW, C]. They share the size handling and
// the source coordinate rules, hence one file:
//   scale = in / out, or (in - 1) / (out - 1) with align_corners;
//   half_pixel_centers samples at pixel centres (x + 0.5) * scale - 0.5.
// Nearest neighbour picks floor (round with align_corners) of the source
// coordinate and works for any fixed-size type. Bilinear blends the four
// neighbours: FLOAT32 and UINT8 with float weights (UINT8 rounds by adding
// 0.5 and truncating), INT8 and INT16 in upstream's integer form (source
// coordinates in 1/1024 steps, products rounded half away from zero). The
// quantized variants interpolate the stored values, so input and output
// share their quantization, as upstream assumes. A non-constant size makes
// the output dynamic.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct Sampling {
  bool align_corners;
  bool half_pixel_centers;
};

template <bool kBilinear>
constexpr const char* OpName() {
  return kBilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR";
}

template <bool kBilinear>
Sampling GetSampling(const TfLiteNode* node) {
  if (kBilinear) {
    const auto* p = static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
    return {p->align_corners, p->half_pixel_centers};
  }
  const auto* p = static_cast<const TfLiteResizeNearestNeighborParams*>(node->builtin_data);
  return {p->align_corners, p->half_pixel_centers};
}

float Scale(int in, int out, bool align_corners) {
  if (align_corners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

int NearestIndex(int o, int in, int out, Sampling s) {
  const float scale = Scale(in, out, s.align_corners);
  const float src = (static_cast<float>(o) + (s.half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int i = static_cast<int>(s.align_corners ? std::round(src) : std::floor(src));
  i = std::min(i, in - 1);
  return s.half_pixel_centers ? std::max(i, 0) : i;
}

// Sizes the output from the size tensor and, for nearest neighbour, builds
// the gather.
template <bool kBilinear>
TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* size = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int n = internal::Dim(input, 0), h = internal::Dim(input, 1), w = internal::Dim(input, 2),
            c = internal::Dim(input, 3);
  const int oh = size->data.i32[0], ow = size->data.i32[1];
  if (oh <= 0 || ow <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: output size %dx%d must be positive", OpName<kBilinear>(), oh,
                       ow);
    return kTfLiteError;
  }
  // Every output pixel reads at least one input pixel.
  constexpr const char* op = OpName<kBilinear>();
  TF_LITE_ENSURE_OK(context, internal::CheckPositive(context, op, "input height", h));
  TF_LITE_ENSURE_OK(context, internal::CheckPositive(context, op, "input width", w));
  if (kBilinear && (input->type == kTfLiteInt8 || input->type == kTfLiteInt16)) {
    // The integer path places taps in 1/1024 of an input pixel, in int32.
    int unused = 0;
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "input height + 1 in 1/1024 steps:",
                                                h + 1, 1 << 10, &unused));
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "input width + 1 in 1/1024 steps:",
                                                w + 1, 1 << 10, &unused));
  }
  if (!kBilinear) {
    const Sampling s = GetSampling<kBilinear>(node);
    std::vector<int> ys(oh), xs(ow);
    for (int y = 0; y < oh; ++y) ys[y] = NearestIndex(y, h, oh, s);
    for (int x = 0; x < ow; ++x) xs[x] = NearestIndex(x, w, ow, s);
    data->gather = internal::AxisGather(4);
    data->gather.SetLinearAxis(0, 0, 1, n, int64_t{h} * w * c);
    data->gather.SetAxis(1, ys, int64_t{w} * c);
    data->gather.SetAxis(2, xs, c);
    data->gather.SetLinearAxis(3, 0, 1, c, 1);
  }
  return internal::ResizeOutput(context, output, {n, oh, ow, c});
}

template <bool kBilinear>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* op = OpName<kBilinear>();
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor *input, *size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, op, &size));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  if (kBilinear && input->type != kTfLiteFloat32 && input->type != kTfLiteUInt8 &&
      input->type != kTfLiteInt8 && input->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, op, "input", input->type,
                                                       &data->element_bytes));
  TF_LITE_ENSURE_OK(context, internal::CheckNhwcInput(context, op, input));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "size", size, kTfLiteInt32));
  if (internal::NumDims(size) != 1 || internal::Dim(size, 0) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: size must be a 1-D tensor of 2 elements", op);
    return kTfLiteError;
  }
  const Sampling s = GetSampling<kBilinear>(node);
  if (s.align_corners && s.half_pixel_centers) {
    TF_LITE_KERNEL_LOG(context, "%s: align_corners and half_pixel_centers cannot both be set", op);
    return kTfLiteError;
  }
  return internal::FinishGatherPrepare(context, node, data,
                                       internal::IsConstantOrPersistent(size), Plan<kBilinear>);
}

// Source coordinate of output position `o` and its two neighbours.
struct Tap {
  float pos;
  int lo, hi;
};

Tap SourceTap(int o, float scale, bool half_pixel_centers, int in) {
  Tap t;
  t.pos = half_pixel_centers ? (static_cast<float>(o) + 0.5f) * scale - 0.5f
                             : static_cast<float>(o) * scale;
  const float floor = std::floor(t.pos);
  t.lo = std::max(static_cast<int>(floor), 0);
  t.hi = std::min(static_cast<int>(std::ceil(t.pos)), in - 1);
  return t;
}

struct BilinearGeometry {
  int n, h, w, c, oh, ow;
  Sampling s;
};

// FLOAT32, and UINT8 (as upstream's default kernel) with float weights.
template <typename T>
void BilinearFloatWeights(const BilinearGeometry& g, const T* in, T* out) {
  constexpr float kRound = std::is_integral_v<T> ? 0.5f : 0.0f;
  const float scale_y = Scale(g.h, g.oh, g.s.align_corners);
  const float scale_x = Scale(g.w, g.ow, g.s.align_corners);
  std::vector<Tap> xs(g.ow);
  for (int x = 0; x < g.ow; ++x) xs[x] = SourceTap(x, scale_x, g.s.half_pixel_centers, g.w);
  for (int b = 0; b < g.n; ++b) {
    const T* image = in + int64_t{b} * g.h * g.w * g.c;
    for (int y = 0; y < g.oh; ++y) {
      const Tap ty = SourceTap(y, scale_y, g.s.half_pixel_centers, g.h);
      const float dy = ty.pos - static_cast<float>(ty.lo);
      for (int x = 0; x < g.ow; ++x) {
        const Tap& tx = xs[x];
        const float dx = tx.pos - static_cast<float>(tx.lo);
        const T* p00 = image + (int64_t{ty.lo} * g.w + tx.lo) * g.c;
        const T* p10 = image + (int64_t{ty.hi} * g.w + tx.lo) * g.c;
        const T* p01 = image + (int64_t{ty.lo} * g.w + tx.hi) * g.c;
        const T* p11 = image + (int64_t{ty.hi} * g.w + tx.hi) * g.c;
        if constexpr (std::is_integral_v<T>) {
          const float w00 = (1 - dy) * (1 - dx), w01 = (1 - dy) * dx, w10 = dy * (1 - dx),
                      w11 = dy * dx;
          for (int ch = 0; ch < g.c; ++ch) {
            *out++ = static_cast<T>(p00[ch] * w00 + p01[ch] * w01 + p10[ch] * w10 +
                                    p11[ch] * w11 + kRound);
          }
        } else {
          for (int ch = 0; ch < g.c; ++ch) {
            *out++ = p00[ch] * (1 - dy) * (1 - dx) + p10[ch] * dy * (1 - dx) +
                     p01[ch] * (1 - dy) * dx + p11[ch] * dy * dx;
          }
        }
      }
    }
  }
}

// Scale in/out as a multiple of 1/1024, rounded.
int32_t Scale10(int in, int out, bool align_corners) {
  if (align_corners && out > 1) return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  return ((1 << 10) * in + out / 2) / out;
}

struct Tap10 {
  int32_t pos;  // in 1/1024 of a source pixel
  int lo, hi;
};

Tap10 SourceTap10(int o, int32_t scale_10, bool half_pixel_centers, int in) {
  Tap10 t;
  t.pos = half_pixel_centers ? o * scale_10 + scale_10 / 2 - (1 << 9) : o * scale_10;
  t.lo = std::max(t.pos / (1 << 10), 0);
  t.hi = std::min((t.pos + (1 << 10) - 1) / (1 << 10), in - 1);
  return t;
}

// INT8 and INT16: weights in 1/1024 steps, the sum in 1/2^20, rounded half
// away from zero.
template <typename T>
void BilinearInteger(const BilinearGeometry& g, const T* in, T* out) {
  const int32_t scale_y = Scale10(g.h, g.oh, g.s.align_corners);
  const int32_t scale_x = Scale10(g.w, g.ow, g.s.align_corners);
  std::vector<Tap10> xs(g.ow);
  for (int x = 0; x < g.ow; ++x) xs[x] = SourceTap10(x, scale_x, g.s.half_pixel_centers, g.w);
  for (int b = 0; b < g.n; ++b) {
    const T* image = in + int64_t{b} * g.h * g.w * g.c;
    for (int y = 0; y < g.oh; ++y) {
      const Tap10 ty = SourceTap10(y, scale_y, g.s.half_pixel_centers, g.h);
      const int64_t fy = ty.pos - (1 << 10) * ty.lo;  // weight of the lower row's neighbour
      for (int x = 0; x < g.ow; ++x) {
        const Tap10& tx = xs[x];
        const int64_t fx = tx.pos - (1 << 10) * tx.lo;
        const T* p00 = image + (int64_t{ty.lo} * g.w + tx.lo) * g.c;
        const T* p10 = image + (int64_t{ty.hi} * g.w + tx.lo) * g.c;
        const T* p01 = image + (int64_t{ty.lo} * g.w + tx.hi) * g.c;
        const T* p11 = image + (int64_t{ty.hi} * g.w + tx.hi) * g.c;
        for (int ch = 0; ch < g.c; ++ch) {
          const int64_t sum = p00[ch] * ((1 << 10) - fy) * ((1 << 10) - fx) +
                              p10[ch] * fy * ((1 << 10) - fx) + p01[ch] * ((1 << 10) - fy) * fx +
                              p11[ch] * fy * fx;
          const int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          *out++ = static_cast<T>((sum + round) / (1 << 20));
        }
      }
    }
  }
}

TfLiteStatus EvalBilinear(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  if (!data->planned_in_prepare) TF_LITE_ENSURE_OK(context, Plan<true>(context, node, data));
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  BilinearGeometry g;
  g.n = internal::Dim(input, 0);
  g.h = internal::Dim(input, 1);
  g.w = internal::Dim(input, 2);
  g.c = internal::Dim(input, 3);
  g.oh = internal::Dim(output, 1);
  g.ow = internal::Dim(output, 2);
  g.s = GetSampling<true>(node);
  switch (input->type) {
    case kTfLiteUInt8: BilinearFloatWeights(g, input->data.uint8, output->data.uint8); break;
    case kTfLiteInt8: BilinearInteger(g, input->data.int8, output->data.int8); break;
    case kTfLiteInt16: BilinearInteger(g, input->data.i16, output->data.i16); break;
    default: BilinearFloatWeights(g, input->data.f, output->data.f); break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RESIZE_BILINEAR() {
  return internal::GatherKernelRegistration<Prepare<true>, EvalBilinear>();
}

const TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR() {
  return internal::GatherOpRegistration<Prepare<false>, Plan<false>>();
}

}  // namespace kernels
}  // namespace tflite_c
