// One table over the builtin ops, in the style of ggml's test-backend-ops:
// op x shapes x element types x options. Each case draws seeded random inputs,
// computes the expected output with a plain float reference written here
// (independent of src/kernels), runs a one-op model through the public C API
// and compares:
//   float32          |got - ref| <= atol + rtol * |ref|
//   int8/uint8/int16 inputs are quantized first and the reference sees their
//                    dequantized values, so the only error left is the
//                    output's rounding: |dequant(got) - ref| <= lsb * scale.
// The hand-computed, bit-exact cases live in the per-group tests
// (elementwise_kernels_test, layout_kernels_test, quantized_kernels_test, ...);
// this table is about breadth: every op, every type it claims.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;
using testing::OneOpModel;
using testing::Opts;
using testing::Quantization;

// ---- float tensors and the reference helpers -----------------------------------------------

struct FTensor {
  std::vector<int> shape;
  std::vector<float> v;
};

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

// Multi-index of flat element `flat` of `shape`.
std::vector<int> Unflatten(int flat, const std::vector<int>& shape) {
  std::vector<int> idx(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    idx[i] = flat % shape[i];
    flat /= shape[i];
  }
  return idx;
}

// Element of `t` at the (right-aligned, numpy-broadcast) output index `idx`.
float BroadcastAt(const FTensor& t, const std::vector<int>& idx) {
  const size_t off = idx.size() - t.shape.size();
  const std::vector<int> st = Strides(t.shape);
  int flat = 0;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    flat += (t.shape[i] == 1 ? 0 : idx[off + i]) * st[i];
  }
  return t.v[flat];
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

FTensor Unary(const FTensor& x, const std::function<float(float)>& f) {
  FTensor y{x.shape, x.v};
  for (float& e : y.v) e = f(e);
  return y;
}

FTensor Binary(const FTensor& a, const FTensor& b, const std::function<float(float, float)>& f) {
  FTensor y{BroadcastShape(a.shape, b.shape), {}};
  const int n = NumElements(y.shape);
  for (int i = 0; i < n; ++i) {
    const std::vector<int> idx = Unflatten(i, y.shape);
    y.v.push_back(f(BroadcastAt(a, idx), BroadcastAt(b, idx)));
  }
  return y;
}

// Reduction over `axes` with `init` and `step`, then `finish(acc, count)`.
FTensor Reduce(const FTensor& x, std::vector<int> axes, bool keep_dims, float init,
               const std::function<float(float, float)>& step,
               const std::function<float(float, int)>& finish) {
  const int rank = static_cast<int>(x.shape.size());
  std::vector<bool> reduced(rank, false);
  for (int a : axes) reduced[(a + rank) % rank] = true;
  std::vector<int> kept_shape;
  for (int i = 0; i < rank; ++i) kept_shape.push_back(reduced[i] ? 1 : x.shape[i]);
  std::vector<float> acc(NumElements(kept_shape), init);
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

// NHWC convolution family. `groups_depthwise` selects depthwise (filter
// [1,kh,kw,C*M]) instead of regular (filter [O,kh,kw,C]).
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
          float acc = bias.v.empty() ? 0.f : bias.v[o];
          for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = oy * stride + ky - pad_h, ix = ox * stride + kx - pad_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const float* in = &x.v[((b * h + iy) * wd + ix) * c];
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
          float acc = max ? -std::numeric_limits<float>::infinity() : 0.f;
          int count = 0;
          for (int ky = 0; ky < k; ++ky)
            for (int kx = 0; kx < k; ++kx) {
              const int iy = oy * stride + ky - pad_h, ix = ox * stride + kx - pad_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const float v = x.v[((b * h + iy) * wd + ix) * c + ch];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          y.v.push_back(max ? acc : acc / count);
        }
  return y;
}

// ---- the table ----------------------------------------------------------------------------

enum class Kind { kData, kInt32Const, kDataConst };

// Output type marker: the output has the case's element type.
constexpr TensorType kSameType = static_cast<TensorType>(-1);

struct InputSpec {
  Kind kind = Kind::kData;
  std::vector<int> shape;
  std::vector<int32_t> ints;  // kInt32Const values
};

InputSpec Data(std::vector<int> shape) { return {Kind::kData, std::move(shape), {}}; }
// Data-typed constant (weights); quantized per tensor like the data inputs.
InputSpec Weights(std::vector<int> shape) { return {Kind::kDataConst, std::move(shape), {}}; }
InputSpec Ints(std::vector<int> shape, std::vector<int32_t> v) {
  return {Kind::kInt32Const, std::move(shape), std::move(v)};
}

using RefFn = std::function<std::vector<FTensor>(const std::vector<FTensor>& data,
                                                 const std::vector<std::vector<int32_t>>& ints)>;

struct OpCase {
  std::string name;
  BuiltinOperator op;
  std::vector<InputSpec> inputs;
  RefFn ref;
  std::vector<TensorType> types;
  std::function<tflite::BuiltinOptionsUnion()> options = [] { return tflite::BuiltinOptionsUnion(); };
  float lo = -3.f, hi = 3.f;
  // Output rule for quantized types: same quantization as input 0 (layout
  // ops, max pool, ...), or a fixed one (logistic, softmax, tanh).
  bool out_like_input = false;
  std::function<Quantization(TensorType)> fixed_out;
  TensorType out_type_override = kSameType;  // e.g. BOOL, INT32
  float rtol = 1e-5f, atol = 1e-5f;
  float lsb = 1.01f;
  int version = 1;
  // Types upstream supports that this build still refuses: the table checks
  // they fail in Prepare with "not supported" (and flags them once they work).
  std::vector<TensorType> unsupported;
};

struct Param {
  const OpCase* c;
  TensorType type;
};

