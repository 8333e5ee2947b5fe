// XNNPACK delegate: float32 CONV_2D, TRANSPOSE_CONV and FULLY_CONNECTED with
// static INT8 ("dynamic range", hybrid) weights, and FULLY_CONNECTED with
// static INT4 weights, run dynamically quantized, as upstream's delegate runs
// them. The input is quantized with a scale and zero point per image
// (convolutions), per pixel (pointwise convolutions, which upstream's XNNPACK
// runs as fully connected layers) or per row (fully connected); the weights
// keep their int8 (int4) values and scales.
//
// The reference is the float32 operation on the dequantized weights, in
// double. Rounding an input to its slice's grid moves it by at most half a
// step, step = (max(0, slice max) - min(0, slice min)) / 255, so every
// output lies within sum(|weight| * step / 2) of the reference over the
// inputs it reads. Rows of the inputs here differ in magnitude by up to
// 100x: quantizing a pointwise convolution per image instead of per pixel
// breaks its bound, which the builtin hybrid kernel (per image) shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;

enum class Op { kConv, kTransposeConv, kFullyConnected, kDepthwise };
enum class Grid { kImage, kRow };  // how the reference quantizes the input

struct Case {
  Op op = Op::kConv;
  std::vector<int> in;  // input shape
  int out_channels = 4;
  int kernel = 1;  // spatial size (convolutions)
  int stride = 1;
  tflite::Padding padding = tflite::Padding_SAME;
  bool per_channel = true;  // else one scale
  bool keep_num_dims = false;
  std::vector<int> out;  // output shape
  int64_t filter_zero_point = 0;
  int groups = 1;  // CONV_2D: input channels / filter input channels
  bool int4 = false;  // INT4 weights (values -8..7, two per byte, low nibble first)
};

std::vector<float> Scales(const Case& c) {
  if (!c.per_channel) return {0.02f};
  std::vector<float> s(c.out_channels);
  for (int i = 0; i < c.out_channels; ++i) s[i] = 0.01f + 0.004f * i;
  return s;
}

std::vector<int> FilterShape(const Case& c) {
  const int ic = c.in.back();
  switch (c.op) {
    case Op::kFullyConnected: return {c.out_channels, ic};
    case Op::kDepthwise: return {1, c.kernel, c.kernel, c.out_channels};
    default: return {c.out_channels, c.kernel, c.kernel, ic / c.groups};
  }
}

int Count(const std::vector<int>& shape) {
  int n = 1;
  for (int d : shape) n *= d;
  return n;
}

std::vector<int8_t> FilterValues(const Case& c) {
  const int n = Count(FilterShape(c));
  return c.int4 ? RandomValues<int8_t>(n, 5, -8, 7) : RandomValues<int8_t>(n, 5, -127, 127);
}

// TFLite's INT4 layout: element 2i in the low nibble of byte i, 2i+1 in the high one.
std::vector<uint8_t> PackInt4(const std::vector<int8_t>& v) {
  std::vector<uint8_t> bytes((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i)
    bytes[i / 2] |= static_cast<uint8_t>((v[i] & 0xF) << (i % 2 == 0 ? 0 : 4));
  return bytes;
}

std::vector<uint8_t> HybridModel(const Case& c) {
  ModelBuilder mb;
  const int x = mb.AddInput(TensorType_FLOAT32, c.in, "x");
  const std::vector<int> fshape = FilterShape(c);
  const int w = c.int4 ? mb.AddConstantBytes(tflite::TensorType_INT4, fshape,
                                             PackInt4(FilterValues(c)), "w")
                       : mb.AddConstant<int8_t>(TensorType_INT8, fshape, FilterValues(c), "w");
  Quantization q;
  q.scale = Scales(c);
  q.zero_point.assign(q.scale.size(), c.filter_zero_point);
  q.quantized_dimension = c.op == Op::kDepthwise ? 3 : 0;
  mb.SetQuantization(w, q);
  std::vector<float> bias(c.out_channels);
  for (int i = 0; i < c.out_channels; ++i) bias[i] = 0.1f * (i % 5) - 0.2f;
  const int b = mb.AddConstant<float>({c.out_channels}, bias, "b");
  const int y = mb.AddOutput(TensorType_FLOAT32, c.out, "y");
  switch (c.op) {
    case Op::kConv: {
      tflite::Conv2DOptionsT o;
      o.padding = c.padding;
      o.stride_w = o.stride_h = c.stride;
      mb.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w, b}, {y}, o);
      break;
    }
    case Op::kDepthwise: {
      tflite::DepthwiseConv2DOptionsT o;
      o.padding = c.padding;
      o.stride_w = o.stride_h = c.stride;
      o.depth_multiplier = 1;
      mb.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {x, w, b}, {y}, o);
      break;
    }
    case Op::kTransposeConv: {
      const int shape =
          mb.AddConstant<int32_t>({4}, std::vector<int32_t>(c.out.begin(), c.out.end()));
      tflite::TransposeConvOptionsT o;
      o.padding = c.padding;
      o.stride_w = o.stride_h = c.stride;
      mb.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, w, x, b}, {y}, o, 3);
      break;
    }
    case Op::kFullyConnected: {
      tflite::FullyConnectedOptionsT o;
      o.keep_num_dims = c.keep_num_dims;
      mb.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, w, b}, {y}, o);
      break;
    }
  }
  return mb.Finish();
}

