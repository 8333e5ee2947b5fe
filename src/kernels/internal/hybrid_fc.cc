#include "src/kernels/internal/hybrid_fc.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/wrapping_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

void QuantizeRowSymmetric(const float* x, int n, int8_t* q, float* scale) {
  float lo = 0.0f, hi = 0.0f;
  if (n > 0) {
    lo = *std::min_element(x, x + n);
    hi = *std::max_element(x, x + n);
  }
  const float range = std::max(std::fabs(lo), std::fabs(hi));
  if (range == 0.0f) {
    std::fill(q, q + n, int8_t{0});
    *scale = 1.0f;
    return;
  }
  *scale = range / 127.0f;
  const float inv = 127.0f / range;
  for (int i = 0; i < n; ++i) {
    q[i] = static_cast<int8_t>(RoundClamped(x[i] * inv, -127, 127));
  }
}

void QuantizeRowAsymmetric(const float* x, int n, int8_t* q, float* scale, int32_t* offset) {
  float lo = 0.0f, hi = 0.0f;
  if (n > 0) {
    lo = std::min(0.0f, *std::min_element(x, x + n));
    hi = std::max(0.0f, *std::max_element(x, x + n));
  }
  const double rmin = lo, rmax = hi;
  if (rmin == rmax) {
    std::fill(q, q + n, int8_t{0});
    *scale = 1.0f;
    *offset = 0;
    return;
  }
  const double qmin = -128.0, qmax = 127.0;
  const double s = (rmax - rmin) / (qmax - qmin);
  // The zero point comes from whichever end of the range loses less.
  const double zp_from_min = qmin - rmin / s;
  const double zp_from_max = qmax - rmax / s;
  const double err_min = std::fabs(qmin) + std::fabs(rmin / s);
  const double err_max = std::fabs(qmax) + std::fabs(rmax / s);
  const double zp = err_min < err_max ? zp_from_min : zp_from_max;
  int32_t nudged;
  if (std::isnan(zp)) {
    nudged = 0;
  } else if (zp <= qmin) {
    nudged = -128;
  } else if (zp >= qmax) {
    nudged = 127;
  } else {
    nudged = static_cast<int32_t>(std::round(zp));
  }
  *scale = static_cast<float>(s);
  *offset = nudged;
  const float inv = 1.0f / *scale;
  for (int i = 0; i < n; ++i) {
    q[i] = static_cast<int8_t>(RoundClamped(static_cast<float>(nudged) + x[i] * inv, -128, 127));
  }
}

void HybridFullyConnected(const HybridFcArgs& a) {
  if (a.batches <= 0 || a.units <= 0) return;
  const int64_t depth = a.depth;
  std::vector<int8_t> q(static_cast<size_t>(std::max<int64_t>(1, a.batches * depth)));
  std::vector<float> row_scales(static_cast<size_t>(a.batches));
  std::vector<int32_t> offsets(static_cast<size_t>(a.batches), 0);
  for (int64_t b = 0; b < a.batches; ++b) {
    const float* x = a.input + b * depth;
    int8_t* qb = q.data() + b * depth;
    if (a.asymmetric_inputs) {
      QuantizeRowAsymmetric(x, a.depth, qb, &row_scales[b], &offsets[b]);
    } else {
      QuantizeRowSymmetric(x, a.depth, qb, &row_scales[b]);
    }
    if (a.channel_scales == nullptr) row_scales[b] *= a.weight_scale;
  }
  const int threads = ThreadsForWork(a.threads, a.batches * a.units * depth);
  ParallelFor(threads, a.units, [&](int64_t u0, int64_t u1) {
    for (int64_t u = u0; u < u1; ++u) {
      // int32 sums that wrap around, as upstream's do, when a hostile depth
      // (over about 130,000) leaves the range.
      const int8_t* w = a.weights + u * depth;
      int32_t row_sum = 0;
      if (a.asymmetric_inputs) {
        for (int64_t k = 0; k < depth; ++k) row_sum = WrappingAdd(row_sum, int32_t{w[k]});
      }
      for (int64_t b = 0; b < a.batches; ++b) {
        const int8_t* qb = q.data() + b * depth;
        int32_t dot = 0;
        for (int k = 0; k < a.depth; ++k) dot = WrappingAdd(dot, int32_t{w[k]} * qb[k]);
        if (a.asymmetric_inputs) dot = WrappingSub(dot, WrappingMul(offsets[b], row_sum));
        float scale = row_scales[b];
        if (a.channel_scales != nullptr) scale *= a.channel_scales[u];
        a.output[b * a.units + u] =
            (a.bias != nullptr ? a.bias[u] : 0.0f) + static_cast<float>(dot) * scale;
      }
    }
  });
}

