// FULLY_CONNECTED: out[b, u] = activation(sum_k in[b, k] * weights[u, k] + bias[u]).
// FLOAT32 with DEFAULT (row-major [units, depth]) weights; bias optional.
// Quantized: int8 (per-tensor or per-channel weights, int8 or int16 output),
// uint8, and int16 activations with int8 weights (see quant_conv.h); INT4
// weights with int8 input are unpacked to int8 in Prepare.
// Hybrid (FLOAT32 input and output, constant integer weights, see
// internal/hybrid_fc.h): INT8 or INT4 weights with per-tensor or per-channel
// symmetric scales (inputs quantized symmetrically, or asymmetrically with
// asymmetric_quantize_inputs), and INT4 weights with blockwise FLOAT16 scales
// (inputs always quantized asymmetrically, as upstream).
//
// The input is read as [batches, depth] whatever its rank. The output is
// [batches, units], or, with keep_num_dims, the input's shape with the last
// dimension replaced by units.
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "src/kernels/internal/activation.h"
#include "src/core/blockwise_quantization.h"
#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/quant_conv.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/sparse_fully_connected.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "FULLY_CONNECTED";

// The kernel a node runs, chosen in Prepare.
enum class Mode {
  kFloat,      // FLOAT32 dense weights: one GEMM
  kSparse,     // FLOAT32 sparse weights (sparse_fully_connected.h)
  kQuantized,  // 8- or 16-bit activations (INT4 weights unpacked to int8)
  kHybrid,     // FLOAT32 activations, INT8 or INT4 weights with affine scales
  kBlockwise,  // FLOAT32 activations, INT4 weights with blockwise FLOAT16 scales
};

struct OpData {
  int64_t batches = 0;
  int units = 0;
  int depth = 0;
  Mode mode = Mode::kFloat;
  internal::QuantConvParams quant;
  // kQuantized and kHybrid: INT4 weights, one value a byte (else empty).
  internal::ScratchVector<int8_t> unpacked_int4;
  // kHybrid.
  internal::ScratchVector<float> channel_scales;  // per-channel weight scales
  float weight_scale = 1.0f;          // per-tensor weight scale
  // kBlockwise.
  internal::ScratchVector<float> block_scales;    // FLOAT16 scales widened
  int blocksize = 0;
};

void UnpackInt4Weights(const TfLiteTensor* weights, int64_t count, OpData* data) {
  data->unpacked_int4.resize(count);
  internal::UnpackInt4(reinterpret_cast<const uint8_t*>(weights->data.raw_const), count,
                       data->unpacked_int4.data());
}

