// Tests of CONV_3D and CONV_3D_TRANSPOSE (FLOAT32). Expected values are
// upstream's published test vectors (facts) or come from the direct nested-loop
// convolutions written below, never from the kernels themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

constexpr auto kConv3D = tflite::BuiltinOperator_CONV_3D;
constexpr auto kConv3DTranspose = tflite::BuiltinOperator_CONV_3D_TRANSPOSE;
constexpr auto NONE = tflite::ActivationFunctionType_NONE;

// Window options; strides and dilations are {depth, height, width}.
struct Window {
  tflite::Padding padding = tflite::Padding_VALID;
  int stride[3] = {1, 1, 1};
  int dilation[3] = {1, 1, 1};
  tflite::ActivationFunctionType activation = NONE;
};

tflite::BuiltinOptionsUnion Conv3DOpts(const Window& w) {
  tflite::Conv3DOptionsT o;
  o.padding = w.padding;
  o.stride_d = w.stride[0];
  o.stride_h = w.stride[1];
  o.stride_w = w.stride[2];
  o.dilation_d_factor = w.dilation[0];
  o.dilation_h_factor = w.dilation[1];
  o.dilation_w_factor = w.dilation[2];
  o.fused_activation_function = w.activation;
  return Opts(o);
}

Floats Range(int n) {
  Floats v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

// Deterministic values in [-1, 1) with a few exact zeros.
Floats Pseudo(int n, int seed) {
  Floats v(n);
  uint32_t s = 2654435761u * static_cast<uint32_t>(seed + 1);
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<float>(static_cast<int>(s >> 24) - 128) / 128.0f;
  }
  return v;
}

void ExpectNear(const Floats& actual, const Floats& expected, float tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
  }
}

// SAME/VALID output size and padding before, along one axis.
void AxisGeometry(tflite::Padding padding, int in, int filter, int stride, int dilation,
                  int* out, int* pad) {
  const int span = (filter - 1) * dilation + 1;
  *out = padding == tflite::Padding_SAME ? (in + stride - 1) / stride
                                         : std::max(0, (in - span + stride) / stride);
  *pad = std::max(0, ((*out - 1) * stride + span - in) / 2);
}

float Activate(float v, tflite::ActivationFunctionType a) {
  if (a == tflite::ActivationFunctionType_RELU) return std::max(v, 0.0f);
  if (a == tflite::ActivationFunctionType_RELU6) return std::min(std::max(v, 0.0f), 6.0f);
  if (a == tflite::ActivationFunctionType_RELU_N1_TO_1) return std::min(std::max(v, -1.0f), 1.0f);
  return v;
}

struct Conv3DCase {
  Shape input;   // [N, D, H, W, Cin]
  Shape filter;  // [KD, KH, KW, Cin, Cout]
  Window window;
  bool bias;
};

// Direct convolution: output[b, z, y, x, o] = sum over the window and input
// channels, taps outside the input contributing nothing.
Floats ReferenceConv3D(const Conv3DCase& c, const Floats& in, const Floats& f, const Floats& bias,
                       Shape* out_shape) {
  const int n = c.input[0], ic = c.input[4], oc = c.filter[4];
  int out[3], pad[3];
  for (int a = 0; a < 3; ++a) {
    AxisGeometry(c.window.padding, c.input[a + 1], c.filter[a], c.window.stride[a],
                 c.window.dilation[a], &out[a], &pad[a]);
  }
  *out_shape = {n, out[0], out[1], out[2], oc};
  Floats result;
  for (int b = 0; b < n; ++b)
    for (int z = 0; z < out[0]; ++z)
      for (int y = 0; y < out[1]; ++y)
        for (int x = 0; x < out[2]; ++x)
          for (int o = 0; o < oc; ++o) {
            double acc = bias.empty() ? 0.0 : bias[o];
            for (int kz = 0; kz < c.filter[0]; ++kz)
              for (int ky = 0; ky < c.filter[1]; ++ky)
                for (int kx = 0; kx < c.filter[2]; ++kx)
                  for (int i = 0; i < ic; ++i) {
                    const int iz = z * c.window.stride[0] - pad[0] + kz * c.window.dilation[0];
                    const int iy = y * c.window.stride[1] - pad[1] + ky * c.window.dilation[1];
                    const int ix = x * c.window.stride[2] - pad[2] + kx * c.window.dilation[2];
                    if (iz < 0 || iz >= c.input[1] || iy < 0 || iy >= c.input[2] || ix < 0 ||
                        ix >= c.input[3]) {
                      continue;
                    }
                    acc += double{in[(((b * c.input[1] + iz) * c.input[2] + iy) * c.input[3] +
                                      ix) * ic + i]} *
                           f[(((kz * c.filter[1] + ky) * c.filter[2] + kx) * ic + i) * oc + o];
                  }
            result.push_back(Activate(static_cast<float>(acc), c.window.activation));
          }
  return result;
}