// Inputs in [-1, 1], each row of the innermost dimension scaled by 1, 0.1 or
// 0.01 in turn, so rows' ranges differ.
std::vector<float> Input(const Case& c) {
  const int ic = c.in.back(), n = Count(c.in);
  std::vector<float> x = Random(n, 21, -1.0f, 1.0f);
  for (int i = 0; i < n; ++i) x[i] *= std::pow(0.1f, static_cast<float>((i / ic) % 3));
  return x;
}

double Step(const float* v, int n) {
  float lo = 0, hi = 0;
  for (int i = 0; i < n; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
  return (static_cast<double>(hi) - lo) / 255.0;
}

struct Reference {
  std::vector<double> value, bound;  // per output element
};

// The float operation in double; `bound` from each input's quantization step.
Reference Compute(const Case& c, const std::vector<float>& x, Grid grid) {
  const std::vector<int8_t> wq = FilterValues(c);
  const std::vector<float> scales = Scales(c);
  auto weight = [&](int oc, int index) {
    return wq[index] * static_cast<double>(scales[scales.size() == 1 ? 0 : oc]);
  };
  const int ic = c.in.back(), n = Count(c.in), rows = n / ic;
  std::vector<double> step(rows);  // per row of the input
  if (grid == Grid::kRow) {
    for (int r = 0; r < rows; ++r) step[r] = Step(x.data() + r * ic, ic);
  } else {
    const int per_image = n / c.in[0];
    for (int r = 0; r < rows; ++r)
      step[r] = Step(x.data() + (r * ic / per_image) * per_image, per_image);
  }
  Reference ref;
  const int total = Count(c.out), oc_count = c.out_channels;
  ref.value.assign(total, 0.0);
  ref.bound.assign(total, 0.0);
  auto add = [&](int o, int in_row, int in_index, double wv) {
    ref.value[o] += x[in_index] * wv;
    ref.bound[o] += std::fabs(wv) * step[in_row] / 2;
  };
  if (c.op == Op::kFullyConnected) {
    for (int r = 0; r < rows; ++r)
      for (int oc = 0; oc < oc_count; ++oc)
        for (int k = 0; k < ic; ++k) add(r * oc_count + oc, r, r * ic + k, weight(oc, oc * ic + k));
  } else {
    const int batches = c.in[0], ih = c.in[1], iw = c.in[2], oh = c.out[1], ow = c.out[2];
    const int k = c.kernel, s = c.stride;
    const bool transposed = c.op == Op::kTransposeConv;
    // TFLite's SAME padding: total = max((small - 1) * stride + k - big, 0).
    auto pad_before = [&](int in_size, int out_size) {
      if (c.padding != tflite::Padding_SAME) return 0;
      const int small = transposed ? in_size : out_size, big = transposed ? out_size : in_size;
      return std::max((small - 1) * s + k - big, 0) / 2;
    };
    const int pt = pad_before(ih, oh), pl = pad_before(iw, ow);
    for (int bch = 0; bch < batches; ++bch)
      for (int iy = 0; iy < ih; ++iy)
        for (int ix = 0; ix < iw; ++ix)
          for (int ky = 0; ky < k; ++ky)
            for (int kx = 0; kx < k; ++kx) {
              // Output position this input tap reaches (convolution: the
              // output whose window starts where it puts the tap at ky, kx).
              int y, xo;
              if (transposed) {
                y = iy * s + ky - pt, xo = ix * s + kx - pl;
              } else {
                const int ny = iy + pt - ky, nx = ix + pl - kx;
                if (ny % s != 0 || nx % s != 0) continue;
                y = ny / s, xo = nx / s;
              }
              if (y < 0 || y >= oh || xo < 0 || xo >= ow) continue;
              const int row = (bch * ih + iy) * iw + ix;
              const int o_base = ((bch * oh + y) * ow + xo) * oc_count;
              if (c.op == Op::kDepthwise) {
                for (int ch = 0; ch < ic; ++ch)
                  add(o_base + ch, row, row * ic + ch, weight(ch, (ky * k + kx) * oc_count + ch));
              } else {
                const int icg = ic / c.groups, ocg = oc_count / c.groups;
                for (int oc = 0; oc < oc_count; ++oc)
                  for (int ch = 0; ch < icg; ++ch)
                    add(o_base + oc, row, row * ic + (oc / ocg) * icg + ch,
                        weight(oc, ((oc * k + ky) * k + kx) * icg + ch));
              }
            }
  }
  for (int o = 0; o < total; ++o) ref.value[o] += 0.1 * ((o % oc_count) % 5) - 0.2;
  return ref;
}

struct HybridRun {
  std::vector<uint8_t> model;  // TfLiteModelCreate does not copy it
  Session s;
  int delegated = -1;
  std::vector<float> out;
};

void RunWith(const Case& c, const std::vector<TfLiteDelegate*>& delegates, HybridRun* r) {
  r->model = HybridModel(c);
  r->s.Create(r->model, delegates);
  ASSERT_TRUE(r->s.ok()) << r->s.errors;
  r->delegated = r->s.DelegateNodes();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r->s.interpreter.get()), kTfLiteOk) << r->s.errors;
  ASSERT_TRUE(r->s.SetInput(0, Input(c)));
  ASSERT_EQ(TfLiteInterpreterInvoke(r->s.interpreter.get()), kTfLiteOk) << r->s.errors;
  r->out = r->s.Output(0);
}

