// The float LSTM cell of LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
// BIDIRECTIONAL_SEQUENCE_LSTM, and its hybrid form: int8 weights (input,
// recurrent, auxiliary, peephole and projection; per-tensor scales) with float
// activations, biases, layer-norm coefficients and states. Hybrid products
// quantize each batch row of the float operand to int8 (symmetric, or
// asymmetric with asymmetric_quantize_inputs) and scale the integer sums
// back; the peephole weights are used dequantized; as upstream's kernel.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/lstm_cell.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

// A weight matrix [rows, cols]: float, or int8 with its scale and (for
// asymmetric inputs) row sums.
struct Matrix {
  const void* data = nullptr;
  float scale = 1.0f;
  const int32_t* row_sums = nullptr;
};

struct CellWeights {
  Matrix input_w[4], aux_w[4], recurrent_w[4], projection_w;
  const float* peephole[4];
  const float* layer_norm[4];
  const float* bias[4];
  const float* projection_b;
};

// acc[b * rows + r] += sum_k v[b, k] * m[r, k].
// `tmp` holds n_batch * rows floats, `q` cols int8 values.
void Product(const OpData& d, const Matrix& m, int rows, int cols, const float* v, int n_batch,
             float* acc, float* tmp, int8_t* q) {
  if (d.hybrid) {
    internal::HybridMatMulAccumulate(v, n_batch, cols, static_cast<const int8_t*>(m.data), rows,
                                     m.scale, m.row_sums, q, acc, rows);
    return;
  }
  internal::MatMulTransposedRhs({v, n_batch, cols, cols},
                                {static_cast<const float*>(m.data), rows, cols, cols},
                                {tmp, n_batch, rows, rows}, 1);
  for (int i = 0; i < n_batch * rows; ++i) acc[i] += tmp[i];
}

// One time step for `n_batch` rows: x [n_batch, n_input] (and aux [n_batch,
// n_aux]) -> h (output state) and c (cell state) updated in place; row b of
// the new h is copied to out + b * out_stride.
void Step(const OpData& d, const CellWeights& w, int n_batch, const float* x, const float* aux,
          float* h, float* c, float* out, int out_stride, float* scratch, int8_t* q) {
  const int n_cell = d.n_cell;
  const int nc = n_batch * n_cell;
  float* gates[4] = {scratch, scratch + nc, scratch + 2 * nc, scratch + 3 * nc};
  float* tmp = scratch + 4 * nc;  // max(nc, n_batch * n_output) floats
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && d.use_cifg) continue;
    if (g == kGateOutput) {
      // The cell state is updated before the output gate reads it.
      float* f = gates[kGateForget];
      const float* gi = gates[kGateInput];
      const float* gc = gates[kGateCell];
      for (int i = 0; i < nc; ++i) {
        const float input_gate = d.use_cifg ? 1.0f - f[i] : gi[i];
        float v = f[i] * c[i] + input_gate * gc[i];
        if (d.cell_clip > 0.0f) v = std::min(d.cell_clip, std::max(-d.cell_clip, v));
        c[i] = v;
      }
    }
    float* gate = gates[g];
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < n_cell; ++i) gate[b * n_cell + i] = d.use_layer_norm ? 0.0f : w.bias[g][i];
    }
    Product(d, w.input_w[g], n_cell, d.n_input, x, n_batch, gate, tmp, q);
    if (aux != nullptr) Product(d, w.aux_w[g], n_cell, d.n_aux, aux, n_batch, gate, tmp, q);
    Product(d, w.recurrent_w[g], n_cell, d.n_output, h, n_batch, gate, tmp, q);
    if (d.use_peephole && g != kGateCell) {
      for (int b = 0; b < n_batch; ++b) {
        for (int i = 0; i < n_cell; ++i) {
          gate[b * n_cell + i] += w.peephole[g][i] * c[b * n_cell + i];
        }
      }
    }
    if (d.use_layer_norm) {
      for (int b = 0; b < n_batch; ++b) {
        float* row = gate + b * n_cell;
        float sum = 0.0f;
        for (int i = 0; i < n_cell; ++i) sum += row[i];
        const float mean = sum / n_cell;
        float sq = 0.0f;
        for (int i = 0; i < n_cell; ++i) sq += (row[i] - mean) * (row[i] - mean);
        const float inv_stddev = 1.0f / std::sqrt(sq / n_cell + 1e-8f);
        for (int i = 0; i < n_cell; ++i) {
          row[i] = (row[i] - mean) * inv_stddev * w.layer_norm[g][i] + w.bias[g][i];
        }
      }
    }
    internal::ApplyRecurrentActivation(g == kGateCell ? d.activation : kTfLiteActSigmoid, gate,
                                       nc, gate);
  }
  // h = o .* act(c), optionally projected.
  float* hidden = gates[kGateCell];  // the cell gate is no longer needed
  internal::ApplyRecurrentActivation(d.activation, c, nc, hidden);
  for (int i = 0; i < nc; ++i) hidden[i] *= gates[kGateOutput][i];
  const int n_out = d.n_output;
  const int no = n_batch * n_out;
  if (d.use_projection) {
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < n_out; ++i) h[b * n_out + i] = w.projection_b ? w.projection_b[i] : 0.0f;
    }
    Product(d, w.projection_w, n_out, n_cell, hidden, n_batch, h, tmp, q);
    if (d.proj_clip > 0.0f) {
      for (int i = 0; i < no; ++i) h[i] = std::min(d.proj_clip, std::max(-d.proj_clip, h[i]));
    }
  } else {
    std::memcpy(h, hidden, sizeof(float) * no);
  }
  for (int b = 0; b < n_batch; ++b) {
    std::memcpy(out + int64_t{b} * out_stride, h + int64_t{b} * n_out, sizeof(float) * n_out);
  }
}

}  // namespace