int NumElements(const Shape& s) {
  int n = 1;
  for (int d : s) n *= d;
  return n;
}

// Runs CONV_3D with a runtime input, a constant (or runtime) filter and an
// optional constant bias.
Floats RunConv3D(const Conv3DCase& c, const Floats& in, const Floats& f, const Floats& bias,
                 const Shape& out_shape, bool const_filter = true) {
  OneOpModel m;
  m.Input(F32, c.input);
  if (const_filter) {
    m.Const<float>(c.filter, f);
  } else {
    m.Input(F32, c.filter);
  }
  if (!bias.empty()) m.Const<float>({c.filter[4]}, bias);
  m.Output(F32, out_shape);
  m.Op(kConv3D, Conv3DOpts(c.window));
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  m.Set<float>(0, in);
  if (!const_filter) m.Set<float>(1, f);
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), out_shape);
  return m.Get<float>();
}

// ---- CONV_3D: upstream's published vectors --------------------------------------------

// Upstream's filter vectors hold 2x2x2 taps of 2 input x 2 output channels.
TEST(Conv3DTest, UpstreamSimpleVector) {
  const Conv3DCase c{{1, 2, 2, 4, 2}, {2, 2, 2, 2, 2}, {}, false};
  const Floats f = {-1, -1, -1, -1, -1, 1, -1, 1, -1, 1,  1,  1, 1, 1,  -1, -1,
                    1,  -1, 1,  1,  1,  1, -1, 1, -1, -1, -1, 1, 1, -1, 1,  -1};
  EXPECT_EQ(RunConv3D(c, Range(32), f, {}, {1, 1, 1, 3, 2}), (Floats{30, 6, 26, 10, 22, 14}));
}

TEST(Conv3DTest, UpstreamStrideSamePaddingVector) {
  Conv3DCase c{{2, 2, 3, 4, 2}, {2, 2, 2, 2, 2}, {}, false};
  c.window.padding = tflite::Padding_SAME;
  c.window.stride[0] = c.window.stride[1] = c.window.stride[2] = 2;
  const Floats f = {-1, 1, -1, 1,  1,  1,  1,  1,  -1, 1, -1, -1, -1, 1,  1,  1,
                    1,  1, -1, -1, -1, -1, -1, -1, 1,  1, 1,  -1, -1, -1, -1, 1};
  EXPECT_EQ(RunConv3D(c, Range(96), f, {}, {2, 1, 2, 2, 2}),
            (Floats{-70, -28, -86, -12, -82, -16, -90, -8, -262, 164, -278, 180, -178, 80, -186,
                    88}));
}

TEST(Conv3DTest, UpstreamDilationVector) {
  Conv3DCase c{{2, 2, 3, 4, 2}, {2, 2, 2, 2, 2}, {}, false};
  c.window.dilation[1] = 2;  // height
  EXPECT_EQ(RunConv3D(c, Range(96), Range(32), {}, {2, 1, 1, 3, 2}),
            (Floats{7248, 7592, 7728, 8104, 8208, 8616, 18768, 19880, 19248, 20392, 19728,
                    20904}));
}

TEST(Conv3DTest, UpstreamBiasVector) {
  Conv3DCase c{{2, 2, 3, 4, 2}, {2, 2, 2, 2, 2}, {}, true};
  c.window.stride[0] = c.window.stride[1] = c.window.stride[2] = 2;
  const Floats f = {1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1,
                    1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1};
  EXPECT_EQ(RunConv3D(c, Range(96), f, {1, 2}, {2, 1, 1, 2, 2}),
            (Floats{53, 10, 69, 10, 245, 10, 261, 10}));
}