// Elements farther from the reference than their bound (plus float slack).
int OutOfBound(const Reference& ref, const std::vector<float>& out) {
  int bad = 0;
  for (size_t o = 0; o < out.size(); ++o) {
    const double slack = 1e-5 * (1.0 + std::fabs(ref.value[o]));
    bad += std::fabs(out[o] - ref.value[o]) > ref.bound[o] + slack;
  }
  return bad;
}

// Delegated (one kernel), and within the bound of `grid` everywhere.
void ExpectDelegatedWithin(const Case& c, Grid grid) {
  XnnPtr delegate = SingleThreadXnnpack();
  HybridRun xnn;
  RunWith(c, {delegate.get()}, &xnn);
  EXPECT_EQ(xnn.delegated, 1);
  const Reference ref = Compute(c, Input(c), grid);
  ASSERT_EQ(xnn.out.size(), ref.value.size());
  EXPECT_EQ(OutOfBound(ref, xnn.out), 0);
  double worst = 0;
  for (size_t o = 0; o < xnn.out.size(); ++o)
    worst = std::max(worst, std::fabs(xnn.out[o] - ref.value[o]));
  EXPECT_GT(worst, 1e-6);  // quantized, not float
}

TEST(XnnpackHybridWeights, PointwiseConvQuantizesEachPixel) {
  SKIP_WITHOUT_XNNPACK();
  for (bool per_channel : {true, false}) {
    SCOPED_TRACE(per_channel ? "per-channel" : "per-tensor");
    Case c;
    c.in = {2, 5, 6, 16};
    c.out_channels = 7;
    c.out = {2, 5, 6, 7};
    c.per_channel = per_channel;
    ExpectDelegatedWithin(c, Grid::kRow);
    // The per-image grid of the builtin kernel misses the per-pixel bound:
    // the bound tells the two apart.
    HybridRun builtin;
    RunWith(c, {}, &builtin);
    EXPECT_GT(OutOfBound(Compute(c, Input(c), Grid::kRow), builtin.out), 0);
    // (With one filter scale it quantizes symmetrically, on a coarser grid.)
    if (per_channel) EXPECT_EQ(OutOfBound(Compute(c, Input(c), Grid::kImage), builtin.out), 0);
  }
}

