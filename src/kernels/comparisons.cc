// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL: BOOL output,
// broadcasting the two inputs, which must share one type: FLOAT32, INT32,
// INT64, INT16, UINT8, INT8 (and BOOL and STRING for EQUAL / NOT_EQUAL, as
// upstream; strings compare byte-wise). Quantized inputs
// (UINT8, INT8, quantized INT16) are compared as real values in fixed point,
// as upstream: (q - zero_point) * 2^8 times each input's own scale.
#include <cstdint>
#include <string_view>

#include "src/core/string_util.h"

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr int kQuantizedLeftShift = 8;

struct OpData : internal::BroadcastOpData {
  bool quantized = false;
  internal::InputRescale rescale[2];  // to real value * 2^kQuantizedLeftShift
};

constexpr internal::TypeSet kNumericTypes = {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64,
                                              kTfLiteInt16,   kTfLiteUInt8, kTfLiteInt8};
constexpr internal::TypeSet kAllTypes = {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64,
                                          kTfLiteInt16,   kTfLiteUInt8, kTfLiteInt8,
                                          kTfLiteBool,    kTfLiteString};

TfLiteStatus PrepareQuantized(TfLiteContext* context, TfLiteNode* node, OpData* data) {
  const TfLiteTensor* a = internal::InputAt(context, node, 0);
  data->quantized = a->type == kTfLiteUInt8 || a->type == kTfLiteInt8 ||
                    (a->type == kTfLiteInt16 && a->quantization.type != kTfLiteNoQuantization);
  if (data->quantized) {
    for (int i = 0; i < 2; ++i) {
      const internal::QuantParams q =
          internal::LegacyQuantParams(internal::InputAt(context, node, i));
      data->rescale[i].zero_point = q.zero_point;
      data->rescale[i].left_shift = kQuantizedLeftShift;
      data->rescale[i].multiplier = internal::QuantizeMultiplier(q.scale);
    }
  }
  return kTfLiteOk;
}

template <typename T, typename Cmp>
void Compare(TfLiteContext* context, const TfLiteNode* node, const OpData& d) {
  const T* a = static_cast<const T*>(internal::InputAt(context, node, 0)->data.data);
  const T* b = static_cast<const T*>(internal::InputAt(context, node, 1)->data.data);
  bool* out = internal::OutputAt(context, node, 0)->data.b;
  const Cmp cmp;
  if (!d.quantized) {
    internal::ForEachBroadcast(d.nary, [&](int64_t o, const int64_t* in) {
      out[o] = cmp(internal::LoadElement(a, in[0]), internal::LoadElement(b, in[1]));
    });
    return;
  }
  internal::ForEachBroadcast(d.nary, [&](int64_t o, const int64_t* in) {
    out[o] = cmp(d.rescale[0].Apply(a[in[0]]), d.rescale[1].Apply(b[in[1]]));
  });
}

template <typename Cmp>
TfLiteStatus CompareStrings(TfLiteContext* context, const TfLiteNode* node, const OpData& d) {
  const TfLiteTensor* a = internal::InputAt(context, node, 0);
  const TfLiteTensor* b = internal::InputAt(context, node, 1);
  bool* out = internal::OutputAt(context, node, 0)->data.b;
  const Cmp cmp;
  bool ok = true;
  internal::ForEachBroadcast(d.nary, [&](int64_t o, const int64_t* in) {
    const char *sa, *sb;
    int la, lb;
    if (!StringTensorGet(a, static_cast<int>(in[0]), &sa, &la) ||
        !StringTensorGet(b, static_cast<int>(in[1]), &sb, &lb)) {
      ok = false;
      return;
    }
    out[o] = cmp(std::string_view(sa, la), std::string_view(sb, lb));
  });
  if (!ok) {
    TF_LITE_KERNEL_LOG(context, "%s: STRING input is malformed or holds too few strings",
                       Cmp::kName);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

template <typename Cmp>
TfLiteStatus EvalComparison(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
  switch (internal::InputAt(context, node, 0)->type) {
    case kTfLiteFloat32:
      Compare<float, Cmp>(context, node, d);
      break;
    case kTfLiteInt32:
      Compare<int32_t, Cmp>(context, node, d);
      break;
    case kTfLiteInt64:
      Compare<int64_t, Cmp>(context, node, d);
      break;
    case kTfLiteInt16:
      Compare<int16_t, Cmp>(context, node, d);
      break;
    case kTfLiteUInt8:
      Compare<uint8_t, Cmp>(context, node, d);
      break;
    case kTfLiteInt8:
      Compare<int8_t, Cmp>(context, node, d);
      break;
    case kTfLiteBool:
      Compare<bool, Cmp>(context, node, d);
      break;
    case kTfLiteString:
      return CompareStrings<Cmp>(context, node, d);
    default:
      return internal::UnsupportedType(context, Cmp::kName, "input",
                                       internal::InputAt(context, node, 0)->type);
  }
  return kTfLiteOk;
}

#define TFLITE_C_COMPARISON(Name, Str, allows_bool, expr) \
  struct Name {                                           \
    static constexpr const char* kName = Str;             \
    static constexpr bool kAllowsBool = allows_bool;      \
    template <typename T>                                 \
    bool operator()(T a, T b) const {                     \
      return expr;                                        \
    }                                                     \
  };
TFLITE_C_COMPARISON(EqualCmp, "EQUAL", true, a == b)
TFLITE_C_COMPARISON(NotEqualCmp, "NOT_EQUAL", true, a != b)
TFLITE_C_COMPARISON(LessCmp, "LESS", false, a < b)
TFLITE_C_COMPARISON(LessEqualCmp, "LESS_EQUAL", false, a <= b)
TFLITE_C_COMPARISON(GreaterCmp, "GREATER", false, a > b)
TFLITE_C_COMPARISON(GreaterEqualCmp, "GREATER_EQUAL", false, a >= b)
#undef TFLITE_C_COMPARISON

template <typename Cmp>
struct ComparisonOp {
  static constexpr const char* kName = Cmp::kName;
  static constexpr internal::TypeSet kTypes = Cmp::kAllowsBool ? kAllTypes : kNumericTypes;
  static constexpr TfLiteType kOutputType = kTfLiteBool;
  using Data = OpData;
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, OpData* data) {
    return PrepareQuantized(context, node, data);
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    return EvalComparison<Cmp>(context, node, d);
  }
};

template <typename Cmp>
const TfLiteRegistration* Register() {
  return internal::RegisterBinaryOp<ComparisonOp<Cmp>>();
}

}  // namespace

const TfLiteRegistration* Register_EQUAL() { return Register<EqualCmp>(); }
const TfLiteRegistration* Register_NOT_EQUAL() { return Register<NotEqualCmp>(); }
const TfLiteRegistration* Register_LESS() { return Register<LessCmp>(); }
const TfLiteRegistration* Register_LESS_EQUAL() { return Register<LessEqualCmp>(); }
const TfLiteRegistration* Register_GREATER() { return Register<GreaterCmp>(); }
const TfLiteRegistration* Register_GREATER_EQUAL() { return Register<GreaterEqualCmp>(); }

}  // namespace kernels
}  // namespace tflite_c