// Integer weights with FLOAT32 input: constant, and holding units x depth
// values (INT4: two a byte, rows not padded, as upstream unpacks them; only
// blockwise INT4 pads each row to whole bytes).
TfLiteStatus CheckHybridWeights(TfLiteContext* context, const TfLiteTensor* weights, int units,
                                int depth) {
  if (weights->type != kTfLiteInt8 && weights->type != kTfLiteInt4) {
    return internal::UnsupportedType(context, kOp, "weights (with FLOAT32 input)", weights->type);
  }
  if (!internal::IsConstantOrPersistent(weights)) {
    TF_LITE_KERNEL_LOG(context, "%s: integer weights with FLOAT32 input must be constant", kOp);
    return kTfLiteError;
  }
  const int64_t values = int64_t{units} * depth;
  int64_t packed_bytes = values;
  if (weights->type == kTfLiteInt4) {
    packed_bytes = weights->quantization.type == kBlockwiseQuantization
                       ? int64_t{units} * ((int64_t{depth} + 1) / 2)
                       : (values + 1) / 2;
  }
  if (weights->data.raw == nullptr || static_cast<int64_t>(weights->bytes) < packed_bytes) {
    TF_LITE_KERNEL_LOG(context, "%s: weights hold %zu bytes, expected %lld", kOp, weights->bytes,
                       static_cast<long long>(packed_bytes));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The block size of blockwise INT4 weights, and their FLOAT16 scales.
TfLiteStatus PrepareBlockwise(TfLiteContext* context, const TfLiteTensor* weights, int units,
                              int depth, OpData* data) {
  const auto* bq = static_cast<const BlockwiseQuantization*>(weights->quantization.params);
  if (weights->type != kTfLiteInt4) {
    return internal::UnsupportedType(context, kOp, "blockwise-quantized weights", weights->type);
  }
  if (bq == nullptr || bq->blocksize <= 0 || depth % bq->blocksize != 0 ||
      bq->quantized_dimension != 0) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: blockwise quantization needs a block size dividing depth %d along "
                       "dimension 0",
                       kOp, depth);
    return kTfLiteError;
  }
  if (bq->zero_point >= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: blockwise weight zero points are not supported", kOp);
    return kTfLiteError;
  }
  const int blocks = depth / bq->blocksize;
  if (bq->scale < 0 || static_cast<size_t>(bq->scale) >= context->tensors_size) {
    TF_LITE_KERNEL_LOG(context, "%s: blockwise scale tensor %d does not exist", kOp, bq->scale);
    return kTfLiteError;
  }
  const TfLiteTensor* scales = &context->tensors[bq->scale];
  if (scales->type != kTfLiteFloat16) {
    return internal::UnsupportedType(context, kOp, "blockwise scales", scales->type);
  }
  if (scales->data.raw == nullptr || internal::NumElements(scales) != int64_t{units} * blocks ||
      scales->bytes < static_cast<size_t>(units) * blocks * 2) {
    TF_LITE_KERNEL_LOG(context, "%s: blockwise scales must hold %d x %d values", kOp, units,
                       blocks);
    return kTfLiteError;
  }
  const auto* half = reinterpret_cast<const Eigen::half*>(scales->data.raw_const);
  data->block_scales.resize(static_cast<size_t>(units) * blocks);
  for (size_t i = 0; i < data->block_scales.size(); ++i) {
    data->block_scales[i] = static_cast<float>(half[i]);
  }
  data->blocksize = bq->blocksize;
  data->mode = Mode::kBlockwise;
  return kTfLiteOk;
}

// Hybrid weights with affine scales: one per tensor or one per unit, zero
// points 0. INT4 weights are unpacked.
TfLiteStatus PrepareAffineHybrid(TfLiteContext* context, const TfLiteTensor* weights, int units,
                                 int depth, OpData* data) {
  const TfLiteAffineQuantization* aq = internal::HybridWeightQuantization(weights);
  if (aq == nullptr || aq->scale == nullptr || aq->scale->size < 1 ||
      (aq->scale->size != 1 && (aq->scale->size != units || aq->quantized_dimension != 0))) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s weights need one quantization scale or one per unit (dimension 0)",
                       kOp, TfLiteTypeGetName(weights->type));
    return kTfLiteError;
  }
  if (!internal::ZeroPointsAreZero(*aq)) {
    TF_LITE_KERNEL_LOG(context, "%s: hybrid weights with a nonzero zero point are not supported",
                       kOp);
    return kTfLiteError;
  }
  data->channel_scales.clear();
  if (aq->scale->size > 1) {
    data->channel_scales.assign(aq->scale->data, aq->scale->data + aq->scale->size);
  } else {
    data->weight_scale = aq->scale->data[0];
  }
  data->unpacked_int4.clear();
  // Flat packing, as upstream's hybrid path reads it.
  if (weights->type == kTfLiteInt4) UnpackInt4Weights(weights, int64_t{units} * depth, data);
  data->mode = Mode::kHybrid;
  return kTfLiteOk;
}

// kHybrid or kBlockwise: checks the integer weights of a FLOAT32-input node
// and records how to scale them; `units` x `depth` are their dimensions.
TfLiteStatus PrepareHybrid(TfLiteContext* context, const TfLiteTensor* weights, int units,
                           int depth, OpData* data) {
  TF_LITE_ENSURE_OK(context, CheckHybridWeights(context, weights, units, depth));
  if (weights->quantization.type == kBlockwiseQuantization) {
    return PrepareBlockwise(context, weights, units, depth, data);
  }
  return PrepareAffineHybrid(context, weights, units, depth, data);
}