std::string TypeName(TensorType t) { return tflite::EnumNameTensorType(t); }

void PrintTo(const Param& p, std::ostream* os) { *os << p.c->name << "/" << TypeName(p.type); }

bool Quantized(TensorType t) {
  return t == tflite::TensorType_INT8 || t == tflite::TensorType_UINT8 ||
         t == tflite::TensorType_INT16;
}

void QRange(TensorType t, int* qmin, int* qmax) {
  if (t == tflite::TensorType_INT8) { *qmin = -128; *qmax = 127; }
  else if (t == tflite::TensorType_UINT8) { *qmin = 0; *qmax = 255; }
  else { *qmin = -32767; *qmax = 32767; }
}

// Asymmetric quantization covering [lo, hi] (and 0); int16 is symmetric.
Quantization ChooseQuant(TensorType t, float lo, float hi) {
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  if (hi - lo < 1e-6f) hi = lo + 1.f;
  int qmin, qmax;
  QRange(t, &qmin, &qmax);
  if (t == tflite::TensorType_INT16) {
    return {{std::max(-lo, hi) / 32767.f}, {0}, 0};
  }
  const float scale = (hi - lo) / static_cast<float>(qmax - qmin);
  const int64_t zp = static_cast<int64_t>(std::lround(qmin - lo / scale));
  return {{scale}, {std::clamp<int64_t>(zp, qmin, qmax)}, 0};
}

int32_t QuantizeOne(float v, const Quantization& q, TensorType t) {
  int qmin, qmax;
  QRange(t, &qmin, &qmax);
  const long r = std::lround(v / q.scale[0]) + static_cast<long>(q.zero_point[0]);
  return static_cast<int32_t>(std::clamp<long>(r, qmin, qmax));
}

float Dequantize(int32_t v, const Quantization& q) {
  return (static_cast<float>(v) - static_cast<float>(q.zero_point[0])) * q.scale[0];
}

std::vector<uint8_t> Encode(const std::vector<float>& v, TensorType t, const Quantization& q) {
  std::vector<uint8_t> out;
  auto push = [&out](const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (float f : v) {
    if (t == tflite::TensorType_FLOAT32) { push(&f, 4); continue; }
    const int32_t qv = QuantizeOne(f, q, t);
    if (t == tflite::TensorType_INT8) { const int8_t x = static_cast<int8_t>(qv); push(&x, 1); }
    else if (t == tflite::TensorType_UINT8) { const uint8_t x = static_cast<uint8_t>(qv); push(&x, 1); }
    else { const int16_t x = static_cast<int16_t>(qv); push(&x, 2); }
  }
  return out;
}

std::vector<float> Decode(const uint8_t* p, size_t bytes, TensorType t, const Quantization& q) {
  std::vector<float> out;
  if (t == tflite::TensorType_FLOAT32) {
    out.resize(bytes / 4);
    std::memcpy(out.data(), p, out.size() * 4);
  } else if (t == tflite::TensorType_INT8) {
    for (size_t i = 0; i < bytes; ++i) out.push_back(Dequantize(static_cast<int8_t>(p[i]), q));
  } else if (t == tflite::TensorType_UINT8) {
    for (size_t i = 0; i < bytes; ++i) out.push_back(Dequantize(p[i], q));
  } else if (t == tflite::TensorType_INT16) {
    for (size_t i = 0; i + 1 < bytes; i += 2) {
      int16_t v;
      std::memcpy(&v, p + i, 2);
      out.push_back(Dequantize(v, q));
    }
  } else if (t == tflite::TensorType_BOOL) {
    for (size_t i = 0; i < bytes; ++i) out.push_back(p[i] ? 1.f : 0.f);
  } else if (t == tflite::TensorType_INT32) {
    for (size_t i = 0; i + 3 < bytes; i += 4) {
      int32_t v;
      std::memcpy(&v, p + i, 4);
      out.push_back(static_cast<float>(v));
    }
  }
  return out;
}

// Round-trips float values through the quantization of type `t`.
std::vector<float> Snap(const std::vector<float>& v, TensorType t, const Quantization& q) {
  if (!Quantized(t)) return v;
  std::vector<float> out;
  for (float f : v) out.push_back(Dequantize(QuantizeOne(f, q, t), q));
  return out;
}

void RunCase(const OpCase& c, TensorType type) {
  std::mt19937 rng(static_cast<uint32_t>(std::hash<std::string>()(c.name + TypeName(type))));
  std::uniform_real_distribution<float> dist(c.lo, c.hi);
  const Quantization in_q = Quantized(type) ? ChooseQuant(type, c.lo, c.hi) : Quantization{};

  // Weights of int8 kernels are symmetric (zero point 0), as upstream requires.
  Quantization w_q = in_q;
  if (type == tflite::TensorType_INT8) {
    const float m = std::max(std::fabs(c.lo), std::fabs(c.hi));
    w_q = {{m / 127.f}, {0}, 0};
  }
  std::vector<FTensor> data;
  std::vector<Quantization> data_q;
  std::vector<std::vector<int32_t>> ints;
  for (const InputSpec& s : c.inputs) {
    if (s.kind == Kind::kInt32Const) { ints.push_back(s.ints); continue; }
    const Quantization& q = s.kind == Kind::kDataConst ? w_q : in_q;
    FTensor t{s.shape, {}};
    for (int i = 0; i < NumElements(s.shape); ++i) t.v.push_back(dist(rng));
    t.v = Snap(t.v, type, q);
    data.push_back(std::move(t));
    data_q.push_back(q);
  }
  const std::vector<FTensor> expected = c.ref(data, ints);

  OneOpModel m;
  size_t d = 0;
  std::vector<size_t> fed;  // data index of each model input, in order
  for (const InputSpec& s : c.inputs) {
    if (s.kind == Kind::kInt32Const) {
      m.Const<int32_t>(s.shape, s.ints);
    } else if (s.kind == Kind::kDataConst) {
      m.ConstBytes(type, s.shape, Encode(data[d].v, type, data_q[d]),
                   Quantized(type) ? data_q[d] : Quantization{});
      ++d;
    } else {
      m.Input(type, s.shape, in_q);
      fed.push_back(d++);
    }
  }
  std::vector<Quantization> out_q;
  const TensorType out_type =
      c.out_type_override != kSameType ? c.out_type_override : type;
  for (const FTensor& e : expected) {
    Quantization q;
    if (Quantized(out_type)) {
      if (c.out_like_input) q = in_q;
      else if (c.fixed_out) q = c.fixed_out(out_type);
      else {
        const auto mm = std::minmax_element(e.v.begin(), e.v.end());
        q = ChooseQuant(out_type, e.v.empty() ? 0.f : *mm.first, e.v.empty() ? 1.f : *mm.second);
      }
    }
    out_q.push_back(q);
    m.Output(out_type, e.shape, q);
  }
  m.Op(c.op, c.options(), c.version);
  if (std::find(c.unsupported.begin(), c.unsupported.end(), type) != c.unsupported.end()) {
    EXPECT_FALSE(m.Allocate()) << "now supported: move " << TypeName(type) << " to the case's types";
    EXPECT_NE(m.log().find("not supported"), std::string::npos) << m.log();
    return;
  }
  ASSERT_TRUE(m.Allocate()) << m.log();
  for (size_t i = 0; i < fed.size(); ++i) {
    m.SetBytes(static_cast<int>(i), Encode(data[fed[i]].v, type, data_q[fed[i]]));
  }
  ASSERT_TRUE(m.Invoke()) << m.log();
  for (size_t o = 0; o < expected.size(); ++o) {
    EXPECT_EQ(m.Shape(static_cast<int>(o)), expected[o].shape) << "output " << o;
    const std::vector<uint8_t> raw = m.GetBytes(static_cast<int>(o));
    const std::vector<float> got = Decode(raw.data(), raw.size(), out_type, out_q[o]);
    ASSERT_EQ(got.size(), expected[o].v.size()) << "output " << o;
    int reported = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const float want = expected[o].v[i];
      const float tol = Quantized(out_type) ? c.lsb * out_q[o].scale[0] + 1e-6f
                                            : c.atol + c.rtol * std::fabs(want);
      if (!(std::fabs(got[i] - want) <= tol) && reported++ < 5) {
        ADD_FAILURE() << "output " << o << " element " << i << ": got " << got[i] << ", want "
                      << want << " (tolerance " << tol << ")";
      }
    }
  }
}

