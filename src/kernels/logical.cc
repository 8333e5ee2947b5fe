// LOGICAL_AND and LOGICAL_OR of two broadcast BOOL inputs.
#include "src/kernels/internal/broadcast_nary.h"
#include "src/kernels/register_elementwise.h"

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

template <typename Op>
const TfLiteRegistration* Register() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::BroadcastOpData>,
      internal::FreeOpData<internal::BroadcastOpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        return internal::PrepareSameTypeBinaryOp(
            context, node, Op::kName, {kTfLiteBool},
            static_cast<internal::BroadcastOpData*>(node->user_data));
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        internal::EvalSameTypeBinaryOp<bool>(
            context, node, *static_cast<const internal::BroadcastOpData*>(node->user_data), Op());
        return kTfLiteOk;
      });
  return &r;
}

}  // namespace

const TfLiteRegistration* Register_LOGICAL_AND() { return Register<AndOp>(); }
const TfLiteRegistration* Register_LOGICAL_OR() { return Register<OrOp>(); }

}  // namespace kernels
}  // namespace tflite_c
