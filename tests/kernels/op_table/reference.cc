// The op table's plain references: broadcasting, reductions, transpose,
// NHWC convolution and pooling, written element by element.
#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

int NumElements(const std::vector<int>& shape) {
  int n = 1;
  for (int d : shape) n *= d;
  return n;
}

std::vector<int> Strides(const std::vector<int>& shape) {
  std::vector<int> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

std::vector<int> Unflatten(int flat, const std::vector<int>& shape) {
  std::vector<int> idx(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    idx[i] = flat % shape[i];
    flat /= shape[i];
  }
  return idx;
}

double BroadcastAt(const FTensor& t, const std::vector<int>& idx) {
  const size_t off = idx.size() - t.shape.size();
  const std::vector<int> st = Strides(t.shape);
  int flat = 0;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    flat += (t.shape[i] == 1 ? 0 : idx[off + i]) * st[i];
  }
  return t.v[flat];
}

int Flatten(const std::vector<int>& idx, const std::vector<int>& shape) {
  int flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + idx[i];
  return flat;
}

std::vector<int> BroadcastShape(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const int da = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const int db = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    out[i] = std::max(da, db);
  }
  return out;
}

FTensor Unary(const FTensor& x, const std::function<double(double)>& f) {
  FTensor y{x.shape, x.v};
  for (double& e : y.v) e = f(e);
  return y;
}

FTensor Binary(const FTensor& a, const FTensor& b, const std::function<double(double, double)>& f) {
  FTensor y{BroadcastShape(a.shape, b.shape), {}};
  const int n = NumElements(y.shape);
  for (int i = 0; i < n; ++i) {
    const std::vector<int> idx = Unflatten(i, y.shape);
    y.v.push_back(f(BroadcastAt(a, idx), BroadcastAt(b, idx)));
  }
  return y;
}

FTensor Reduce(const FTensor& x, std::vector<int> axes, bool keep_dims, double init,
               const std::function<double(double, double)>& step,
               const std::function<double(double, int)>& finish) {
  const int rank = static_cast<int>(x.shape.size());
  std::vector<bool> reduced(rank, false);
  for (int a : axes) reduced[(a + rank) % rank] = true;
  std::vector<int> kept_shape;
  for (int i = 0; i < rank; ++i) kept_shape.push_back(reduced[i] ? 1 : x.shape[i]);
  std::vector<double> acc(NumElements(kept_shape), init);
  std::vector<int> count(acc.size(), 0);
  const std::vector<int> ks = Strides(kept_shape);
  for (int i = 0; i < NumElements(x.shape); ++i) {
    const std::vector<int> idx = Unflatten(i, x.shape);
    int o = 0;
    for (int d = 0; d < rank; ++d) o += (reduced[d] ? 0 : idx[d]) * ks[d];
    acc[o] = step(acc[o], x.v[i]);
    ++count[o];
  }
  FTensor y;
  for (int i = 0; i < rank; ++i) {
    if (!reduced[i]) y.shape.push_back(x.shape[i]);
    else if (keep_dims) y.shape.push_back(1);
  }
  for (size_t i = 0; i < acc.size(); ++i) y.v.push_back(finish(acc[i], count[i]));
  return y;
}

FTensor Transpose(const FTensor& x, const std::vector<int>& perm) {
  FTensor y;
  for (int p : perm) y.shape.push_back(x.shape[p]);
  const std::vector<int> xs = Strides(x.shape);
  for (int i = 0; i < NumElements(y.shape); ++i) {
    const std::vector<int> idx = Unflatten(i, y.shape);
    int src = 0;
    for (size_t d = 0; d < perm.size(); ++d) src += idx[d] * xs[perm[d]];
    y.v.push_back(x.v[src]);
  }
  return y;
}

FTensor Conv(const FTensor& x, const FTensor& w, const FTensor& bias, int stride, bool same,
             bool depthwise, int multiplier) {
  const int n = x.shape[0], h = x.shape[1], wd = x.shape[2], c = x.shape[3];
  const int kh = w.shape[1], kw = w.shape[2];
  const int oc = depthwise ? c * multiplier : w.shape[0];
  const int oh = same ? (h + stride - 1) / stride : (h - kh) / stride + 1;
  const int ow = same ? (wd + stride - 1) / stride : (wd - kw) / stride + 1;
  const int pad_h = same ? std::max(0, ((oh - 1) * stride + kh - h) / 2) : 0;
  const int pad_w = same ? std::max(0, ((ow - 1) * stride + kw - wd) / 2) : 0;
  FTensor y{{n, oh, ow, oc}, {}};
  for (int b = 0; b < n; ++b)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int o = 0; o < oc; ++o) {
          double acc = bias.v.empty() ? 0.0 : bias.v[o];
          for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = oy * stride + ky - pad_h, ix = ox * stride + kx - pad_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const double* in = &x.v[((b * h + iy) * wd + ix) * c];
              if (depthwise) {
                acc += in[o / multiplier] * w.v[(ky * kw + kx) * oc + o];
              } else {
                for (int ic = 0; ic < c; ++ic) acc += in[ic] * w.v[((o * kh + ky) * kw + kx) * c + ic];
              }
            }
          y.v.push_back(acc);
        }
  return y;
}

FTensor Pool(const FTensor& x, int k, int stride, bool same, bool max) {
  const int n = x.shape[0], h = x.shape[1], wd = x.shape[2], c = x.shape[3];
  const int oh = same ? (h + stride - 1) / stride : (h - k) / stride + 1;
  const int ow = same ? (wd + stride - 1) / stride : (wd - k) / stride + 1;
  const int pad_h = same ? std::max(0, ((oh - 1) * stride + k - h) / 2) : 0;
  const int pad_w = same ? std::max(0, ((ow - 1) * stride + k - wd) / 2) : 0;
  FTensor y{{n, oh, ow, c}, {}};
  for (int b = 0; b < n; ++b)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int ch = 0; ch < c; ++ch) {
          double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
          int count = 0;
          for (int ky = 0; ky < k; ++ky)
            for (int kx = 0; kx < k; ++kx) {
              const int iy = oy * stride + ky - pad_h, ix = ox * stride + kx - pad_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const double v = x.v[((b * h + iy) * wd + ix) * c + ch];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          y.v.push_back(max ? acc : acc / count);
        }
  return y;
}

}  // namespace op_table
}  // namespace tflite_c
