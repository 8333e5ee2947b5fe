// ATAN2 (y, x): out = atan2(y, x) element-wise, the angle of the point (x, y)
// in (-pi, pi]. Both inputs and the output have one shape (no broadcasting,
// as upstream) and one type: FLOAT32 or FLOAT64.
#include <cmath>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct Atan2Op {
  static constexpr const char* kName = "ATAN2";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteFloat64};
  static constexpr bool kBroadcasts = false;
  static constexpr const char* kInputNames[2] = {"y", "x"};

  template <typename T>
  static void Apply(TfLiteContext* context, TfLiteNode* node,
                    const internal::BroadcastOpData& data) {
    internal::MapBinary<T>(context, node, data, [](T y, T x) { return std::atan2(y, x); });
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    if (internal::OutputAt(context, node, 0)->type == kTfLiteFloat32) {
      Apply<float>(context, node, data);
    } else {
      Apply<double>(context, node, data);
    }
    return kTfLiteOk;
  }
};

}  // namespace

const TfLiteRegistration* Register_ATAN2() { return internal::RegisterBinaryOp<Atan2Op>(); }

}  // namespace kernels
}  // namespace tflite_c
