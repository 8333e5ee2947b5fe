#include "src/kernels/internal/recurrent_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus CheckRecurrentActivation(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation activation) {
  switch (activation) {
    case kTfLiteActNone:
    case kTfLiteActRelu:
    case kTfLiteActReluN1To1:
    case kTfLiteActRelu6:
    case kTfLiteActTanh:
    case kTfLiteActSigmoid:
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: activation %d is not supported", op,
                         static_cast<int>(activation));
      return kTfLiteError;
  }
}

void ApplyRecurrentActivation(TfLiteFusedActivation activation, const float* in, int n,
                              float* out) {
  switch (activation) {
    case kTfLiteActRelu:
      for (int i = 0; i < n; ++i) out[i] = std::max(0.0f, in[i]);
      break;
    case kTfLiteActReluN1To1:
      for (int i = 0; i < n; ++i) out[i] = std::min(1.0f, std::max(-1.0f, in[i]));
      break;
    case kTfLiteActRelu6:
      for (int i = 0; i < n; ++i) out[i] = std::min(6.0f, std::max(0.0f, in[i]));
      break;
    case kTfLiteActTanh:
      for (int i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
      break;
    case kTfLiteActSigmoid:
      for (int i = 0; i < n; ++i) out[i] = 1.0f / (1.0f + std::exp(-in[i]));
      break;
    default:
      if (in != out) std::memcpy(out, in, sizeof(float) * n);
      break;
  }
}

TfLiteStatus GetSequenceDims(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                             bool sequence, bool time_major, SequenceDims* dims) {
  const int rank = sequence ? 3 : 2;
  if (NumDims(input) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank %d, got %d", op, rank, NumDims(input));
    return kTfLiteError;
  }
  if (sequence) {
    dims->max_time = Dim(input, time_major ? 0 : 1);
    dims->n_batch = Dim(input, time_major ? 1 : 0);
    dims->n_input = Dim(input, 2);
  } else {
    dims->max_time = 1;
    dims->n_batch = Dim(input, 0);
    dims->n_input = Dim(input, 1);
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeSequenceOutput(TfLiteContext* context, const TfLiteTensor* input,
                                  TfLiteTensor* output, bool sequence, int n_batch, int n_output) {
  if (sequence) {
    TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
    shape->data[2] = n_output;
    return context->ResizeTensor(context, output, shape);
  }
  return ResizeOutput(context, output, {n_batch, n_output});
}

TfLiteStatus PrepareBidirectionalOutputs(TfLiteContext* context, TfLiteNode* node,
                                         const char* op, const TfLiteTensor* input,
                                         int n_outputs, bool merge, int fw_width, int bw_width) {
  for (int k = 0; k < n_outputs; ++k) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, GetOutput(context, node, k, op, &output));
    TF_LITE_ENSURE_OK(context, ExpectType(context, op, "output", output, kTfLiteFloat32));
    const int width = merge ? fw_width + bw_width : (k == 0 ? fw_width : bw_width);
    TF_LITE_ENSURE_OK(context, ResizeSequenceOutput(context, input, output, true, 0, width));
  }
  return kTfLiteOk;
}

TfLiteStatus CheckBidirectionalAuxInput(TfLiteContext* context, const char* op,
                                        const TfLiteTensor* input, const TfLiteTensor* aux_input,
                                        bool use_aux_weights, int n_input, bool* bw_reads_aux,
                                        int* n_aux) {
  if (use_aux_weights && aux_input == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: aux weights need an aux_input", op);
    return kTfLiteError;
  }
  *bw_reads_aux = aux_input != nullptr && !use_aux_weights;
  *n_aux = 0;
  if (aux_input == nullptr) return kTfLiteOk;
  if (aux_input->type != kTfLiteFloat32 || NumDims(aux_input) != 3 ||
      Dim(aux_input, 0) != Dim(input, 0) || Dim(aux_input, 1) != Dim(input, 1) ||
      (*bw_reads_aux && Dim(aux_input, 2) != n_input)) {
    char got[64];
    TF_LITE_KERNEL_LOG(context,
                       "%s: aux_input (%s %s) must be FLOAT32 with the input's time and batch "
                       "dimensions%s",
                       op, TfLiteTypeGetName(aux_input->type),
                       ShapeToString(aux_input->dims, got, sizeof(got)),
                       *bw_reads_aux ? " and, without aux weights, its input size" : "");
    return kTfLiteError;
  }
  if (use_aux_weights) *n_aux = Dim(aux_input, 2);
  return kTfLiteOk;
}

void BidirectionalOutputRows(TfLiteContext* context, const TfLiteNode* node, bool merge, int k,
                             int fw_width, int bw_width, float** rows, int* stride) {
  if (merge) {
    *rows = static_cast<float*>(OutputAt(context, node, 0)->data.data) + (k == 0 ? 0 : fw_width);
    *stride = fw_width + bw_width;
  } else {
    *rows = static_cast<float*>(OutputAt(context, node, k)->data.data);
    *stride = k == 0 ? fw_width : bw_width;
  }
}

namespace {

// out[b * stride + r] += x[b, :] . w[r, :] for float weights; `tmp` holds
// n_batch * rows floats.
void FloatProductAccumulate(const float* x, int n_batch, int depth, const float* w, int rows,
                            float* out, int stride, float* tmp) {
  MatMulTransposedRhs({x, n_batch, depth, depth}, {w, rows, depth, depth},
                      {tmp, n_batch, rows, rows}, 1);
  for (int b = 0; b < n_batch; ++b) {
    float* o = out + int64_t{b} * stride;
    const float* t = tmp + int64_t{b} * rows;
    for (int r = 0; r < rows; ++r) o[r] += t[r];
  }
}

}  // namespace

void RnnCellStep(const RnnCell& cell, const float* x, const float* aux, int n_batch, float* h,
                 float* out, int out_stride, const RnnScratch& scratch) {
  const int units = cell.units;
  for (int b = 0; b < n_batch; ++b) {
    std::memcpy(out + int64_t{b} * out_stride, cell.bias, sizeof(float) * units);
  }
  auto product = [&](const float* v, int depth, const void* w, float w_scale,
                     const int32_t* sums) {
    if (cell.hybrid) {
      HybridMatMulAccumulate(v, n_batch, depth, static_cast<const int8_t*>(w), units, w_scale,
                             sums, scratch.quantized, out, out_stride);
    } else {
      FloatProductAccumulate(v, n_batch, depth, static_cast<const float*>(w), units, out,
                             out_stride, scratch.tmp);
    }
  };
  product(x, cell.n_input, cell.weights, cell.weights_scale, cell.weights_sums);
  if (aux != nullptr && cell.n_aux > 0) {
    product(aux, cell.n_aux, cell.aux_weights, cell.aux_scale, cell.aux_sums);
  }
  product(h, units, cell.recurrent, cell.recurrent_scale, cell.recurrent_sums);
  for (int b = 0; b < n_batch; ++b) {
    float* o = out + int64_t{b} * out_stride;
    ApplyRecurrentActivation(cell.activation, o, units, o);
    std::memcpy(h + int64_t{b} * units, o, sizeof(float) * units);
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
