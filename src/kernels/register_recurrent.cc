#include "src/kernels/register_recurrent.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver; the
// kernels' Prepare rejects the variants they do not implement (e.g. the
// diagonal recurrent weights) by name.
void RegisterRecurrentKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinLstm, Register_LSTM(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinUnidirectionalSequenceLstm,
                       Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinBidirectionalSequenceLstm,
                       Register_BIDIRECTIONAL_SEQUENCE_LSTM(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinSvdf, Register_SVDF(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinRnn, Register_RNN(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinUnidirectionalSequenceRnn,
                       Register_UNIDIRECTIONAL_SEQUENCE_RNN(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinBidirectionalSequenceRnn,
                       Register_BIDIRECTIONAL_SEQUENCE_RNN(), 1, 3);
}

}  // namespace tflite_c
