// Shared pieces of the recurrent kernel tests (LSTM, RNN, SVDF and their
// sequence / bidirectional / hybrid forms): deterministic test values, the
// per-row int8 round trip the hybrid kernels apply to float operands, int8
// weight grids, and a double-precision LSTM cell used as the reference.
#ifndef TFLITE_C_TESTS_KERNELS_RECURRENT_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_RECURRENT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tflite_c {
namespace testing {

// Deterministic values in [-scale, scale].
inline std::vector<float> Values(int n, uint32_t seed, float scale = 0.5f) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 12345u;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<float>(s >> 8) / static_cast<float>(1 << 24) * 2.0f - 1.0f);
  }
  return v;
}

inline void ExpectNear(const std::vector<float>& got, const std::vector<double>& want,
                       double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

inline double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
// Clamps to [-c, c]; c <= 0 means no clipping.
inline double Clip(double v, double c) {
  return c > 0 ? std::fmin(c, std::fmax(-c, v)) : v;
}

// One row quantized to int8 the way the hybrid kernels do it (symmetric with
// scale max|x| / 127, or asymmetric over [min(x, 0), max(x, 0)] with a zero
// point), returned dequantized as (q - zp) * scale, so that its dot product
// with dequantized weights equals the kernel's integer product scaled back.
inline std::vector<double> QuantDequantRow(const double* x, int n, bool asymmetric) {
  std::vector<double> out(n, 0.0);
  double lo = 0, hi = 0;
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  if (!asymmetric) {
    const double range = std::max(-lo, hi);
    if (range == 0) return out;
    const float inv = static_cast<float>(127.0 / range);
    const double scale = static_cast<float>(range) / 127.0f;
    for (int i = 0; i < n; ++i) {
      out[i] = std::clamp<double>(std::round(static_cast<float>(x[i]) * inv), -127, 127) * scale;
    }
    return out;
  }
  if (lo == hi) return out;
  const double scale = (hi - lo) / 255.0;
  const double zp_real = (128 + std::fabs(lo / scale)) < (127 + std::fabs(hi / scale))
                             ? -128 - lo / scale
                             : 127 - hi / scale;
  const double zp = std::clamp<double>(std::round(zp_real), -128, 127);
  for (int i = 0; i < n; ++i) {
    out[i] = (std::clamp<double>(std::round(zp + x[i] / scale), -128, 127) - zp) * scale;
  }
  return out;
}

inline std::vector<double> QuantDequantRow(const std::vector<double>& x, bool asymmetric) {
  return QuantDequantRow(x.data(), static_cast<int>(x.size()), asymmetric);
}

// How a reference cell sees its float operands: unchanged (float kernels) or
// through the hybrid kernels' per-row int8 round trip.
struct RowQuant {
  bool hybrid = false;
  bool asymmetric = false;
  std::vector<double> operator()(const std::vector<double>& v) const {
    return hybrid ? QuantDequantRow(v, asymmetric) : v;
  }
};

// Rounds `w` onto a per-tensor symmetric int8 grid with scale max|w| / 127,
// stores the int8 values in `q` and returns the scale; afterwards `w` holds
// exactly what the hybrid kernels dequantize.
inline float QuantizeOntoGrid(std::vector<float>* w, std::vector<int8_t>* q) {
  float m = 0;
  for (float v : *w) m = std::max(m, std::fabs(v));
  const float scale = m / 127.0f;
  q->clear();
  for (float& v : *w) {
    q->push_back(static_cast<int8_t>(std::lround(v / scale)));
    v = q->back() * scale;
  }
  return scale;
}

// The merged output of a bidirectional op: each row's forward values (fw_w
// of them) followed by its backward values (bw_w).
inline std::vector<double> MergeRows(const std::vector<double>& fw, int fw_w,
                                     const std::vector<double>& bw, int bw_w, int rows) {
  std::vector<double> merged;
  for (int row = 0; row < rows; ++row) {
    merged.insert(merged.end(), fw.begin() + row * fw_w, fw.begin() + (row + 1) * fw_w);
    merged.insert(merged.end(), bw.begin() + row * bw_w, bw.begin() + (row + 1) * bw_w);
  }
  return merged;
}

// ---- LSTM reference ---------------------------------------------------------------

// Sizes, options and float weights of one LSTM cell. Gates are indexed
// input, forget, cell, output.
struct LstmCellWeights {
  int n_input = 3;
  int n_cell = 4;
  int n_output = 4;
  bool cifg = false;
  bool peephole = false;
  bool layer_norm = false;
  bool projection = false;
  float cell_clip = 0.0f;
  float proj_clip = 0.0f;
  std::vector<float> w_in[4], w_rec[4], peep[4], ln[4], bias[4];
  std::vector<float> proj_w, proj_b;

  void Fill(uint32_t seed) {
    for (int g = 0; g < 4; ++g) {
      w_in[g] = Values(n_cell * n_input, seed + 10 * g + 1);
      w_rec[g] = Values(n_cell * n_output, seed + 10 * g + 2);
      peep[g] = Values(n_cell, seed + 10 * g + 3);
      ln[g] = Values(n_cell, seed + 10 * g + 4, 1.0f);
      bias[g] = Values(n_cell, seed + 10 * g + 5);
    }
    proj_w = Values(n_output * n_cell, seed + 77);
    proj_b = Values(n_output, seed + 78);
  }
};

// One LSTM step of one batch row in double precision (tanh cell activation).
// `aux` may be empty; otherwise `w_aux` holds the four [n_cell, aux.size()]
// auxiliary weights. x, aux, the previous h and (with projection) the hidden
// state pass through `q` before they are multiplied. Updates *h and *c and
// returns the new h.
inline std::vector<double> LstmRefStep(const LstmCellWeights& s, const RowQuant& q,
                                       const std::vector<double>& x,
                                       const std::vector<double>& aux,
                                       const std::vector<float>* w_aux, std::vector<double>* h,
                                       std::vector<double>* c) {
  const int nc = s.n_cell;
  const int n_aux = static_cast<int>(aux.size());
  const std::vector<double> xq = q(x);
  const std::vector<double> auxq = q(aux);
  const std::vector<double> hq = q(*h);
  std::vector<double> pre[4];
  for (int g = 0; g < 4; ++g) {
    pre[g].assign(nc, 0.0);
    if (g == 0 && s.cifg) continue;
    for (int i = 0; i < nc; ++i) {
      double v = 0;
      for (int k = 0; k < s.n_input; ++k) v += s.w_in[g][i * s.n_input + k] * xq[k];
      for (int k = 0; k < n_aux; ++k) v += w_aux[g][i * n_aux + k] * auxq[k];
      for (int k = 0; k < s.n_output; ++k) v += s.w_rec[g][i * s.n_output + k] * hq[k];
      if (s.peephole && g != 2 && g != 3) v += s.peep[g][i] * (*c)[i];
      pre[g][i] = v;
    }
  }
  auto finish = [&](int g, std::vector<double>& v) {
    if (s.layer_norm) {
      double mean = 0, var = 0;
      for (double e : v) mean += e;
      mean /= nc;
      for (double e : v) var += (e - mean) * (e - mean);
      var /= nc;
      for (int i = 0; i < nc; ++i) {
        v[i] = (v[i] - mean) / std::sqrt(var + 1e-8) * s.ln[g][i] + s.bias[g][i];
      }
    } else {
      for (int i = 0; i < nc; ++i) v[i] += s.bias[g][i];
    }
    for (int i = 0; i < nc; ++i) v[i] = g == 2 ? std::tanh(v[i]) : Sigmoid(v[i]);
  };
  finish(1, pre[1]);
  finish(2, pre[2]);
  if (!s.cifg) finish(0, pre[0]);
  for (int i = 0; i < nc; ++i) {
    const double ig = s.cifg ? 1.0 - pre[1][i] : pre[0][i];
    (*c)[i] = Clip(pre[1][i] * (*c)[i] + ig * pre[2][i], s.cell_clip);
  }
  // The output gate's peephole sees the new cell state.
  if (s.peephole) {
    for (int i = 0; i < nc; ++i) pre[3][i] += s.peep[3][i] * (*c)[i];
  }
  finish(3, pre[3]);
  std::vector<double> hidden(nc);
  for (int i = 0; i < nc; ++i) hidden[i] = pre[3][i] * std::tanh((*c)[i]);
  if (s.projection) {
    const std::vector<double> hid_q = q(hidden);
    for (int o = 0; o < s.n_output; ++o) {
      double v = s.proj_b[o];
      for (int i = 0; i < nc; ++i) v += s.proj_w[o * nc + i] * hid_q[i];
      (*h)[o] = Clip(v, s.proj_clip);
    }
  } else {
    *h = hidden;
  }
  return *h;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_RECURRENT_TEST_UTIL_H_
