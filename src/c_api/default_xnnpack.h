// The XNNPACK delegate TfLiteInterpreterCreate applies by default (issue 11).
#ifndef TFLITE_C_SRC_C_API_DEFAULT_XNNPACK_H_
#define TFLITE_C_SRC_C_API_DEFAULT_XNNPACK_H_

#include <memory>

#include "tensorflow/lite/core/c/common.h"

struct TfLiteInterpreterOptions;

namespace tflite_c {

class ErrorReporter;
class Interpreter;

using DefaultDelegatePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;

// Whether the default XNNPACK delegate is wanted: the value set with
// TfLiteInterpreterOptionsSetUseXNNPACK if any, else on unless the
// environment variable TFLITE_C_DISABLE_XNNPACK is set to something other
// than "" or "0".
bool DefaultXnnpackEnabled(const TfLiteInterpreterOptions* options);

// Applies the default XNNPACK delegate to `interpreter` after the user's
// delegates, as upstream applies its lazy default delegate: not at all when
// disabled, when the library has no XNNPACK, or when the graph is already
// fully delegated; with the options' thread count (-1: one thread). When
// applied (even partially), `*owned` receives the delegate, which must
// outlive the interpreter. A delegate that cannot be applied leaves the
// model on the CPU kernels (kTfLiteOk); only kTfLiteError (the graph itself
// cannot be prepared) is returned.
TfLiteStatus ApplyDefaultXnnpack(Interpreter* interpreter, const TfLiteInterpreterOptions* options,
                                 DefaultDelegatePtr* owned);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_C_API_DEFAULT_XNNPACK_H_