// kQuantized. INT4 weights with INT8 input are unpacked to int8 once and
// then take the int8 path.
TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTensor* input,
                              const TfLiteTensor* weights, const TfLiteTensor* bias,
                              TfLiteTensor* output, TfLiteFusedActivation activation,
                              OpData* data) {
  TfLiteTensor unpacked_view;
  const TfLiteTensor* quant_weights = weights;
  if (weights->type == kTfLiteInt4 && input->type == kTfLiteInt8) {
    const int64_t n = int64_t{data->units} * data->depth;
    if (!internal::IsConstantOrPersistent(weights) || weights->data.raw == nullptr ||
        static_cast<int64_t>(weights->bytes) < (n + 1) / 2) {
      TF_LITE_KERNEL_LOG(context, "%s: INT4 weights must be constant and hold %lld bytes", kOp,
                         static_cast<long long>((n + 1) / 2));
      return kTfLiteError;
    }
    UnpackInt4Weights(weights, n, data);
    unpacked_view = *weights;
    unpacked_view.type = kTfLiteInt8;
    unpacked_view.data.raw = reinterpret_cast<char*>(data->unpacked_int4.data());
    unpacked_view.bytes = static_cast<size_t>(n);
    quant_weights = &unpacked_view;
  }
  data->mode = Mode::kQuantized;
  return internal::PrepareQuantConv(context, kOp, internal::QuantConvKind::kFullyConnected, input,
                                    quant_weights, bias, output, activation, 0, data->units,
                                    &data->quant);
}

// Reads units and depth from the 2-D weights and the batch count from the
// input, and checks the bias.
TfLiteStatus PrepareShapes(TfLiteContext* context, const TfLiteTensor* input,
                           const TfLiteTensor* weights, const TfLiteTensor* bias, OpData* data) {
  if (internal::NumDims(weights) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: weights must be 2-D [units, depth], got rank %d", kOp,
                       internal::NumDims(weights));
    return kTfLiteError;
  }
  const int units = internal::Dim(weights, 0);
  const int depth = internal::Dim(weights, 1);
  const int64_t input_elements = internal::NumElements(input);
  int64_t batches = 0;
  if (depth > 0) {
    batches = input_elements / depth;
    if (batches * depth != input_elements) {
      TF_LITE_KERNEL_LOG(context, "%s: input of %lld elements is not a multiple of depth %d", kOp,
                         static_cast<long long>(input_elements), depth);
      return kTfLiteError;
    }
  } else {
    // Empty rows: the batch count comes from the leading input dimensions.
    batches = 1;
    for (int i = 0; i + 1 < internal::NumDims(input); ++i) batches *= internal::Dim(input, i);
  }
  if (bias != nullptr && internal::NumElements(bias) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: bias has %lld elements, expected %d (units)", kOp,
                       static_cast<long long>(internal::NumElements(bias)), units);
    return kTfLiteError;
  }
  data->batches = batches;
  data->units = units;
  data->depth = depth;
  return kTfLiteOk;
}

// [batches, units], or with keep_num_dims the input's shape with its last
// dimension replaced by units.
TfLiteStatus ResizeFcOutput(TfLiteContext* context, const TfLiteFullyConnectedParams* params,
                            const TfLiteTensor* input, const OpData& data, TfLiteTensor* output) {
  if (params->keep_num_dims) {
    const int rank = internal::NumDims(input);
    if (rank == 0 || internal::Dim(input, rank - 1) != data.depth) {
      TF_LITE_KERNEL_LOG(context, "%s: keep_num_dims needs the input's last dimension to be %d",
                         kOp, data.depth);
      return kTfLiteError;
    }
    TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
    shape->data[rank - 1] = data.units;
    return context->ResizeTensor(context, output, shape);
  }
  if (data.batches > 0x7fffffff) {
    TF_LITE_KERNEL_LOG(context, "%s: too many batches", kOp);
    return kTfLiteError;
  }
  return internal::ResizeOutput(context, output, {static_cast<int>(data.batches), data.units});
}