TEST(XnnpackHybridWeights, SpatialConvQuantizesEachImage) {
  SKIP_WITHOUT_XNNPACK();
  struct Geometry {
    int kernel, stride;
    tflite::Padding padding;
    std::vector<int> out;
  };
  const Geometry geometries[] = {{3, 1, tflite::Padding_SAME, {2, 7, 6, 5}},
                                 {3, 2, tflite::Padding_SAME, {2, 4, 3, 5}},
                                 {3, 1, tflite::Padding_VALID, {2, 5, 4, 5}},
                                 {1, 2, tflite::Padding_VALID, {2, 4, 3, 5}}};
  for (const Geometry& g : geometries) {
    SCOPED_TRACE("kernel " + std::to_string(g.kernel) + " stride " + std::to_string(g.stride));
    Case c;
    c.in = {2, 7, 6, 3};
    c.out_channels = 5;
    c.kernel = g.kernel;
    c.stride = g.stride;
    c.padding = g.padding;
    c.out = g.out;
    ExpectDelegatedWithin(c, Grid::kImage);
  }
}

TEST(XnnpackHybridWeights, GroupedConvQuantizesEachImage) {
  SKIP_WITHOUT_XNNPACK();
  Case c;
  c.in = {1, 5, 4, 6};
  c.groups = 2;
  c.out_channels = 4;
  c.kernel = 3;
  c.out = {1, 5, 4, 4};
  ExpectDelegatedWithin(c, Grid::kImage);
}

TEST(XnnpackHybridWeights, TransposeConvQuantizesEachImage) {
  SKIP_WITHOUT_XNNPACK();
  for (int stride : {1, 2}) {
    SCOPED_TRACE("stride " + std::to_string(stride));
    Case c;
    c.op = Op::kTransposeConv;
    c.in = {1, 4, 3, 6};
    c.out_channels = 4;
    c.kernel = 3;
    c.stride = stride;
    c.out = {1, 4 * stride, 3 * stride, 4};
    ExpectDelegatedWithin(c, Grid::kImage);
  }
}

TEST(XnnpackHybridWeights, FullyConnectedQuantizesEachRow) {
  SKIP_WITHOUT_XNNPACK();
  {
    SCOPED_TRACE("2-D input");
    Case c;
    c.op = Op::kFullyConnected;
    c.in = {6, 20};
    c.out_channels = 9;
    c.out = {6, 9};
    ExpectDelegatedWithin(c, Grid::kRow);
  }
  {
    SCOPED_TRACE("4-D input flattened to rows of 12");
    Case c;
    c.op = Op::kFullyConnected;
    c.in = {2, 3, 2, 12};
    c.out_channels = 5;
    c.out = {12, 5};
    c.per_channel = false;
    ExpectDelegatedWithin(c, Grid::kRow);
  }
  {
    SCOPED_TRACE("keep_num_dims");
    Case c;
    c.op = Op::kFullyConnected;
    c.in = {2, 4, 10};
    c.out_channels = 3;
    c.keep_num_dims = true;
    c.out = {2, 4, 3};
    ExpectDelegatedWithin(c, Grid::kRow);
  }
}

// After a resize of the input's leading dimension the flattened rows are
// recounted (the delegate's reshape infers them).
TEST(XnnpackHybridWeights, FullyConnectedFollowsAResizedBatch) {
  SKIP_WITHOUT_XNNPACK();
  Case c;
  c.op = Op::kFullyConnected;
  c.in = {2, 3, 8};
  c.out_channels = 4;
  c.out = {6, 4};
  XnnPtr delegate = SingleThreadXnnpack();
  const std::vector<uint8_t> model = HybridModel(c);  // outlives the session
  Session s;
  s.Create(model, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  const int dims[] = {5, 3, 8};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(s.interpreter.get(), 0, dims, 3), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), 1);
  c.in = {5, 3, 8};
  c.out = {15, 4};
  ASSERT_TRUE(s.SetInput(0, Input(c)));
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  const std::vector<float> out = s.Output(0);
  ASSERT_EQ(out.size(), 60u);
  EXPECT_EQ(OutOfBound(Compute(c, Input(c), Grid::kRow), out), 0);
}