void WeightRowSums(const int8_t* w, int rows, int cols, int32_t* sums) {
  for (int r = 0; r < rows; ++r) {
    const int8_t* row = w + int64_t{r} * cols;
    int32_t sum = 0;  // wraps around, as upstream's, for hostile widths
    for (int k = 0; k < cols; ++k) sum = WrappingAdd(sum, int32_t{row[k]});
    sums[r] = sum;
  }
}

void HybridMatMulAccumulate(const float* x, int n_batch, int depth, const int8_t* w, int rows,
                            float weight_scale, const int32_t* row_sums, int8_t* q, float* out,
                            int out_stride) {
  const int64_t n = int64_t{n_batch} * depth;
  if (std::all_of(x, x + n, [](float v) { return v == 0.0f; })) return;
  for (int b = 0; b < n_batch; ++b) {
    const float* xb = x + int64_t{b} * depth;
    float scale;
    int32_t zp = 0;
    if (row_sums != nullptr) {
      QuantizeRowAsymmetric(xb, depth, q, &scale, &zp);
    } else {
      QuantizeRowSymmetric(xb, depth, q, &scale);
    }
    scale *= weight_scale;
    float* ob = out + int64_t{b} * out_stride;
    for (int r = 0; r < rows; ++r) {
      const int8_t* wr = w + int64_t{r} * depth;
      int32_t dot = 0;
      for (int k = 0; k < depth; ++k) dot += int32_t{wr[k]} * int32_t{q[k]};
      if (row_sums != nullptr) dot -= zp * row_sums[r];
      ob[r] += static_cast<float>(dot) * scale;
    }
  }
}

void BlockwiseInt4FullyConnected(const BlockwiseFcArgs& a) {
  const int blocks = a.depth / a.blocksize;
  const int64_t row_bytes = (int64_t{a.depth} + 1) / 2;
  std::vector<int8_t> q(a.depth > 0 ? a.depth : 1);
  for (int64_t b = 0; b < a.batches; ++b) {
    float in_scale;
    int32_t in_offset;
    QuantizeRowAsymmetric(a.input + b * a.depth, a.depth, q.data(), &in_scale, &in_offset);
    for (int u = 0; u < a.units; ++u) {
      const uint8_t* w = a.weights + u * row_bytes;
      float acc = 0.0f;
      float scaled_weight_sum = 0.0f;
      for (int blk = 0; blk < blocks; ++blk) {
        int32_t dot = 0, weight_sum = 0;
        for (int i = 0; i < a.blocksize; ++i) {
          const int k = blk * a.blocksize + i;
          const int32_t wv = Int4Value(w, k);
          weight_sum += wv;
          dot += int32_t{q[k]} * wv;
        }
        const float scale = a.scales[int64_t{u} * blocks + blk];
        acc += static_cast<float>(dot) * scale;
        scaled_weight_sum += scale * static_cast<float>(weight_sum);
      }
      acc -= static_cast<float>(in_offset) * scaled_weight_sum;
      acc *= in_scale;
      if (a.bias != nullptr) acc += a.bias[u];
      a.output[b * a.units + u] = acc;
    }
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