// FLOAT32 input, bias and output; FLOAT32 weights too unless `hybrid`.
TfLiteStatus CheckFloatTypes(TfLiteContext* context, const TfLiteTensor* input,
                             const TfLiteTensor* weights, const TfLiteTensor* bias,
                             const TfLiteTensor* output, bool hybrid) {
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "input", input, kTfLiteFloat32));
  if (!hybrid) {
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "weights", weights, kTfLiteFloat32));
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", bias, kTfLiteFloat32));
  return internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  if (params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) {
    TF_LITE_KERNEL_LOG(context, "%s: weights format %d is not supported (only DEFAULT)", kOp,
                       static_cast<int>(params->weights_format));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 3, 1));
  const TfLiteTensor* input;
  const TfLiteTensor* weights;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &weights));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 2);

  const bool quantized = internal::IsQuantizedType(input->type);
  const bool hybrid = input->type == kTfLiteFloat32 && weights->type != kTfLiteFloat32;
  if (!quantized) {
    TF_LITE_ENSURE_OK(context, CheckFloatTypes(context, input, weights, bias, output, hybrid));
  }
  if (weights->sparsity != nullptr) {
    TF_LITE_ENSURE_OK(context,
                      internal::CheckSparseFullyConnected(context, kOp, input, weights, output));
  }
  TF_LITE_ENSURE_OK(context, PrepareShapes(context, input, weights, bias, data));
  data->mode = Mode::kFloat;
  data->unpacked_int4.clear();
  if (hybrid) {
    TF_LITE_ENSURE_OK(context, PrepareHybrid(context, weights, data->units, data->depth, data));
  }
  if (quantized) {
    TF_LITE_ENSURE_OK(
        context, PrepareQuantized(context, input, weights, bias, output, params->activation, data));
  } else if (weights->sparsity != nullptr) {
    data->mode = Mode::kSparse;
  }
  return ResizeFcOutput(context, params, input, *data, output);
}

// out[b, u] = requantize(sum_k (in[b, k] + input_offset) * (w[u, k] + filter_offset) + bias[u]),
// units split across threads. This plain loop's multiply-add costs about
// kPlainLoopMacCost of a GEMM's (MobileNet v2's 1280x1000 layer: 0.7 ms).
constexpr int64_t kPlainLoopMacCost = 4;
template <typename In, typename Out>
void EvalQuantized(TfLiteContext* context, const OpData& d, const TfLiteTensor* input,
                   const TfLiteTensor* weights, const TfLiteTensor* bias, TfLiteTensor* output) {
  using Acc = internal::QuantAcc<In>;
  const internal::QuantConvParams& q = d.quant;
  const In* in = static_cast<const In*>(input->data.data);
  using Weight = std::conditional_t<std::is_same_v<In, uint8_t>, uint8_t, int8_t>;
  const Weight* w = d.unpacked_int4.empty()
                        ? static_cast<const Weight*>(weights->data.data)
                        : reinterpret_cast<const Weight*>(d.unpacked_int4.data());
  Out* out = static_cast<Out*>(output->data.data);
  const int threads = internal::ThreadsForWork(
      internal::KernelThreads(context), kPlainLoopMacCost * d.batches * d.units * d.depth);
  internal::ParallelFor(threads, d.units, [&](int64_t u0, int64_t u1) {
    for (int64_t b = 0; b < d.batches; ++b) {
      const In* row = in + b * d.depth;
      for (int64_t u = u0; u < u1; ++u) {
        const Weight* wrow = w + u * d.depth;
        Acc acc = 0;
        for (int k = 0; k < d.depth; ++k) {
          acc = internal::WrappingAdd<Acc>(acc, static_cast<Acc>(row[k] + q.input_offset) *
                                                    static_cast<Acc>(wrow[k] + q.filter_offset));
        }
        acc = internal::WrappingAdd<Acc>(
            acc, static_cast<Acc>(internal::BiasAt(bias, static_cast<int>(u))));
        out[b * d.units + u] = internal::Requantize<Out>(acc, q, static_cast<int>(u));
      }
    }
  });
}

