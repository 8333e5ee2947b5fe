// Pieces shared by the scaffolds that register an op from a description
// struct (elementwise_unary.h, elementwise_binary.h): the optional per-node
// state type and Prepare hook of a description, and the registration itself.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_OP_DESCRIPTION_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_OP_DESCRIPTION_H_

#include <type_traits>

#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// `Op::Data` when the description declares it, else `Default`.
template <typename Op, typename Default, typename = void>
struct DataOf {
  using type = Default;
};
template <typename Op, typename Default>
struct DataOf<Op, Default, std::void_t<typename Op::Data>> {
  using type = typename Op::Data;
};

// Whether the description has a static Prepare hook.
template <typename Op, typename = void>
struct HasPrepareHook : std::false_type {};
template <typename Op>
struct HasPrepareHook<Op, std::void_t<decltype(&Op::Prepare)>> : std::true_type {};

// One registration per (Data, Prepare, Eval): a `Data` is created per node.
template <typename Data, TfLiteStatus (*Prepare)(TfLiteContext*, TfLiteNode*),
          TfLiteStatus (*Eval)(TfLiteContext*, TfLiteNode*)>
const TfLiteRegistration* RegisterWithData() {
  static const TfLiteRegistration registration =
      MakeRegistration(InitOpData<Data>, FreeOpData<Data>, Prepare, Eval);
  return &registration;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_OP_DESCRIPTION_H_
