// XNNPACK delegate: STABLEHLO_COMPOSITE "odml.scaled_dot_product_attention"
// (query [B, T, N, H], key/value [B, S, G, H|D], optional mask broadcast to
// [B, N, T, S], flexbuffer attributes "scale" and "logit_cap") is delegated
// as one node, for multi-head (G == N), multi-query (G == 1) and grouped-query
// attention. Each model carries a decomposition subgraph computing the same
// attention with builtin ops, which is what runs without the delegate (and for
// the variants the delegate refuses). Both paths are checked against a plain
// double-precision attention computed here, over two invocations with
// different inputs.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

struct Case {
  int B = 1, T = 3, N = 4, H = 8, S = 5, G = 4, D = 8;
  std::vector<int> mask;  // empty: no mask input
  std::vector<float> const_mask;  // if set: the composite's mask is this constant
  // What the attributes say (the decomposition always uses `scale`/`cap`).
  enum class Attr { kFloat, kDouble, kAbsent, kString, kGarbage } scale_attr = Attr::kFloat;
  double scale = 0.3;  // ignored when the attribute is absent: 1 / sqrt(H)
  double cap = 0.0;    // > 0 or < 0: soft-capped logits, "logit_cap" written
  std::string name = "odml.scaled_dot_product_attention";
  double EffectiveScale() const {
    return scale_attr == Attr::kAbsent ? 1.0 / std::sqrt(static_cast<double>(H)) : scale;
  }
};

std::vector<uint8_t> Attributes(const Case& c) {
  if (c.scale_attr == Case::Attr::kGarbage) return {0x13, 0x37, 0xff, 0x02};
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    switch (c.scale_attr) {
      case Case::Attr::kFloat: fbb.Float("scale", static_cast<float>(c.scale)); break;
      case Case::Attr::kDouble: fbb.Double("scale", c.scale); break;
      case Case::Attr::kString: fbb.String("scale", "0.3"); break;
      default: break;
    }
    if (c.cap != 0.0) fbb.Float("logit_cap", static_cast<float>(c.cap));
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

int Reshape(ModelBuilder& mb, int in, const std::vector<int>& shape) {
  const int dims = mb.AddConstant<int32_t>({static_cast<int>(shape.size())}, shape);
  const int out = mb.AddTensor(TensorType_FLOAT32, shape);
  tflite::ReshapeOptionsT o;
  o.new_shape = shape;
  mb.AddOperator(tflite::BuiltinOperator_RESHAPE, {in, dims}, {out}, o);
  return out;
}

int Transpose(ModelBuilder& mb, int in, const std::vector<int>& perm,
              const std::vector<int>& out_shape) {
  const int p = mb.AddConstant<int32_t>({static_cast<int>(perm.size())}, perm);
  const int out = mb.AddTensor(TensorType_FLOAT32, out_shape);
  mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE, {in, p}, {out}, tflite::TransposeOptionsT());
  return out;
}

int Scalar(ModelBuilder& mb, BuiltinOperator op, int in, float value,
           const std::vector<int>& shape) {
  const int c = mb.AddConstant<float>({1}, {value});
  const int out = mb.AddTensor(TensorType_FLOAT32, shape);
  if (op == tflite::BuiltinOperator_MUL)
    mb.AddOperator(op, {in, c}, {out}, tflite::MulOptionsT());
  else
    mb.AddOperator(op, {in, c}, {out}, tflite::DivOptionsT());
  return out;
}

int Matmul(ModelBuilder& mb, int a, int b, bool adj_y, const std::vector<int>& out_shape) {
  const int out = mb.AddTensor(TensorType_FLOAT32, out_shape);
  tflite::BatchMatMulOptionsT o;
  o.adj_y = adj_y;
  mb.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, b}, {out}, o);
  return out;
}