void EvalQuantizedTypes(TfLiteContext* context, const OpData& d, const TfLiteTensor* input,
                        const TfLiteTensor* weights, const TfLiteTensor* bias,
                        TfLiteTensor* output) {
  if (input->type == kTfLiteUInt8) {
    EvalQuantized<uint8_t, uint8_t>(context, d, input, weights, bias, output);
  } else if (input->type == kTfLiteInt16) {
    EvalQuantized<int16_t, int16_t>(context, d, input, weights, bias, output);
  } else if (output->type == kTfLiteInt16) {
    EvalQuantized<int8_t, int16_t>(context, d, input, weights, bias, output);
  } else {
    EvalQuantized<int8_t, int8_t>(context, d, input, weights, bias, output);
  }
}

void EvalHybrid(const OpData& d, const TfLiteFullyConnectedParams* params,
                const TfLiteTensor* input, const TfLiteTensor* weights, const float* bias,
                TfLiteTensor* output, int threads) {
  internal::HybridFcArgs a;
  a.input = input->data.f;
  a.weights = d.unpacked_int4.empty() ? reinterpret_cast<const int8_t*>(weights->data.raw_const)
                                      : d.unpacked_int4.data();
  a.bias = bias;
  a.output = output->data.f;
  a.batches = d.batches;
  a.units = d.units;
  a.depth = d.depth;
  a.channel_scales = d.channel_scales.empty() ? nullptr : d.channel_scales.data();
  a.weight_scale = d.weight_scale;
  a.asymmetric_inputs = params->asymmetric_quantize_inputs;
  a.threads = threads;
  internal::HybridFullyConnected(a);
}

void EvalBlockwise(const OpData& d, const TfLiteTensor* input, const TfLiteTensor* weights,
                   const float* bias, TfLiteTensor* output) {
  internal::BlockwiseFcArgs a;
  a.input = input->data.f;
  a.weights = reinterpret_cast<const uint8_t*>(weights->data.raw_const);
  a.scales = d.block_scales.data();
  a.bias = bias;
  a.output = output->data.f;
  a.batches = d.batches;
  a.units = d.units;
  a.depth = d.depth;
  a.blocksize = d.blocksize;
  internal::BlockwiseInt4FullyConnected(a);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* weights = internal::InputAt(context, node, 1);
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const TfLiteFusedActivation activation = params->activation;
  const auto range = internal::GetActivationRange<float>(activation);
  switch (data->mode) {
    case Mode::kQuantized:
      EvalQuantizedTypes(context, *data, input, weights, bias, output);
      break;
    case Mode::kSparse:
      internal::SparseFullyConnected(weights, input->data.f, bias ? bias->data.f : nullptr,
                                     output->data.f, data->batches, data->units, data->depth,
                                     activation);
      break;
    case Mode::kHybrid:
    case Mode::kBlockwise:
      if (data->mode == Mode::kHybrid) {
        EvalHybrid(*data, params, input, weights, bias ? bias->data.f : nullptr, output,
                   internal::KernelThreads(context));
      } else {
        EvalBlockwise(*data, input, weights, bias ? bias->data.f : nullptr, output);
      }
      // Upstream's blockwise kernel skips the fused activation; applying it
      // is the op's documented meaning (and a no-op for NONE).
      internal::AddBiasAndClamp(output->data.f, data->batches, data->units, nullptr, range);
      break;
    case Mode::kFloat:
      internal::MatMulTransposedRhs({input->data.f, data->batches, data->depth, data->depth},
                                    {weights->data.f, data->units, data->depth, data->depth},
                                    {output->data.f, data->batches, data->units, data->units},
                                    internal::KernelThreads(context));
      internal::AddBiasAndClamp(output->data.f, data->batches, data->units,
                                bias ? bias->data.f : nullptr, range);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_FULLY_CONNECTED() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
