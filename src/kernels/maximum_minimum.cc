// MAXIMUM and MINIMUM of two broadcast inputs. FLOAT32, UINT8, INT8, INT16,
// INT32, INT64. Quantized inputs are compared as stored (upstream requires the
// converter to give inputs and output one quantization). A NaN in input 0
// yields input 1 and vice versa, as upstream's `a > b ? a : b`.
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct MaxOp {
  static constexpr const char* kName = "MAXIMUM";
  template <typename T>
  T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
struct MinOp {
  static constexpr const char* kName = "MINIMUM";
  template <typename T>
  T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};

template <typename Op>
TfLiteStatus EvalMinMax(TfLiteContext* context, TfLiteNode* node,
                        const internal::BroadcastOpData& data) {
  const Op op;
  switch (internal::OutputAt(context, node, 0)->type) {
    case kTfLiteFloat32:
      internal::MapBinary<float>(context, node, data, op);
      break;
    case kTfLiteUInt8:
      internal::MapBinary<uint8_t>(context, node, data, op);
      break;
    case kTfLiteInt8:
      internal::MapBinary<int8_t>(context, node, data, op);
      break;
    case kTfLiteInt16:
      internal::MapBinary<int16_t>(context, node, data, op);
      break;
    case kTfLiteInt32:
      internal::MapBinary<int32_t>(context, node, data, op);
      break;
    case kTfLiteInt64:
      internal::MapBinary<int64_t>(context, node, data, op);
      break;
    default:
      return internal::UnsupportedType(context, Op::kName, "output",
                                       internal::OutputAt(context, node, 0)->type);
  }
  return kTfLiteOk;
}

// The registration's view of an op: its name, types and Eval.
template <typename Op>
struct Described {
  static constexpr const char* kName = Op::kName;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                               kTfLiteInt16,   kTfLiteInt32, kTfLiteInt64};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    return EvalMinMax<Op>(context, node, data);
  }
};

}  // namespace

const TfLiteRegistration* Register_MAXIMUM() { return internal::RegisterBinaryOp<Described<MaxOp>>(); }
const TfLiteRegistration* Register_MINIMUM() { return internal::RegisterBinaryOp<Described<MinOp>>(); }

}  // namespace kernels
}  // namespace tflite_c
