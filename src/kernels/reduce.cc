// Reductions over the axes listed in input 1 (INT32 or INT64; negative axes
// count from the end, duplicates are ignored, an empty list reduces nothing),
// keeping reduced dimensions as size 1 when keep_dims is set:
//   MEAN, SUM      FLOAT32, INT32, INT64, and quantized INT8/UINT8/INT16
//   REDUCE_PROD    FLOAT32, INT32, INT64, INT8/INT16 (quantized or plain)
//   REDUCE_MAX/MIN FLOAT32, INT32, INT64, UINT8, INT8, INT16 (compared as stored)
//   REDUCE_ANY/ALL BOOL
// Quantized MEAN and SUM rescale exactly as upstream's default kernels do
// (which differ between SUM, MEAN over H and W of a 4-D INT8/UINT8 tensor,
// and other MEANs). Quantized REDUCE_PROD follows upstream's rule: each
// product step and the final value are rescaled by
// in_scale / out_scale^(1/N) (N input elements per output element) with the
// 64-bit requantization, so the accumulator stays in 32 bits. A non-constant
// axis tensor makes the output dynamic.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::QuantParams;

constexpr int kMaxRank = 8;

enum class Kind { kMean, kSum, kProd, kMax, kMin, kAny, kAll };

struct OpData {
  internal::ScratchVector<bool> reduced;  // per input dimension
  int64_t reduced_count = 1;  // input elements per output element
  QuantParams in_q, out_q;
  internal::QuantizedMultiplier multiplier;  // in_scale / out_scale
  bool quantized_prod = false;  // REDUCE_PROD of quantized INT8/INT16
};

const char* Name(Kind kind) {
  switch (kind) {
    case Kind::kMean:
      return "MEAN";
    case Kind::kSum:
      return "SUM";
    case Kind::kProd:
      return "REDUCE_PROD";
    case Kind::kMax:
      return "REDUCE_MAX";
    case Kind::kMin:
      return "REDUCE_MIN";
    case Kind::kAny:
      return "REDUCE_ANY";
    default:
      return "REDUCE_ALL";
  }
}

bool TypeSupported(Kind kind, TfLiteType t) {
  switch (kind) {
    case Kind::kMean:
    case Kind::kSum:
      return internal::TypeIn(t, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteInt8,
                                  kTfLiteUInt8, kTfLiteInt16});
    case Kind::kProd:
      return internal::TypeIn(t, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteInt8,
                                  kTfLiteInt16});
    case Kind::kMax:
    case Kind::kMin:
      return internal::TypeIn(t, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteInt8,
                                  kTfLiteUInt8, kTfLiteInt16});
    default:
      return t == kTfLiteBool;
  }
}

bool KeepDims(const TfLiteNode* node) {
  return static_cast<const TfLiteReducerParams*>(node->builtin_data)->keep_dims;
}

// Resolves the axis tensor against the input rank and sizes the output.
TfLiteStatus ResolveAndResize(TfLiteContext* context, const TfLiteNode* node, const char* op,
                              OpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* axis = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rank = internal::NumDims(input);
  data->reduced.assign(rank, false);
  for (int64_t i = 0, n = internal::NumElements(axis); i < n; ++i) {
    int64_t a = axis->type == kTfLiteInt32 ? axis->data.i32[i] : axis->data.i64[i];
    if (a < -rank || a >= rank) {
      TF_LITE_KERNEL_LOG(context, "%s: axis %lld is out of range for an input of rank %d", op,
                         static_cast<long long>(a), rank);
      return kTfLiteError;
    }
    if (a < 0) a += rank;
    data->reduced[a] = true;
  }
  std::vector<int> shape;
  data->reduced_count = 1;
  for (int d = 0; d < rank; ++d) {
    if (!data->reduced[d]) {
      shape.push_back(internal::Dim(input, d));
    } else {
      data->reduced_count *= internal::Dim(input, d);
      if (KeepDims(node)) shape.push_back(1);
    }
  }
  return context->ResizeTensor(context, output,
                               internal::MakeIntArray(shape.data(), static_cast<int>(shape.size()))
                                   .release());
}

