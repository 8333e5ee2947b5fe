// Per-operator benchmarks at the shapes of real networks (MobileNet v1/v2,
// BlazeFace, a small transformer block). Each case is a one-operator model
// built in memory with the tests' ModelBuilder, loaded and run through the
// public C API, so the numbers include exactly what an application pays per
// Invoke for that layer.
//
// Counters: FLOPs/s from the layer's multiply-accumulate count ("flops" is
// 2 * MACs) so shapes of different size compare.
//
// Each case runs with 1 and 2 threads and on both paths: xnnpack:0 is the
// builtin kernels, xnnpack:1 the default XNNPACK delegate (layers it does not
// take run on the builtin kernels in both).

#include <benchmark/benchmark.h>
#include <flatbuffers/flexbuffers.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"

namespace {

using tflite_c::testing::ModelBuilder;

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

size_t Product(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Owns the flatbuffer, model and interpreter of a one-operator graph.
class OpRunner {
 public:
  OpRunner(std::vector<uint8_t> bytes, int threads, bool xnnpack) : bytes_(std::move(bytes)) {
    model_ = TfLiteModelCreate(bytes_.data(), bytes_.size());
    if (!model_) return;
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetNumThreads(options, threads);
    TfLiteInterpreterOptionsSetUseXNNPACK(options, xnnpack);
    interpreter_ = TfLiteInterpreterCreate(model_, options);
    TfLiteInterpreterOptionsDelete(options);
    if (!interpreter_ || TfLiteInterpreterAllocateTensors(interpreter_) != kTfLiteOk) return;
    for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter_); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter_, i);
      std::vector<float> data = RandomFloats(TfLiteTensorByteSize(t) / sizeof(float), 7 + i);
      TfLiteTensorCopyFromBuffer(t, data.data(), data.size() * sizeof(float));
    }
    ok_ = TfLiteInterpreterInvoke(interpreter_) == kTfLiteOk;
  }
  ~OpRunner() {
    if (interpreter_) TfLiteInterpreterDelete(interpreter_);
    if (model_) TfLiteModelDelete(model_);
  }
  bool ok() const { return ok_; }
  bool Invoke() { return TfLiteInterpreterInvoke(interpreter_) == kTfLiteOk; }

 private:
  std::vector<uint8_t> bytes_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  bool ok_ = false;
};

void RunOp(benchmark::State& state, std::vector<uint8_t> model, double flops_per_run) {
  OpRunner runner(std::move(model), static_cast<int>(state.range(0)), state.range(1) != 0);
  if (!runner.ok()) {
    state.SkipWithError("model could not be prepared or invoked (operator unsupported?)");
    return;
  }
  for (auto _ : state) {
    if (!runner.Invoke()) {
      state.SkipWithError("Invoke failed");
      break;
    }
  }
  state.counters["FLOPs"] =
      benchmark::Counter(flops_per_run, benchmark::Counter::kIsIterationInvariantRate);
}

int OutDim(int in, int kernel, int stride, bool same) {
  return same ? (in + stride - 1) / stride : (in - kernel) / stride + 1;
}

// ---- CONV_2D -------------------------------------------------------------------
// args: threads, H, W, Cin, Cout, K, stride
void BM_Conv2D(benchmark::State& state, int h, int w, int cin, int cout, int k, int stride) {
  const int oh = OutDim(h, k, stride, true), ow = OutDim(w, k, stride, true);
  ModelBuilder b;
  int in = b.AddInput(tflite::TensorType_FLOAT32, {1, h, w, cin});
  int filter = b.AddConstant<float>({cout, k, k, cin}, RandomFloats(Product({cout, k, k, cin}), 1));
  int bias = b.AddConstant<float>({cout}, RandomFloats(cout, 2));
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {1, oh, ow, cout});
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = stride;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {in, filter, bias}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * oh * ow * cout * k * k * cin);
}

// ---- DEPTHWISE_CONV_2D ---------------------------------------------------------
void BM_DepthwiseConv2D(benchmark::State& state, int h, int w, int c, int k, int stride) {
  const int oh = OutDim(h, k, stride, true), ow = OutDim(w, k, stride, true);
  ModelBuilder b;
  int in = b.AddInput(tflite::TensorType_FLOAT32, {1, h, w, c});
  int filter = b.AddConstant<float>({1, k, k, c}, RandomFloats(Product({1, k, k, c}), 3));
  int bias = b.AddConstant<float>({c}, RandomFloats(c, 4));
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {1, oh, ow, c});
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_h = o.stride_w = stride;
  o.depth_multiplier = 1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {in, filter, bias}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * oh * ow * c * k * k);
}

