// COMPLEX64/COMPLEX128 tensors and the complex builtins RFFT2D, REAL, IMAG and
// COMPLEX_ABS, run as one-op models through the public C API. RFFT2D is
// checked against upstream's published vectors (rfft2d_test.cc) and against
// a plain O(n^2) 2-D DFT in double computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto F64 = tflite::TensorType_FLOAT64;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto C64 = tflite::TensorType_COMPLEX64;
constexpr auto C128 = tflite::TensorType_COMPLEX128;

using Shape = std::vector<int>;
using C = std::complex<float>;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// ---- COMPLEX64 tensors, REAL / IMAG / COMPLEX_ABS ----------------------------------

void ComplexPartOp(OneOpModel& m, tflite::BuiltinOperator op, tflite::TensorType in,
                   tflite::TensorType out, const Shape& shape) {
  m.Input(in, shape);
  m.Output(out, shape);
  m.Op(op);
}

TEST(ComplexTensorTest, Complex64InputsAreEightBytesPerElement) {
  OneOpModel m;
  ComplexPartOp(m, tflite::BuiltinOperator_REAL, C64, F32, {2, 3});
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<C>(0, {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 3}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 3, 5, 7, 9, 11}));
}

TEST(ComplexTensorTest, ConstantComplex64Loads) {
  OneOpModel m;
  m.ConstBytes(C64, {3}, Bytes(std::vector<C>{{1, -2}, {0.5f, 4}, {-3, 0}}));
  m.Output(F32, {3});
  m.Op(tflite::BuiltinOperator_IMAG);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{-2, 4, 0}));
}

TEST(ComplexPartsTest, RealImagAbsOfComplex64) {
  const std::vector<C> z = {{3, 4}, {-5, 12}, {0, -2}, {3e20f, 4e20f}, {-0.0f, 0.0f}};
  struct Case {
    tflite::BuiltinOperator op;
    std::vector<float> expected;
  };
  // |3e20 + 4e20 i| = 5e20: squaring in float would overflow, std::abs does not.
  const Case cases[] = {
      {tflite::BuiltinOperator_REAL, {3, -5, 0, 3e20f, -0.0f}},
      {tflite::BuiltinOperator_IMAG, {4, 12, -2, 4e20f, 0}},
      {tflite::BuiltinOperator_COMPLEX_ABS, {5, 13, 2, 5e20f, 0}},
  };
  for (const Case& c : cases) {
    OneOpModel m;
    ComplexPartOp(m, c.op, C64, F32, {5});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<C>(0, z);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<float> got = m.Get<float>();
    ASSERT_EQ(got.size(), c.expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_FLOAT_EQ(got[i], c.expected[i]) << tflite::EnumNameBuiltinOperator(c.op) << " " << i;
    }
  }
}

TEST(ComplexPartsTest, Complex128GivesFloat64) {
  const std::vector<std::complex<double>> z = {{1.5, -2.25}, {-6, 8}};
  OneOpModel abs_model;
  ComplexPartOp(abs_model, tflite::BuiltinOperator_COMPLEX_ABS, C128, F64, {1, 2});
  ASSERT_TRUE(abs_model.Allocate()) << abs_model.log();
  abs_model.Set<std::complex<double>>(0, z);
  ASSERT_TRUE(abs_model.Invoke()) << abs_model.log();
  const std::vector<double> mag = abs_model.Get<double>();
  ASSERT_EQ(mag.size(), 2u);
  EXPECT_DOUBLE_EQ(mag[0], std::sqrt(1.5 * 1.5 + 2.25 * 2.25));
  EXPECT_DOUBLE_EQ(mag[1], 10.0);

  OneOpModel imag_model;
  ComplexPartOp(imag_model, tflite::BuiltinOperator_IMAG, C128, F64, {2});
  ASSERT_TRUE(imag_model.Allocate()) << imag_model.log();
  imag_model.Set<std::complex<double>>(0, z);
  ASSERT_TRUE(imag_model.Invoke()) << imag_model.log();
  EXPECT_EQ(imag_model.Get<double>(), (std::vector<double>{-2.25, 8}));
}

TEST(ComplexPartsTest, RejectsRealInputsAndWrongOutputTypes) {
  {
    OneOpModel m;
    ComplexPartOp(m, tflite::BuiltinOperator_REAL, F32, F32, {2});
    ExpectPrepareError(m, "REAL: input type FLOAT32 is not supported");
  }
  {
    OneOpModel m;
    ComplexPartOp(m, tflite::BuiltinOperator_COMPLEX_ABS, C64, F64, {2});
    ExpectPrepareError(m, "COMPLEX_ABS: input type COMPLEX64 does not match output type FLOAT64");
  }
  {
    OneOpModel m;
    ComplexPartOp(m, tflite::BuiltinOperator_IMAG, C128, F32, {2});
    ExpectPrepareError(m, "IMAG: input type COMPLEX128 does not match output type FLOAT32");
  }
}