// Subgraph 0: out = COMPOSITE(q, k, v[, mask]); subgraph 1: its decomposition.
std::vector<uint8_t> SdpaModel(const Case& c) {
  const int B = c.B, T = c.T, N = c.N, H = c.H, S = c.S, G = c.G, D = c.D, R = c.N / c.G;
  ModelBuilder mb;
  auto inputs = [&](std::vector<int>* ids, bool constant_mask) {
    ids->push_back(mb.AddInput(TensorType_FLOAT32, {B, T, N, H}, "q"));
    ids->push_back(mb.AddInput(TensorType_FLOAT32, {B, S, G, H}, "k"));
    ids->push_back(mb.AddInput(TensorType_FLOAT32, {B, S, G, D}, "v"));
    if (constant_mask)
      ids->push_back(mb.AddConstant<float>(c.mask, c.const_mask, "mask"));
    else if (!c.mask.empty())
      ids->push_back(mb.AddInput(TensorType_FLOAT32, c.mask, "mask"));
  };
  std::vector<int> in;
  inputs(&in, !c.const_mask.empty());
  const int y = mb.AddOutput(TensorType_FLOAT32, {B, T, N, D}, "y");
  tflite::StableHLOCompositeOptionsT o;
  o.name = c.name;
  o.decomposition_subgraph_index = 1;
  o.composite_attributes = Attributes(c);
  o.version = 1;
  mb.AddOperator(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, in, {y}, o);

  mb.SetCurrentSubgraph(mb.AddSubgraph("decomposition"));
  std::vector<int> s;
  inputs(&s, false);  // the decomposition gets the constant as an input
  const int qs = Scalar(mb, tflite::BuiltinOperator_MUL, s[0], static_cast<float>(c.EffectiveScale()),
                        {B, T, N, H});
  const int qt = Reshape(mb, Transpose(mb, qs, {0, 2, 1, 3}, {B, N, T, H}), {B, G, R * T, H});
  const int kt = Transpose(mb, s[1], {0, 2, 1, 3}, {B, G, S, H});
  int logits = Reshape(mb, Matmul(mb, qt, kt, true, {B, G, R * T, S}), {B, N, T, S});
  if (c.cap != 0.0) {
    const int divided =
        Scalar(mb, tflite::BuiltinOperator_DIV, logits, static_cast<float>(c.cap), {B, N, T, S});
    const int squashed = mb.AddTensor(TensorType_FLOAT32, {B, N, T, S});
    mb.AddOperator(tflite::BuiltinOperator_TANH, {divided}, {squashed});
    logits =
        Scalar(mb, tflite::BuiltinOperator_MUL, squashed, static_cast<float>(c.cap), {B, N, T, S});
  }
  if (!c.mask.empty()) {
    const int masked = mb.AddTensor(TensorType_FLOAT32, {B, N, T, S});
    mb.AddOperator(tflite::BuiltinOperator_ADD, {logits, s[3]}, {masked}, tflite::AddOptionsT());
    logits = masked;
  }
  const int probs = mb.AddTensor(TensorType_FLOAT32, {B, N, T, S});
  tflite::SoftmaxOptionsT softmax;
  softmax.beta = 1.0f;
  mb.AddOperator(tflite::BuiltinOperator_SOFTMAX, {logits}, {probs}, softmax);
  const int pg = Reshape(mb, probs, {B, G, R * T, S});
  const int vt = Transpose(mb, s[2], {0, 2, 1, 3}, {B, G, S, D});
  const int ctx = Reshape(mb, Matmul(mb, pg, vt, false, {B, G, R * T, D}), {B, N, T, D});
  const int sy = mb.AddOutput(TensorType_FLOAT32, {B, T, N, D}, "y");
  const int perm = mb.AddConstant<int32_t>({4}, {0, 2, 1, 3});
  mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE, {ctx, perm}, {sy}, tflite::TransposeOptionsT());
  mb.SetCurrentSubgraph(0);
  return mb.Finish();
}

size_t Count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Attention written out directly, in double.
std::vector<double> Reference(const Case& c, const std::vector<std::vector<float>>& in) {
  const std::vector<float>&q = in[0], &k = in[1], &v = in[2];
  const int R = c.N / c.G;
  // Mask index of logits element (b, n, t, s), right-aligned broadcasting.
  auto mask_at = [&](int b, int n, int t, int s) -> double {
    if (c.mask.empty()) return 0.0;
    const int full[4] = {b, n, t, s};
    const int rank = static_cast<int>(c.mask.size());
    size_t index = 0;
    for (int i = 0; i < rank; ++i) {
      const int d = c.mask[i];
      index = index * d + (d == 1 ? 0 : full[4 - rank + i]);
    }
    return in[3][index];
  };
  std::vector<double> out(Count({c.B, c.T, c.N, c.D}));
  std::vector<double> p(c.S);
  for (int b = 0; b < c.B; ++b)
    for (int t = 0; t < c.T; ++t)
      for (int n = 0; n < c.N; ++n) {
        const int g = n / R;
        double top = -INFINITY;
        for (int s = 0; s < c.S; ++s) {
          double dot = 0;
          for (int h = 0; h < c.H; ++h)
            dot += static_cast<double>(q[((b * c.T + t) * c.N + n) * c.H + h]) *
                   c.EffectiveScale() * k[((b * c.S + s) * c.G + g) * c.H + h];
          if (c.cap != 0.0) dot = c.cap * std::tanh(dot / c.cap);
          p[s] = dot + mask_at(b, n, t, s);
          top = std::max(top, p[s]);
        }
        double sum = 0;
        for (int s = 0; s < c.S; ++s) sum += (p[s] = std::exp(p[s] - top));
        for (int d = 0; d < c.D; ++d) {
          double acc = 0;
          for (int s = 0; s < c.S; ++s) acc += p[s] / sum * v[((b * c.S + s) * c.G + g) * c.D + d];
          out[((b * c.T + t) * c.N + n) * c.D + d] = acc;
        }
      }
  return out;
}

