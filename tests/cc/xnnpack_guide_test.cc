// The C++ snippets of the XNNPACK delegate guide (shared/guides/
// xnnpack-delegate.md), as a program written from the guide would use them:
// the low-level delegate API on one interpreter, and the weights cache shared
// by two interpreters of one model (hard and soft finalization). The model is
// BlazeFace (mp_face_detection_short_range: CONV_2D, DEPTHWISE_CONV_2D, ...),
// checked against its golden outputs. Skipped without ../shared or without
// XNNPACK in the build.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tests/util/test_paths.h"

namespace {

const std::string kName = "mp_face_detection_short_range";
const std::string kModel = std::string(TFLITE_C_SHARED_DIR) + "/models/files/" + kName + ".tflite";
const std::string kGolden = std::string(TFLITE_C_SHARED_DIR) + "/models/golden/" + kName + "/";
// The manifest's tolerance for this model.
constexpr float kAtol = 0.0141f;
constexpr float kRtol = 0.001f;

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> v(bytes.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

class XnnpackGuideTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = tflite::FlatBufferModel::BuildFromFile(kModel.c_str());
    if (!model_) GTEST_SKIP() << kModel << " not found";
    TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
    TfLiteDelegate* probe = TfLiteXNNPackDelegateCreate(&options);
    if (probe == nullptr) GTEST_SKIP() << "XNNPACK is not available in this build";
    TfLiteXNNPackDelegateDelete(probe);
  }

  std::unique_ptr<tflite::Interpreter> Build(int num_threads = 1) {
    std::unique_ptr<tflite::Interpreter> interpreter;
    EXPECT_EQ(tflite::InterpreterBuilder(*model_, resolver_)(&interpreter, num_threads), kTfLiteOk);
    return interpreter;
  }

  // Feeds the golden input, runs, and checks both outputs; returns them.
  std::vector<std::vector<float>> RunGolden(tflite::Interpreter* interpreter) {
    std::vector<std::vector<float>> outputs;
    const std::vector<float> in = ReadFloats(kGolden + "input_0.bin");
    float* input = interpreter->typed_input_tensor<float>(0);
    EXPECT_NE(input, nullptr);
    EXPECT_EQ(in.size() * sizeof(float), interpreter->input_tensor(0)->bytes);
    if (input == nullptr || in.size() * sizeof(float) != interpreter->input_tensor(0)->bytes) {
      return outputs;
    }
    std::memcpy(input, in.data(), in.size() * sizeof(float));
    EXPECT_EQ(interpreter->Invoke(), kTfLiteOk);
    for (int o = 0; o < 2; ++o) {
      const std::vector<float> expected = ReadFloats(kGolden + "output_" + std::to_string(o) + ".bin");
      const TfLiteTensor* t = interpreter->output_tensor(o);
      EXPECT_EQ(t->bytes, expected.size() * sizeof(float));
      if (t->bytes != expected.size() * sizeof(float)) continue;
      const float* got = interpreter->typed_output_tensor<float>(o);
      int bad = 0;
      for (size_t i = 0; i < expected.size(); ++i) {
        if (std::fabs(got[i] - expected[i]) > kAtol + kRtol * std::fabs(expected[i]) && bad++ < 5) {
          ADD_FAILURE() << "output " << o << "[" << i << "] = " << got[i] << ", golden "
                        << expected[i];
        }
      }
      outputs.emplace_back(got, got + expected.size());
    }
    return outputs;
  }

  std::unique_ptr<tflite::FlatBufferModel> model_;
  tflite::ops::builtin::BuiltinOpResolver resolver_;
};

// Counts the nodes of the execution plan run by a delegate kernel.
int DelegatedNodes(tflite::Interpreter* interpreter) {
  int n = 0;
  for (int index : interpreter->execution_plan()) {
    const auto* nr = interpreter->node_and_registration(index);
    if (nr != nullptr && nr->first.delegate != nullptr) ++n;
  }
  return n;
}

TEST_F(XnnpackGuideTest, LowLevelDelegateApi) {
  const int num_threads = 2;
  // Build the interpreter
  std::unique_ptr<tflite::Interpreter> interpreter = Build(num_threads);
  ASSERT_NE(interpreter, nullptr);

  // IMPORTANT: initialize options with TfLiteXNNPackDelegateOptionsDefault()
  TfLiteXNNPackDelegateOptions xnnpack_options = TfLiteXNNPackDelegateOptionsDefault();
  xnnpack_options.num_threads = num_threads;

  TfLiteDelegate* xnnpack_delegate = TfLiteXNNPackDelegateCreate(&xnnpack_options);
  ASSERT_EQ(interpreter->ModifyGraphWithDelegate(xnnpack_delegate), kTfLiteOk);
  EXPECT_GE(DelegatedNodes(interpreter.get()), 1);

  // IMPORTANT: AllocateTensors can be called only AFTER ModifyGraphWithDelegate
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  // Run inference using XNNPACK
  RunGolden(interpreter.get());

  // IMPORTANT: release the interpreter before destroying the delegate
  interpreter.reset();
  TfLiteXNNPackDelegateDelete(xnnpack_delegate);
}

