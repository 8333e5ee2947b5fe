// Conversion of an operator's flatbuffer options (Operator.builtin_options /
// Operator.builtin_options_2) into the plain-C parameter structs of
// tensorflow/lite/core/c/builtin_op_data.h that kernels receive as
// TfLiteNode::builtin_data.
#ifndef TFLITE_C_SRC_CORE_BUILTIN_DATA_H_
#define TFLITE_C_SRC_CORE_BUILTIN_DATA_H_

#include "schema_generated.h"  // generated from schema/schema.fbs at build time
#include "src/core/error_reporter.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/c_api_types.h"

namespace tflite_c {

// Fills *builtin_data with a struct allocated by calloc() (release it with
// free()) that matches the builtin operator `code`, filled from `op`'s
// options table.
//
//  * Operators without a parameter struct yield *builtin_data == nullptr and
//    kTfLiteOk.
//  * When the options table is absent the struct is zero-filled, which is what
//    TensorFlow Lite hands to kernels in that case (a few StableHLO ops and
//    LSTM require their options and fail instead).
//  * Options of the wrong union type, enum values outside the schema, tensor
//    types the runtime does not know, arrays longer than the struct can hold
//    and missing required fields yield kTfLiteError with a message sent to
//    `reporter` (DefaultErrorReporter() when null); *builtin_data is then
//    nullptr.
//
// Some structs keep pointers into the flatbuffer (VarHandle names, Bucketize
// boundaries, StableHLO composite name/attributes); the model must outlive
// the returned data, as it does in the interpreter.
TfLiteStatus ParseBuiltinData(const tflite::Operator* op, tflite::BuiltinOperator code,
                              ErrorReporter* reporter, void** builtin_data);

// Maps a schema tensor type onto TfLiteType. Returns false (leaving
// kTfLiteNoType in *out) for types this runtime does not support.
bool ConvertSchemaTensorType(tflite::TensorType type, TfLiteType* out);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_BUILTIN_DATA_H_