// ---- case generators -------------------------------------------------------------------------

const std::vector<TensorType> kF = {tflite::TensorType_FLOAT32};
const std::vector<TensorType> kF8 = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8,
                                     tflite::TensorType_UINT8};
const std::vector<TensorType> kF8S = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8};
const std::vector<TensorType> kFU8 = {tflite::TensorType_FLOAT32, tflite::TensorType_UINT8};
const std::vector<TensorType> kF816 = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8,
                                       tflite::TensorType_UINT8, tflite::TensorType_INT16};

RefFn UnaryRef(std::function<float(float)> f) {
  return [f](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
    return std::vector<FTensor>{Unary(d[0], f)};
  };
}
RefFn BinaryRef(std::function<float(float, float)> f) {
  return [f](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
    return std::vector<FTensor>{Binary(d[0], d[1], f)};
  };
}

float Sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

std::vector<OpCase> UnaryCases() {
  struct U {
    const char* name;
    BuiltinOperator op;
    std::function<float(float)> f;
    std::vector<TensorType> types;
    float lo, hi;
    std::vector<TensorType> unsupported = {};
  };
  const std::vector<U> ops = {
      {"ABS", tflite::BuiltinOperator_ABS, [](float x) { return std::fabs(x); }, kF8S, -3, 3},
      {"CEIL", tflite::BuiltinOperator_CEIL, [](float x) { return std::ceil(x); }, kF, -3, 3},
      {"COS", tflite::BuiltinOperator_COS, [](float x) { return std::cos(x); }, kF, -3, 3},
      {"ELU", tflite::BuiltinOperator_ELU, [](float x) { return x < 0 ? std::expm1(x) : x; }, kF8S, -3,
       3},
      {"EXP", tflite::BuiltinOperator_EXP, [](float x) { return std::exp(x); }, kF8S, -2, 1},
      {"FLOOR", tflite::BuiltinOperator_FLOOR, [](float x) { return std::floor(x); }, kF, -3, 3},
      {"GELU", tflite::BuiltinOperator_GELU,
       [](float x) { return 0.5f * x * (1.f + std::erf(x / std::sqrt(2.f))); }, kF8, -3, 3},
      {"HARD_SWISH", tflite::BuiltinOperator_HARD_SWISH,
       [](float x) { return x * std::min(6.f, std::max(0.f, x + 3.f)) / 6.f; }, kF8, -4, 4},
      {"LOG", tflite::BuiltinOperator_LOG, [](float x) { return std::log(x); }, kF, 0.1f, 4},
      {"NEG", tflite::BuiltinOperator_NEG, [](float x) { return -x; }, kF, -3, 3},
      {"RELU", tflite::BuiltinOperator_RELU, [](float x) { return std::max(0.f, x); }, kF816, -3, 3},
      {"RELU6", tflite::BuiltinOperator_RELU6,
       [](float x) { return std::min(6.f, std::max(0.f, x)); }, kF8, -3, 8},
      {"RELU_N1_TO_1", tflite::BuiltinOperator_RELU_N1_TO_1,
       [](float x) { return std::min(1.f, std::max(-1.f, x)); }, kF8, -3, 3},
      {"RELU_0_TO_1", tflite::BuiltinOperator_RELU_0_TO_1,
       [](float x) { return std::min(1.f, std::max(0.f, x)); }, kF8, -3, 3},
      {"ROUND", tflite::BuiltinOperator_ROUND, [](float x) { return std::nearbyint(x); }, kF, -3, 3},
      {"RSQRT", tflite::BuiltinOperator_RSQRT, [](float x) { return 1.f / std::sqrt(x); }, kF, 0.1f, 4},
      {"SIN", tflite::BuiltinOperator_SIN, [](float x) { return std::sin(x); }, kF, -3, 3},
      {"SQRT", tflite::BuiltinOperator_SQRT, [](float x) { return std::sqrt(x); }, kF, 0, 4},
      {"SQUARE", tflite::BuiltinOperator_SQUARE, [](float x) { return x * x; }, kF, -3, 3},
  };
  std::vector<OpCase> cases;
  for (const U& u : ops) {
    for (const std::vector<int>& shape : std::vector<std::vector<int>>{{7}, {2, 3, 5}, {1, 4, 4, 3}}) {
      OpCase c;
      c.name = std::string(u.name) + "_r" + std::to_string(shape.size());
      c.op = u.op;
      c.inputs = {Data(shape)};
      c.ref = UnaryRef(u.f);
      c.types = u.types;
      c.unsupported = u.unsupported;
      c.lo = u.lo;
      c.hi = u.hi;
      c.rtol = 2e-5f;
      cases.push_back(std::move(c));
    }
  }
  // Activations with fixed output quantization (upstream requires these).
  {
    OpCase c;
    c.name = "LOGISTIC";
    c.op = tflite::BuiltinOperator_LOGISTIC;
    c.inputs = {Data({2, 17})};
    c.ref = UnaryRef(Sigmoid);
    c.types = kF8;
    c.types.push_back(tflite::TensorType_INT16);
    c.lo = -6, c.hi = 6;
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 256}, {-128}, 0};
      if (t == tflite::TensorType_UINT8) return {{1.f / 256}, {0}, 0};
      return {{1.f / 32768}, {0}, 0};
    };
    c.lsb = 2.01f;
    cases.push_back(c);
    c.name = "TANH";
    c.op = tflite::BuiltinOperator_TANH;
    c.ref = UnaryRef([](float x) { return std::tanh(x); });
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 128}, {0}, 0};
      if (t == tflite::TensorType_UINT8) return {{1.f / 128}, {128}, 0};
      return {{1.f / 32768}, {0}, 0};
    };
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "LEAKY_RELU";
    c.op = tflite::BuiltinOperator_LEAKY_RELU;
    c.inputs = {Data({3, 11})};
    c.ref = UnaryRef([](float x) { return x < 0 ? 0.2f * x : x; });
    c.types = kF816;
    c.options = [] {
      tflite::LeakyReluOptionsT o;
      o.alpha = 0.2f;
      return Opts(o);
    };
    cases.push_back(c);
  }
  return cases;
}