TEST(Conv3DTest, UpstreamPointwiseVector) {
  const Conv3DCase c{{1, 2, 2, 2, 4}, {1, 1, 1, 4, 4}, {}, false};
  EXPECT_EQ(RunConv3D(c, Range(32), Range(16), {}, {1, 2, 2, 2, 4}),
            (Floats{56,  62,  68,  74,  152, 174, 196, 218, 248, 286, 324,
                    362, 344, 398, 452, 506, 440, 510, 580, 650, 536, 622,
                    708, 794, 632, 734, 836, 938, 728, 846, 964, 1082}));
}

// ---- CONV_3D: against the direct reference ---------------------------------------------

void CheckAgainstReference(const Conv3DCase& c, bool const_filter, int seed) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed << (const_filter ? " const" : " runtime"));
  const Floats in = Pseudo(NumElements(c.input), seed);
  const Floats f = Pseudo(NumElements(c.filter), seed + 100);
  const Floats bias = c.bias ? Pseudo(c.filter[4], seed + 200) : Floats{};
  Shape out_shape;
  const Floats expected = ReferenceConv3D(c, in, f, bias, &out_shape);
  ExpectNear(RunConv3D(c, in, f, bias, out_shape, const_filter), expected, 1e-4f);
}

TEST(Conv3DTest, MatchesReferenceAcrossWindows) {
  auto same = [](Window w) {
    w.padding = tflite::Padding_SAME;
    return w;
  };
  Window strided;
  strided.stride[0] = 2;
  strided.stride[2] = 3;
  Window dilated;
  dilated.dilation[0] = 2;
  dilated.dilation[1] = 3;
  dilated.activation = tflite::ActivationFunctionType_RELU;
  Window relu6;
  relu6.activation = tflite::ActivationFunctionType_RELU6;
  const std::vector<Conv3DCase> cases = {
      {{1, 3, 4, 5, 2}, {2, 3, 2, 2, 3}, {}, false},
      {{2, 3, 4, 5, 2}, {2, 3, 2, 2, 3}, same({}), true},
      {{1, 5, 6, 7, 3}, {3, 2, 3, 3, 4}, strided, true},
      {{1, 5, 6, 7, 3}, {3, 2, 3, 3, 4}, same(strided), false},
      {{2, 6, 7, 4, 1}, {2, 2, 2, 1, 2}, dilated, true},
      {{1, 6, 7, 4, 2}, {2, 2, 2, 2, 5}, same(dilated), true},
      {{1, 4, 4, 4, 3}, {1, 1, 1, 3, 2}, relu6, true},      // pointwise
      {{1, 4, 4, 4, 3}, {1, 1, 1, 3, 2}, strided, false},   // 1x1x1 but strided
      {{1, 2, 2, 2, 1}, {3, 3, 3, 1, 1}, same({}), false},  // filter larger than input
      // Enough output pixels for several tiles and threads.
      {{2, 9, 17, 19, 4}, {3, 3, 3, 4, 8}, same({}), true},
  };
  int seed = 0;
  for (const Conv3DCase& c : cases) {
    CheckAgainstReference(c, /*const_filter=*/true, seed++);
    CheckAgainstReference(c, /*const_filter=*/false, seed++);
  }
}

TEST(Conv3DTest, EmptyOutputWhenValidWindowDoesNotFit) {
  const Conv3DCase c{{1, 2, 3, 3, 1}, {3, 2, 2, 1, 2}, {}, false};
  OneOpModel m;
  m.Input(F32, c.input);
  m.Const<float>(c.filter, Floats(24, 1.0f));
  m.Output(F32, {1, 0, 2, 2, 2});
  m.Op(kConv3D, Conv3DOpts(c.window));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, Range(18));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{1, 0, 2, 2, 2}));
}

// ---- CONV_3D: errors --------------------------------------------------------------------

// A CONV_3D model with the given shapes and types, expected to fail Prepare.
void ExpectConv3DError(const Shape& input, const Shape& filter, const std::string& message,
                       Window w = {}, Shape bias = {}, tflite::TensorType type = F32) {
  OneOpModel m;
  m.Input(type, input);
  m.Input(F32, filter);
  if (!bias.empty()) m.Input(F32, bias);
  m.Output(type, {});
  m.Op(kConv3D, Conv3DOpts(w));
  ExpectPrepareError(m, message);
}