TEST(XnnpackHybridWeights, Int4FullyConnectedQuantizesEachRow) {
  SKIP_WITHOUT_XNNPACK();
  struct Shape {
    std::vector<int> in, out;
    int out_channels;
    bool keep_num_dims;
  };
  // Depths from 2 to 200 and 1 to 19 output channels: partial nibble pairs in
  // no row, partial tiles of XNNPACK's GEMM in most.
  const Shape shapes[] = {{{6, 20}, {6, 9}, 9, false},       {{1, 2}, {1, 1}, 1, false},
                          {{3, 200}, {3, 19}, 19, false},    {{2, 3, 2, 12}, {12, 5}, 5, false},
                          {{2, 4, 34}, {2, 4, 16}, 16, true}};
  for (const Shape& sh : shapes) {
    for (bool per_channel : {true, false}) {
      SCOPED_TRACE("input depth " + std::to_string(sh.in.back()) + ", " +
                   std::to_string(sh.out_channels) + " outputs" +
                   (per_channel ? ", per-channel" : ", per-tensor"));
      Case c;
      c.op = Op::kFullyConnected;
      c.int4 = true;
      c.in = sh.in;
      c.out = sh.out;
      c.out_channels = sh.out_channels;
      c.keep_num_dims = sh.keep_num_dims;
      c.per_channel = per_channel;
      ExpectDelegatedWithin(c, Grid::kRow);
    }
  }
}

// As upstream: an odd depth (a row would start inside a byte) leaves an INT4
// layer to the builtin kernel, which gives the answer; so does a nonzero
// zero point, which the builtin kernel then refuses, as upstream's does.
TEST(XnnpackHybridWeights, Int4FullyConnectedDeclined) {
  SKIP_WITHOUT_XNNPACK();
  Case c;
  c.op = Op::kFullyConnected;
  c.int4 = true;
  c.in = {3, 7};
  c.out_channels = 4;
  c.out = {3, 4};
  {
    SCOPED_TRACE("odd depth");
    XnnPtr delegate = SingleThreadXnnpack();
    HybridRun xnn, builtin;
    RunWith(c, {delegate.get()}, &xnn);
    RunWith(c, {}, &builtin);
    EXPECT_EQ(xnn.delegated, 0);
    EXPECT_EQ(xnn.out, builtin.out);
  }
  for (int64_t zero_point : {1, 8}) {
    SCOPED_TRACE("zero point " + std::to_string(zero_point));
    c.in = {3, 8};
    c.filter_zero_point = zero_point;
    XnnPtr delegate = SingleThreadXnnpack();
    const std::vector<uint8_t> model = HybridModel(c);
    Session s;
    s.Create(model, {delegate.get()});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(s.DelegateNodes(), 0);
    EXPECT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteError);
    EXPECT_NE(s.errors.find("zero point"), std::string::npos) << s.errors;
  }
}

TEST(XnnpackHybridWeights, OtherCasesStayOnTheBuiltinKernels) {
  SKIP_WITHOUT_XNNPACK();
  Case pointwise;
  pointwise.in = {1, 3, 3, 8};
  pointwise.out_channels = 4;
  pointwise.out = {1, 3, 3, 4};
  auto builtin_only = [](const Case& c, const TfLiteXNNPackDelegateOptions& opts) {
    XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
    HybridRun r;
    RunWith(c, {delegate.get()}, &r);
    EXPECT_EQ(r.delegated, 0);
    // The builtin hybrid kernels quantize each image.
    EXPECT_EQ(OutOfBound(Compute(c, Input(c), Grid::kImage), r.out), 0);
  };
  TfLiteXNNPackDelegateOptions defaults = TfLiteXNNPackDelegateOptionsDefault();
  defaults.num_threads = 1;
  {
    SCOPED_TRACE("dynamically quantized ops disabled");
    TfLiteXNNPackDelegateOptions o = defaults;
    o.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_DYNAMICALLY_QUANTIZED_OPS;
    builtin_only(pointwise, o);
    Case fc;
    fc.op = Op::kFullyConnected;
    fc.in = {3, 8};
    fc.out_channels = 4;
    fc.out = {3, 4};
    builtin_only(fc, o);
  }
  {
    SCOPED_TRACE("QS8 disabled");
    TfLiteXNNPackDelegateOptions o = defaults;
    o.flags &= ~TFLITE_XNNPACK_DELEGATE_FLAG_QS8;
    builtin_only(pointwise, o);
  }
  {
    SCOPED_TRACE("depthwise (upstream leaves it to the builtin kernel)");
    Case dw;
    dw.op = Op::kDepthwise;
    dw.in = {1, 5, 5, 4};
    dw.out_channels = 4;
    dw.kernel = 3;
    dw.out = {1, 5, 5, 4};
    builtin_only(dw, defaults);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c