template <Kind kKind>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const char* op = Name(kKind);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 2, 2, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  const TfLiteTensor* inputs[2];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInputsAndOutput(context, node, op, 2, inputs, &output));
  const TfLiteTensor *input = inputs[0], *axis = inputs[1];
  if (!TypeSupported(kKind, input->type)) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  if (internal::NumDims(input) > kMaxRank) {
    TF_LITE_KERNEL_LOG(context, "%s: input rank %d exceeds the supported %d", op,
                       internal::NumDims(input), kMaxRank);
    return kTfLiteError;
  }
  if (axis->type != kTfLiteInt32 && axis->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, op, "axis", axis->type);
  }
  if ((kKind == Kind::kMean || kKind == Kind::kSum) && internal::IsQuantizedType(input->type)) {
    data->in_q = internal::LegacyQuantParams(input);
    data->out_q = internal::LegacyQuantParams(output);
    if (data->out_q.scale == 0.0f) {
      TF_LITE_KERNEL_LOG(context, "%s: quantized output needs a per-tensor scale", op);
      return kTfLiteError;
    }
    if (input->type == kTfLiteInt16 && (data->in_q.zero_point != 0 || data->out_q.zero_point != 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output must have zero point 0", op);
      return kTfLiteError;
    }
    data->multiplier = internal::QuantizeMultiplier(static_cast<double>(data->in_q.scale) /
                                                    static_cast<double>(data->out_q.scale));
  }
  data->quantized_prod = false;
  if (kKind == Kind::kProd && (input->type == kTfLiteInt8 || input->type == kTfLiteInt16) &&
      input->quantization.type != kTfLiteNoQuantization) {
    data->quantized_prod = true;
    data->in_q = internal::LegacyQuantParams(input);
    data->out_q = internal::LegacyQuantParams(output);
    if (!(data->in_q.scale > 0.0f) || !(data->out_q.scale > 0.0f)) {
      TF_LITE_KERNEL_LOG(context, "%s: quantized input and output need a per-tensor scale", op);
      return kTfLiteError;
    }
    if (input->type == kTfLiteInt16 && (data->in_q.zero_point != 0 || data->out_q.zero_point != 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output must have zero point 0", op);
      return kTfLiteError;
    }
  }
  if (!internal::IsConstantOrPersistent(axis)) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResolveAndResize(context, node, op, data);
}

// out[o] = combine(out[o], in[i]) over every input element, out starting at
// `init`. Input elements are visited in order, so float sums match a plain
// sequential accumulation.
template <typename In, typename Acc, typename Combine>
void ReduceInto(const TfLiteTensor* input, const OpData& data, Acc init, Acc* out,
                int64_t out_count, Combine combine) {
  std::fill(out, out + out_count, init);
  const In* in = static_cast<const In*>(input->data.data);
  if (internal::NumElements(input) == 0) return;
  // Neighbouring dimensions that are both reduced or both kept merge into
  // one, so the walk below is over runs: a kept innermost run adds a row of
  // input to a row of outputs, a reduced one folds a row into one output.
  int rank = 0;
  int64_t size[kMaxRank];
  bool reduced[kMaxRank];
  for (int d = 0; d < internal::NumDims(input); ++d) {
    const int64_t n = internal::Dim(input, d);
    if (n == 1) continue;
    if (rank > 0 && reduced[rank - 1] == data.reduced[d]) {
      size[rank - 1] *= n;
    } else {
      size[rank] = n;
      reduced[rank] = data.reduced[d];
      ++rank;
    }
  }
  if (rank == 0) {
    out[0] = combine(out[0], in[0]);
    return;
  }
  // Output strides of the merged dimensions (0 where reduced).
  int64_t stride[kMaxRank] = {0};
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    stride[d] = reduced[d] ? 0 : s;
    if (!reduced[d]) s *= size[d];
  }
  const int last = rank - 1;
  const int64_t inner = size[last];
  int64_t outer = 1;
  for (int d = 0; d < last; ++d) outer *= size[d];
  int64_t index[kMaxRank] = {0};
  int64_t o = 0;
  for (int64_t r = 0; r < outer; ++r, in += inner) {
    if (reduced[last]) {
      Acc acc = out[o];
      for (int64_t i = 0; i < inner; ++i) acc = combine(acc, in[i]);
      out[o] = acc;
    } else {
      Acc* row = out + o;
      for (int64_t i = 0; i < inner; ++i) row[i] = combine(row[i], in[i]);
    }
    for (int d = last - 1; d >= 0; --d) {
      o += stride[d];
      if (++index[d] < size[d]) break;
      o -= stride[d] * index[d];
      index[d] = 0;
    }
  }
}

template <typename T>
void ReduceSame(Kind kind, const TfLiteTensor* input, const OpData& data, TfLiteTensor* output) {
  T* out = static_cast<T*>(output->data.data);
  const int64_t count = internal::NumElements(output);
  switch (kind) {
    case Kind::kSum:
      ReduceInto<T, T>(input, data, T(0), out, count, internal::WrappingAdd<T>);
      break;
    case Kind::kProd:
      ReduceInto<T, T>(input, data, T(1), out, count, internal::WrappingMul<T>);
      break;
    case Kind::kMax:
      ReduceInto<T, T>(input, data, std::numeric_limits<T>::lowest(), out, count,
                       [](T a, T b) { return a > b ? a : b; });
      break;
    case Kind::kMin:
      ReduceInto<T, T>(input, data, std::numeric_limits<T>::max(), out, count,
                       [](T a, T b) { return a < b ? a : b; });
      break;
    default:
      break;
  }
}