// ---- FULLY_CONNECTED -------------------------------------------------------------
void BM_FullyConnected(benchmark::State& state, int batch, int in_features, int out_features) {
  ModelBuilder b;
  int in = b.AddInput(tflite::TensorType_FLOAT32, {batch, in_features});
  int weights = b.AddConstant<float>({out_features, in_features},
                                     RandomFloats(Product({out_features, in_features}), 5));
  int bias = b.AddConstant<float>({out_features}, RandomFloats(out_features, 6));
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {batch, out_features});
  tflite::FullyConnectedOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {in, weights, bias}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * batch * in_features * out_features);
}

// ---- BATCH_MATMUL ----------------------------------------------------------------
// Attention scores: [B, heads, L, d] x [B, heads, d, L].
void BM_BatchMatMul(benchmark::State& state, int heads, int m, int k, int n) {
  ModelBuilder b;
  int x = b.AddInput(tflite::TensorType_FLOAT32, {1, heads, m, k});
  int y = b.AddInput(tflite::TensorType_FLOAT32, {1, heads, k, n});
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {1, heads, m, n});
  tflite::BatchMatMulOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * heads * m * k * n);
}

// Hybrid (dynamic-range) projection: FLOAT32 [1, m, k] x constant INT8
// [k, n] with per-channel scales (the lhs is quantized at every run).
void BM_BatchMatMulHybrid(benchmark::State& state, int m, int k, int n) {
  ModelBuilder b;
  int x = b.AddInput(tflite::TensorType_FLOAT32, {1, m, k});
  std::vector<int8_t> w(Product({k, n}));
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> dist(-127, 127);
  for (int8_t& v : w) v = static_cast<int8_t>(dist(rng));
  int y = b.AddConstant<int8_t>(tflite::TensorType_INT8, {k, n}, w);
  tflite_c::testing::Quantization q;
  q.scale.assign(n, 0.01f);
  q.zero_point.assign(n, 0);
  q.quantized_dimension = 1;
  b.SetQuantization(y, q);
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {1, m, n});
  tflite::BatchMatMulOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {x, y}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * m * k * n);
}

// Hybrid INT4 fully connected layer (e.g. an LLM projection quantized to 4 bits
// per channel): FLOAT32 [batch, k] x constant INT4 [n, k], two values a byte.
void BM_FullyConnectedInt4(benchmark::State& state, int batch, int k, int n) {
  ModelBuilder b;
  int x = b.AddInput(tflite::TensorType_FLOAT32, {batch, k});
  std::vector<uint8_t> packed(static_cast<size_t>(Product({n, k})) / 2);
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> dist(0, 255);
  for (uint8_t& v : packed) v = static_cast<uint8_t>(dist(rng));
  int w = b.AddConstantBytes(tflite::TensorType_INT4, {n, k}, packed);
  tflite_c::testing::Quantization q;
  q.scale.assign(n, 0.02f);
  q.zero_point.assign(n, 0);
  q.quantized_dimension = 0;
  b.SetQuantization(w, q);
  int out = b.AddOutput(tflite::TensorType_FLOAT32, {batch, n});
  tflite::FullyConnectedOptionsT o;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, w}, {out}, o);
  RunOp(state, b.Finish(), 2.0 * batch * k * n);
}

// ---- TFLite_Detection_PostProcess -----------------------------------------------
// SSD MobileNet's head: [1, anchors, 4] encodings and [1, anchors, classes + 1]
// scores fed at each run, constant anchors of SSD-like sizes, the options of
// the published detect.tflite (10 detections, score threshold 1e-8).
void BM_DetectionPostProcess(benchmark::State& state, int anchors, int classes, bool regular) {
  ModelBuilder b;
  int enc = b.AddInput(tflite::TensorType_FLOAT32, {1, anchors, 4});
  int scores = b.AddInput(tflite::TensorType_FLOAT32, {1, anchors, classes + 1});
  std::vector<float> anchor_values = RandomFloats(static_cast<size_t>(anchors) * 4, 9);
  for (size_t i = 0; i < anchor_values.size(); i += 4) {
    anchor_values[i] += 0.5f;                       // centers in [0, 1]
    anchor_values[i + 1] += 0.5f;
    anchor_values[i + 2] = 0.1f + anchor_values[i + 2] * 0.1f;  // sizes in [0.05, 0.15]
    anchor_values[i + 3] = 0.1f + anchor_values[i + 3] * 0.1f;
  }
  int anchor_tensor = b.AddConstant<float>({anchors, 4}, anchor_values);
  std::vector<int> outs;
  for (int i = 0; i < 4; ++i) outs.push_back(b.AddOutput(tflite::TensorType_FLOAT32, {}));
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", 10);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Int("detections_per_class", 100);
    fbb.Bool("use_regular_nms", regular);
    fbb.Float("nms_score_threshold", 1e-8f);
    fbb.Float("nms_iou_threshold", 0.6f);
    fbb.Int("num_classes", classes);
    fbb.Float("y_scale", 10.0f);
    fbb.Float("x_scale", 10.0f);
    fbb.Float("h_scale", 5.0f);
    fbb.Float("w_scale", 5.0f);
  });
  fbb.Finish();
  b.AddCustomOperator("TFLite_Detection_PostProcess", {enc, scores, anchor_tensor}, outs,
                      fbb.GetBuffer());
  RunOp(state, b.Finish(), 0.0);
}

