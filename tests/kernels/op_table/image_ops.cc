// Op table cases: image and volume ops beyond conv/pool (RESIZE_*, L2_POOL_2D,
// LOCAL_RESPONSE_NORMALIZATION, TRANSPOSE_CONV, CONV_3D, CONV_3D_TRANSPOSE),
// complex numbers (REAL, IMAG, COMPLEX_ABS, RFFT2D) and the element-wise
// STABLEHLO_* ops. Expected values are hand-computed.
#include <cmath>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

constexpr auto kI32T = tflite::TensorType_INT32;
constexpr auto kC64 = tflite::TensorType_COMPLEX64;

tflite::BuiltinOptionsUnion Bilinear(bool align_corners, bool half_pixel) {
  tflite::ResizeBilinearOptionsT o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Nearest() { return Opts(tflite::ResizeNearestNeighborOptionsT()); }

tflite::BuiltinOptionsUnion L2Pool() {
  tflite::Pool2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 2;
  o.filter_width = o.filter_height = 2;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Lrn() {
  tflite::LocalResponseNormalizationOptionsT o;
  o.radius = 1;
  o.bias = 1.f;
  o.alpha = 1.f;
  o.beta = 0.5f;
  return Opts(o);
}

tflite::BuiltinOptionsUnion TransposeConv() {
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 1;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Conv3D() {
  tflite::Conv3DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_d = o.stride_h = o.stride_w = 1;
  o.dilation_d_factor = o.dilation_h_factor = o.dilation_w_factor = 1;
  return Opts(o);
}

std::vector<double> Iota(int n, double from = 1) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}

std::vector<double> Scaled(std::vector<double> v, double s) {
  for (double& x : v) x *= s;
  return v;
}

}  // namespace

// clang-format off
std::vector<OpCase> ImageHandCases() {
  return Cases({
      {"Upscale2x", tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Nearest(),
       {F32({1, 2, 2, 1}, {1, 2, 3, 4}), Const({2}, {4, 4}, kI32T)},
       F32({1, 4, 4, 1}, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4})},
      // Source x = 0.5 * x, the right neighbour clamped at the edge.
      {"Upscale2x", tflite::BuiltinOperator_RESIZE_BILINEAR, Bilinear(false, false),
       {F32({1, 1, 2, 1}, {0, 4}), Const({2}, {1, 4}, kI32T)}, F32({1, 1, 4, 1}, {0, 2, 4, 4})},
      // align_corners: source x = x * (2 - 1) / (3 - 1).
      {"AlignCorners", tflite::BuiltinOperator_RESIZE_BILINEAR, Bilinear(true, false),
       {F32({1, 1, 2, 1}, {0, 4}), Const({2}, {1, 3}, kI32T)}, F32({1, 1, 3, 1}, {0, 2, 4})},
      {"Window2x2", tflite::BuiltinOperator_L2_POOL_2D, L2Pool(),
       {F32({1, 2, 4, 1}, {1, 2, 0, 3, 3, 4, 4, 0})},
       F32({1, 1, 2, 1}, {std::sqrt(7.5), std::sqrt(6.25)})},
      // x / sqrt(1 + sum of squares of the channel and its neighbours).
      {"Radius1", tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, Lrn(),
       {F32({1, 1, 1, 3}, {1, 2, 3})},
       F32({1, 1, 1, 3}, {1 / std::sqrt(6.0), 2 / std::sqrt(15.0), 3 / std::sqrt(14.0)})},
      // One input pixel spreads the 2x2 filter, scaled by it.
      {"SinglePixel", tflite::BuiltinOperator_TRANSPOSE_CONV, TransposeConv(),
       {Const({4}, {1, 2, 2, 1}, kI32T), Const({1, 2, 2, 1}, {1, 2, 3, 4}), F32({1, 1, 1, 1}, {2})},
       F32({1, 2, 2, 1}, {2, 4, 6, 8})},
      // Two pixels side by side overlap in the middle column.
      {"Overlap", tflite::BuiltinOperator_TRANSPOSE_CONV, TransposeConv(),
       {Const({4}, {1, 2, 3, 1}, kI32T), Const({1, 2, 2, 1}, {1, 2, 3, 4}), F32({1, 1, 2, 1}, {1, 10})},
       F32({1, 2, 3, 1}, {1, 12, 20, 3, 34, 40})},
      {"SumOfCube", tflite::BuiltinOperator_CONV_3D, Conv3D(),
       {F32({1, 2, 2, 2, 1}, Iota(8)), Const({2, 2, 2, 1, 1}, std::vector<double>(8, 1))},
       F32({1, 1, 1, 1, 1}, {36})},
      {"SinglePixel", tflite::BuiltinOperator_CONV_3D_TRANSPOSE, Conv3D(),
       {Const({5}, {1, 2, 2, 2, 1}, kI32T), Const({2, 2, 2, 1, 1}, Iota(8)),
        F32({1, 1, 1, 1, 1}, {2})},
       F32({1, 2, 2, 2, 1}, Scaled(Iota(8), 2))},
  });
}

