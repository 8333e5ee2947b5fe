// Op table cases: convolution, pooling, fully connected, matmul, softmax, normalization.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

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
        double mx = -1e30, sum = 0;
        for (int i = 0; i < 9; ++i) mx = std::max(mx, d[0].v[r * 9 + i]);
        for (int i = 0; i < 9; ++i) sum += std::exp(d[0].v[r * 9 + i] - mx);
        for (int i = 0; i < 9; ++i) {
          const double z = d[0].v[r * 9 + i] - mx;
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


}  // namespace op_table
}  // namespace tflite_c
