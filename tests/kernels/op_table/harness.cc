#include "tests/kernels/op_table/harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/common.h"
#include "tests/kernels/string_test_util.h"

namespace tflite_c {
namespace op_table {

using testing::OneOpModel;

// ---- case building blocks --------------------------------------------------------------------

const std::vector<TensorType> kF = {tflite::TensorType_FLOAT32};
const std::vector<TensorType> kF8 = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8,
                                     tflite::TensorType_UINT8};
const std::vector<TensorType> kF8S = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8};
const std::vector<TensorType> kFU8 = {tflite::TensorType_FLOAT32, tflite::TensorType_UINT8};
const std::vector<TensorType> kF816 = {tflite::TensorType_FLOAT32, tflite::TensorType_INT8,
                                       tflite::TensorType_UINT8, tflite::TensorType_INT16};
const std::vector<TensorType> kI32 = {tflite::TensorType_INT32};
const std::vector<TensorType> kI64 = {tflite::TensorType_INT64};
const std::vector<TensorType> kBool = {tflite::TensorType_BOOL};

InputSpec Data(std::vector<int> shape) {
  InputSpec s;
  s.shape = std::move(shape);
  return s;
}
InputSpec Weights(std::vector<int> shape) {
  InputSpec s = Data(std::move(shape));
  s.kind = Kind::kDataConst;
  return s;
}
InputSpec Ints(std::vector<int> shape, std::vector<int32_t> v) {
  InputSpec s = Data(std::move(shape));
  s.kind = Kind::kInt32Const;
  s.type = tflite::TensorType_INT32;
  s.ints = std::move(v);
  return s;
}
InputSpec In(std::vector<int> shape, std::vector<double> values, TensorType type) {
  InputSpec s = Data(std::move(shape));
  s.type = type;
  s.fixed = true;
  s.values = std::move(values);
  return s;
}
InputSpec Const(std::vector<int> shape, std::vector<double> values, TensorType type) {
  InputSpec s = In(std::move(shape), std::move(values), type);
  s.kind = Kind::kDataConst;
  return s;
}
InputSpec Omitted() {
  InputSpec s;
  s.kind = Kind::kOmitted;
  return s;
}
InputSpec Variable(std::vector<int> shape) {
  InputSpec s = Data(std::move(shape));
  s.kind = Kind::kVariable;
  return s;
}

InputSpec Str(std::vector<int> shape, std::vector<std::string> strings) {
  InputSpec s = Const(std::move(shape), {}, tflite::TensorType_STRING);
  s.strings = std::move(strings);
  return s;
}

InputSpec F32(std::vector<int> shape, std::vector<double> values) {
  return In(std::move(shape), std::move(values), tflite::TensorType_FLOAT32);
}
InputSpec I32(std::vector<int> shape, std::vector<double> values) {
  return In(std::move(shape), std::move(values), tflite::TensorType_INT32);
}
InputSpec I64(std::vector<int> shape, std::vector<double> values) {
  return In(std::move(shape), std::move(values), tflite::TensorType_INT64);
}
InputSpec Typed(TensorType type, std::vector<int> shape) {
  const int n = NumElements(shape);
  return In(std::move(shape), std::vector<double>(n, 0.0), type);
}
InputSpec Const(InputSpec s) {
  s.kind = Kind::kDataConst;
  return s;
}

std::vector<OpCase> Cases(std::vector<Hand> hands) {
  std::vector<OpCase> cases;
  for (Hand& h : hands) {
    OpCase c;
    c.name = std::string(tflite::EnumNameBuiltinOperator(h.op)) + "_" + h.name;
    c.op = h.op;
    c.inputs = std::move(h.inputs);
    std::vector<FTensor> outputs;
    for (const InputSpec& o : h.outputs) {
      outputs.push_back({o.shape, o.values, o.strings});
      c.out_types.push_back(o.type);
    }
    c.ref = Expect(std::move(outputs));
    c.types = {h.outputs[0].type};
    c.options = [o = h.options] { return o; };
    c.raw_integers = true;
    c.atol = c.rtol = 5e-6f;
    c.outcome = h.outcome;
    c.error = std::move(h.error);
    c.version = h.version;
    c.also_default_delegates = true;
    cases.push_back(std::move(c));
  }
  return cases;
}

void Append(std::vector<OpCase>* to, std::vector<OpCase> from) {
  for (OpCase& c : from) to->push_back(std::move(c));
}

RefFn Expect(std::vector<FTensor> outputs) {
  return [outputs](const std::vector<FTensor>&, const std::vector<std::vector<int32_t>>&) {
    return outputs;
  };
}

