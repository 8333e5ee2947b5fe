// ADD: out = activation(x + y), broadcasting x against y.
// FLOAT32, INT32 and INT64 (integers wrap around on overflow); INT8, UINT8 and
// INT16 quantized (see internal/quant_binary.h).
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

struct AddOp : internal::FusedArithmeticOp<AddOp> {
  static constexpr const char* kName = "ADD";
  static constexpr internal::QuantBinaryKind kQuantKind = internal::QuantBinaryKind::kAdd;
  using Params = TfLiteAddParams;
  template <typename T>
  static T Apply(T x, T y) {
    return internal::WrappingAdd(x, y);
  }
};

}  // namespace

const TfLiteRegistration* Register_ADD() { return internal::RegisterBinaryOp<AddOp>(); }

}  // namespace kernels
}  // namespace tflite_c