template <typename T>
void MeanUnquantized(const TfLiteTensor* input, const OpData& data, TfLiteTensor* output) {
  // Integers accumulate in 64 bits and divide with truncation.
  using Acc = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
  const int64_t count = internal::NumElements(output);
  std::vector<Acc> sum(count);
  ReduceInto<T, Acc>(input, data, Acc(0), sum.data(), count,
                     [](Acc a, T b) { return internal::WrappingAdd<Acc>(a, b); });
  T* out = static_cast<T*>(output->data.data);
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      out[i] = sum[i] / static_cast<T>(data.reduced_count);  // 0/0 is NaN for empty input
    } else {
      out[i] = data.reduced_count == 0 ? T(0) : static_cast<T>(sum[i] / data.reduced_count);
    }
  }
}

// Upstream's fast path for MEAN of a 4-D INT8/UINT8 tensor over H and W with
// keep_dims: one multiplier folds 1/count in, the input zero point becomes a
// rounded output bias.
bool IsSpatialMean(const TfLiteNode* node, const TfLiteTensor* input, const OpData& data) {
  return KeepDims(node) && internal::NumDims(input) == 4 && !data.reduced[0] && data.reduced[1] &&
         data.reduced[2] && !data.reduced[3];
}

template <typename T>
void QuantizedMeanOrSum(Kind kind, const TfLiteNode* node, const TfLiteTensor* input,
                        const OpData& data, TfLiteTensor* output) {
  const int64_t count = internal::NumElements(output);
  // int32 sums that wrap around, as upstream's do, when a hostile reduction
  // (over 8.4 million 8-bit values, 65,536 int16 ones) leaves the range.
  std::vector<int32_t> sum(count);
  ReduceInto<T, int32_t>(input, data, 0, sum.data(), count, [](int32_t a, T b) {
    return internal::WrappingAdd(a, static_cast<int32_t>(b));
  });
  T* out = static_cast<T*>(output->data.data);
  const int64_t n = data.reduced_count;
  if (n == 0 || internal::NumElements(input) == 0) {
    std::fill(out, out + count, T(0));
    return;
  }
  if (kind == Kind::kSum) {
    // Float rescaling, rounded half away from zero.
    const float scale = data.in_q.scale / data.out_q.scale;
    const float bias = static_cast<float>(-data.in_q.zero_point) * scale * static_cast<float>(n);
    for (int64_t i = 0; i < count; ++i) {
      const int32_t v = static_cast<int32_t>(std::round(static_cast<float>(sum[i]) * scale + bias));
      out[i] = internal::ClampTo<T>(v + data.out_q.zero_point);
    }
    return;
  }
  if (!std::is_same_v<T, int16_t> && IsSpatialMean(node, input, data)) {
    const float count_f = static_cast<float>(n);
    float zp_in_out = static_cast<float>(data.in_q.zero_point) * data.in_q.scale / data.out_q.scale;
    zp_in_out = zp_in_out > 0 ? zp_in_out + 0.5f : zp_in_out - 0.5f;
    const int32_t bias = data.out_q.zero_point - static_cast<int32_t>(zp_in_out);
    const float real_scale = data.in_q.scale / (count_f * data.out_q.scale);
    const internal::QuantizedMultiplier m = internal::QuantizeMultiplier(real_scale);
    for (int64_t i = 0; i < count; ++i) {
      out[i] = internal::ClampTo<T>(internal::MultiplyByQuantizedMultiplier(sum[i], m) + bias);
    }
    return;
  }
  // Fold 1/n into the multiplier with as many extra bits as fit.
  int shift = 63 - __builtin_clzll(static_cast<uint64_t>(n));
  shift = std::min(shift, 32);
  shift = std::min(shift, 31 + data.multiplier.shift);
  internal::QuantizedMultiplier m;
  m.multiplier = static_cast<int32_t>((static_cast<int64_t>(data.multiplier.multiplier) << shift) / n);
  m.shift = data.multiplier.shift - shift;
  for (int64_t i = 0; i < count; ++i) {
    const int32_t centered = static_cast<int32_t>(sum[i] - data.in_q.zero_point * n);
    out[i] = internal::ClampTo<T>(internal::MultiplyByQuantizedMultiplier(centered, m) +
                                  data.out_q.zero_point);
  }
}

