// Op table cases: data movement (transpose, reshape, pad, slice, gather, concat ...).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

tflite::BuiltinOptionsUnion ReshapeOpts(std::vector<int> new_shape) {
  tflite::ReshapeOptionsT o;
  o.new_shape = std::move(new_shape);
  return Opts(o);
}

}  // namespace

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
               FTensor y{{1, 5, 6, 1}, std::vector<double>(30, 0.0)};
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
               FTensor y{{1, 4, 4, 1}, std::vector<double>(16)};
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


// clang-format off
std::vector<OpCase> ReshapeHandCases() {
  constexpr auto kReshape = tflite::BuiltinOperator_RESHAPE;
  auto six = [] { return F32({2, 3}, {1, 2, 3, 4, 5, 6}); };
  return Cases({
      {"FromParams", kReshape, ReshapeOpts({3, 2}), {six()},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      {"ParamsInferred", kReshape, ReshapeOpts({-1}), {six()},
       F32({6}, {1, 2, 3, 4, 5, 6})},
      {"ConstShapeTensor", kReshape, {}, {six(), Const(I32({2}, {-1, 2}))},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      // The shape tensor wins over the params when both are present.
      {"ShapeTensorOverridesParams", kReshape, ReshapeOpts({6}),
       {six(), Const(I32({3}, {1, 3, 2}))}, F32({1, 3, 2}, {1, 2, 3, 4, 5, 6})},
      // A shape tensor fed at run time: the output is sized during Invoke.
      {"DynamicShape", kReshape, {}, {six(), I32({2}, {3, -1})},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      {"ToScalar", kReshape, {}, {F32({1, 1}, {7}), Const(I32({0}, {}))},
       F32({}, {7})},
      {"Int32Data", kReshape, ReshapeOpts({2, 2}), {I32({4}, {1, 2, 3, 4})},
       I32({2, 2}, {1, 2, 3, 4})},
      {"WrongElementCount", kReshape, {}, {six(), Const(I32({2}, {4, -1}))},
       F32({4, 1}, {}), Outcome::kPrepareFails, "RESHAPE"},
      {"TwoUnknownDims", kReshape, {}, {six(), Const(I32({2}, {-1, -1}))}, F32({6}, {}),
       Outcome::kPrepareFails, "-1"},
      {"DynamicWrongCount", kReshape, {}, {six(), I32({2}, {4, 4})}, F32({4, 4}, {}),
       Outcome::kInvokeFails, "RESHAPE"},
  });
}
// clang-format on

}  // namespace op_table
}  // namespace tflite_c