RefFn UnaryRef(std::function<double(double)> f) {
  return [f](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
    return std::vector<FTensor>{Unary(d[0], f)};
  };
}
RefFn BinaryRef(std::function<double(double, double)> f) {
  return [f](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
    return std::vector<FTensor>{Binary(d[0], d[1], f)};
  };
}

std::string TypeName(TensorType t) { return tflite::EnumNameTensorType(t); }

bool Quantized(TensorType t) {
  return t == tflite::TensorType_INT8 || t == tflite::TensorType_UINT8 ||
         t == tflite::TensorType_INT16;
}

namespace {

bool IsFloat(TensorType t) {
  return t == tflite::TensorType_FLOAT32 || t == tflite::TensorType_FLOAT64 ||
         t == tflite::TensorType_FLOAT16 || t == tflite::TensorType_COMPLEX64;
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

int32_t QuantizeOne(double v, const Quantization& q, TensorType t) {
  int qmin, qmax;
  QRange(t, &qmin, &qmax);
  const long r = std::lround(static_cast<float>(v) / q.scale[0]) + static_cast<long>(q.zero_point[0]);
  return static_cast<int32_t>(std::clamp<long>(r, qmin, qmax));
}

double Dequantize(int64_t v, const Quantization& q) {
  return (static_cast<float>(v) - static_cast<float>(q.zero_point[0])) * q.scale[0];
}

template <typename T>
void Append(std::vector<uint8_t>* out, T v) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(&v);
  out->insert(out->end(), b, b + sizeof v);
}

// Values as the bytes of type `t`; quantized types use `q` unless it is empty
// (then the values are the raw integers).
std::vector<uint8_t> Encode(const std::vector<double>& v, TensorType t, const Quantization& q) {
  std::vector<uint8_t> out;
  for (double f : v) {
    const bool quant = Quantized(t) && !q.scale.empty();
    const int64_t i = quant ? QuantizeOne(f, q, t) : static_cast<int64_t>(f);
    switch (t) {
      case tflite::TensorType_FLOAT32: Append(&out, static_cast<float>(f)); break;
      case tflite::TensorType_FLOAT64: Append(&out, f); break;
      // Complex values are given as (real, imaginary) pairs.
      case tflite::TensorType_COMPLEX64: Append(&out, static_cast<float>(f)); break;
      case tflite::TensorType_INT8: Append(&out, static_cast<int8_t>(i)); break;
      case tflite::TensorType_UINT8: Append(&out, static_cast<uint8_t>(i)); break;
      case tflite::TensorType_INT16: Append(&out, static_cast<int16_t>(i)); break;
      case tflite::TensorType_UINT16: Append(&out, static_cast<uint16_t>(i)); break;
      case tflite::TensorType_INT32: Append(&out, static_cast<int32_t>(i)); break;
      case tflite::TensorType_UINT32: Append(&out, static_cast<uint32_t>(i)); break;
      case tflite::TensorType_INT64: Append(&out, static_cast<int64_t>(i)); break;
      case tflite::TensorType_UINT64: Append(&out, static_cast<uint64_t>(f)); break;
      case tflite::TensorType_BOOL: Append(&out, static_cast<uint8_t>(f != 0)); break;
      default: ADD_FAILURE() << "op table: cannot encode " << TypeName(t);
    }
  }
  return out;
}

template <typename T>
void DecodeAs(const uint8_t* p, size_t bytes, const Quantization& q, bool quant,
              std::vector<double>* out) {
  for (size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T v;
    std::memcpy(&v, p + i, sizeof v);
    out->push_back(quant ? Dequantize(static_cast<int64_t>(v), q) : static_cast<double>(v));
  }
}

std::vector<double> Decode(const uint8_t* p, size_t bytes, TensorType t, const Quantization& q) {
  std::vector<double> out;
  const bool quant = Quantized(t) && !q.scale.empty();
  switch (t) {
    case tflite::TensorType_FLOAT32: DecodeAs<float>(p, bytes, q, false, &out); break;
    case tflite::TensorType_FLOAT64: DecodeAs<double>(p, bytes, q, false, &out); break;
    case tflite::TensorType_COMPLEX64: DecodeAs<float>(p, bytes, q, false, &out); break;
    case tflite::TensorType_INT8: DecodeAs<int8_t>(p, bytes, q, quant, &out); break;
    case tflite::TensorType_UINT8: DecodeAs<uint8_t>(p, bytes, q, quant, &out); break;
    case tflite::TensorType_INT16: DecodeAs<int16_t>(p, bytes, q, quant, &out); break;
    case tflite::TensorType_UINT16: DecodeAs<uint16_t>(p, bytes, q, false, &out); break;
    case tflite::TensorType_INT32: DecodeAs<int32_t>(p, bytes, q, false, &out); break;
    case tflite::TensorType_UINT32: DecodeAs<uint32_t>(p, bytes, q, false, &out); break;
    case tflite::TensorType_INT64: DecodeAs<int64_t>(p, bytes, q, false, &out); break;
    case tflite::TensorType_UINT64: DecodeAs<uint64_t>(p, bytes, q, false, &out); break;
    case tflite::TensorType_BOOL:
      for (size_t i = 0; i < bytes; ++i) out.push_back(p[i] ? 1.0 : 0.0);
      break;
    default: ADD_FAILURE() << "op table: cannot decode " << TypeName(t);
  }
  return out;
}

// Round-trips values through the quantization of type `t`.
std::vector<double> Snap(const std::vector<double>& v, TensorType t, const Quantization& q) {
  if (!Quantized(t) || q.scale.empty()) return v;
  std::vector<double> out;
  for (double f : v) out.push_back(Dequantize(QuantizeOne(f, q, t), q));
  return out;
}

// Random values of type `t` in [lo, hi]: integers are rounded, bools are 0/1.
double Draw(std::mt19937& rng, TensorType t, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  const float f = dist(rng);
  if (t == tflite::TensorType_BOOL) return f > (lo + hi) / 2 ? 1.0 : 0.0;
  if (IsFloat(t) || Quantized(t)) return f;
  return std::nearbyint(f);
}

// The data inputs of a case for one element type, and their quantization.
struct Inputs {
  std::vector<FTensor> data;
  std::vector<TensorType> types;
  std::vector<Quantization> quant;
  std::vector<std::vector<int32_t>> ints;
};

Inputs MakeInputs(const OpCase& c, TensorType type, const Quantization& in_q) {
  std::mt19937 rng(static_cast<uint32_t>(std::hash<std::string>()(c.name + TypeName(type))));
  // Weights of int8 kernels are symmetric (zero point 0), as upstream requires.
  Quantization w_q = in_q;
  if (type == tflite::TensorType_INT8 && !in_q.scale.empty()) {
    const float m = std::max(std::fabs(c.lo), std::fabs(c.hi));
    w_q = {{m / 127.f}, {0}, 0};
  }
  Inputs r;
  for (const InputSpec& s : c.inputs) {
    if (s.kind == Kind::kOmitted || s.kind == Kind::kVariable) continue;
    if (s.kind == Kind::kInt32Const) {
      r.ints.push_back(s.ints);
      continue;
    }
    const TensorType t = s.type == kSameType ? type : s.type;
    const Quantization q = t != type ? Quantization{} : s.kind == Kind::kDataConst ? w_q : in_q;
    FTensor x{s.shape, s.values, s.strings};
    if (!s.fixed) {
      for (int i = 0; i < NumElements(s.shape); ++i) x.v.push_back(Draw(rng, t, c.lo, c.hi));
    }
    if (t != tflite::TensorType_STRING) x.v = Snap(x.v, t, q);
    r.data.push_back(std::move(x));
    r.types.push_back(t);
    r.quant.push_back(q);
  }
  return r;
}

TensorType OutputType(const OpCase& c, TensorType type, size_t o) {
  if (o < c.out_types.size() && c.out_types[o] != kSameType) return c.out_types[o];
  return c.out_type_override != kSameType ? c.out_type_override : type;
}

Quantization OutputQuant(const OpCase& c, TensorType out_type, const Quantization& in_q,
                         const FTensor& e) {
  if (!Quantized(out_type) || c.raw_integers) return {};
  if (c.out_like_input) return in_q;
  if (c.fixed_out) return c.fixed_out(out_type);
  const auto mm = std::minmax_element(e.v.begin(), e.v.end());
  return ChooseQuant(out_type, e.v.empty() ? 0.f : static_cast<float>(*mm.first),
                     e.v.empty() ? 1.f : static_cast<float>(*mm.second));
}

void CompareOutput(const OpCase& c, size_t o, TensorType out_type, const Quantization& q,
                   const FTensor& want, const OneOpModel& m) {
  EXPECT_EQ(m.Shape(static_cast<int>(o)), want.shape) << "output " << o;
  if (out_type == tflite::TensorType_STRING) {
    EXPECT_EQ(testing::ReadStrings(TfLiteInterpreterGetOutputTensor(m.interpreter(),
                                                                    static_cast<int>(o))),
              want.s)
        << "output " << o;
    return;
  }
  const std::vector<uint8_t> raw = m.GetBytes(static_cast<int>(o));
  const std::vector<double> got = Decode(raw.data(), raw.size(), out_type, q);
  ASSERT_EQ(got.size(), want.v.size()) << "output " << o;
  const bool exact = !IsFloat(out_type) && (!Quantized(out_type) || q.scale.empty());
  int reported = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double w = want.v[i];
    const double tol = exact ? 0.0
                       : Quantized(out_type) ? c.lsb * q.scale[0] + 1e-6
                                             : c.atol + c.rtol * std::fabs(w);
    const bool ok = std::isnan(w) ? std::isnan(got[i]) : std::fabs(got[i] - w) <= tol;
    if (!ok && reported++ < 5) {
      ADD_FAILURE() << "output " << o << " element " << i << ": got " << got[i] << ", want " << w
                    << " (tolerance " << tol << ")";
    }
  }
}