// Runs `c` without and with the delegate (twice, with fresh inputs each time)
// and checks both against Reference. `delegated`: the composite is expected
// to become the single delegate kernel of the primary subgraph.
void Check(const Case& c, bool delegated) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> model = SdpaModel(c);
  BuiltinAndXnnpack both(model);
  Session& ref = both.ref;
  Session& xnn = both.xnn;
  ASSERT_TRUE(ref.ok()) << ref.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  ASSERT_EQ(xnn.plan().size(), 1u);
  EXPECT_EQ(xnn.DelegateNodes(), delegated ? 1 : 0) << xnn.errors;
  EXPECT_EQ(ref.DelegateNodes(), 0);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(ref.interpreter.get()), kTfLiteOk) << ref.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const std::vector<std::vector<int>> shapes = {
      {c.B, c.T, c.N, c.H}, {c.B, c.S, c.G, c.H}, {c.B, c.S, c.G, c.D}, c.mask};
  const int num_inputs = c.mask.empty() || !c.const_mask.empty() ? 3 : 4;
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    std::vector<std::vector<float>> in;
    for (int i = 0; i < num_inputs; ++i) {
      // Masks: 0 or -30 (masked out: a weight below 1e-12), like causal or
      // padding masks. (Not -1e4: float logits near 1e4 keep only about three
      // decimals, so a fully masked row differs from the exact result.)
      std::vector<float> x = Random(Count(shapes[i]), 100 * run + 11 * i + 1, -2.0f, 2.0f);
      if (i == 3)
        for (float& m : x) m = m < -0.8f ? -30.0f : 0.0f;
      in.push_back(x);
      ASSERT_TRUE(ref.SetInput(i, x));
      ASSERT_TRUE(xnn.SetInput(i, x));
    }
    if (!c.const_mask.empty()) in.push_back(c.const_mask);
    ASSERT_EQ(TfLiteInterpreterInvoke(ref.interpreter.get()), kTfLiteOk) << ref.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
    const std::vector<double> want = Reference(c, in);
    const std::vector<float> a = ref.Output(0), b = xnn.Output(0);
    ASSERT_EQ(a.size(), want.size());
    ASSERT_EQ(b.size(), want.size());
    double spread = 0, worst_builtin = 0, worst_xnnpack = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      spread = std::max(spread, std::fabs(want[i] - want[0]));
      worst_builtin = std::max(worst_builtin, std::fabs(a[i] - want[i]));
      worst_xnnpack = std::max(worst_xnnpack, std::fabs(b[i] - want[i]));
    }
    EXPECT_LT(worst_builtin, 1e-4) << "builtin decomposition";
    EXPECT_LT(worst_xnnpack, 1e-4) << "with the delegate";
    EXPECT_GT(spread, 0.1);  // not a constant output
    if (getenv("SDPA_VERBOSE"))
      printf("max error: builtin %.3g, xnnpack %.3g\n", worst_builtin, worst_xnnpack);
  }
}