TfLiteStatus EvalCell(TfLiteContext* context, TfLiteNode* node, const int* map, OpData* d,
                      const CellIo& io) {
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  auto in = [&](int i) -> const TfLiteTensor* {
    return map[i] < 0 ? nullptr : internal::GetOptionalInput(context, node, map[i]);
  };
  auto raw = [&](int i) -> const void* {
    const TfLiteTensor* t = in(i);
    return t == nullptr ? nullptr : t->data.data;
  };
  auto floats = [&](int i) { return static_cast<const float*>(raw(i)); };

  // Row sums of the hybrid matrices, once (the weights are constant).
  const bool sums = d->hybrid && d->asymmetric;
  auto row_sums = [&](internal::ScratchVector<int32_t>* out, const void* w, int rows, int cols) {
    if (!sums || w == nullptr) return;
    if (!d->row_sums_ready) {
      out->resize(rows);
      internal::WeightRowSums(static_cast<const int8_t*>(w), rows, cols, out->data());
    }
  };

  CellWeights w{};
  for (int g = 0; g < 4; ++g) {
    w.input_w[g] = {raw(kInputWeightsOf[g]), d->weight_scale[kInputWeightsOf[g]], nullptr};
    w.recurrent_w[g] = {raw(kRecurrentWeightsOf[g]), d->weight_scale[kRecurrentWeightsOf[g]],
                        nullptr};
    w.aux_w[g] = {io.aux_weights[g] ? io.aux_weights[g]->data.data : nullptr, d->aux_scale[g],
                  nullptr};
    row_sums(&d->input_sums[g], w.input_w[g].data, d->n_cell, d->n_input);
    row_sums(&d->recurrent_sums[g], w.recurrent_w[g].data, d->n_cell, d->n_output);
    row_sums(&d->aux_sums[g], w.aux_w[g].data, d->n_cell, d->n_aux);
    if (sums) {
      w.input_w[g].row_sums = d->input_sums[g].data();
      w.recurrent_w[g].row_sums = d->recurrent_sums[g].data();
      w.aux_w[g].row_sums = d->aux_sums[g].data();
    }
    w.layer_norm[g] = d->use_layer_norm ? floats(kLayerNormOf[g]) : nullptr;
    w.bias[g] = floats(kBiasOf[g]);
    w.peephole[g] = nullptr;
    if (d->use_peephole && kPeepholeOf[g] >= 0 && !(g == kGateInput && d->use_cifg)) {
      if (d->hybrid) {
        // Dequantized once per Invoke (n_cell values).
        const int8_t* q = static_cast<const int8_t*>(raw(kPeepholeOf[g]));
        auto& f = d->peephole[g];
        f.resize(d->n_cell);
        for (int i = 0; i < d->n_cell; ++i) f[i] = q[i] * d->weight_scale[kPeepholeOf[g]];
        w.peephole[g] = f.data();
      } else {
        w.peephole[g] = floats(kPeepholeOf[g]);
      }
    }
  }
  w.projection_w = {raw(kProjectionWeights), d->weight_scale[kProjectionWeights], nullptr};
  row_sums(&d->projection_sums, w.projection_w.data, d->n_output, d->n_cell);
  if (sums && w.projection_w.data != nullptr) w.projection_w.row_sums = d->projection_sums.data();
  w.projection_b = floats(kProjectionBias);
  if (sums) d->row_sums_ready = true;

  const float* input = floats(kInput);
  const float* aux = io.aux ? static_cast<const float*>(io.aux->data.data) : nullptr;
  float* h = static_cast<float*>(context->tensors[node->inputs->data[map[kOutputState]]].data.data);
  float* c = static_cast<float*>(context->tensors[node->inputs->data[map[kCellState]]].data.data);
  float* scratch = d->scratch.data();
  const int64_t n_in = d->n_input, n_aux = d->n_aux, n_out = d->n_output, n_cell = d->n_cell;
  const int stride = io.output_stride;
  internal::ForEachSequenceStep(
      d->time_major, d->max_time, d->n_batch,
      [&](int64_t row, int b, int n_rows) {
        Step(*d, w, n_rows, input + row * n_in, aux ? aux + row * n_aux : nullptr, h + b * n_out,
             c + b * n_cell, io.output + row * stride, stride, scratch, d->quantized.data());
      },
      io.reverse);
  return kTfLiteOk;
}

}  // namespace lstm
}  // namespace kernels
}  // namespace tflite_c