// The bytes of data input `d` as the model takes them.
std::vector<uint8_t> InputBytes(const Inputs& in, size_t d) {
  if (in.types[d] == tflite::TensorType_STRING) return testing::EncodeStrings(in.data[d].s);
  return Encode(in.data[d].v, in.types[d], in.quant[d]);
}

// One case's model for one element type, as far as the operator and its
// subgraphs; `fed` receives the data index of each model input, in order.
void BuildModel(const OpCase& c, TensorType type, const Inputs& in,
                const std::vector<FTensor>& expected, const std::vector<Quantization>& out_q,
                OneOpModel& m, std::vector<size_t>* fed) {
  size_t d = 0, k = 0;
  for (const InputSpec& s : c.inputs) {
    if (s.kind == Kind::kOmitted) {
      m.Omitted();
    } else if (s.kind == Kind::kVariable) {
      m.Variable(type, s.shape);
    } else if (s.kind == Kind::kInt32Const) {
      m.Const<int32_t>(s.shape, in.ints[k++]);
    } else if (s.kind == Kind::kDataConst) {
      m.ConstBytes(in.types[d], s.shape, InputBytes(in, d), in.quant[d]);
      ++d;
    } else {
      m.Input(in.types[d], s.shape, in.quant[d]);
      fed->push_back(d++);
    }
  }
  for (size_t o = 0; o < expected.size(); ++o) {
    m.Output(OutputType(c, type, o), expected[o].shape, out_q[o]);
  }
  m.Op(c.op, c.options(), c.version);
  if (c.subgraphs) {
    c.subgraphs(m.builder());
    m.builder().SetCurrentSubgraph(0);
  }
  if (c.after_op) c.after_op(m);
}

