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
//    TensorFlow Lite hands to kernels in that case, except for the operators
//    of BuiltinOptionsRequired, which fail naming the operator. This is the
//    one place that decides it: kernels only check that builtin_data is there
//    (internal::RequireParams) and read the struct.
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

// The operators whose options table a model must carry: TensorFlow Lite
// 2.19's parser refuses them without one (LSTM, STABLEHLO_REDUCE_WINDOW,
// STABLEHLO_PAD, STABLEHLO_COMPOSITE, STABLEHLO_CASE). Every other operator
// with a parameter struct gets it zero-filled, as upstream does.
bool BuiltinOptionsRequired(tflite::BuiltinOperator code);

// Maps a schema tensor type onto TfLiteType. Returns false (leaving
// kTfLiteNoType in *out) for types this runtime does not support.
bool ConvertSchemaTensorType(tflite::TensorType type, TfLiteType* out);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_BUILTIN_DATA_H_
