// Broadcasting integer bit operations on INT8, UINT8, INT16, UINT16, INT32
// and UINT32 (both inputs and the output of one type):
//   BITWISE_XOR: a ^ b.
//   RIGHT_SHIFT: a >> b, arithmetic for signed types, with the shift clamped
//   to [0, bits - 1] as upstream (no undefined behaviour).
#include <climits>
#include <cstdint>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

template <typename T>
T RightShift(T x, T y) {
  constexpr int kMax = static_cast<int>(sizeof(T) * CHAR_BIT) - 1;
  int64_t s = static_cast<int64_t>(y);
  if (s < 0) s = 0;
  if (s > kMax) s = kMax;
  return static_cast<T>(x >> s);
}

#define TFLITE_C_BITWISE_TYPES \
  {kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16, kTfLiteUInt16, kTfLiteInt32, kTfLiteUInt32}

template <template <typename> class Op>
TfLiteStatus EvalBitOp(TfLiteContext* context, TfLiteNode* node,
                       const internal::BroadcastOpData& data) {
  switch (internal::OutputAt(context, node, 0)->type) {
    case kTfLiteInt8: internal::MapBinary<int8_t>(context, node, data, Op<int8_t>()); break;
    case kTfLiteUInt8: internal::MapBinary<uint8_t>(context, node, data, Op<uint8_t>()); break;
    case kTfLiteInt16: internal::MapBinary<int16_t>(context, node, data, Op<int16_t>()); break;
    case kTfLiteUInt16: internal::MapBinary<uint16_t>(context, node, data, Op<uint16_t>()); break;
    case kTfLiteInt32: internal::MapBinary<int32_t>(context, node, data, Op<int32_t>()); break;
    default: internal::MapBinary<uint32_t>(context, node, data, Op<uint32_t>()); break;
  }
  return kTfLiteOk;
}

template <typename T>
struct XorFn {
  T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
template <typename T>
struct RightShiftFn {
  T operator()(T a, T b) const { return RightShift(a, b); }
};

struct BitwiseXorOp {
  static constexpr const char* kName = "BITWISE_XOR";
  static constexpr internal::TypeSet kTypes = TFLITE_C_BITWISE_TYPES;
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    return EvalBitOp<XorFn>(context, node, data);
  }
};

struct RightShiftOp {
  static constexpr const char* kName = "RIGHT_SHIFT";
  static constexpr internal::TypeSet kTypes = TFLITE_C_BITWISE_TYPES;
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    return EvalBitOp<RightShiftFn>(context, node, data);
  }
};

#undef TFLITE_C_BITWISE_TYPES

}  // namespace

const TfLiteRegistration* Register_BITWISE_XOR() {
  return internal::RegisterBinaryOp<BitwiseXorOp>();
}
const TfLiteRegistration* Register_RIGHT_SHIFT() {
  return internal::RegisterBinaryOp<RightShiftOp>();
}

}  // namespace kernels
}  // namespace tflite_c