// Complex values are (real, imaginary) pairs.
std::vector<OpCase> ComplexHandCases() {
  auto z = [] { return In({2}, {1, 2, 3, -4}, kC64); };
  return Cases({
      {"Pairs", tflite::BuiltinOperator_REAL, {}, {z()}, F32({2}, {1, 3})},
      {"Pairs", tflite::BuiltinOperator_IMAG, {}, {z()}, F32({2}, {2, -4})},
      {"Pairs", tflite::BuiltinOperator_COMPLEX_ABS, {}, {z()}, F32({2}, {std::sqrt(5.0), 5})},
      // 2x2 DFT of [[1, 2], [3, 4]]: the last axis keeps 2 / 2 + 1 = 2 bins.
      {"TwoByTwo", tflite::BuiltinOperator_RFFT2D, Opts(tflite::Rfft2dOptionsT()),
       {F32({2, 2}, {1, 2, 3, 4}), Const({2}, {2, 2}, kI32T)},
       In({2, 2}, {10, 0, -2, 0, -4, 0, 0, 0}, kC64)},
  });
}

std::vector<OpCase> StablehloHandCases() {
  std::vector<OpCase> cases = Cases({
      {"Float", tflite::BuiltinOperator_STABLEHLO_ADD, {},
       {F32({3}, {1, 2, 3}), F32({3}, {10, 20, 30})}, F32({3}, {11, 22, 33})},
      {"Int32", tflite::BuiltinOperator_STABLEHLO_MULTIPLY, {},
       {I32({3}, {2, -3, 4}), I32({3}, {5, 6, -7})}, I32({3}, {10, -18, -28})},
      {"Float", tflite::BuiltinOperator_STABLEHLO_MAXIMUM, {},
       {F32({3}, {1, -2, 3}), F32({3}, {0, 5, 3})}, F32({3}, {1, 5, 3})},
      {"Float", tflite::BuiltinOperator_STABLEHLO_MINIMUM, {},
       {F32({3}, {1, -2, 3}), F32({3}, {0, 5, 3})}, F32({3}, {0, -2, 3})},
      {"Int32", tflite::BuiltinOperator_STABLEHLO_AND, {},
       {I32({3}, {12, 7, -1}), I32({3}, {10, 2, 5})}, I32({3}, {8, 2, 5})},
      {"Int32", tflite::BuiltinOperator_STABLEHLO_SHIFT_LEFT, {},
       {I32({3}, {1, 3, -1}), I32({3}, {2, 4, 1})}, I32({3}, {4, 48, -2})},
  });
  tflite::StablehloPadOptionsT pad;
  pad.edge_padding_low = {1};
  pad.edge_padding_high = {-1};
  pad.interior_padding = {1};
  // low 1, interior 1: [p, 1, p, 2, p, 3]; high -1 drops the last element.
  for (OpCase& c : WithOptions2(Cases({
           {"InteriorAndNegativeEdge", tflite::BuiltinOperator_STABLEHLO_PAD, {},
            {F32({3}, {1, 2, 3}), F32({}, {9})}, F32({5}, {9, 1, 9, 2, 9})},
       }), pad)) {
    cases.push_back(std::move(c));
  }
  // Scalar slices of a vector at indices [2, 0].
  tflite::StablehloGatherOptionsT gather;
  gather.collapsed_slice_dims = {0};
  gather.start_index_map = {0};
  gather.index_vector_dim = 1;
  gather.slice_sizes = {1};
  for (OpCase& c : WithOptions2(Cases({
           {"Elements", tflite::BuiltinOperator_STABLEHLO_GATHER, {},
            {F32({3}, {10, 20, 30}), I32({2, 1}, {2, 0})}, F32({2}, {30, 10})},
       }), gather)) {
    cases.push_back(std::move(c));
  }
  return cases;
}
// clang-format on

}  // namespace op_table
}  // namespace tflite_c