TEST(XnnpackSdpa, MultiHeadWithMask) {
  Case c;
  c.mask = {1, 1, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, MultiHeadBatchedFullMask) {
  Case c;
  c.B = 2;
  c.mask = {2, 4, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, MultiQuery) {
  Case c;
  c.G = 1;
  c.mask = {1, 1, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, MultiQueryBatchedNoMask) {
  Case c;
  c.B = 2;
  c.G = 1;
  Check(c, true);
}

TEST(XnnpackSdpa, GroupedQuery) {
  Case c;
  c.N = 6;
  c.G = 2;
  c.T = 4;
  c.S = 7;
  c.mask = {1, 1, 4, 7};
  Check(c, true);
}

TEST(XnnpackSdpa, GroupedQueryBatchedRank2MaskValueDepth) {
  Case c;
  c.B = 2;
  c.N = 8;
  c.G = 2;
  c.D = 5;  // value head size differs from the query/key one
  c.mask = {3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, ConstantCausalMask) {
  Case c;
  c.N = 6;
  c.G = 3;
  c.mask = {1, 1, c.T, c.S};
  // Query token t sits at position S - T + t and sees keys up to it.
  for (int t = 0; t < c.T; ++t)
    for (int s = 0; s < c.S; ++s) c.const_mask.push_back(s > c.S - c.T + t ? -30.0f : 0.0f);
  Check(c, true);
}

TEST(XnnpackSdpa, NoMask) {
  Case c;
  Check(c, true);
}

TEST(XnnpackSdpa, DefaultScaleWhenAbsent) {
  Case c;
  c.scale_attr = Case::Attr::kAbsent;
  c.mask = {1, 1, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, ScaleStoredAsDouble) {
  Case c;
  c.scale_attr = Case::Attr::kDouble;
  c.scale = 0.45;
  c.mask = {1, 1, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, LogitCap) {
  Case c;
  c.N = 6;
  c.G = 3;
  c.scale = 1.5;  // large logits, so the cap matters
  c.cap = 2.0;
  c.mask = {1, 1, 3, 5};
  Check(c, true);
}

TEST(XnnpackSdpa, RefusedVariantsRunTheDecomposition) {
  {
    SCOPED_TRACE("another composite");
    Case c;
    c.name = "odml.some_other_composite";
    c.mask = {1, 1, 3, 5};
    Check(c, false);
  }
  {
    SCOPED_TRACE("scale is a string");
    Case c;
    c.scale_attr = Case::Attr::kString;
    Check(c, false);
  }
  {
    SCOPED_TRACE("attributes are not a flexbuffer map");
    Case c;
    c.scale_attr = Case::Attr::kGarbage;
    c.mask = {1, 1, 3, 5};
    Check(c, false);
  }
  {
    SCOPED_TRACE("negative logit_cap");
    Case c;
    c.cap = -2.0;
    Check(c, false);
  }
}

// A query with another token count after delegation (as between an LLM's
// prefill and decode steps): the runtime is reshaped and stays right.
TEST(XnnpackSdpa, ResizedTokenCount) {
  SKIP_WITHOUT_XNNPACK();
  Case c;
  c.N = 6;
  c.G = 2;
  c.mask = {1, 1, 3, 5};
  const std::vector<uint8_t> model = SdpaModel(c);
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
  Session xnn;
  xnn.Create(model, {delegate.get()});
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  ASSERT_EQ(xnn.DelegateNodes(), 1);
  TfLiteInterpreter* it = xnn.interpreter.get();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << xnn.errors;
  for (int tokens : {1, 7}) {
    SCOPED_TRACE("T = " + std::to_string(tokens));
    Case r = c;
    r.T = tokens;
    r.mask = {1, 1, tokens, 5};
    const int q_dims[4] = {r.B, r.T, r.N, r.H};
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, q_dims, 4), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 3, r.mask.data(), 4), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << xnn.errors;
    std::vector<std::vector<float>> in = {
        Random(Count({r.B, r.T, r.N, r.H}), 5, -2.0f, 2.0f),
        Random(Count({r.B, r.S, r.G, r.H}), 6, -2.0f, 2.0f),
        Random(Count({r.B, r.S, r.G, r.D}), 7, -2.0f, 2.0f),
        std::vector<float>(Count(r.mask), 0.0f)};
    in[3][1] = -30.0f;
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(xnn.SetInput(i, in[i]));
    ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << xnn.errors;
    const std::vector<double> want = Reference(r, in);
    const std::vector<float> got = xnn.Output(0);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4) << i;
  }
}

// As upstream, a custom op named odml.scaled_dot_product_attention (the
// attributes in its custom options) is delegated the same way. Its own kernel
// here fails when invoked, so only the delegate can produce the output.
TEST(XnnpackSdpa, CustomOpForm) {
  SKIP_WITHOUT_XNNPACK();
  Case c;
  c.N = 8;
  c.G = 2;
  c.scale = 0.7;
  c.cap = 3.0;
  c.mask = {1, 1, 3, 5};
  ModelBuilder mb;
  const int q = mb.AddInput(TensorType_FLOAT32, {c.B, c.T, c.N, c.H}, "q");
  const int k = mb.AddInput(TensorType_FLOAT32, {c.B, c.S, c.G, c.H}, "k");
  const int v = mb.AddInput(TensorType_FLOAT32, {c.B, c.S, c.G, c.D}, "v");
  const int m = mb.AddInput(TensorType_FLOAT32, c.mask, "mask");
  const int y = mb.AddOutput(TensorType_FLOAT32, {c.B, c.T, c.N, c.D}, "y");
  mb.AddCustomOperator(c.name, {q, k, v, m}, {y}, Attributes(c));
  const std::vector<uint8_t> model = mb.Finish();

  TfLiteRegistration failing = {};
  failing.invoke = [](TfLiteContext*, TfLiteNode*) { return kTfLiteError; };
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
  ModelPtr mp(TfLiteModelCreate(model.data(), model.size()));
  ASSERT_NE(mp, nullptr);
  std::string errors;
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &errors);
  TfLiteInterpreterOptionsAddCustomOp(options.get(), c.name.c_str(), &failing, 1, 1);
  TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
  TfLiteInterpreterOptionsAddDelegate(options.get(),
                                      reinterpret_cast<TfLiteOpaqueDelegate*>(delegate.get()));
  InterpreterPtr it(TfLiteInterpreterCreate(mp.get(), options.get()));
  ASSERT_NE(it, nullptr) << errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it.get()), kTfLiteOk) << errors;
  std::vector<std::vector<float>> in;
  const std::vector<std::vector<int>> shapes = {
      {c.B, c.T, c.N, c.H}, {c.B, c.S, c.G, c.H}, {c.B, c.S, c.G, c.D}, c.mask};
  for (int i = 0; i < 4; ++i) {
    in.push_back(Random(Count(shapes[i]), 40 + i, -2.0f, 2.0f));
    if (i == 3)
      for (float& x : in[3]) x = x < -1.0f ? -30.0f : 0.0f;
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(it.get(), i);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(t, in[i].data(), in[i].size() * sizeof(float)),
              kTfLiteOk);
  }
  ASSERT_EQ(TfLiteInterpreterInvoke(it.get()), kTfLiteOk) << errors;
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(it.get(), 0);
  const std::vector<double> want = Reference(c, in);
  ASSERT_EQ(out->bytes, want.size() * sizeof(float));
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(out->data.f[i], want[i], 1e-4) << i;
}