TEST(Conv3DTest, RejectsBadShapesAndTypes) {
  ExpectConv3DError({2, 2, 4, 1}, {1, 3, 2, 2, 1}, "must be 5-D");
  ExpectConv3DError({1, 2, 2, 4, 1}, {3, 2, 2, 1}, "must be 5-D");
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 3, 2, 2, 2}, "does not fit 1 input channels");
  ExpectConv3DError({1, 2, 2, 4, 2}, {1, 3, 2, 2, 1}, "bias has 2 elements, expected 1", {},
                    {2});
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 0, 1, 1}, "filter dimensions must be positive");
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 1, 1, 1}, "CONV_3D: input", {}, {}, I8);
  Window zero_stride;
  zero_stride.stride[1] = 0;
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 1, 1, 1}, "must be positive", zero_stride);
  Window zero_dilation;
  zero_dilation.dilation[0] = 0;
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 1, 1, 1}, "must be positive", zero_dilation);
}

// Like upstream's im2col overflow case (there 46341^2 floats a patch row,
// which our loader already refuses as a tensor): 16 output pixels' patch
// rows of 2^25 floats exceed the scratch limit, and Prepare refuses instead
// of allocating.
TEST(Conv3DTest, RejectsHugeScratch) {
  constexpr int kHuge = 1 << 25;
  Window strided;
  strided.stride[0] = 2;
  // The input alone is 4 GiB: a 64-bit build refuses the 4 GiB im2col
  // scratch, a 32-bit one already the input's byte size.
  ExpectConv3DError({1, 32, 1, 1, kHuge}, {1, 1, 1, kHuge, 1},
                    sizeof(size_t) >= 8 ? "too large" : "byte size overflows", strided);
}

// A dilated window whose span overflows int is refused with either padding
// (upstream computes dilation * (filter - 1) + 1 in int); one just below the
// limit runs: SAME pads by about INT_MAX / 4 on each side, so only the middle
// tap of three ever lands inside the input, on the output pixel's own
// position.
TEST(Conv3DTest, HugeDilation) {
  Window valid;
  valid.dilation[2] = std::numeric_limits<int>::max();
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 3, 1, 1},
                    "dilation_w_factor 2147483647 * (filter 3 - 1) + 1 overflows", valid);
  Window same = valid;
  same.padding = tflite::Padding_SAME;
  ExpectConv3DError({1, 2, 2, 4, 1}, {1, 1, 3, 1, 1}, "overflows", same);
  same.dilation[2] = std::numeric_limits<int>::max() / 4;
  const Conv3DCase c{{1, 2, 2, 4, 1}, {1, 1, 3, 1, 1}, same, false};
  Floats expected = Range(16);
  for (float& v : expected) v *= 3.0f;
  EXPECT_EQ(RunConv3D(c, Range(16), {2, 3, 5}, {}, {1, 2, 2, 4, 1}), expected);
}

// ---- CONV_3D_TRANSPOSE -------------------------------------------------------------------

struct TransposeCase {
  Shape output;  // [N, D, H, W, Cout], the output_shape input's values
  Shape filter;  // [KD, KH, KW, Cout, Cin]
  Shape input;   // [N, ID, IH, IW, Cin]
  Window window;
  bool bias;
};

// Direct scatter: every input value times every filter tap is added to the
// output pixel it reaches.
Floats ReferenceTranspose(const TransposeCase& c, const Floats& in, const Floats& f,
                          const Floats& bias) {
  const int oc = c.output[4], ic = c.input[4];
  int pad[3];
  for (int a = 0; a < 3; ++a) {
    int unused;
    AxisGeometry(c.window.padding, c.output[a + 1], c.filter[a], c.window.stride[a],
                 c.window.dilation[a], &unused, &pad[a]);
  }
  std::vector<double> acc(NumElements(c.output), 0.0);
  for (int b = 0; b < c.input[0]; ++b)
    for (int z = 0; z < c.input[1]; ++z)
      for (int y = 0; y < c.input[2]; ++y)
        for (int x = 0; x < c.input[3]; ++x)
          for (int i = 0; i < ic; ++i)
            for (int kz = 0; kz < c.filter[0]; ++kz)
              for (int ky = 0; ky < c.filter[1]; ++ky)
                for (int kx = 0; kx < c.filter[2]; ++kx)
                  for (int o = 0; o < oc; ++o) {
                    const int oz = z * c.window.stride[0] - pad[0] + kz * c.window.dilation[0];
                    const int oy = y * c.window.stride[1] - pad[1] + ky * c.window.dilation[1];
                    const int ox = x * c.window.stride[2] - pad[2] + kx * c.window.dilation[2];
                    if (oz < 0 || oz >= c.output[1] || oy < 0 || oy >= c.output[2] || ox < 0 ||
                        ox >= c.output[3]) {
                      continue;
                    }
                    acc[(((b * c.output[1] + oz) * c.output[2] + oy) * c.output[3] + ox) * oc +
                        o] +=
                        double{in[(((b * c.input[1] + z) * c.input[2] + y) * c.input[3] + x) * ic +
                                  i]} *
                        f[(((kz * c.filter[1] + ky) * c.filter[2] + kx) * oc + o) * ic + i];
                  }
  Floats result(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const double b = bias.empty() ? 0.0 : bias[i % oc];
    result[i] = Activate(static_cast<float>(acc[i] + b), c.window.activation);
  }
  return result;
}