bool Feed(OneOpModel& m, const Inputs& in, const std::vector<size_t>& fed) {
  for (size_t i = 0; i < fed.size(); ++i) m.SetBytes(static_cast<int>(i), InputBytes(in, fed[i]));
  return m.Invoke();
}

// A `property` case: its values, then the same bytes from a second model.
void CheckProperty(const OpCase& c, TensorType type, const Inputs& in,
                   const std::vector<FTensor>& expected, const std::vector<Quantization>& out_q,
                   const OneOpModel& first) {
  std::vector<std::vector<double>> got;
  for (size_t o = 0; o < expected.size(); ++o) {
    EXPECT_EQ(first.Shape(static_cast<int>(o)), expected[o].shape) << "output " << o;
    const std::vector<uint8_t> raw = first.GetBytes(static_cast<int>(o));
    got.push_back(Decode(raw.data(), raw.size(), OutputType(c, type, o), out_q[o]));
  }
  EXPECT_EQ(c.property(got), "");
  OneOpModel again;
  std::vector<size_t> fed;
  BuildModel(c, type, in, expected, out_q, again, &fed);
  ASSERT_TRUE(again.Allocate()) << again.log();
  ASSERT_TRUE(Feed(again, in, fed)) << again.log();
  for (size_t o = 0; o < expected.size(); ++o) {
    EXPECT_EQ(again.GetBytes(static_cast<int>(o)), first.GetBytes(static_cast<int>(o)))
        << "output " << o << " differs between two models with the same seeds";
  }
}

}  // namespace