// ---- RFFT2D -------------------------------------------------------------------------

// The 2-D DFT of each [h, w] slice of `in` (shape `shape`), cropped or
// zero-padded to [fh, fw], keeping columns 0 .. fw/2: the definition, in double.
std::vector<std::complex<double>> ReferenceRfft2d(const std::vector<float>& in, const Shape& shape,
                                                  int fh, int fw) {
  const int rank = static_cast<int>(shape.size());
  const int h = shape[rank - 2], w = shape[rank - 1];
  int slices = 1;
  for (int i = 0; i < rank - 2; ++i) slices *= shape[i];
  const int bins = fw / 2 + 1;
  const double two_pi = 2.0 * std::acos(-1.0);
  std::vector<std::complex<double>> out;
  for (int s = 0; s < slices; ++s) {
    for (int u = 0; u < fh; ++u) {
      for (int v = 0; v < bins; ++v) {
        std::complex<double> sum = 0;
        for (int y = 0; y < std::min(h, fh); ++y) {
          for (int x = 0; x < std::min(w, fw); ++x) {
            const double angle = -two_pi * (static_cast<double>(u) * y / fh +
                                            static_cast<double>(v) * x / fw);
            sum += static_cast<double>(in[(s * h + y) * w + x]) * std::polar(1.0, angle);
          }
        }
        out.push_back(sum);
      }
    }
  }
  return out;
}

void ExpectNear(const std::vector<C>& got, const std::vector<std::complex<double>>& want,
                double scale) {
  ASSERT_EQ(got.size(), want.size());
  // Float rounding of the output plus the transform's own rounding in double.
  const double tol = 2e-6 * scale;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), tol) << "element " << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), tol) << "element " << i;
  }
}

// RFFT2D with a constant fft_length.
void Rfft2dOp(OneOpModel& m, const Shape& in_shape, std::vector<int32_t> fft_length,
              const Shape& out_shape, tflite::TensorType in_type = F32,
              tflite::TensorType out_type = C64) {
  m.Input(in_type, in_shape);
  m.Const<int32_t>({static_cast<int>(fft_length.size())}, fft_length);
  m.Output(out_type, out_shape);
  m.Op(tflite::BuiltinOperator_RFFT2D);
}

std::vector<C> RunRfft2d(const Shape& in_shape, const std::vector<float>& in,
                         std::vector<int32_t> fft_length, Shape* out_shape = nullptr) {
  OneOpModel m;
  Rfft2dOp(m, in_shape, fft_length, {});
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, in);
  EXPECT_TRUE(m.Invoke()) << m.log();
  if (out_shape != nullptr) *out_shape = m.Shape();
  return m.Get<C>();
}

void ExpectComplexEq(const std::vector<C>& got, const std::vector<C>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), 1e-5f) << "element " << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), 1e-5f) << "element " << i;
  }
}

// Upstream's rfft2d_test.cc vectors.
const std::vector<C> kUpstream4x4 = {{75, 0},  {-6, -1}, {9, 0},  {-10, 5},  {-3, 2}, {-6, 11},
                                     {-15, 0}, {-2, 13}, {-5, 0}, {-10, -5}, {3, -6}, {-6, -11}};

TEST(Rfft2dTest, UpstreamFftLengthMatchesInputSize) {
  Shape shape;
  const std::vector<C> got =
      RunRfft2d({4, 4}, {1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6, 9, 5, 8, 3}, {4, 4}, &shape);
  EXPECT_EQ(shape, (Shape{4, 3}));
  ExpectComplexEq(got, kUpstream4x4);
}

TEST(Rfft2dTest, UpstreamFftLengthSmallerThanInput) {
  ExpectComplexEq(
      RunRfft2d({4, 5}, {1, 2, 3, 4, 0, 3, 8, 6, 3, 0, 5, 2, 7, 6, 0, 9, 5, 8, 3, 0}, {4, 4}),
      kUpstream4x4);
}

TEST(Rfft2dTest, UpstreamFftLengthGreaterThanInput) {
  Shape shape;
  const std::vector<C> got =
      RunRfft2d({3, 4}, {1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6}, {4, 8}, &shape);
  EXPECT_EQ(shape, (Shape{4, 5}));
  ExpectComplexEq(got, {{50, 0},          {8.29289341f, -33.6776695f}, {-7, 1},
                        {9.70710659f, -1.67766953f}, {0, 0},
                        {-10, -20},       {-16.3639603f, -1.12132037f}, {-5, 1},
                        {-7.19238806f, -2.05025244f}, {-6, 2},
                        {10, 0},          {-4.7781744f, -6.12132025f}, {-1, 11},
                        {10.7781744f, 1.87867963f}, {4, 0},
                        {-10, 20},        {11.1923885f, 11.9497471f}, {5, -5},
                        {-3.63603902f, -3.12132025f}, {-6, -2}});
}

