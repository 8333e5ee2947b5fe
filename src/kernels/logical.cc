// LOGICAL_AND and LOGICAL_OR of two broadcast BOOL inputs.
#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct AndOp {
  static constexpr const char* kName = "LOGICAL_AND";
  bool operator()(bool a, bool b) const { return a && b; }
};
struct OrOp {
  static constexpr const char* kName = "LOGICAL_OR";
  bool operator()(bool a, bool b) const { return a || b; }
};

template <typename Fn>
struct LogicalOp {
  static constexpr const char* kName = Fn::kName;
  static constexpr internal::TypeSet kTypes = {kTfLiteBool};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    internal::MapBinary<bool>(context, node, data, Fn());
    return kTfLiteOk;
  }
};

}  // namespace

const TfLiteRegistration* Register_LOGICAL_AND() { return internal::RegisterBinaryOp<LogicalOp<AndOp>>(); }
const TfLiteRegistration* Register_LOGICAL_OR() { return internal::RegisterBinaryOp<LogicalOp<OrOp>>(); }

}  // namespace kernels
}  // namespace tflite_c
