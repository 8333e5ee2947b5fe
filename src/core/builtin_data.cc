#include "src/core/builtin_data.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace tflite_c {

using tflite::BuiltinOperator;

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

namespace {

// State shared by the per-operator parsers.
struct Ctx {
  const tflite::Operator* op;
  BuiltinOperator code;
  ErrorReporter* reporter;

  const char* name() const {
    const char* n = tflite::EnumNameBuiltinOperator(code);
    return (n && *n) ? n : "(unknown builtin)";
  }
};

// ---- enum conversions: false means "value outside the schema enum" --------

bool ToActivation(tflite::ActivationFunctionType a, TfLiteFusedActivation* out) {
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

bool ToPadding(tflite::Padding p, TfLitePadding* out) {
  switch (p) {
    case tflite::Padding_SAME: *out = kTfLitePaddingSame; return true;
    case tflite::Padding_VALID: *out = kTfLitePaddingValid; return true;
  }
  return false;
}

bool ToMirrorPadding(tflite::MirrorPadMode m, TfLiteMirrorPaddingMode* out) {
  switch (m) {
    case tflite::MirrorPadMode_REFLECT: *out = kTfLiteMirrorPaddingReflect; return true;
    case tflite::MirrorPadMode_SYMMETRIC: *out = kTfLiteMirrorPaddingSymmetric; return true;
  }
  return false;
}

bool ToRngAlgorithm(tflite::RngAlgorithm a, TfLiteRngAlgorithm* out) {
  switch (a) {
    case tflite::RngAlgorithm_DEFAULT: *out = kTfLiteRngAlgorithmDefault; return true;
    case tflite::RngAlgorithm_PHILOX: *out = kTfLiteRngAlgorithmPhilox; return true;
    case tflite::RngAlgorithm_THREEFRY: *out = kTfLiteRngAlgorithmThreefry; return true;
  }
  return false;
}

bool ToLshType(tflite::LSHProjectionType t, TfLiteLSHProjectionType* out) {
  switch (t) {
    case tflite::LSHProjectionType_UNKNOWN: *out = kTfLiteLshProjectionUnknown; return true;
    case tflite::LSHProjectionType_SPARSE: *out = kTfLiteLshProjectionSparse; return true;
    case tflite::LSHProjectionType_DENSE: *out = kTfLiteLshProjectionDense; return true;
  }
  return false;
}

bool ToCombiner(tflite::CombinerType t, TfLiteCombinerType* out) {
  switch (t) {
    case tflite::CombinerType_SUM: *out = kTfLiteCombinerTypeSum; return true;
    case tflite::CombinerType_MEAN: *out = kTfLiteCombinerTypeMean; return true;
    case tflite::CombinerType_SQRTN: *out = kTfLiteCombinerTypeSqrtn; return true;
  }
  return false;
}

bool ToWeightsFormat(tflite::FullyConnectedOptionsWeightsFormat f,
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

bool ToLstmKernel(tflite::LSTMKernelType k, TfLiteLSTMKernelType* out) {
  switch (k) {
    case tflite::LSTMKernelType_FULL: *out = kTfLiteLSTMFullKernel; return true;
    case tflite::LSTMKernelType_BASIC: *out = kTfLiteLSTMBasicKernel; return true;
  }
  return false;
}

bool ToReduceWindowFunction(tflite::ReduceWindowFunction f, TfLiteReduceWindowFunction* out) {
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

TfLiteStatus Activation(const Ctx& c, tflite::ActivationFunctionType a, TfLiteFusedActivation* out) {
  if (ToActivation(a, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: invalid fused activation function %d.", c.name(), static_cast<int>(a));
  return kTfLiteError;
}

TfLiteStatus PaddingOf(const Ctx& c, tflite::Padding p, TfLitePadding* out) {
  if (ToPadding(p, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: invalid padding %d.", c.name(), static_cast<int>(p));
  return kTfLiteError;
}

TfLiteStatus TypeOf(const Ctx& c, tflite::TensorType t, const char* field, TfLiteType* out) {
  if (ConvertSchemaTensorType(t, out)) return kTfLiteOk;
  c.reporter->Reportf("%s: unsupported tensor type %d in option '%s'.", c.name(),
                      static_cast<int>(t), field);
  return kTfLiteError;
}

TfLiteStatus BadEnum(const Ctx& c, const char* field, int value) {
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
  for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) dst[i] = static_cast<T>(v->Get(i));
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

enum class Need { kOptional, kRequired };

// Allocates a zeroed P, runs fill(options, params) when options of type O are
// present and hands the struct over through *result.
template <typename P, typename O, typename Fill>
TfLiteStatus Parse(const Ctx& c, void** result, Fill fill, Need need = Need::kOptional) {
  static_assert(std::is_trivially_copyable<P>::value, "builtin data must be plain C");
  const O* options = nullptr;
  TFLC_TRY(GetOptions<O>(c, &options));
  if (options == nullptr && need == Need::kRequired) {
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

// ---- per-operator parsers --------------------------------------------------

TfLiteStatus ParseConv2D(const Ctx& c, void** r) {
  return Parse<TfLiteConvParams, tflite::Conv2DOptions>(
      c, r, [&](const tflite::Conv2DOptions& o, TfLiteConvParams* p) {
        TFLC_TRY(PaddingOf(c, o.padding(), &p->padding));
        p->stride_width = o.stride_w();
        p->stride_height = o.stride_h();
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->dilation_width_factor = o.dilation_w_factor();
        p->dilation_height_factor = o.dilation_h_factor();
        return TypeOf(c, o.quantized_bias_type(), "quantized_bias_type", &p->quantized_bias_type);
      });
}

TfLiteStatus ParseDepthwiseConv2D(const Ctx& c, void** r) {
  return Parse<TfLiteDepthwiseConvParams, tflite::DepthwiseConv2DOptions>(
      c, r, [&](const tflite::DepthwiseConv2DOptions& o, TfLiteDepthwiseConvParams* p) {
        TFLC_TRY(PaddingOf(c, o.padding(), &p->padding));
        p->stride_width = o.stride_w();
        p->stride_height = o.stride_h();
        p->depth_multiplier = o.depth_multiplier();
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->dilation_width_factor = o.dilation_w_factor();
        p->dilation_height_factor = o.dilation_h_factor();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseConv3D(const Ctx& c, void** r) {
  return Parse<TfLiteConv3DParams, tflite::Conv3DOptions>(
      c, r, [&](const tflite::Conv3DOptions& o, TfLiteConv3DParams* p) {
        TFLC_TRY(PaddingOf(c, o.padding(), &p->padding));
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->stride_depth = o.stride_d();
        p->stride_height = o.stride_h();
        p->stride_width = o.stride_w();
        p->dilation_depth_factor = o.dilation_d_factor();
        p->dilation_height_factor = o.dilation_h_factor();
        p->dilation_width_factor = o.dilation_w_factor();
        return kTfLiteOk;
      });
}

TfLiteStatus ParsePool(const Ctx& c, void** r) {
  return Parse<TfLitePoolParams, tflite::Pool2DOptions>(
      c, r, [&](const tflite::Pool2DOptions& o, TfLitePoolParams* p) {
        TFLC_TRY(PaddingOf(c, o.padding(), &p->padding));
        p->stride_width = o.stride_w();
        p->stride_height = o.stride_h();
        p->filter_width = o.filter_width();
        p->filter_height = o.filter_height();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseTransposeConv(const Ctx& c, void** r) {
  return Parse<TfLiteTransposeConvParams, tflite::TransposeConvOptions>(
      c, r, [&](const tflite::TransposeConvOptions& o, TfLiteTransposeConvParams* p) {
        TFLC_TRY(PaddingOf(c, o.padding(), &p->padding));
        p->stride_width = o.stride_w();
        p->stride_height = o.stride_h();
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        return TypeOf(c, o.quantized_bias_type(), "quantized_bias_type", &p->quantized_bias_type);
      });
}

TfLiteStatus ParseFullyConnected(const Ctx& c, void** r) {
  return Parse<TfLiteFullyConnectedParams, tflite::FullyConnectedOptions>(
      c, r, [&](const tflite::FullyConnectedOptions& o, TfLiteFullyConnectedParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        if (!ToWeightsFormat(o.weights_format(), &p->weights_format))
          return BadEnum(c, "weights_format", o.weights_format());
        p->keep_num_dims = o.keep_num_dims();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return TypeOf(c, o.quantized_bias_type(), "quantized_bias_type", &p->quantized_bias_type);
      });
}

// ADD / SUB / MUL / DIV and friends: activation only, or activation plus the
// int16 power-of-two-scale flag.
template <typename P, typename O>
TfLiteStatus ParseActivationOnly(const Ctx& c, void** r) {
  return Parse<P, O>(c, r, [&](const O& o, P* p) {
    return Activation(c, o.fused_activation_function(), &p->activation);
  });
}

template <typename P, typename O>
TfLiteStatus ParseActivationPot(const Ctx& c, void** r) {
  return Parse<P, O>(c, r, [&](const O& o, P* p) {
    p->pot_scale_int16 = o.pot_scale_int16();
    return Activation(c, o.fused_activation_function(), &p->activation);
  });
}

TfLiteStatus ParseConcatenation(const Ctx& c, void** r) {
  return Parse<TfLiteConcatenationParams, tflite::ConcatenationOptions>(
      c, r, [&](const tflite::ConcatenationOptions& o, TfLiteConcatenationParams* p) {
        p->axis = o.axis();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseSoftmax(const Ctx& c, void** r) {
  return Parse<TfLiteSoftmaxParams, tflite::SoftmaxOptions>(
      c, r, [](const tflite::SoftmaxOptions& o, TfLiteSoftmaxParams* p) {
        p->beta = o.beta();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseReshape(const Ctx& c, void** r) {
  return Parse<TfLiteReshapeParams, tflite::ReshapeOptions>(
      c, r, [&](const tflite::ReshapeOptions& o, TfLiteReshapeParams* p) {
        const auto* shape = o.new_shape();
        if (shape == nullptr) return kTfLiteOk;  // shape comes from the second input
        TFLC_TRY(CopyArray(c, shape, p->shape, "new_shape"));
        p->num_dimensions = static_cast<int>(shape->size());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSqueeze(const Ctx& c, void** r) {
  return Parse<TfLiteSqueezeParams, tflite::SqueezeOptions>(
      c, r, [&](const tflite::SqueezeOptions& o, TfLiteSqueezeParams* p) {
        const auto* dims = o.squeeze_dims();
        if (dims == nullptr) return kTfLiteOk;
        TFLC_TRY(CopyArray(c, dims, p->squeeze_dims, "squeeze_dims"));
        p->num_squeeze_dims = static_cast<int>(dims->size());
        return kTfLiteOk;
      });
}

template <typename P, typename O>
TfLiteStatus ParseResize(const Ctx& c, void** r) {
  return Parse<P, O>(c, r, [](const O& o, P* p) {
    p->align_corners = o.align_corners();
    p->half_pixel_centers = o.half_pixel_centers();
    return kTfLiteOk;
  });
}

TfLiteStatus ParseStridedSlice(const Ctx& c, void** r) {
  return Parse<TfLiteStridedSliceParams, tflite::StridedSliceOptions>(
      c, r, [](const tflite::StridedSliceOptions& o, TfLiteStridedSliceParams* p) {
        p->begin_mask = o.begin_mask();
        p->end_mask = o.end_mask();
        p->ellipsis_mask = o.ellipsis_mask();
        p->new_axis_mask = o.new_axis_mask();
        p->shrink_axis_mask = o.shrink_axis_mask();
        p->offset = o.offset();
        return kTfLiteOk;
      });
}

TfLiteStatus ParsePack(const Ctx& c, void** r) {
  return Parse<TfLitePackParams, tflite::PackOptions>(
      c, r, [](const tflite::PackOptions& o, TfLitePackParams* p) {
        p->values_count = o.values_count();
        p->axis = o.axis();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseUnpack(const Ctx& c, void** r) {
  return Parse<TfLiteUnpackParams, tflite::UnpackOptions>(
      c, r, [](const tflite::UnpackOptions& o, TfLiteUnpackParams* p) {
        p->num = o.num();
        p->axis = o.axis();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseGather(const Ctx& c, void** r) {
  return Parse<TfLiteGatherParams, tflite::GatherOptions>(
      c, r, [](const tflite::GatherOptions& o, TfLiteGatherParams* p) {
        p->axis = o.axis();
        p->batch_dims = o.batch_dims();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSplit(const Ctx& c, void** r) {
  return Parse<TfLiteSplitParams, tflite::SplitOptions>(
      c, r, [](const tflite::SplitOptions& o, TfLiteSplitParams* p) {
        p->num_splits = o.num_splits();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSplitV(const Ctx& c, void** r) {
  return Parse<TfLiteSplitVParams, tflite::SplitVOptions>(
      c, r, [](const tflite::SplitVOptions& o, TfLiteSplitVParams* p) {
        p->num_splits = o.num_splits();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseReducer(const Ctx& c, void** r) {
  return Parse<TfLiteReducerParams, tflite::ReducerOptions>(
      c, r, [](const tflite::ReducerOptions& o, TfLiteReducerParams* p) {
        p->keep_dims = o.keep_dims();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSpaceToDepth(const Ctx& c, void** r) {
  return Parse<TfLiteSpaceToDepthParams, tflite::SpaceToDepthOptions>(
      c, r, [](const tflite::SpaceToDepthOptions& o, TfLiteSpaceToDepthParams* p) {
        p->block_size = o.block_size();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseDepthToSpace(const Ctx& c, void** r) {
  return Parse<TfLiteDepthToSpaceParams, tflite::DepthToSpaceOptions>(
      c, r, [](const tflite::DepthToSpaceOptions& o, TfLiteDepthToSpaceParams* p) {
        p->block_size = o.block_size();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseL2Norm(const Ctx& c, void** r) {
  return ParseActivationOnly<TfLiteL2NormParams, tflite::L2NormOptions>(c, r);
}

TfLiteStatus ParseLocalResponseNorm(const Ctx& c, void** r) {
  return Parse<TfLiteLocalResponseNormParams, tflite::LocalResponseNormalizationOptions>(
      c, r,
      [](const tflite::LocalResponseNormalizationOptions& o, TfLiteLocalResponseNormParams* p) {
        p->radius = o.radius();
        p->bias = o.bias();
        p->alpha = o.alpha();
        p->beta = o.beta();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseLstm(const Ctx& c, void** r) {
  return Parse<TfLiteLSTMParams, tflite::LSTMOptions>(
      c, r,
      [&](const tflite::LSTMOptions& o, TfLiteLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        if (!ToLstmKernel(o.kernel_type(), &p->kernel_type))
          return BadEnum(c, "kernel_type", o.kernel_type());
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      },
      Need::kRequired);
}

TfLiteStatus ParseUnidirectionalSequenceLstm(const Ctx& c, void** r) {
  using O = tflite::UnidirectionalSequenceLSTMOptions;
  return Parse<TfLiteUnidirectionalSequenceLSTMParams, O>(
      c, r, [&](const O& o, TfLiteUnidirectionalSequenceLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        p->diagonal_recurrent_tensors = o.diagonal_recurrent_tensors();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBidirectionalSequenceLstm(const Ctx& c, void** r) {
  using O = tflite::BidirectionalSequenceLSTMOptions;
  return Parse<TfLiteBidirectionalSequenceLSTMParams, O>(
      c, r, [&](const O& o, TfLiteBidirectionalSequenceLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        p->merge_outputs = o.merge_outputs();
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseRnn(const Ctx& c, void** r) {
  return Parse<TfLiteRNNParams, tflite::RNNOptions>(
      c, r, [&](const tflite::RNNOptions& o, TfLiteRNNParams* p) {
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseSequenceRnn(const Ctx& c, void** r) {
  return Parse<TfLiteSequenceRNNParams, tflite::SequenceRNNOptions>(
      c, r, [&](const tflite::SequenceRNNOptions& o, TfLiteSequenceRNNParams* p) {
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseBidirectionalSequenceRnn(const Ctx& c, void** r) {
  using O = tflite::BidirectionalSequenceRNNOptions;
  return Parse<TfLiteBidirectionalSequenceRNNParams, O>(
      c, r, [&](const O& o, TfLiteBidirectionalSequenceRNNParams* p) {
        p->time_major = o.time_major();
        p->merge_outputs = o.merge_outputs();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseSvdf(const Ctx& c, void** r) {
  return Parse<TfLiteSVDFParams, tflite::SVDFOptions>(
      c, r, [&](const tflite::SVDFOptions& o, TfLiteSVDFParams* p) {
        p->rank = o.rank();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseLshProjection(const Ctx& c, void** r) {
  return Parse<TfLiteLSHProjectionParams, tflite::LSHProjectionOptions>(
      c, r, [&](const tflite::LSHProjectionOptions& o, TfLiteLSHProjectionParams* p) {
        if (!ToLshType(o.type(), &p->type)) return BadEnum(c, "type", o.type());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseEmbeddingLookupSparse(const Ctx& c, void** r) {
  using O = tflite::EmbeddingLookupSparseOptions;
  return Parse<TfLiteEmbeddingLookupSparseParams, O>(
      c, r, [&](const O& o, TfLiteEmbeddingLookupSparseParams* p) {
        if (!ToCombiner(o.combiner(), &p->combiner)) return BadEnum(c, "combiner", o.combiner());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSkipGram(const Ctx& c, void** r) {
  return Parse<TfLiteSkipGramParams, tflite::SkipGramOptions>(
      c, r, [](const tflite::SkipGramOptions& o, TfLiteSkipGramParams* p) {
        p->ngram_size = o.ngram_size();
        p->max_skip_size = o.max_skip_size();
        p->include_all_ngrams = o.include_all_ngrams();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseShape(const Ctx& c, void** r) {
  return Parse<TfLiteShapeParams, tflite::ShapeOptions>(
      c, r, [&](const tflite::ShapeOptions& o, TfLiteShapeParams* p) {
        return TypeOf(c, o.out_type(), "out_type", &p->out_type);
      });
}

TfLiteStatus ParseCast(const Ctx& c, void** r) {
  return Parse<TfLiteCastParams, tflite::CastOptions>(
      c, r, [&](const tflite::CastOptions& o, TfLiteCastParams* p) {
        TFLC_TRY(TypeOf(c, o.in_data_type(), "in_data_type", &p->in_data_type));
        return TypeOf(c, o.out_data_type(), "out_data_type", &p->out_data_type);
      });
}

TfLiteStatus ParseArgMax(const Ctx& c, void** r) {
  return Parse<TfLiteArgMaxParams, tflite::ArgMaxOptions>(
      c, r, [&](const tflite::ArgMaxOptions& o, TfLiteArgMaxParams* p) {
        return TypeOf(c, o.output_type(), "output_type", &p->output_type);
      });
}

TfLiteStatus ParseArgMin(const Ctx& c, void** r) {
  return Parse<TfLiteArgMinParams, tflite::ArgMinOptions>(
      c, r, [&](const tflite::ArgMinOptions& o, TfLiteArgMinParams* p) {
        return TypeOf(c, o.output_type(), "output_type", &p->output_type);
      });
}

TfLiteStatus ParseLeakyRelu(const Ctx& c, void** r) {
  return Parse<TfLiteLeakyReluParams, tflite::LeakyReluOptions>(
      c, r, [](const tflite::LeakyReluOptions& o, TfLiteLeakyReluParams* p) {
        p->alpha = o.alpha();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseMirrorPad(const Ctx& c, void** r) {
  return Parse<TfLiteMirrorPaddingParams, tflite::MirrorPadOptions>(
      c, r, [&](const tflite::MirrorPadOptions& o, TfLiteMirrorPaddingParams* p) {
        if (!ToMirrorPadding(o.mode(), &p->mode)) return BadEnum(c, "mode", o.mode());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseOneHot(const Ctx& c, void** r) {
  return Parse<TfLiteOneHotParams, tflite::OneHotOptions>(
      c, r, [](const tflite::OneHotOptions& o, TfLiteOneHotParams* p) {
        p->axis = o.axis();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseCumsum(const Ctx& c, void** r) {
  return Parse<TfLiteCumsumParams, tflite::CumsumOptions>(
      c, r, [](const tflite::CumsumOptions& o, TfLiteCumsumParams* p) {
        p->exclusive = o.exclusive();
        p->reverse = o.reverse();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseGelu(const Ctx& c, void** r) {
  return Parse<TfLiteGeluParams, tflite::GeluOptions>(
      c, r, [](const tflite::GeluOptions& o, TfLiteGeluParams* p) {
        p->approximate = o.approximate();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBatchMatMul(const Ctx& c, void** r) {
  return Parse<TfLiteBatchMatMulParams, tflite::BatchMatMulOptions>(
      c, r, [](const tflite::BatchMatMulOptions& o, TfLiteBatchMatMulParams* p) {
        p->adj_x = o.adj_x();
        p->adj_y = o.adj_y();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSparseToDense(const Ctx& c, void** r) {
  return Parse<TfLiteSparseToDenseParams, tflite::SparseToDenseOptions>(
      c, r, [](const tflite::SparseToDenseOptions& o, TfLiteSparseToDenseParams* p) {
        p->validate_indices = o.validate_indices();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseFakeQuant(const Ctx& c, void** r) {
  return Parse<TfLiteFakeQuantParams, tflite::FakeQuantOptions>(
      c, r, [](const tflite::FakeQuantOptions& o, TfLiteFakeQuantParams* p) {
        p->min = o.min();
        p->max = o.max();
        p->num_bits = o.num_bits();
        p->narrow_range = o.narrow_range();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseUnique(const Ctx& c, void** r) {
  return Parse<TfLiteUniqueParams, tflite::UniqueOptions>(
      c, r, [](const tflite::UniqueOptions& o, TfLiteUniqueParams* p) {
        // Only int32 and int64 index outputs exist; anything else means int32.
        p->index_out_type =
            o.idx_out_type() == tflite::TensorType_INT64 ? kTfLiteInt64 : kTfLiteInt32;
        return kTfLiteOk;
      });
}

TfLiteStatus ParseReverseSequence(const Ctx& c, void** r) {
  return Parse<TfLiteReverseSequenceParams, tflite::ReverseSequenceOptions>(
      c, r, [](const tflite::ReverseSequenceOptions& o, TfLiteReverseSequenceParams* p) {
        p->seq_dim = o.seq_dim();
        p->batch_dim = o.batch_dim();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseIf(const Ctx& c, void** r) {
  return Parse<TfLiteIfParams, tflite::IfOptions>(
      c, r, [](const tflite::IfOptions& o, TfLiteIfParams* p) {
        p->then_subgraph_index = o.then_subgraph_index();
        p->else_subgraph_index = o.else_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseWhile(const Ctx& c, void** r) {
  return Parse<TfLiteWhileParams, tflite::WhileOptions>(
      c, r, [](const tflite::WhileOptions& o, TfLiteWhileParams* p) {
        p->cond_subgraph_index = o.cond_subgraph_index();
        p->body_subgraph_index = o.body_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseCallOnce(const Ctx& c, void** r) {
  return Parse<TfLiteCallOnceParams, tflite::CallOnceOptions>(
      c, r, [](const tflite::CallOnceOptions& o, TfLiteCallOnceParams* p) {
        p->init_subgraph_index = o.init_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseHashtable(const Ctx& c, void** r) {
  return Parse<TfLiteHashtableParams, tflite::HashtableOptions>(
      c, r, [&](const tflite::HashtableOptions& o, TfLiteHashtableParams* p) {
        p->table_id = o.table_id();
        TFLC_TRY(TypeOf(c, o.key_dtype(), "key_dtype", &p->key_dtype));
        return TypeOf(c, o.value_dtype(), "value_dtype", &p->value_dtype);
      });
}

TfLiteStatus ParseVarHandle(const Ctx& c, void** r) {
  return Parse<TfLiteVarHandleParams, tflite::VarHandleOptions>(
      c, r, [](const tflite::VarHandleOptions& o, TfLiteVarHandleParams* p) {
        // Both strings stay inside the model's flatbuffer.
        p->container = o.container() ? o.container()->c_str() : nullptr;
        p->shared_name = o.shared_name() ? o.shared_name()->c_str() : nullptr;
        return kTfLiteOk;
      });
}

TfLiteStatus ParseRandom(const Ctx& c, void** r) {
  return Parse<TfLiteRandomParams, tflite::RandomOptions>(
      c, r, [](const tflite::RandomOptions& o, TfLiteRandomParams* p) {
        // The schema stores 64-bit seeds; the C struct holds ints.
        p->seed = static_cast<int>(o.seed());
        p->seed2 = static_cast<int>(o.seed2());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBucketize(const Ctx& c, void** r) {
  return Parse<TfLiteBucketizeParams, tflite::BucketizeOptions>(
      c, r, [&](const tflite::BucketizeOptions& o, TfLiteBucketizeParams* p) {
        const auto* b = o.boundaries();
        if (b == nullptr) {
          c.reporter->Reportf("%s: option 'boundaries' is missing.", c.name());
          return kTfLiteError;
        }
        p->num_boundaries = static_cast<int>(b->size());
        p->boundaries = b->data();  // points into the model
        return kTfLiteOk;
      });
}

// ---- BuiltinOptions2 (StableHLO and friends) ------------------------------

TfLiteStatus ParseStablehloScatter(const Ctx& c, void** r) {
  using O = tflite::StablehloScatterOptions;
  return Parse<TfLiteStablehloScatterParams, O>(
      c, r, [&](const O& o, TfLiteStablehloScatterParams* p) {
        p->indices_are_sorted = o.indices_are_sorted();
        if (const auto* v = o.update_window_dims()) {
          TFLC_TRY(CopyArray(c, v, p->update_window_dims, "update_window_dims"));
          p->num_update_window_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.inserted_window_dims()) {
          TFLC_TRY(CopyArray(c, v, p->inserted_window_dims, "inserted_window_dims"));
          p->num_inserted_window_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.scatter_dims_to_operand_dims()) {
          TFLC_TRY(CopyArray(c, v, p->scatter_dims_to_operand_dims,
                             "scatter_dims_to_operand_dims"));
          p->num_scatter_dims_to_operand_dims = static_cast<int>(v->size());
        }
        p->index_vector_dim = o.index_vector_dim();
        p->unique_indices = o.unique_indices();
        p->update_computation_subgraph_index = o.update_computation_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloGather(const Ctx& c, void** r) {
  using O = tflite::StablehloGatherOptions;
  return Parse<TfLiteStablehloGatherParams, O>(
      c, r, [&](const O& o, TfLiteStablehloGatherParams* p) {
        if (const auto* v = o.offset_dims()) {
          TFLC_TRY(CopyArray(c, v, p->offset_dims, "offset_dims"));
          p->num_offset_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.collapsed_slice_dims()) {
          TFLC_TRY(CopyArray(c, v, p->collapsed_slice_dims, "collapsed_slice_dims"));
          p->num_collapsed_slice_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.start_index_map()) {
          TFLC_TRY(CopyArray(c, v, p->start_index_map, "start_index_map"));
          p->num_start_index_map = static_cast<int>(v->size());
        }
        p->index_vector_dim = o.index_vector_dim();
        if (const auto* v = o.slice_sizes()) {
          TFLC_TRY(CopyArray(c, v, p->slice_sizes, "slice_sizes"));
          p->num_slice_sizes = static_cast<int>(v->size());
        }
        p->indices_are_sorted = o.indices_are_sorted();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloRngBitGenerator(const Ctx& c, void** r) {
  using O = tflite::StablehloRngBitGeneratorOptions;
  return Parse<TfLiteStablehloRngBitGeneratorParams, O>(
      c, r, [&](const O& o, TfLiteStablehloRngBitGeneratorParams* p) {
        if (!ToRngAlgorithm(o.algorithm(), &p->algorithm))
          return BadEnum(c, "algorithm", o.algorithm());
        return kTfLiteOk;
      });
}

// Fills one reduce_window attribute: an absent/empty vector means "all
// `fill`", otherwise it must have exactly `expected` entries.
template <size_t N>
TfLiteStatus WindowAttr(const Ctx& c, const flatbuffers::Vector<int64_t>* v, int64_t (&dst)[N],
                        size_t expected, int64_t fill, const char* field) {
  if (v == nullptr || v->size() == 0) {
    for (size_t i = 0; i < N; ++i) dst[i] = fill;
    return kTfLiteOk;
  }
  if (v->size() != expected) {
    c.reporter->Reportf("%s: option '%s' has %u entries, expected %zu.", c.name(), field,
                        static_cast<unsigned>(v->size()), expected);
    return kTfLiteError;
  }
  return CopyArray(c, v, dst, field);
}

TfLiteStatus ParseStablehloReduceWindow(const Ctx& c, void** r) {
  using O = tflite::StablehloReduceWindowOptions;
  using P = TfLiteStablehloReduceWindowParams;
  return Parse<P, O>(
      c, r,
      [&](const O& o, P* p) {
        const auto* dims = o.window_dimensions();
        if (dims == nullptr || dims->size() == 0) {
          c.reporter->Reportf("%s: option 'window_dimensions' is required and must be non-empty.",
                              c.name());
          return kTfLiteError;
        }
        const size_t rank = dims->size();
        TFLC_TRY(WindowAttr(c, dims, p->window_dimensions, rank, 1, "window_dimensions"));
        TFLC_TRY(WindowAttr(c, o.window_strides(), p->window_strides, rank, 1, "window_strides"));
        TFLC_TRY(WindowAttr(c, o.base_dilations(), p->base_dilations, rank, 1, "base_dilations"));
        TFLC_TRY(WindowAttr(c, o.window_dilations(), p->window_dilations, rank, 1,
                            "window_dilations"));
        TFLC_TRY(WindowAttr(c, o.padding(), p->padding, 2 * rank, 0, "padding"));
        p->body_subgraph_index = o.body_subgraph_index();
        return kTfLiteOk;
      },
      Need::kRequired);
}

TfLiteStatus ParseReduceWindow(const Ctx& c, void** r) {
  return Parse<TfLiteReduceWindowParams, tflite::ReduceWindowOptions>(
      c, r, [&](const tflite::ReduceWindowOptions& o, TfLiteReduceWindowParams* p) {
        if (!ToReduceWindowFunction(o.reduce_function(), &p->reduce_function))
          return BadEnum(c, "reduce_function", o.reduce_function());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloPad(const Ctx& c, void** r) {
  using O = tflite::StablehloPadOptions;
  return Parse<TfLiteStablehloPadParams, O>(
      c, r,
      [&](const O& o, TfLiteStablehloPadParams* p) {
        const auto* lo = o.edge_padding_low();
        const auto* hi = o.edge_padding_high();
        const auto* in = o.interior_padding();
        if (lo == nullptr || hi == nullptr || in == nullptr) {
          c.reporter->Reportf(
              "%s: options 'edge_padding_low', 'edge_padding_high' and 'interior_padding' are "
              "all required.",
              c.name());
          return kTfLiteError;
        }
        if (lo->size() != hi->size() || lo->size() != in->size()) {
          c.reporter->Reportf("%s: padding option arrays differ in length (%u, %u, %u).", c.name(),
                              static_cast<unsigned>(lo->size()), static_cast<unsigned>(hi->size()),
                              static_cast<unsigned>(in->size()));
          return kTfLiteError;
        }
        TFLC_TRY(CopyArray(c, lo, p->edge_padding_low, "edge_padding_low"));
        TFLC_TRY(CopyArray(c, hi, p->edge_padding_high, "edge_padding_high"));
        return CopyArray(c, in, p->interior_padding, "interior_padding");
      },
      Need::kRequired);
}

TfLiteStatus ParseStablehloComposite(const Ctx& c, void** r) {
  using O = tflite::StableHLOCompositeOptions;
  return Parse<TfLiteStablehloCompositeParams, O>(
      c, r,
      [&](const O& o, TfLiteStablehloCompositeParams* p) {
        if (o.name() == nullptr || o.composite_attributes() == nullptr) {
          c.reporter->Reportf("%s: options 'name' and 'composite_attributes' are required.",
                              c.name());
          return kTfLiteError;
        }
        // Name and attribute bytes point into the model.
        p->name = o.name()->c_str();
        p->version = o.version();
        p->subgraph_index = o.decomposition_subgraph_index();
        p->attributes = o.composite_attributes()->data();
        p->attributes_size = o.composite_attributes()->size();
        return kTfLiteOk;
      },
      Need::kRequired);
}

#ifdef TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT
TfLiteStatus ParseStablehloCase(const Ctx& c, void** r) {
  using O = tflite::StablehloCaseOptions;
  return Parse<TfLiteStablehloCaseParams, O>(
      c, r,
      [&](const O& o, TfLiteStablehloCaseParams* p) {
        const auto* v = o.branch_subgraph_indices();
        if (v == nullptr) {
          c.reporter->Reportf("%s: option 'branch_subgraph_indices' is required.", c.name());
          return kTfLiteError;
        }
        TFLC_TRY(CopyArray(c, v, p->branch_subgraph_indices, "branch_subgraph_indices"));
        p->num_branches = v->size();
        return kTfLiteOk;
      },
      Need::kRequired);
}
#endif

TfLiteStatus Dispatch(const Ctx& c, void** r) {
  using tflite::BuiltinOperator;
  switch (c.code) {
    // Operators with a parameter struct.
    case tflite::BuiltinOperator_CONV_2D: return ParseConv2D(c, r);
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D: return ParseDepthwiseConv2D(c, r);
    case tflite::BuiltinOperator_CONV_3D:
    case tflite::BuiltinOperator_CONV_3D_TRANSPOSE: return ParseConv3D(c, r);
    case tflite::BuiltinOperator_AVERAGE_POOL_2D:
    case tflite::BuiltinOperator_MAX_POOL_2D:
    case tflite::BuiltinOperator_L2_POOL_2D: return ParsePool(c, r);
    case tflite::BuiltinOperator_TRANSPOSE_CONV: return ParseTransposeConv(c, r);
    case tflite::BuiltinOperator_FULLY_CONNECTED: return ParseFullyConnected(c, r);
    case tflite::BuiltinOperator_ADD:
      return ParseActivationPot<TfLiteAddParams, tflite::AddOptions>(c, r);
    case tflite::BuiltinOperator_SUB:
      return ParseActivationPot<TfLiteSubParams, tflite::SubOptions>(c, r);
    case tflite::BuiltinOperator_MUL:
      return ParseActivationOnly<TfLiteMulParams, tflite::MulOptions>(c, r);
    case tflite::BuiltinOperator_DIV:
      return ParseActivationOnly<TfLiteDivParams, tflite::DivOptions>(c, r);
    case tflite::BuiltinOperator_CONCATENATION: return ParseConcatenation(c, r);
    case tflite::BuiltinOperator_SOFTMAX: return ParseSoftmax(c, r);
    case tflite::BuiltinOperator_RESHAPE: return ParseReshape(c, r);
    case tflite::BuiltinOperator_SQUEEZE: return ParseSqueeze(c, r);
    case tflite::BuiltinOperator_RESIZE_BILINEAR:
      return ParseResize<TfLiteResizeBilinearParams, tflite::ResizeBilinearOptions>(c, r);
    case tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR:
      return ParseResize<TfLiteResizeNearestNeighborParams,
                         tflite::ResizeNearestNeighborOptions>(c, r);
    case tflite::BuiltinOperator_STRIDED_SLICE: return ParseStridedSlice(c, r);
    case tflite::BuiltinOperator_PACK: return ParsePack(c, r);
    case tflite::BuiltinOperator_UNPACK: return ParseUnpack(c, r);
    case tflite::BuiltinOperator_GATHER: return ParseGather(c, r);
    case tflite::BuiltinOperator_SPLIT: return ParseSplit(c, r);
    case tflite::BuiltinOperator_SPLIT_V: return ParseSplitV(c, r);
    case tflite::BuiltinOperator_MEAN:
    case tflite::BuiltinOperator_SUM:
    case tflite::BuiltinOperator_REDUCE_PROD:
    case tflite::BuiltinOperator_REDUCE_MAX:
    case tflite::BuiltinOperator_REDUCE_MIN:
    case tflite::BuiltinOperator_REDUCE_ANY:
    case tflite::BuiltinOperator_REDUCE_ALL: return ParseReducer(c, r);
    case tflite::BuiltinOperator_SPACE_TO_DEPTH: return ParseSpaceToDepth(c, r);
    case tflite::BuiltinOperator_DEPTH_TO_SPACE: return ParseDepthToSpace(c, r);
    case tflite::BuiltinOperator_L2_NORMALIZATION: return ParseL2Norm(c, r);
    case tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION: return ParseLocalResponseNorm(c, r);
    case tflite::BuiltinOperator_LSTM: return ParseLstm(c, r);
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseUnidirectionalSequenceLstm(c, r);
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseBidirectionalSequenceLstm(c, r);
    case tflite::BuiltinOperator_RNN: return ParseRnn(c, r);
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN: return ParseSequenceRnn(c, r);
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN:
      return ParseBidirectionalSequenceRnn(c, r);
    case tflite::BuiltinOperator_SVDF: return ParseSvdf(c, r);
    case tflite::BuiltinOperator_LSH_PROJECTION: return ParseLshProjection(c, r);
    case tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE: return ParseEmbeddingLookupSparse(c, r);
    case tflite::BuiltinOperator_SKIP_GRAM: return ParseSkipGram(c, r);
    case tflite::BuiltinOperator_SHAPE: return ParseShape(c, r);
    case tflite::BuiltinOperator_CAST: return ParseCast(c, r);
    case tflite::BuiltinOperator_ARG_MAX: return ParseArgMax(c, r);
    case tflite::BuiltinOperator_ARG_MIN: return ParseArgMin(c, r);
    case tflite::BuiltinOperator_LEAKY_RELU: return ParseLeakyRelu(c, r);
    case tflite::BuiltinOperator_MIRROR_PAD: return ParseMirrorPad(c, r);
    case tflite::BuiltinOperator_ONE_HOT: return ParseOneHot(c, r);
    case tflite::BuiltinOperator_CUMSUM: return ParseCumsum(c, r);
    case tflite::BuiltinOperator_GELU: return ParseGelu(c, r);
    case tflite::BuiltinOperator_BATCH_MATMUL: return ParseBatchMatMul(c, r);
    case tflite::BuiltinOperator_SPARSE_TO_DENSE: return ParseSparseToDense(c, r);
    case tflite::BuiltinOperator_FAKE_QUANT: return ParseFakeQuant(c, r);
    case tflite::BuiltinOperator_UNIQUE: return ParseUnique(c, r);
    case tflite::BuiltinOperator_REVERSE_SEQUENCE: return ParseReverseSequence(c, r);
    case tflite::BuiltinOperator_IF: return ParseIf(c, r);
    case tflite::BuiltinOperator_WHILE: return ParseWhile(c, r);
    case tflite::BuiltinOperator_CALL_ONCE: return ParseCallOnce(c, r);
    case tflite::BuiltinOperator_HASHTABLE: return ParseHashtable(c, r);
    case tflite::BuiltinOperator_VAR_HANDLE: return ParseVarHandle(c, r);
    case tflite::BuiltinOperator_MULTINOMIAL:
    case tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL:
    case tflite::BuiltinOperator_RANDOM_UNIFORM: return ParseRandom(c, r);
    case tflite::BuiltinOperator_BUCKETIZE: return ParseBucketize(c, r);
    case tflite::BuiltinOperator_STABLEHLO_SCATTER: return ParseStablehloScatter(c, r);
    case tflite::BuiltinOperator_STABLEHLO_GATHER: return ParseStablehloGather(c, r);
    case tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR:
      return ParseStablehloRngBitGenerator(c, r);
    case tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW: return ParseStablehloReduceWindow(c, r);
    case tflite::BuiltinOperator_REDUCE_WINDOW: return ParseReduceWindow(c, r);
    case tflite::BuiltinOperator_STABLEHLO_PAD: return ParseStablehloPad(c, r);
    case tflite::BuiltinOperator_STABLEHLO_COMPOSITE: return ParseStablehloComposite(c, r);
#ifdef TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT
    case tflite::BuiltinOperator_STABLEHLO_CASE: return ParseStablehloCase(c, r);
#endif

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

#undef TFLC_TRY

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
