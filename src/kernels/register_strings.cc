#include "src/kernels/register_strings.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver.
void RegisterStringKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinHashtable, Register_HASHTABLE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinHashtableFind, Register_HASHTABLE_FIND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinHashtableImport, Register_HASHTABLE_IMPORT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinHashtableSize, Register_HASHTABLE_SIZE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinHashtableLookup, Register_HASHTABLE_LOOKUP(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSkipGram, Register_SKIP_GRAM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinLshProjection, Register_LSH_PROJECTION(), 1, 1);
}

}  // namespace tflite_c
