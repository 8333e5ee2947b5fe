#include "src/core/builtin_data.h"

#include <cstdlib>

#include "src/core/builtin_data_parse.h"

namespace tflite_c {

bool ConvertSchemaTensorType(tflite::TensorType type, TfLiteType* out) {
  TfLiteType t = kTfLiteNoType;
  switch (type) {
    case tflite::TensorType_FLOAT32: t = kTfLiteFloat32; break;
    case tflite::TensorType_FLOAT16: t = kTfLiteFloat16; break;
    case tflite::TensorType_BFLOAT16: t = kTfLiteBFloat16; break;
    case tflite::TensorType_FLOAT64: t = kTfLiteFloat64; break;
    case tflite::TensorType_INT32: t = kTfLiteInt32; break;
    case tflite::TensorType_UINT32: t = kTfLiteUInt32; break;
    case tflite::TensorType_UINT8: t = kTfLiteUInt8; break;
    case tflite::TensorType_INT8: t = kTfLiteInt8; break;
    case tflite::TensorType_INT16: t = kTfLiteInt16; break;
    case tflite::TensorType_UINT16: t = kTfLiteUInt16; break;
    case tflite::TensorType_INT64: t = kTfLiteInt64; break;
    case tflite::TensorType_UINT64: t = kTfLiteUInt64; break;
    case tflite::TensorType_STRING: t = kTfLiteString; break;
    case tflite::TensorType_BOOL: t = kTfLiteBool; break;
    case tflite::TensorType_COMPLEX64: t = kTfLiteComplex64; break;
    case tflite::TensorType_COMPLEX128: t = kTfLiteComplex128; break;
    case tflite::TensorType_RESOURCE: t = kTfLiteResource; break;
    case tflite::TensorType_VARIANT: t = kTfLiteVariant; break;
    case tflite::TensorType_INT4: t = kTfLiteInt4; break;
    default: break;  // INT2, UINT4, FLOAT8_*: newer than the 2.19 C API.
  }
  *out = t;
  return t != kTfLiteNoType;
}

bool BuiltinOptionsRequired(tflite::BuiltinOperator code) {
  switch (code) {
    case tflite::BuiltinOperator_LSTM:
    case tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW:
    case tflite::BuiltinOperator_STABLEHLO_PAD:
    case tflite::BuiltinOperator_STABLEHLO_COMPOSITE:
    case tflite::BuiltinOperator_STABLEHLO_CASE: return true;
    default: return false;
  }
}

namespace {

using builtin_data_internal::Ctx;
using builtin_data_internal::ParserFn;

TfLiteStatus Dispatch(const Ctx& c, void** r) {
  // Operators with a parameter struct.
  for (ParserFn (*find)(tflite::BuiltinOperator) :
       {builtin_data_internal::LayerParser, builtin_data_internal::OpParser,
        builtin_data_internal::StablehloParser}) {
    if (const ParserFn parse = find(c.code)) return parse(c, r);
  }
  switch (c.code) {
    // Never valid inside a model file.
    case tflite::BuiltinOperator_DELEGATE:
      c.reporter->Reportf("DELEGATE operators cannot appear in a model file.");
      return kTfLiteError;
    case tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES:
      c.reporter->Reportf("PLACEHOLDER_FOR_GREATER_OP_CODES is not an operator.");
      return kTfLiteError;

    default:
      break;
  }
  // Every other code inside the enum has no parameter struct (kernels read
  // everything from their inputs or take no parameters at all).
  if (flatbuffers::IsOutRange(c.code, tflite::BuiltinOperator_MIN, tflite::BuiltinOperator_MAX) ||
      *tflite::EnumNameBuiltinOperator(c.code) == '\0') {
    c.reporter->Reportf("Unknown builtin operator code %d.", static_cast<int>(c.code));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus ParseBuiltinData(const tflite::Operator* op, tflite::BuiltinOperator code,
                              ErrorReporter* reporter, void** builtin_data) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  if (builtin_data == nullptr) {
    reporter->Reportf("ParseBuiltinData: builtin_data must not be null.");
    return kTfLiteError;
  }
  *builtin_data = nullptr;
  if (op == nullptr) {
    reporter->Reportf("ParseBuiltinData: operator must not be null.");
    return kTfLiteError;
  }
  Ctx c{op, code, reporter};
  void* result = nullptr;
  const TfLiteStatus status = Dispatch(c, &result);
  if (status != kTfLiteOk) {
    std::free(result);  // parsers never leave one behind, but stay safe
    return status;
  }
  *builtin_data = result;
  return kTfLiteOk;
}

}  // namespace tflite_c
