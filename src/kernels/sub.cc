// SUB: out = activation(x - y), broadcasting x against y.
// FLOAT32, INT32 and INT64 (integers wrap around on overflow); INT8, UINT8 and
// INT16 quantized (see internal/quant_binary.h).
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

struct SubOp : internal::FusedArithmeticOp<SubOp> {
  static constexpr const char* kName = "SUB";
  static constexpr internal::QuantBinaryKind kQuantKind = internal::QuantBinaryKind::kSub;
  using Params = TfLiteSubParams;
  template <typename T>
  static T Apply(T x, T y) {
    return internal::WrappingSub(x, y);
  }
};

}  // namespace

const TfLiteRegistration* Register_SUB() { return internal::RegisterBinaryOp<SubOp>(); }

}  // namespace kernels
}  // namespace tflite_c