// Runs CONV_3D_TRANSPOSE with output_shape constant or fed at Invoke (the
// output is then sized at Eval).
Floats RunTranspose(const TransposeCase& c, const Floats& in, const Floats& f, const Floats& bias,
                    bool const_shape) {
  OneOpModel m;
  if (const_shape) {
    m.Const<int32_t>({5}, Ints(c.output.begin(), c.output.end()));
  } else {
    m.Input(I32, {5});
  }
  m.Const<float>(c.filter, f);
  const int input_index = const_shape ? 0 : 1;
  m.Input(F32, c.input);
  if (!bias.empty()) m.Const<float>({c.filter[3]}, bias);
  m.Output(F32, const_shape ? c.output : Shape{});
  m.Op(kConv3DTranspose, Conv3DOpts(c.window));
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  if (!const_shape) m.Set<int32_t>(0, Ints(c.output.begin(), c.output.end()));
  m.Set<float>(input_index, in);
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), c.output);
  return m.Get<float>();
}

class Conv3DTransposeTest : public ::testing::TestWithParam<bool> {};

TEST_P(Conv3DTransposeTest, UpstreamSimpleVector) {
  const TransposeCase c{{1, 3, 3, 5, 2}, {2, 2, 2, 2, 2}, {1, 2, 2, 4, 2}, {}, false};
  const Floats f = {-1, -1, -1, -1, -1, 1, -1, 1, -1, 1,  1,  1, 1, 1,  -1, -1,
                    1,  -1, 1,  1,  1,  1, -1, 1, -1, -1, -1, 1, 1, -1, 1,  -1};
  EXPECT_EQ(RunTranspose(c, Range(32), f, {}, GetParam()),
            (Floats{-1,  -1,  -4,  -4,  -8,  -8,  -12, -12, 1,   1,   -16, -16, -18,
                    -16, -18, -20, -18, -24, 14,  -12, 1,   17,  18,  4,   22,  4,
                    26,  4,   29,  -29, -34, -32, -36, -30, -36, -30, -36, -30, 14,
                    2,   -50, 2,   -8,  -26, -8,  -26, -8,  -26, 74,  -44, -16, 50,
                    28,  4,   28,  4,   28,  4,   60,  -62, -1,  33,  32,  38,  36,
                    42,  40,  46,  45,  1,   -34, 50,  10,  54,  10,  58,  10,  62,
                    60,  0,   -49, 1,   -54, 0,   -58, 0,   -62, 0,   -1,  -1}));
}

TEST_P(Conv3DTransposeTest, UpstreamAsymmetricSamePaddingVector) {
  TransposeCase c{{4, 1, 1, 1, 2}, {4, 8, 1, 2, 1}, {4, 1, 1, 1, 1}, {}, false};
  c.window.padding = tflite::Padding_SAME;
  c.window.stride[2] = 4;
  EXPECT_EQ(RunTranspose(c, {1, 2, 3, 4}, Floats(64, 1.0f), {}, GetParam()),
            (Floats{1, 1, 2, 2, 3, 3, 4, 4}));
}

