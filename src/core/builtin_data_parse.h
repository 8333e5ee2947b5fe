// Shared machinery of the builtin-option parsers (builtin_data*.cc): the
// parse context, schema enum conversions, field helpers that report
// failures, the options-table lookup and the allocate-and-fill step. Each
// parser file maps the operator codes it handles to parser functions.
#ifndef TFLITE_C_SRC_CORE_BUILTIN_DATA_PARSE_H_
#define TFLITE_C_SRC_CORE_BUILTIN_DATA_PARSE_H_

#include <cstddef>
#include <cstdlib>
#include <type_traits>

#include "src/core/builtin_data.h"
#include "src/core/flatbuffer_read.h"

namespace tflite_c {
namespace builtin_data_internal {

// State shared by the per-operator parsers.
struct Ctx {
  const tflite::Operator* op;
  tflite::BuiltinOperator code;
  ErrorReporter* reporter;

  const char* name() const {
    const char* n = tflite::EnumNameBuiltinOperator(code);
    return (n && *n) ? n : "(unknown builtin)";
  }
};

// ---- enum conversions: false means "value outside the schema enum" --------

inline bool ToActivation(tflite::ActivationFunctionType a, TfLiteFusedActivation* out) {
  switch (a) {
    case tflite::ActivationFunctionType_NONE: *out = kTfLiteActNone; return true;
    case tflite::ActivationFunctionType_RELU: *out = kTfLiteActRelu; return true;
    case tflite::ActivationFunctionType_RELU_N1_TO_1: *out = kTfLiteActReluN1To1; return true;
    case tflite::ActivationFunctionType_RELU6: *out = kTfLiteActRelu6; return true;
    case tflite::ActivationFunctionType_TANH: *out = kTfLiteActTanh; return true;
    case tflite::ActivationFunctionType_SIGN_BIT: *out = kTfLiteActSignBit; return true;
  }
  return false;
}

inline bool ToPadding(tflite::Padding p, TfLitePadding* out) {
  switch (p) {
    case tflite::Padding_SAME: *out = kTfLitePaddingSame; return true;
    case tflite::Padding_VALID: *out = kTfLitePaddingValid; return true;
  }
  return false;
}

inline bool ToMirrorPadding(tflite::MirrorPadMode m, TfLiteMirrorPaddingMode* out) {
  switch (m) {
    case tflite::MirrorPadMode_REFLECT: *out = kTfLiteMirrorPaddingReflect; return true;
    case tflite::MirrorPadMode_SYMMETRIC: *out = kTfLiteMirrorPaddingSymmetric; return true;
  }
  return false;
}

inline bool ToRngAlgorithm(tflite::RngAlgorithm a, TfLiteRngAlgorithm* out) {
  switch (a) {
    case tflite::RngAlgorithm_DEFAULT: *out = kTfLiteRngAlgorithmDefault; return true;
    case tflite::RngAlgorithm_PHILOX: *out = kTfLiteRngAlgorithmPhilox; return true;
    case tflite::RngAlgorithm_THREEFRY: *out = kTfLiteRngAlgorithmThreefry; return true;
  }
  return false;
}

inline bool ToLshType(tflite::LSHProjectionType t, TfLiteLSHProjectionType* out) {
  switch (t) {
    case tflite::LSHProjectionType_UNKNOWN: *out = kTfLiteLshProjectionUnknown; return true;
    case tflite::LSHProjectionType_SPARSE: *out = kTfLiteLshProjectionSparse; return true;
    case tflite::LSHProjectionType_DENSE: *out = kTfLiteLshProjectionDense; return true;
  }
  return false;
}

inline bool ToCombiner(tflite::CombinerType t, TfLiteCombinerType* out) {
  switch (t) {
    case tflite::CombinerType_SUM: *out = kTfLiteCombinerTypeSum; return true;
    case tflite::CombinerType_MEAN: *out = kTfLiteCombinerTypeMean; return true;
    case tflite::CombinerType_SQRTN: *out = kTfLiteCombinerTypeSqrtn; return true;
  }
  return false;
}

inline bool ToWeightsFormat(tflite::FullyConnectedOptionsWeightsFormat f,
                            TfLiteFullyConnectedWeightsFormat* out) {
  switch (f) {
    case tflite::FullyConnectedOptionsWeightsFormat_DEFAULT:
      *out = kTfLiteFullyConnectedWeightsFormatDefault;
      return true;
    case tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8:
      *out = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
      return true;
  }
  return false;
}

inline bool ToLstmKernel(tflite::LSTMKernelType k, TfLiteLSTMKernelType* out) {
  switch (k) {
    case tflite::LSTMKernelType_FULL: *out = kTfLiteLSTMFullKernel; return true;
    case tflite::LSTMKernelType_BASIC: *out = kTfLiteLSTMBasicKernel; return true;
  }
  return false;
}

inline bool ToReduceWindowFunction(tflite::ReduceWindowFunction f,
                                   TfLiteReduceWindowFunction* out) {
  switch (f) {
    case tflite::ReduceWindowFunction_ADD: *out = TfLiteReduceWindowFunctionAdd; return true;
    case tflite::ReduceWindowFunction_MUL: *out = TfLiteReduceWindowFunctionMul; return true;
    case tflite::ReduceWindowFunction_MINIMUM: *out = TfLiteReduceWindowFunctionMin; return true;
    case tflite::ReduceWindowFunction_MAXIMUM: *out = TfLiteReduceWindowFunctionMax; return true;
    case tflite::ReduceWindowFunction_ALL: *out = TfLiteReduceWindowFunctionAll; return true;
    case tflite::ReduceWindowFunction_ANY: *out = TfLiteReduceWindowFunctionAny; return true;
    case tflite::ReduceWindowFunction_UNSUPPORTED: break;
  }
  return false;
}

// ---- field helpers that report on failure ----------------------------------

inline TfLiteStatus Activation(const Ctx& c, tflite::ActivationFunctionType a,
                               TfLiteFusedActivation* out) {
  if (ToActivation(a, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: invalid fused activation function %d.", c.name(), static_cast<int>(a));
  return kTfLiteError;
}

inline TfLiteStatus PaddingOf(const Ctx& c, tflite::Padding p, TfLitePadding* out) {
  if (ToPadding(p, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: invalid padding %d.", c.name(), static_cast<int>(p));
  return kTfLiteError;
}

inline TfLiteStatus TypeOf(const Ctx& c, tflite::TensorType t, const char* field, TfLiteType* out) {
  if (ConvertSchemaTensorType(t, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: unsupported tensor type %d in option '%s'.", c.name(),
                      static_cast<int>(t), field);
  return kTfLiteError;
}

inline TfLiteStatus BadEnum(const Ctx& c, const char* field, int value) {
  c.reporter->Reportf("%s: invalid value %d for option '%s'.", c.name(), value, field);
  return kTfLiteError;
}

// Copies a flatbuffer vector into a fixed-capacity array; fails when it does
// not fit.
template <typename T, typename U, size_t N>
TfLiteStatus CopyArray(const Ctx& c, const flatbuffers::Vector<U>* v, T (&dst)[N],
                       const char* field) {
  if (v == nullptr) return kTfLiteOk;
  if (v->size() > N) {
    c.reporter->Reportf("%s: option '%s' has %u entries, at most %zu are supported.", c.name(),
                        field, static_cast<unsigned>(v->size()), N);
    return kTfLiteError;
  }
  for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) dst[i] = static_cast<T>(ReadElement(v, i));
  return kTfLiteOk;
}

#define TFLC_TRY(expr)                       \
  do {                                       \
    if ((expr) != kTfLiteOk) return kTfLiteError; \
  } while (0)

// ---- the two option unions -------------------------------------------------

template <typename O, typename = void>
struct InUnion2 : std::false_type {};
template <typename O>
struct InUnion2<O, decltype(void(tflite::BuiltinOptions2Traits<O>::enum_value))>
    : std::integral_constant<bool, tflite::BuiltinOptions2Traits<O>::enum_value !=
                                       tflite::BuiltinOptions2_NONE> {};

// Looks up the options table of type O. Absent options give *out == nullptr;
// a table of another type is an error.
template <typename O>
TfLiteStatus GetOptions(const Ctx& c, const O** out) {
  *out = nullptr;
  if constexpr (InUnion2<O>::value) {
    const auto want = tflite::BuiltinOptions2Traits<O>::enum_value;
    const auto have = c.op->builtin_options_2_type();
    if (have == tflite::BuiltinOptions2_NONE) return kTfLiteOk;
    if (have != want) {
      const char* hn = tflite::EnumNameBuiltinOptions2(have);
      c.reporter->Reportf("%s: expected builtin_options_2 of type %s, found %s (%d).", c.name(),
                          tflite::EnumNameBuiltinOptions2(want), (hn && *hn) ? hn : "unknown",
                          static_cast<int>(have));
      return kTfLiteError;
    }
    *out = static_cast<const O*>(c.op->builtin_options_2());
  } else {
    const auto want = tflite::BuiltinOptionsTraits<O>::enum_value;
    const auto have = c.op->builtin_options_type();
    if (have == tflite::BuiltinOptions_NONE) return kTfLiteOk;
    if (have != want) {
      const char* hn = tflite::EnumNameBuiltinOptions(have);
      c.reporter->Reportf("%s: expected builtin_options of type %s, found %s (%d).", c.name(),
                          tflite::EnumNameBuiltinOptions(want), (hn && *hn) ? hn : "unknown",
                          static_cast<int>(have));
      return kTfLiteError;
    }
    *out = static_cast<const O*>(c.op->builtin_options());
  }
  return kTfLiteOk;
}

// Allocates a zeroed P, runs fill(options, params) when options of type O are
// present and hands the struct over through *result. Without options the
// zeroed P is the result, unless the operator requires its options
// (BuiltinOptionsRequired): then the load fails.
template <typename P, typename O, typename Fill>
TfLiteStatus Parse(const Ctx& c, void** result, Fill fill) {
  static_assert(std::is_trivially_copyable<P>::value, "builtin data must be plain C");
  const O* options = nullptr;
  TFLC_TRY(GetOptions<O>(c, &options));
  if (options == nullptr && BuiltinOptionsRequired(c.code)) {
    c.reporter->Reportf("%s: the operator has no options table, which it requires.", c.name());
    return kTfLiteError;
  }
  P* params = static_cast<P*>(std::calloc(1, sizeof(P)));
  if (params == nullptr) {
    c.reporter->Reportf("%s: out of memory allocating %zu bytes of parameters.", c.name(),
                        sizeof(P));
    return kTfLiteError;
  }
  if (options != nullptr && fill(*options, params) != kTfLiteOk) {
    std::free(params);
    return kTfLiteError;
  }
  *result = params;
  return kTfLiteOk;
}

// Parses the options of one operator into *result (see ParseBuiltinData).
using ParserFn = TfLiteStatus (*)(const Ctx& c, void** result);

// The parser of `code`, or nullptr when another file (or none) handles it.
ParserFn LayerParser(tflite::BuiltinOperator code);      // builtin_data_layers.cc
ParserFn OpParser(tflite::BuiltinOperator code);         // builtin_data_ops.cc
ParserFn StablehloParser(tflite::BuiltinOperator code);  // builtin_data_stablehlo.cc

}  // namespace builtin_data_internal
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_BUILTIN_DATA_PARSE_H_
