// LOGICAL_AND and LOGICAL_OR of two broadcast BOOL inputs.
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

// BOOL values are mapped as bytes (any non-zero byte is true; see BoolAt).
struct AndOp {
  static constexpr const char* kName = "LOGICAL_AND";
  uint8_t operator()(uint8_t a, uint8_t b) const { return a != 0 && b != 0; }
};
struct OrOp {
  static constexpr const char* kName = "LOGICAL_OR";
  uint8_t operator()(uint8_t a, uint8_t b) const { return a != 0 || b != 0; }
};

template <typename Fn>
struct LogicalOp {
  static constexpr const char* kName = Fn::kName;
  static constexpr internal::TypeSet kTypes = {kTfLiteBool};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    internal::MapBinary<uint8_t>(context, node, data, Fn());
    return kTfLiteOk;
  }
};

}  // namespace

const TfLiteRegistration* Register_LOGICAL_AND() { return internal::RegisterBinaryOp<LogicalOp<AndOp>>(); }
const TfLiteRegistration* Register_LOGICAL_OR() { return internal::RegisterBinaryOp<LogicalOp<OrOp>>(); }

}  // namespace kernels
}  // namespace tflite_c
