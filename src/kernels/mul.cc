// MUL: out = activation(x * y), broadcasting x against y.
// FLOAT32, INT32 and INT64 (integers wrap around on overflow); INT8, UINT8 and
// INT16 quantized (see internal/quant_binary.h).
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

struct MulOp : internal::FusedArithmeticOp<MulOp> {
  static constexpr const char* kName = "MUL";
  static constexpr internal::QuantBinaryKind kQuantKind = internal::QuantBinaryKind::kMul;
  using Params = TfLiteMulParams;
  template <typename T>
  static T Apply(T x, T y) {
    return internal::WrappingMul(x, y);
  }
};

}  // namespace

const TfLiteRegistration* Register_MUL() { return internal::RegisterBinaryOp<MulOp>(); }

}  // namespace kernels
}  // namespace tflite_c
