// tflite::ops::builtin::BuiltinOpResolver: every builtin kernel of the
// library (plus the MediaPipe custom ops the C API also knows).
#ifndef TENSORFLOW_LITE_KERNELS_REGISTER_H_
#define TENSORFLOW_LITE_KERNELS_REGISTER_H_

#include "tensorflow/lite/mutable_op_resolver.h"

namespace tflite {
namespace ops {
namespace builtin {

class TFLITE_CC_EXPORT BuiltinOpResolver : public MutableOpResolver {
 public:
  BuiltinOpResolver();
};

// The library applies no delegate by default, so this is the same set of
// kernels; the name exists for source compatibility.
class TFLITE_CC_EXPORT BuiltinOpResolverWithoutDefaultDelegates : public BuiltinOpResolver {
 public:
  BuiltinOpResolverWithoutDefaultDelegates() = default;
};

}  // namespace builtin
}  // namespace ops
}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_REGISTER_H_