TEST(Rfft2dTest, UpstreamInputRankAboveTwo) {
  Shape shape;
  const std::vector<C> got = RunRfft2d(
      {2, 2, 4}, {1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6, 7, 3, 23, 5}, {2, 4}, &shape);
  EXPECT_EQ(shape, (Shape{2, 2, 3}));
  ExpectComplexEq(got, {{30, 0}, {-5, -3}, {-4, 0}, {-10, 0}, {1, 7}, {0, 0},
                        {58, 0}, {-18, 6}, {26, 0}, {-18, 0}, {14, 2}, {-18, 0}});
}

TEST(Rfft2dTest, MatchesDirectDftOnRandomInputs) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  struct Case {
    Shape shape;
    int fh, fw;
  };
  const Case cases[] = {
      {{3, 5}, 8, 4},     {{2, 3, 7, 9}, 4, 16}, {{6, 6}, 1, 2},  {{5, 3}, 2, 1},
      {{1, 32, 64}, 32, 64}, {{16, 10}, 64, 8},  {{4, 0, 3}, 2, 4},
  };
  for (const Case& c : cases) {
    int n = 1;
    for (int d : c.shape) n *= d;
    std::vector<float> in(n);
    double sum_abs = 1;
    for (float& v : in) {
      v = dist(rng);
      sum_abs += std::fabs(v);
    }
    Shape shape;
    const std::vector<C> got = RunRfft2d(c.shape, in, {c.fh, c.fw}, &shape);
    Shape expected_shape = c.shape;
    expected_shape[expected_shape.size() - 2] = c.fh;
    expected_shape[expected_shape.size() - 1] = c.fw / 2 + 1;
    EXPECT_EQ(shape, expected_shape);
    SCOPED_TRACE("fft " + std::to_string(c.fh) + "x" + std::to_string(c.fw));
    ExpectNear(got, ReferenceRfft2d(in, c.shape, c.fh, c.fw), sum_abs);
  }
}

TEST(Rfft2dTest, NonConstantFftLengthMakesOutputDynamic) {
  OneOpModel m;
  m.Input(F32, {3, 4});
  m.Input(I32, {2});
  m.Output(C64, {});
  m.Op(tflite::BuiltinOperator_RFFT2D);
  ASSERT_TRUE(m.Allocate()) << m.log();
  const std::vector<float> in = {1, -2, 3, 0.5f, 4, 0, -1, 2, 7, 1, 1, -3};
  m.Set<float>(0, in);
  m.Set<int32_t>(1, {2, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 5}));
  ExpectNear(m.Get<C>(), ReferenceRfft2d(in, {3, 4}, 2, 8), 30);
  // A new length on the next run resizes the output again.
  m.Set<int32_t>(1, {4, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{4, 2}));
  ExpectNear(m.Get<C>(), ReferenceRfft2d(in, {3, 4}, 4, 2), 30);
  // Lengths that are not powers of two are refused at Invoke.
  m.Set<int32_t>(1, {3, 4});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("RFFT2D: fft_length [3, 4] must hold two powers of two"),
            std::string::npos)
      << m.log();
}

TEST(Rfft2dTest, HugeDynamicFftLengthFailsCleanly) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Input(I32, {2});
  m.Output(C64, {});
  m.Op(tflite::BuiltinOperator_RFFT2D);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  m.Set<int32_t>(1, {1 << 30, 1 << 30});  // a 2^59-element output
  EXPECT_FALSE(m.Invoke());
}

TEST(Rfft2dTest, RejectsBadInputs) {
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {4, 6}, {});
    ExpectPrepareError(m, "RFFT2D: fft_length [4, 6] must hold two powers of two");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {0, 4}, {});
    ExpectPrepareError(m, "RFFT2D: fft_length [0, 4] must hold two powers of two");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {-4, 4}, {});
    ExpectPrepareError(m, "must hold two powers of two");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {4, 4, 4}, {});
    ExpectPrepareError(m, "RFFT2D: fft_length shape [3] must be [2]");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {8}, {4, 4}, {});
    ExpectPrepareError(m, "RFFT2D: input shape [8] must have rank 2 or more");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {4, 4}, {}, I32);
    ExpectPrepareError(m, "RFFT2D: input type INT32 is not supported");
  }
  {
    OneOpModel m;
    Rfft2dOp(m, {4, 4}, {4, 4}, {}, F32, F32);
    ExpectPrepareError(m, "RFFT2D: output type FLOAT32 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {4, 4});
    m.Const<float>({2}, {4, 4});
    m.Output(C64, {});
    m.Op(tflite::BuiltinOperator_RFFT2D);
    ExpectPrepareError(m, "RFFT2D: fft_length type FLOAT32 is not supported");
  }
}

}  // namespace
}  // namespace tflite_c