TEST_P(Conv3DTransposeTest, UpstreamStrideSamePaddingVector) {
  TransposeCase c{{2, 4, 2, 1, 2}, {2, 2, 2, 2, 2}, {2, 2, 2, 1, 2}, {}, false};
  c.window.padding = tflite::Padding_SAME;
  c.window.stride[0] = 2;
  const Floats f = {1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1,
                    1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1};
  EXPECT_EQ(RunTranspose(c, Range(16), f, {}, GetParam()),
            (Floats{-1, 1,  -2, 4,  -1, 1,  -2, 4,  -1, 9,  -2, 4,  -1, 9,  -2, 4,
                    -1, 17, -2, 4,  -1, 17, -2, 4,  -1, 25, -2, 4,  -1, 25, -2, 4}));
}

TEST_P(Conv3DTransposeTest, UpstreamDilationVector) {
  TransposeCase c{{1, 3, 3, 2, 2}, {1, 2, 2, 2, 1}, {1, 3, 1, 1, 1}, {}, false};
  c.window.dilation[1] = 2;
  EXPECT_EQ(RunTranspose(c, Range(3), {1, -1, 1, 1, -1, 1, 1, -1}, {}, GetParam()),
            (Floats{0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0,  1,  -1, 1, 1, 0, 0,
                    0, 0, -1, 1, 1, -1, 2, -2, 2, 2, 0, 0, 0, 0, -2, 2, 2, -2}));
}

TEST_P(Conv3DTransposeTest, UpstreamBiasVector) {
  const TransposeCase c{{2, 4, 3, 2, 2}, {2, 2, 2, 2, 2}, {2, 3, 2, 1, 2}, {}, true};
  const Floats f = {1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1,
                    1, -1, 1, 1, -1, 1, 1, -1, 1, -1, -1, -1, -1, 1, 1, 1};
  EXPECT_EQ(RunTranspose(c, Range(24), f, {1, 2}, GetParam()),
            (Floats{0,  3,   2, 1,  -1, 6,   3, 2,  0,  -3,  2, 7,  -1, 12,  3, 0,
                    -3, 10,  5, 10, -1, -16, 3, 20, -1, 28,  3, 0,  -3, 10,  5, 26,
                    -1, -32, 3, 36, 0,  19,  2, 1,  -1, 6,   3, 18, 0,  -19, 2, 23,
                    0,  27,  2, 1,  -1, 6,   3, 26, 0,  -27, 2, 31, -1, 60,  3, 0,
                    -3, 10,  5, 58, -1, -64, 3, 68, -1, 76,  3, 0,  -3, 10,  5, 74,
                    -1, -80, 3, 84, 0,  43,  2, 1,  -1, 6,   3, 42, 0,  -43, 2, 47}));
}

TEST_P(Conv3DTransposeTest, MatchesReferenceAcrossWindows) {
  Window strided;
  strided.stride[0] = 2;
  strided.stride[1] = 3;
  strided.activation = tflite::ActivationFunctionType_RELU;
  Window same_strided = strided;
  same_strided.padding = tflite::Padding_SAME;
  same_strided.activation = tflite::ActivationFunctionType_RELU_N1_TO_1;
  Window dilated;
  dilated.dilation[1] = 2;
  dilated.dilation[2] = 3;
  Window same_dilated = dilated;
  same_dilated.padding = tflite::Padding_SAME;
  const std::vector<TransposeCase> cases = {
      {{1, 4, 5, 6, 3}, {2, 2, 3, 3, 2}, {1, 3, 4, 4, 2}, {}, true},
      {{2, 5, 7, 4, 2}, {3, 2, 2, 2, 3}, {2, 2, 2, 3, 3}, strided, true},
      {{2, 6, 7, 4, 2}, {3, 2, 2, 2, 3}, {2, 3, 3, 4, 3}, same_strided, false},
      {{1, 3, 6, 8, 2}, {1, 2, 3, 2, 2}, {1, 3, 4, 2, 2}, dilated, true},
      {{1, 3, 6, 8, 2}, {1, 2, 3, 2, 2}, {1, 3, 6, 8, 2}, same_dilated, false},
      // Enough input pixels for several tiles.
      {{2, 10, 17, 19, 3}, {3, 3, 3, 3, 4}, {2, 8, 15, 17, 4}, {}, true},
  };
  int seed = 0;
  for (const TransposeCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "case " << seed);
    const Floats in = Pseudo(NumElements(c.input), seed);
    const Floats f = Pseudo(NumElements(c.filter), seed + 100);
    const Floats bias = c.bias ? Pseudo(c.filter[3], seed + 200) : Floats{};
    ExpectNear(RunTranspose(c, in, f, bias, GetParam()), ReferenceTranspose(c, in, f, bias),
               1e-4f);
    ++seed;
  }
}

