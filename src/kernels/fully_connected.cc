// FULLY_CONNECTED: out[b, u] = activation(sum_k in[b, k] * weights[u, k] + bias[u]).
// FLOAT32 with DEFAULT (row-major [units, depth]) weights; bias optional.
// Quantized: int8 (per-tensor or per-channel weights, int8 or int16 output),
// uint8, and int16 activations with int8 weights (see quant_conv.h).
//
// The input is read as [batches, depth] whatever its rank. The output is
// [batches, units], or, with keep_num_dims, the input's shape with the last
// dimension replaced by units.
#include <type_traits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_conv.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "FULLY_CONNECTED";

struct OpData {
  int64_t batches = 0;
  int units = 0;
  int depth = 0;
  bool quantized = false;
  internal::QuantConvParams quant;
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  if (params != nullptr && params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault) {
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

  data->quantized = internal::IsQuantizedType(input->type);
  if (!data->quantized) {
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "input", input, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "weights", weights, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", bias, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context,
                      internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  }
  if (weights->sparsity != nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: sparse weights are not supported", kOp);
    return kTfLiteError;
  }

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
  if (data->quantized) {
    TF_LITE_ENSURE_OK(context, internal::PrepareQuantConv(
                                   context, kOp, internal::QuantConvKind::kFullyConnected, input,
                                   weights, bias, output,
                                   params ? params->activation : kTfLiteActNone, 0, units,
                                   &data->quant));
  }

  if (params != nullptr && params->keep_num_dims) {
    const int rank = internal::NumDims(input);
    if (rank == 0 || internal::Dim(input, rank - 1) != depth) {
      TF_LITE_KERNEL_LOG(context, "%s: keep_num_dims needs the input's last dimension to be %d",
                         kOp, depth);
      return kTfLiteError;
    }
    TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
    shape->data[rank - 1] = units;
    return context->ResizeTensor(context, output, shape);
  }
  if (batches > 0x7fffffff) {
    TF_LITE_KERNEL_LOG(context, "%s: too many batches", kOp);
    return kTfLiteError;
  }
  return internal::ResizeOutput(context, output, {static_cast<int>(batches), units});
}

// out[b, u] = requantize(sum_k (in[b, k] + input_offset) * (w[u, k] + filter_offset) + bias[u]).
template <typename In, typename Out>
void EvalQuantized(const OpData& d, const TfLiteTensor* input, const TfLiteTensor* weights,
                   const TfLiteTensor* bias, TfLiteTensor* output) {
  using Acc = internal::QuantAcc<In>;
  const internal::QuantConvParams& q = d.quant;
  const In* in = static_cast<const In*>(input->data.data);
  using Weight = std::conditional_t<std::is_same_v<In, uint8_t>, uint8_t, int8_t>;
  const Weight* w = static_cast<const Weight*>(weights->data.data);
  Out* out = static_cast<Out*>(output->data.data);
  for (int64_t b = 0; b < d.batches; ++b) {
    const In* row = in + b * d.depth;
    for (int u = 0; u < d.units; ++u) {
      const Weight* wrow = w + int64_t{u} * d.depth;
      Acc acc = 0;
      for (int k = 0; k < d.depth; ++k) {
        acc += static_cast<Acc>(row[k] + q.input_offset) *
               static_cast<Acc>(wrow[k] + q.filter_offset);
      }
      acc += static_cast<Acc>(internal::BiasAt(bias, u));
      out[b * d.units + u] = internal::Requantize<Out>(acc, q, u);
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* weights = internal::InputAt(context, node, 1);
  const TfLiteTensor* bias = internal::GetOptionalInput(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (data->quantized) {
    if (input->type == kTfLiteUInt8) {
      EvalQuantized<uint8_t, uint8_t>(*data, input, weights, bias, output);
    } else if (input->type == kTfLiteInt16) {
      EvalQuantized<int16_t, int16_t>(*data, input, weights, bias, output);
    } else if (output->type == kTfLiteInt16) {
      EvalQuantized<int8_t, int16_t>(*data, input, weights, bias, output);
    } else {
      EvalQuantized<int8_t, int8_t>(*data, input, weights, bias, output);
    }
    return kTfLiteOk;
  }

  internal::MatMulTransposedRhs({input->data.f, data->batches, data->depth, data->depth},
                                {weights->data.f, data->units, data->depth, data->depth},
                                {output->data.f, data->batches, data->units, data->units},
                                internal::KernelThreads(context));
  const auto range =
      internal::GetActivationRange<float>(params ? params->activation : kTfLiteActNone);
  internal::AddBiasAndClamp(output->data.f, data->batches, data->units,
                            bias ? bias->data.f : nullptr, range);
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