// The weights-cache snippet, with its second ModifyGraphWithDelegate applied
// to interpreter2 (the guide's text says interpreter1 twice).
TEST_F(XnnpackGuideTest, WeightsCacheSharedByTwoInterpretersHardFinalization) {
  // Create 2 interpreters which share the same model.
  std::unique_ptr<tflite::Interpreter> interpreter1 = Build();
  std::unique_ptr<tflite::Interpreter> interpreter2 = Build();
  ASSERT_NE(interpreter1, nullptr);
  ASSERT_NE(interpreter2, nullptr);

  // Create a weights cache that you can pass to XNNPACK delegate.
  TfLiteXNNPackDelegateWeightsCache* weights_cache = TfLiteXNNPackDelegateWeightsCacheCreate();
  ASSERT_NE(weights_cache, nullptr);

  TfLiteXNNPackDelegateOptions xnnpack_options = TfLiteXNNPackDelegateOptionsDefault();
  xnnpack_options.weights_cache = weights_cache;

  // Static weights are packed and written into weights_cache.
  TfLiteDelegate* delegate1 = TfLiteXNNPackDelegateCreate(&xnnpack_options);
  ASSERT_EQ(interpreter1->ModifyGraphWithDelegate(delegate1), kTfLiteOk);
  // XNNPACK reuses packed weights found in the weights cache.
  TfLiteDelegate* delegate2 = TfLiteXNNPackDelegateCreate(&xnnpack_options);
  ASSERT_EQ(interpreter2->ModifyGraphWithDelegate(delegate2), kTfLiteOk);
  EXPECT_EQ(DelegatedNodes(interpreter1.get()), DelegatedNodes(interpreter2.get()));
  EXPECT_GE(DelegatedNodes(interpreter1.get()), 1);

  // The weights cache has to be finalized before any inference.
  ASSERT_EQ(interpreter1->AllocateTensors(), kTfLiteOk);
  const std::vector<float> in = ReadFloats(kGolden + "input_0.bin");
  ASSERT_EQ(in.size() * sizeof(float), interpreter1->input_tensor(0)->bytes);
  std::memcpy(interpreter1->typed_input_tensor<float>(0), in.data(), in.size() * sizeof(float));
  EXPECT_NE(interpreter1->Invoke(), kTfLiteOk);

  // Hard finalization: all interpreters were created up front.
  ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeHard(weights_cache));

  ASSERT_EQ(interpreter2->AllocateTensors(), kTfLiteOk);
  const auto out1 = RunGolden(interpreter1.get());
  const auto out2 = RunGolden(interpreter2.get());
  // Same packed weights, same code: the same bits.
  EXPECT_EQ(out1, out2);

  // Later, after all the interpreters and XNNPACK delegates using the cache
  // are destroyed, release the weights cache.
  interpreter1.reset();
  interpreter2.reset();
  TfLiteXNNPackDelegateDelete(delegate1);
  TfLiteXNNPackDelegateDelete(delegate2);
  TfLiteXNNPackDelegateWeightsCacheDelete(weights_cache);
}

TEST_F(XnnpackGuideTest, WeightsCacheSoftFinalizationAllowsLaterInterpreters) {
  std::unique_ptr<tflite::Interpreter> interpreter1 = Build();
  ASSERT_NE(interpreter1, nullptr);
  TfLiteXNNPackDelegateWeightsCache* weights_cache = TfLiteXNNPackDelegateWeightsCacheCreate();
  ASSERT_NE(weights_cache, nullptr);
  TfLiteXNNPackDelegateOptions xnnpack_options = TfLiteXNNPackDelegateOptionsDefault();
  xnnpack_options.weights_cache = weights_cache;
  TfLiteDelegate* delegate1 = TfLiteXNNPackDelegateCreate(&xnnpack_options);
  ASSERT_EQ(interpreter1->ModifyGraphWithDelegate(delegate1), kTfLiteOk);

  // Soft finalization: more delegates using the same model may come later.
  ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(weights_cache));
  ASSERT_EQ(interpreter1->AllocateTensors(), kTfLiteOk);
  const auto out1 = RunGolden(interpreter1.get());

  std::unique_ptr<tflite::Interpreter> interpreter2 = Build(2);
  ASSERT_NE(interpreter2, nullptr);
  TfLiteDelegate* delegate2 = TfLiteXNNPackDelegateCreate(&xnnpack_options);
  ASSERT_EQ(interpreter2->ModifyGraphWithDelegate(delegate2), kTfLiteOk);
  ASSERT_EQ(interpreter2->AllocateTensors(), kTfLiteOk);
  const auto out2 = RunGolden(interpreter2.get());
  EXPECT_EQ(out1, out2);

  interpreter1.reset();
  interpreter2.reset();
  TfLiteXNNPackDelegateDelete(delegate1);
  TfLiteXNNPackDelegateDelete(delegate2);
  TfLiteXNNPackDelegateWeightsCacheDelete(weights_cache);
}

}  // namespace