std::vector<OpCase> BinaryCases() {
  struct B {
    const char* name;
    BuiltinOperator op;
    std::function<float(float, float)> f;
    std::vector<TensorType> types;
    float lo, hi;
  };
  const std::vector<B> ops = {
      {"ADD", tflite::BuiltinOperator_ADD, std::plus<float>(), kF816, -3, 3},
      {"SUB", tflite::BuiltinOperator_SUB, std::minus<float>(), kF816, -3, 3},
      {"MUL", tflite::BuiltinOperator_MUL, std::multiplies<float>(), kF816, -3, 3},
      {"DIV", tflite::BuiltinOperator_DIV, std::divides<float>(), kFU8, 0.5f, 3},
      {"MAXIMUM", tflite::BuiltinOperator_MAXIMUM, [](float a, float b) { return std::max(a, b); },
       kF816, -3, 3},
      {"MINIMUM", tflite::BuiltinOperator_MINIMUM, [](float a, float b) { return std::min(a, b); },
       kF816, -3, 3},
      {"POW", tflite::BuiltinOperator_POW, [](float a, float b) { return std::pow(a, b); }, kF, 0.5f, 2},
      {"SQUARED_DIFFERENCE", tflite::BuiltinOperator_SQUARED_DIFFERENCE,
       [](float a, float b) { return (a - b) * (a - b); }, kF8S, -3, 3},
      {"FLOOR_DIV", tflite::BuiltinOperator_FLOOR_DIV,
       [](float a, float b) { return std::floor(a / b); }, kF, 0.5f, 5},
      {"FLOOR_MOD", tflite::BuiltinOperator_FLOOR_MOD,
       [](float a, float b) { const float r = std::fmod(a, b); return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r; },
       kF, 0.5f, 5},
  };
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> shapes = {
      {{2, 3}, {2, 3}}, {{2, 1, 4}, {3, 1}}, {{1, 5, 5, 3}, {3}}, {{4}, {1}}};
  std::vector<OpCase> cases;
  for (const B& b : ops) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      OpCase c;
      c.name = std::string(b.name) + "_s" + std::to_string(s);
      c.op = b.op;
      c.inputs = {Data(shapes[s].first), Data(shapes[s].second)};
      c.ref = BinaryRef(b.f);
      c.types = b.types;
      c.lo = b.lo;
      c.hi = b.hi;
      c.rtol = 2e-5f;
      // Quantized MAXIMUM/MINIMUM compare raw values: upstream requires the
      // output to share the inputs' quantization.
      c.out_like_input =
          b.op == tflite::BuiltinOperator_MAXIMUM || b.op == tflite::BuiltinOperator_MINIMUM;
      cases.push_back(std::move(c));
    }
  }
  // Comparisons produce BOOL.
  const std::vector<B> cmps = {
      {"EQUAL", tflite::BuiltinOperator_EQUAL, [](float a, float b) { return a == b ? 1.f : 0.f; }, kF8, -3, 3},
      {"NOT_EQUAL", tflite::BuiltinOperator_NOT_EQUAL, [](float a, float b) { return a != b ? 1.f : 0.f; }, kF8, -3, 3},
      {"GREATER", tflite::BuiltinOperator_GREATER, [](float a, float b) { return a > b ? 1.f : 0.f; }, kF8, -3, 3},
      {"GREATER_EQUAL", tflite::BuiltinOperator_GREATER_EQUAL, [](float a, float b) { return a >= b ? 1.f : 0.f; }, kF8, -3, 3},
      {"LESS", tflite::BuiltinOperator_LESS, [](float a, float b) { return a < b ? 1.f : 0.f; }, kF8, -3, 3},
      {"LESS_EQUAL", tflite::BuiltinOperator_LESS_EQUAL, [](float a, float b) { return a <= b ? 1.f : 0.f; }, kF8, -3, 3},
  };
  for (const B& b : cmps) {
    OpCase c;
    c.name = b.name;
    c.op = b.op;
    c.inputs = {Data({2, 1, 4}), Data({3, 1})};
    c.ref = BinaryRef(b.f);
    c.types = b.types;
    c.lo = -2, c.hi = 2;
    c.out_type_override = tflite::TensorType_BOOL;
    c.atol = 0;
    c.rtol = 0;
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<OpCase> ReductionCases() {
  struct R {
    const char* name;
    BuiltinOperator op;
    float init;
    std::function<float(float, float)> step;
    std::function<float(float, int)> finish;
    std::vector<TensorType> types;
    bool like_input;
  };
  auto id = [](float a, int) { return a; };
  const std::vector<R> ops = {
      {"MEAN", tflite::BuiltinOperator_MEAN, 0.f, std::plus<float>(),
       [](float a, int n) { return a / n; }, kF816, false},
      {"SUM", tflite::BuiltinOperator_SUM, 0.f, std::plus<float>(), id, kF8, false},
      {"REDUCE_MAX", tflite::BuiltinOperator_REDUCE_MAX, -std::numeric_limits<float>::infinity(),
       [](float a, float b) { return std::max(a, b); }, id, kF8, true},
      {"REDUCE_MIN", tflite::BuiltinOperator_REDUCE_MIN, std::numeric_limits<float>::infinity(),
       [](float a, float b) { return std::min(a, b); }, id, kF8, true},
      {"REDUCE_PROD", tflite::BuiltinOperator_REDUCE_PROD, 1.f, std::multiplies<float>(), id,
       kF8S, false},  // INT16: reduce_prod_quantized_test (upstream's 16-bit step multiplier)
  };
  const std::vector<std::pair<std::vector<int32_t>, bool>> axes = {
      {{1, 2}, true}, {{-1}, false}, {{0}, false}, {{0, 1, 2, 3}, false}};
  std::vector<OpCase> cases;
  for (const R& r : ops) {
    for (size_t a = 0; a < axes.size(); ++a) {
      OpCase c;
      c.name = std::string(r.name) + "_a" + std::to_string(a);
      c.op = r.op;
      const std::vector<int32_t> ax = axes[a].first;
      const bool keep = axes[a].second;
      c.inputs = {Data({2, 3, 4, 2}), Ints({static_cast<int>(ax.size())}, ax)};
      c.ref = [r, ax, keep](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
        return std::vector<FTensor>{Reduce(d[0], ax, keep, r.init, r.step, r.finish)};
      };
      c.options = [keep] {
        tflite::ReducerOptionsT o;
        o.keep_dims = keep;
        return Opts(o);
      };
      c.types = r.types;
      c.out_like_input = r.like_input;
      c.lo = r.op == tflite::BuiltinOperator_REDUCE_PROD ? 0.8f : -3.f;
      c.hi = r.op == tflite::BuiltinOperator_REDUCE_PROD ? 1.2f : 3.f;
      c.rtol = 1e-4f;
      c.atol = 1e-4f;
      c.lsb = 1.51f;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::vector<OpCase> LayoutCases() {
  std::vector<OpCase> cases;
  auto add = [&cases](OpCase c) { c.out_like_input = true; c.atol = 0; c.rtol = 0; c.lsb = 0.01f; cases.push_back(std::move(c)); };
  {
    OpCase c{"TRANSPOSE", tflite::BuiltinOperator_TRANSPOSE, {Data({2, 3, 4}), Ints({3}, {2, 0, 1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               return std::vector<FTensor>{Transpose(d[0], {2, 0, 1})};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"RESHAPE", tflite::BuiltinOperator_RESHAPE, {Data({2, 3, 4}), Ints({2}, {4, -1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               return std::vector<FTensor>{FTensor{{4, 6}, d[0].v}};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"EXPAND_DIMS", tflite::BuiltinOperator_EXPAND_DIMS, {Data({2, 3}), Ints({1}, {-1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               return std::vector<FTensor>{FTensor{{2, 3, 1}, d[0].v}};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"SQUEEZE", tflite::BuiltinOperator_SQUEEZE, {Data({1, 3, 1, 2})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               return std::vector<FTensor>{FTensor{{3, 2}, d[0].v}};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"TILE", tflite::BuiltinOperator_TILE, {Data({2, 3}), Ints({2}, {2, 2})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{4, 6}, {}};
               for (int i = 0; i < 4; ++i)
                 for (int j = 0; j < 6; ++j) y.v.push_back(d[0].v[(i % 2) * 3 + j % 3]);
               return std::vector<FTensor>{y};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"PAD", tflite::BuiltinOperator_PAD, {Data({1, 2, 3, 1}), Ints({4, 2}, {0, 0, 1, 2, 2, 1, 0, 0})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{1, 5, 6, 1}, std::vector<float>(30, 0.f)};
               for (int i = 0; i < 2; ++i)
                 for (int j = 0; j < 3; ++j) y.v[(i + 1) * 6 + j + 2] = d[0].v[i * 3 + j];
               return std::vector<FTensor>{y};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"REVERSE_V2", tflite::BuiltinOperator_REVERSE_V2, {Data({2, 3, 2}), Ints({1}, {1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{2, 3, 2}, {}};
               for (int i = 0; i < 2; ++i)
                 for (int j = 0; j < 3; ++j)
                   for (int k = 0; k < 2; ++k) y.v.push_back(d[0].v[(i * 3 + (2 - j)) * 2 + k]);
               return std::vector<FTensor>{y};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"SLICE", tflite::BuiltinOperator_SLICE,
             {Data({3, 4, 2}), Ints({3}, {1, 1, 0}), Ints({3}, {2, -1, 1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{2, 3, 1}, {}};
               for (int i = 1; i < 3; ++i)
                 for (int j = 1; j < 4; ++j) y.v.push_back(d[0].v[(i * 4 + j) * 2]);
               return std::vector<FTensor>{y};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"STRIDED_SLICE", tflite::BuiltinOperator_STRIDED_SLICE,
             {Data({4, 6}), Ints({2}, {0, 5}), Ints({2}, {4, 0}), Ints({2}, {2, -2})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{2, 3}, {}};
               for (int i = 0; i < 4; i += 2)
                 for (int j = 5; j > 0; j -= 2) y.v.push_back(d[0].v[i * 6 + j]);
               return std::vector<FTensor>{y};
             },
             kF816};
    add(c);
  }
  {
    OpCase c{"GATHER", tflite::BuiltinOperator_GATHER, {Data({4, 3}), Ints({2, 2}, {3, 0, 1, 3})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>& ix) {
               FTensor y{{2, 2, 3}, {}};
               for (int32_t r : ix[0])
                 for (int j = 0; j < 3; ++j) y.v.push_back(d[0].v[r * 3 + j]);
               return std::vector<FTensor>{y};
             },
             kF816};
    c.options = [] { return Opts(tflite::GatherOptionsT()); };
    add(c);
  }
  {
    OpCase c{"CONCATENATION", tflite::BuiltinOperator_CONCATENATION, {Data({2, 2}), Data({2, 3})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{2, 5}, {}};
               for (int i = 0; i < 2; ++i) {
                 for (int j = 0; j < 2; ++j) y.v.push_back(d[0].v[i * 2 + j]);
                 for (int j = 0; j < 3; ++j) y.v.push_back(d[1].v[i * 3 + j]);
               }
               return std::vector<FTensor>{y};
             },
             kF816};
    c.options = [] {
      tflite::ConcatenationOptionsT o;
      o.axis = -1;
      return Opts(o);
    };
    add(c);
  }
  {
    OpCase c{"PACK", tflite::BuiltinOperator_PACK, {Data({2, 3}), Data({2, 3})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{2, 2, 3}, {}};
               for (int i = 0; i < 2; ++i)
                 for (int k = 0; k < 2; ++k)
                   for (int j = 0; j < 3; ++j) y.v.push_back(d[k].v[i * 3 + j]);
               return std::vector<FTensor>{y};
             },
             kF816};
    c.options = [] {
      tflite::PackOptionsT o;
      o.values_count = 2;
      o.axis = 1;
      return Opts(o);
    };
    add(c);
  }
  {
    OpCase c{"UNPACK", tflite::BuiltinOperator_UNPACK, {Data({3, 2})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               std::vector<FTensor> ys(2, FTensor{{3}, {}});
               for (int i = 0; i < 3; ++i)
                 for (int k = 0; k < 2; ++k) ys[k].v.push_back(d[0].v[i * 2 + k]);
               return ys;
             },
             kF816};
    c.options = [] {
      tflite::UnpackOptionsT o;
      o.num = 2;
      o.axis = 1;
      return Opts(o);
    };
    add(c);
  }
  {
    OpCase c{"SPLIT", tflite::BuiltinOperator_SPLIT, {Ints({}, {1}), Data({2, 4})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               std::vector<FTensor> ys(2, FTensor{{2, 2}, {}});
               for (int i = 0; i < 2; ++i)
                 for (int j = 0; j < 4; ++j) ys[j / 2].v.push_back(d[0].v[i * 4 + j]);
               return ys;
             },
             kF816};
    c.options = [] {
      tflite::SplitOptionsT o;
      o.num_splits = 2;
      return Opts(o);
    };
    add(c);
  }
  {
    OpCase c{"SPACE_TO_DEPTH", tflite::BuiltinOperator_SPACE_TO_DEPTH, {Data({1, 4, 4, 1})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{1, 2, 2, 4}, {}};
               for (int oy = 0; oy < 2; ++oy)
                 for (int ox = 0; ox < 2; ++ox)
                   for (int by = 0; by < 2; ++by)
                     for (int bx = 0; bx < 2; ++bx) y.v.push_back(d[0].v[(oy * 2 + by) * 4 + ox * 2 + bx]);
               return std::vector<FTensor>{y};
             },
             kF8};
    c.options = [] {
      tflite::SpaceToDepthOptionsT o;
      o.block_size = 2;
      return Opts(o);
    };
    add(c);
  }
  {
    OpCase c{"DEPTH_TO_SPACE", tflite::BuiltinOperator_DEPTH_TO_SPACE, {Data({1, 2, 2, 4})},
             [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
               FTensor y{{1, 4, 4, 1}, std::vector<float>(16)};
               for (int oy = 0; oy < 2; ++oy)
                 for (int ox = 0; ox < 2; ++ox)
                   for (int ch = 0; ch < 4; ++ch)
                     y.v[(oy * 2 + ch / 2) * 4 + ox * 2 + ch % 2] = d[0].v[(oy * 2 + ox) * 4 + ch];
               return std::vector<FTensor>{y};
             },
             kF8};
    c.options = [] {
      tflite::DepthToSpaceOptionsT o;
      o.block_size = 2;
      return Opts(o);
    };
    add(c);
  }
  return cases;
}

std::vector<OpCase> NnCases() {
  std::vector<OpCase> cases;
  for (bool same : {true, false}) {
    for (int stride : {1, 2}) {
      const std::string suffix = std::string(same ? "_same" : "_valid") + "_s" + std::to_string(stride);
      {
        OpCase c;
        c.name = "CONV_2D" + suffix;
        c.op = tflite::BuiltinOperator_CONV_2D;
        c.inputs = {Data({1, 6, 5, 3}), Weights({4, 3, 3, 3})};
        c.ref = [stride, same](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
          return std::vector<FTensor>{Conv(d[0], d[1], {}, stride, same, false, 1)};
        };
        c.options = [stride, same] {
          tflite::Conv2DOptionsT o;
          o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
          o.stride_w = o.stride_h = stride;
          return Opts(o);
        };
        c.types = kF8;
        c.lo = -1, c.hi = 1;
        c.rtol = 1e-4f, c.atol = 1e-4f;
        cases.push_back(c);
      }
      {
        OpCase c;
        c.name = "DEPTHWISE_CONV_2D" + suffix;
        c.op = tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
        c.inputs = {Data({1, 6, 5, 2}), Weights({1, 3, 3, 4})};
        c.ref = [stride, same](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
          return std::vector<FTensor>{Conv(d[0], d[1], {}, stride, same, true, 2)};
        };
        c.options = [stride, same] {
          tflite::DepthwiseConv2DOptionsT o;
          o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
          o.stride_w = o.stride_h = stride;
          o.depth_multiplier = 2;
          return Opts(o);
        };
        c.types = kF8;
        c.lo = -1, c.hi = 1;
        c.rtol = 1e-4f, c.atol = 1e-4f;
        cases.push_back(c);
      }
      for (bool max : {true, false}) {
        OpCase c;
        c.name = std::string(max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D") + suffix;
        c.op = max ? tflite::BuiltinOperator_MAX_POOL_2D : tflite::BuiltinOperator_AVERAGE_POOL_2D;
        c.inputs = {Data({1, 5, 6, 3})};
        c.ref = [stride, same, max](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
          return std::vector<FTensor>{Pool(d[0], 3, stride, same, max)};
        };
        c.options = [stride, same] {
          tflite::Pool2DOptionsT o;
          o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
          o.stride_w = o.stride_h = stride;
          o.filter_width = o.filter_height = 3;
          return Opts(o);
        };
        c.types = kF816;
        c.out_like_input = true;
        c.rtol = 1e-5f;
        cases.push_back(c);
      }
    }
  }
  {
    OpCase c;
    c.name = "FULLY_CONNECTED";
    c.op = tflite::BuiltinOperator_FULLY_CONNECTED;
    c.inputs = {Data({3, 10}), Weights({4, 10})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{{3, 4}, {}};
      for (int b = 0; b < 3; ++b)
        for (int o = 0; o < 4; ++o) {
          float acc = 0;
          for (int i = 0; i < 10; ++i) acc += d[0].v[b * 10 + i] * d[1].v[o * 10 + i];
          y.v.push_back(acc);
        }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::FullyConnectedOptionsT()); };
    c.types = kF8;
    c.lo = -1, c.hi = 1;
    c.rtol = 1e-4f, c.atol = 1e-4f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "BATCH_MATMUL";
    c.op = tflite::BuiltinOperator_BATCH_MATMUL;
    c.inputs = {Data({2, 3, 4}), Data({1, 4, 5})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{{2, 3, 5}, {}};
      for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 5; ++j) {
            float acc = 0;
            for (int k = 0; k < 4; ++k) acc += d[0].v[(b * 3 + i) * 4 + k] * d[1].v[k * 5 + j];
            y.v.push_back(acc);
          }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::BatchMatMulOptionsT()); };
    c.types = kF8S;
    c.lo = -1, c.hi = 1;
    c.rtol = 1e-4f, c.atol = 1e-4f;
    cases.push_back(c);
  }
  for (int axis_last : {1, 0}) {
    OpCase c;
    c.name = axis_last ? "SOFTMAX" : "LOG_SOFTMAX";
    c.op = axis_last ? tflite::BuiltinOperator_SOFTMAX : tflite::BuiltinOperator_LOG_SOFTMAX;
    c.inputs = {Data({3, 9})};
    const bool log = !axis_last;
    c.ref = [log](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{d[0].shape, {}};
      for (int r = 0; r < 3; ++r) {
        float mx = -1e30f, sum = 0;
        for (int i = 0; i < 9; ++i) mx = std::max(mx, d[0].v[r * 9 + i]);
        for (int i = 0; i < 9; ++i) sum += std::exp(d[0].v[r * 9 + i] - mx);
        for (int i = 0; i < 9; ++i) {
          const float z = d[0].v[r * 9 + i] - mx;
          y.v.push_back(log ? z - std::log(sum) : std::exp(z) / sum);
        }
      }
      return std::vector<FTensor>{y};
    };
    if (axis_last) {
      c.options = [] {
        tflite::SoftmaxOptionsT o;
        o.beta = 1.f;
        return Opts(o);
      };
      c.types = kF8;
      c.types.push_back(tflite::TensorType_INT16);
      c.fixed_out = [](TensorType t) -> Quantization {
        if (t == tflite::TensorType_INT8) return {{1.f / 256}, {-128}, 0};
        if (t == tflite::TensorType_UINT8) return {{1.f / 256}, {0}, 0};
        return {{1.f / 32768}, {0}, 0};
      };
    } else {
      c.options = [] { return Opts(tflite::LogSoftmaxOptionsT()); };
      c.types = kF8;
      c.fixed_out = [](TensorType t) -> Quantization {
        if (t == tflite::TensorType_INT8) return {{16.f / 256}, {127}, 0};
        return {{16.f / 256}, {255}, 0};
      };
    }
    c.rtol = 1e-5f, c.atol = 1e-6f;
    c.lsb = 2.01f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "L2_NORMALIZATION";
    c.op = tflite::BuiltinOperator_L2_NORMALIZATION;
    c.inputs = {Data({2, 6})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{d[0].shape, {}};
      for (int r = 0; r < 2; ++r) {
        float ss = 0;
        for (int i = 0; i < 6; ++i) ss += d[0].v[r * 6 + i] * d[0].v[r * 6 + i];
        for (int i = 0; i < 6; ++i) y.v.push_back(d[0].v[r * 6 + i] / std::sqrt(ss));
      }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::L2NormOptionsT()); };
    c.types = kF8;
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 128}, {0}, 0};
      return {{1.f / 128}, {128}, 0};
    };
    c.lsb = 2.01f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "PRELU";
    c.op = tflite::BuiltinOperator_PRELU;
    c.inputs = {Data({1, 3, 3, 4}), Weights({4})};
    c.ref = BinaryRef([](float x, float a) { return x < 0 ? a * x : x; });
    c.types = kF8;
    cases.push_back(c);
  }
  return cases;
}

const std::vector<OpCase>& AllCases() {
  static const std::vector<OpCase>* cases = [] {
    auto* all = new std::vector<OpCase>();
    for (auto gen : {UnaryCases, BinaryCases, ReductionCases, LayoutCases, NnCases}) {
      for (OpCase& c : gen()) all->push_back(std::move(c));
    }
    return all;
  }();
  return *cases;
}

std::vector<Param> AllParams() {
  std::vector<Param> params;
  for (const OpCase& c : AllCases())
    for (const auto* list : {&c.types, &c.unsupported})
      for (TensorType t : *list) params.push_back({&c, t});
  return params;
}

class OpTable : public ::testing::TestWithParam<Param> {};

TEST_P(OpTable, MatchesFloatReference) { RunCase(*GetParam().c, GetParam().type); }

INSTANTIATE_TEST_SUITE_P(Ops, OpTable, ::testing::ValuesIn(AllParams()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return info.param.c->name + "_" + TypeName(info.param.type);
                         });

// ---- errors: every case's op must refuse malformed variants in Prepare -----------------------

// Element types no kernel of these ops accepts.
TEST(OpTableErrors, UnsupportedElementTypeFailsInPrepare) {
  for (const OpCase& c : AllCases()) {
    if (c.inputs.empty() || c.inputs[0].kind != Kind::kData) continue;
    if (c.out_like_input) continue;  // data movement copies bytes of any type
    OneOpModel m;
    for (const InputSpec& s : c.inputs) {
      if (s.kind == Kind::kInt32Const) m.Const<int32_t>(s.shape, s.ints);
      else m.Input(tflite::TensorType_COMPLEX64, s.shape);
    }
    m.Output(tflite::TensorType_COMPLEX64, {1});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted COMPLEX64";
    EXPECT_FALSE(m.log().empty()) << c.name << " failed without a message";
  }
}

// Binary element-wise ops: shapes that do not broadcast.
TEST(OpTableErrors, NonBroadcastableShapesFailInPrepare) {
  for (const OpCase& c : BinaryCases()) {
    OneOpModel m;
    m.Input(tflite::TensorType_FLOAT32, {2, 3});
    m.Input(tflite::TensorType_FLOAT32, {4});
    m.Output(c.out_type_override != kSameType ? c.out_type_override
                                                            : tflite::TensorType_FLOAT32,
             {2, 3});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted [2,3] with [4]";
    EXPECT_FALSE(m.log().empty()) << c.name;
  }
}

// Quantized inputs without quantization parameters.
TEST(OpTableErrors, QuantizedTensorsWithoutParametersFailInPrepare) {
  for (const OpCase& c : AllCases()) {
    if (std::find(c.types.begin(), c.types.end(), tflite::TensorType_INT8) == c.types.end()) continue;
    if (c.out_like_input) continue;  // pure data movement: parameters are not used
    // Upstream multiplies unquantized INT8 as plain integers.
    if (c.op == tflite::BuiltinOperator_REDUCE_PROD) continue;
    OneOpModel m;
    std::vector<std::vector<int>> out_shapes;
    for (const InputSpec& s : c.inputs) {
      if (s.kind == Kind::kInt32Const) m.Const<int32_t>(s.shape, s.ints);
      else if (s.kind == Kind::kDataConst)
        m.Const<int8_t>(s.shape, std::vector<int8_t>(NumElements(s.shape), 1),
                        tflite::TensorType_INT8);
      else m.Input(tflite::TensorType_INT8, s.shape);
    }
    const TensorType out = c.out_type_override != kSameType ? c.out_type_override
                                                                        : tflite::TensorType_INT8;
    if (out != tflite::TensorType_INT8) continue;
    m.Output(out, {1});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted int8 tensors without scale/zero point";
  }
}

}  // namespace
}  // namespace tflite_c