// Quantized product: the first element of each output starts the product,
// every further one multiplies in and rescales; a last rescale and the output
// zero point finish it.
template <typename T>
void QuantizedProd(const TfLiteTensor* input, const OpData& data, TfLiteTensor* output) {
  const int64_t in_count = internal::NumElements(input);
  const int64_t out_count = internal::NumElements(output);
  if (in_count == 0 || out_count == 0) return;
  const int64_t n = in_count / out_count;
  const internal::QuantizedMultiplier m = internal::QuantizeMultiplier(
      static_cast<double>(data.in_q.scale) /
      std::pow(static_cast<double>(data.out_q.scale), 1.0 / static_cast<double>(n)));
  const int32_t in_zp = data.in_q.zero_point;
  struct Acc {
    int32_t value;
    bool started;
  };
  std::vector<Acc> acc(static_cast<size_t>(out_count));
  ReduceInto<T, Acc>(input, data, Acc{0, false}, acc.data(), out_count, [&](Acc a, T in) {
    const int32_t centered = static_cast<int32_t>(in) - in_zp;
    if (!a.started) return Acc{centered, true};
    return Acc{internal::MultiplyByQuantizedMultiplier(int64_t{a.value} * centered, m), true};
  });
  T* out = static_cast<T*>(output->data.data);
  for (int64_t i = 0; i < out_count; ++i) {
    out[i] = internal::ClampTo<T>(
        internal::MultiplyByQuantizedMultiplier(int64_t{acc[i].value}, m) + data.out_q.zero_point);
  }
}

template <typename T>
void EvalTyped(Kind kind, const TfLiteNode* node, const TfLiteTensor* input, const OpData& data,
               TfLiteTensor* output) {
  constexpr bool kQuantizable =
      std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t>;
  if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t>) {
    if (kind == Kind::kProd && data.quantized_prod) {
      QuantizedProd<T>(input, data, output);
      return;
    }
  }
  if (kind == Kind::kMean || (kQuantizable && kind == Kind::kSum)) {
    if constexpr (kQuantizable) {
      QuantizedMeanOrSum<T>(kind, node, input, data, output);
    } else {
      MeanUnquantized<T>(input, data, output);
    }
    return;
  }
  ReduceSame<T>(kind, input, data, output);
}

template <Kind kKind>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResolveAndResize(context, node, Name(kKind), data));
  }
  switch (input->type) {
    case kTfLiteFloat32:
      EvalTyped<float>(kKind, node, input, *data, output);
      break;
    case kTfLiteInt32:
      EvalTyped<int32_t>(kKind, node, input, *data, output);
      break;
    case kTfLiteInt64:
      EvalTyped<int64_t>(kKind, node, input, *data, output);
      break;
    case kTfLiteInt8:
      EvalTyped<int8_t>(kKind, node, input, *data, output);
      break;
    case kTfLiteUInt8:
      EvalTyped<uint8_t>(kKind, node, input, *data, output);
      break;
    case kTfLiteInt16:
      EvalTyped<int16_t>(kKind, node, input, *data, output);
      break;
    case kTfLiteBool: {
      constexpr bool kAny = kKind == Kind::kAny;
      // As bytes: any non-zero input byte is true (see BoolAt); 0 and 1 out.
      ReduceInto<uint8_t, uint8_t>(input, *data, kAny ? 0 : 1, output->data.uint8,
                                   internal::NumElements(output),
                                   [](uint8_t a, uint8_t b) -> uint8_t {
                                     return kAny ? (a != 0 || b != 0) : (a != 0 && b != 0);
                                   });
      break;
    }
    default:
      return internal::UnsupportedType(context, Name(kKind), "input", input->type);
  }
  return kTfLiteOk;
}

template <Kind kKind>
const TfLiteRegistration* Register() {
  return internal::OpDataRegistration<OpData, Prepare<kKind>, Eval<kKind>>();
}

}  // namespace

const TfLiteRegistration* Register_MEAN() { return Register<Kind::kMean>(); }
const TfLiteRegistration* Register_SUM() { return Register<Kind::kSum>(); }
const TfLiteRegistration* Register_REDUCE_PROD() { return Register<Kind::kProd>(); }
const TfLiteRegistration* Register_REDUCE_MAX() { return Register<Kind::kMax>(); }
const TfLiteRegistration* Register_REDUCE_MIN() { return Register<Kind::kMin>(); }
const TfLiteRegistration* Register_REDUCE_ANY() { return Register<Kind::kAny>(); }
const TfLiteRegistration* Register_REDUCE_ALL() { return Register<Kind::kAll>(); }

}  // namespace kernels
}  // namespace tflite_c