// Shapes the delegate refuses (the builtin composite kernel then runs the
// decomposition, whose shapes are checked by its own Prepare).
TEST(XnnpackSdpa, RefusedShapesAndTypes) {
  SKIP_WITHOUT_XNNPACK();
  auto build = [](const std::vector<int>& q, const std::vector<int>& k,
                  tflite::TensorType type) {
    ModelBuilder mb;
    const int a = mb.AddInput(type, q, "q");
    const int b = mb.AddInput(type, k, "k");
    const int v = mb.AddInput(type, k, "v");
    const int y = mb.AddOutput(type, q, "y");
    tflite::StableHLOCompositeOptionsT o;
    o.name = "odml.scaled_dot_product_attention";
    o.decomposition_subgraph_index = 1;
    Case none;
    none.scale_attr = Case::Attr::kAbsent;
    o.composite_attributes = Attributes(none);  // an empty map
    o.version = 1;
    mb.AddOperator(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, {a, b, v}, {y}, o);
    mb.SetCurrentSubgraph(mb.AddSubgraph("decomposition"));
    const int sq = mb.AddInput(type, q);
    mb.AddInput(type, k);
    mb.AddInput(type, k);
    const int sy = mb.AddOutput(type, q);
    mb.AddOperator(tflite::BuiltinOperator_ABS, {sq}, {sy});  // stands in for the math
    mb.SetCurrentSubgraph(0);
    return mb.Finish();
  };
  struct Bad {
    const char* what;
    std::vector<int> q, k;
    tflite::TensorType type;
  } bad[] = {
      {"rank 3", {3, 4, 8}, {5, 4, 8}, TensorType_FLOAT32},
      {"heads not a multiple of key/value heads", {1, 3, 4, 8}, {1, 5, 3, 8}, TensorType_FLOAT32},
      {"head sizes differ", {1, 3, 4, 8}, {1, 5, 4, 6}, TensorType_FLOAT32},
      {"int32 tensors", {1, 3, 4, 8}, {1, 5, 4, 8}, TensorType_INT32},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    const std::vector<uint8_t> model = build(b.q, b.k, b.type);
    TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
    XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
    Session s;
    s.Create(model, {delegate.get()});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(s.DelegateNodes(), 0);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c
