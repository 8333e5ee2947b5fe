// Option parsers of the layer operators: convolutions, pooling, fully
// connected, arithmetic, shape and reduction ops (see builtin_data.h).
#include <cstddef>
#include <cstdint>

#include "src/core/builtin_data_parse.h"

namespace tflite_c {
namespace builtin_data_internal {
namespace {

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

}  // namespace

ParserFn LayerParser(tflite::BuiltinOperator code) {
  switch (code) {
    case tflite::BuiltinOperator_CONV_2D: return ParseConv2D;
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D: return ParseDepthwiseConv2D;
    case tflite::BuiltinOperator_CONV_3D:
    case tflite::BuiltinOperator_CONV_3D_TRANSPOSE: return ParseConv3D;
    case tflite::BuiltinOperator_AVERAGE_POOL_2D:
    case tflite::BuiltinOperator_MAX_POOL_2D:
    case tflite::BuiltinOperator_L2_POOL_2D: return ParsePool;
    case tflite::BuiltinOperator_TRANSPOSE_CONV: return ParseTransposeConv;
    case tflite::BuiltinOperator_FULLY_CONNECTED: return ParseFullyConnected;
    case tflite::BuiltinOperator_ADD:
      return ParseActivationPot<TfLiteAddParams, tflite::AddOptions>;
    case tflite::BuiltinOperator_SUB:
      return ParseActivationPot<TfLiteSubParams, tflite::SubOptions>;
    case tflite::BuiltinOperator_MUL:
      return ParseActivationOnly<TfLiteMulParams, tflite::MulOptions>;
    case tflite::BuiltinOperator_DIV:
      return ParseActivationOnly<TfLiteDivParams, tflite::DivOptions>;
    case tflite::BuiltinOperator_CONCATENATION: return ParseConcatenation;
    case tflite::BuiltinOperator_SOFTMAX: return ParseSoftmax;
    case tflite::BuiltinOperator_RESHAPE: return ParseReshape;
    case tflite::BuiltinOperator_SQUEEZE: return ParseSqueeze;
    case tflite::BuiltinOperator_RESIZE_BILINEAR:
      return ParseResize<TfLiteResizeBilinearParams, tflite::ResizeBilinearOptions>;
    case tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR:
      return ParseResize<TfLiteResizeNearestNeighborParams,
                         tflite::ResizeNearestNeighborOptions>;
    case tflite::BuiltinOperator_STRIDED_SLICE: return ParseStridedSlice;
    case tflite::BuiltinOperator_PACK: return ParsePack;
    case tflite::BuiltinOperator_UNPACK: return ParseUnpack;
    case tflite::BuiltinOperator_GATHER: return ParseGather;
    case tflite::BuiltinOperator_SPLIT: return ParseSplit;
    case tflite::BuiltinOperator_SPLIT_V: return ParseSplitV;
    case tflite::BuiltinOperator_MEAN:
    case tflite::BuiltinOperator_SUM:
    case tflite::BuiltinOperator_REDUCE_PROD:
    case tflite::BuiltinOperator_REDUCE_MAX:
    case tflite::BuiltinOperator_REDUCE_MIN:
    case tflite::BuiltinOperator_REDUCE_ANY:
    case tflite::BuiltinOperator_REDUCE_ALL: return ParseReducer;
    case tflite::BuiltinOperator_SPACE_TO_DEPTH: return ParseSpaceToDepth;
    case tflite::BuiltinOperator_DEPTH_TO_SPACE: return ParseDepthToSpace;
    case tflite::BuiltinOperator_L2_NORMALIZATION: return ParseL2Norm;
    case tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION: return ParseLocalResponseNorm;
    default: return nullptr;
  }
}

}  // namespace builtin_data_internal
}  // namespace tflite_c