void RunCase(const OpCase& c, TensorType type, bool default_delegates) {
  const Quantization in_q =
      Quantized(type) && !c.raw_integers ? ChooseQuant(type, c.lo, c.hi) : Quantization{};
  const Inputs in = MakeInputs(c, type, in_q);
  const std::vector<FTensor> expected = c.ref(in.data, in.ints);
  std::vector<Quantization> out_q;
  for (size_t o = 0; o < expected.size(); ++o) {
    out_q.push_back(OutputQuant(c, OutputType(c, type, o), in_q, expected[o]));
  }

  OneOpModel m;
  if (default_delegates) {
    m.configure_options = [](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetUseXNNPACK(o, true);
      TfLiteInterpreterOptionsSetNumThreads(o, 1);
    };
  }
  std::vector<size_t> fed;
  BuildModel(c, type, in, expected, out_q, m, &fed);
  if (std::find(c.unsupported.begin(), c.unsupported.end(), type) != c.unsupported.end()) {
    EXPECT_FALSE(m.Allocate()) << "now supported: move " << TypeName(type) << " to the case's types";
    EXPECT_NE(m.log().find("not supported"), std::string::npos) << m.log();
    return;
  }
  if (c.outcome == Outcome::kPrepareFails) {
    EXPECT_FALSE(m.Allocate()) << "expected Prepare to fail";
    EXPECT_NE(m.interpreter(), nullptr) << "the model did not load:\n" << m.log();
    EXPECT_NE(m.log().find(c.error), std::string::npos) << "log lacks \"" << c.error << "\":\n"
                                                        << m.log();
    return;
  }
  ASSERT_TRUE(m.Allocate()) << m.log();
  OutputGuards guards;
  ASSERT_TRUE(guards.Attach(m, static_cast<int>(expected.size()))) << m.log();
  const bool invoked = Feed(m, in, fed);
  EXPECT_EQ(guards.Damage(), "") << "a kernel wrote outside its output";
  if (c.outcome == Outcome::kInvokeFails) {
    EXPECT_FALSE(invoked) << "expected Invoke to fail";
    EXPECT_NE(m.log().find(c.error), std::string::npos) << "log lacks \"" << c.error << "\":\n"
                                                        << m.log();
    return;
  }
  ASSERT_TRUE(invoked) << m.log();
  if (c.property) {
    CheckProperty(c, type, in, expected, out_q, m);
    return;
  }
  for (size_t o = 0; o < expected.size(); ++o) {
    CompareOutput(c, o, OutputType(c, type, o), out_q[o], expected[o], m);
  }
  if (!c.error.empty()) {
    EXPECT_NE(m.log().find(c.error), std::string::npos) << m.log();
  }
}

// ---- sentinels -----------------------------------------------------------------------------

int OutputGuards::total_guarded = 0;
int OutputGuards::total_unguarded = 0;

bool OutputGuards::Attach(OneOpModel& m, int num_outputs) {
  for (int o = 0; o < num_outputs; ++o) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(m.interpreter(), o);
    if (t == nullptr || t->allocation_type != kTfLiteArenaRw) {
      ++unguarded_;
      ++total_unguarded;
      continue;
    }
    ++total_guarded;
    Buffer b;
    b.output = o;
    b.bytes = t->bytes;
    b.storage.assign(b.bytes + 3 * kGuardBytes, kGuardValue);
    const uintptr_t base = reinterpret_cast<uintptr_t>(b.storage.data()) + kGuardBytes;
    const uintptr_t aligned = (base + kGuardBytes - 1) / kGuardBytes * kGuardBytes;
    b.offset = aligned - reinterpret_cast<uintptr_t>(b.storage.data());
    TfLiteCustomAllocation a{b.storage.data() + b.offset, b.bytes};
    if (TfLiteInterpreterSetCustomAllocationForTensor(m.interpreter(), m.OutputTensorIndex(o), &a,
                                                      kTfLiteCustomAllocationFlagsNone) !=
        kTfLiteOk) {
      return false;
    }
    buffers_.push_back(std::move(b));
  }
  return buffers_.empty() || m.Reallocate();
}

std::string OutputGuards::Damage() const {
  std::string damage;
  for (const Buffer& b : buffers_) {
    const uint8_t* data = b.storage.data() + b.offset;
    for (size_t i = 1; i <= kGuardBytes; ++i) {
      if (data[-static_cast<ptrdiff_t>(i)] != kGuardValue) {
        damage += "output " + std::to_string(b.output) + ": byte " + std::to_string(i) +
                  " before the start was written\n";
        break;
      }
    }
    for (size_t i = 0; i < kGuardBytes; ++i) {
      if (data[b.bytes + i] != kGuardValue) {
        damage += "output " + std::to_string(b.output) + ": byte " + std::to_string(i) +
                  " past the end (of " + std::to_string(b.bytes) + ") was written\n";
        break;
      }
    }
  }
  return damage;
}

}  // namespace op_table
}  // namespace tflite_c