void Threads(benchmark::internal::Benchmark* b) {
  // Wall time: the kernels run on a thread pool, so main-thread CPU time
  // would undercount.
  b->ArgNames({"threads", "xnnpack"})->ArgsProduct({{1, 2}, {0, 1}});
  b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

// MobileNet v1 224: first layer, a 1x1 projection in the middle, the last 1x1.
BENCHMARK_CAPTURE(BM_Conv2D, mobilenet_stem_224x224x3_to_32_k3s2, 224, 224, 3, 32, 3, 2)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, mobilenet_pw_56x56x128_to_128, 56, 56, 128, 128, 1, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, mobilenet_pw_7x7x1024_to_1024, 7, 7, 1024, 1024, 1, 1)->Apply(Threads);
// BlazeFace (128x128 front camera): 5x5 stem and a 1x1 in a blaze block.
BENCHMARK_CAPTURE(BM_Conv2D, blazeface_stem_128x128x3_to_24_k5s2, 128, 128, 3, 24, 5, 2)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, blazeface_pw_32x32x48_to_48, 32, 32, 48, 48, 1, 1)->Apply(Threads);
// Pose landmark lite (256x256, issue 18's slowest model on XNNPACK): the 3x3
// stem and segmentation head, its most frequent 1x1 convolutions.
BENCHMARK_CAPTURE(BM_Conv2D, pose_stem_256x256x3_to_24_k3s2, 256, 256, 3, 24, 3, 2)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, pose_head_256x256x8_to_1_k3, 256, 256, 8, 1, 3, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, pose_pw_128x128x8_to_8, 128, 128, 8, 8, 1, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, pose_pw_8x8x96_to_576, 8, 8, 96, 576, 1, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, pose_pw_8x8x576_to_96, 8, 8, 576, 96, 1, 1)->Apply(Threads);
// Hand landmark lite (224x224): stem and the expand / project 1x1 pairs.
BENCHMARK_CAPTURE(BM_Conv2D, hand_stem_224x224x3_to_24_k3s2, 224, 224, 3, 24, 3, 2)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, hand_pw_56x56x16_to_96, 56, 56, 16, 96, 1, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, hand_pw_7x7x112_to_672, 7, 7, 112, 672, 1, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_Conv2D, hand_pw_7x7x672_to_112, 7, 7, 672, 112, 1, 1)->Apply(Threads);

BENCHMARK_CAPTURE(BM_DepthwiseConv2D, mobilenet_112x112x32_k3s1, 112, 112, 32, 3, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_DepthwiseConv2D, mobilenet_56x56x128_k3s2, 56, 56, 128, 3, 2)->Apply(Threads);
BENCHMARK_CAPTURE(BM_DepthwiseConv2D, mobilenet_14x14x512_k3s1, 14, 14, 512, 3, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_DepthwiseConv2D, blazeface_64x64x24_k3s1, 64, 64, 24, 3, 1)->Apply(Threads);
BENCHMARK_CAPTURE(BM_DepthwiseConv2D, blazeface_32x32x48_k5s2, 32, 32, 48, 5, 2)->Apply(Threads);

BENCHMARK_CAPTURE(BM_FullyConnected, mobilenet_classifier_1x1024_to_1001, 1, 1024, 1001)->Apply(Threads);
BENCHMARK_CAPTURE(BM_FullyConnected, mlp_8x512_to_512, 8, 512, 512)->Apply(Threads);
BENCHMARK_CAPTURE(BM_FullyConnected, transformer_ffn_128x256_to_1024, 128, 256, 1024)->Apply(Threads);

BENCHMARK_CAPTURE(BM_BatchMatMul, attention_scores_8h_128x64x128, 8, 128, 64, 128)->Apply(Threads);
BENCHMARK_CAPTURE(BM_BatchMatMul, attention_values_8h_128x128x64, 8, 128, 128, 64)->Apply(Threads);
BENCHMARK_CAPTURE(BM_BatchMatMulHybrid, hybrid_projection_128x256_to_256, 128, 256, 256)->Apply(Threads);
BENCHMARK_CAPTURE(BM_FullyConnectedInt4, int4_decode_1x2048_to_2048, 1, 2048, 2048)->Apply(Threads);
BENCHMARK_CAPTURE(BM_FullyConnectedInt4, int4_prefill_32x1024_to_1024, 32, 1024, 1024)->Apply(Threads);

BENCHMARK_CAPTURE(BM_DetectionPostProcess, ssd_mobilenet_1917x91_fast, 1917, 90, false)->Apply(Threads);
BENCHMARK_CAPTURE(BM_DetectionPostProcess, ssd_mobilenet_1917x91_regular, 1917, 90, true)->Apply(Threads);

}  // namespace

BENCHMARK_MAIN();