INSTANTIATE_TEST_SUITE_P(ConstAndDynamicShape, Conv3DTransposeTest, ::testing::Bool());

// A CONV_3D_TRANSPOSE model with a constant output_shape, expected to fail
// Prepare.
void ExpectTransposeError(const Ints& output_shape, const Shape& filter, const Shape& input,
                          const std::string& message, Window w = {}, Shape bias = {}) {
  OneOpModel m;
  m.Const<int32_t>({static_cast<int>(output_shape.size())}, output_shape);
  m.Input(F32, filter);
  m.Input(F32, input);
  if (!bias.empty()) m.Input(F32, bias);
  m.Output(F32, {});
  m.Op(kConv3DTranspose, Conv3DOpts(w));
  ExpectPrepareError(m, message);
}

TEST(Conv3DTransposeErrorsTest, RejectsBadShapes) {
  ExpectTransposeError({1, 2, 3, 4, 5}, {2, 2, 4, 1}, {1, 3, 2, 2, 1}, "must be 5-D");
  ExpectTransposeError({1, 2, 3, 4, 5}, {1, 2, 2, 4, 1}, {1, 3, 2, 2, 2},
                       "must equal the input's channels");
  ExpectTransposeError({1, 2, 3, 4, 5}, {1, 3, 2, 2, 2}, {1, 2, 2, 4, 2}, "bias has 3 elements",
                       {}, {3});
  ExpectTransposeError({1, 2, 3, 4}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, "5 elements");
  // Upstream's security cases: zero output channels, output channels that
  // differ from the filter's, a zero stride.
  Window same;
  same.padding = tflite::Padding_SAME;
  ExpectTransposeError({1, 1, 1, 1, 1}, {1, 1, 1, 0, 1}, {1, 1, 1, 1, 1},
                       "filter dimensions must be positive", same);
  ExpectTransposeError({4, 1, 1, 1, 4}, {4, 8, 1, 2, 1}, {4, 1, 1, 1, 1},
                       "output_shape's batches (4) and channels (4)", same);
  Window zero_stride = same;
  zero_stride.stride[0] = 0;
  ExpectTransposeError({1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, "must be positive",
                       zero_stride);
  // The output would not convolve back to the input's size.
  ExpectTransposeError({1, 3, 3, 5, 2}, {2, 2, 2, 2, 2}, {1, 2, 2, 3, 2}, "would be convolved");
  ExpectTransposeError({1, 3, 3, -5, 2}, {2, 2, 2, 2, 2}, {1, 2, 2, 4, 2}, "negative dimension");
}

TEST(Conv3DTransposeErrorsTest, RejectsOutputShapeType) {
  OneOpModel m;
  m.Const<int64_t>({5}, {1, 3, 3, 5, 2});
  m.Input(F32, {2, 2, 2, 2, 2});
  m.Input(F32, {1, 2, 2, 4, 2});
  m.Output(F32, {});
  m.Op(kConv3DTranspose, Conv3DOpts({}));
  ExpectPrepareError(m, "1-D INT32 tensor of 5 elements");
}

// With output_shape fed at Invoke, a bad shape fails Invoke, not Prepare.
TEST(Conv3DTransposeErrorsTest, RuntimeShapeIsCheckedAtInvoke) {
  for (const Ints& shape : {Ints{1, 3, 3, 6, 2}, Ints{2, 3, 3, 5, 2}, Ints{1, -3, 3, 5, 2},
                            Ints{1, 3, 3, 5, 3}}) {
    OneOpModel m;
    m.Input(I32, {5});
    m.Const<float>({2, 2, 2, 2, 2}, Floats(32, 1.0f));
    m.Input(F32, {1, 2, 2, 4, 2});
    m.Output(F32, {});
    m.Op(kConv3DTranspose, Conv3DOpts({}));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, shape);
    m.Set<float>(1, Range(32));
    EXPECT_FALSE(m.Invoke()) << shape[0] << " " << shape[3];
  }
}

}  // namespace
}  // namespace tflite_c
