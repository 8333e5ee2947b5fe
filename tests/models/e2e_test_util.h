// Shared by the end-to-end post-processing tests (e2e_detector_test.cc,
// e2e_audio_classifier_test.cc, e2e_soft_nms_test.cc, e2e_real_models_test.cc):
// a model run with the default options (XNNPACK on unless turned off), and
// the checks that the delegate took the backbone and that both runs agree.
#ifndef TFLITE_C_TESTS_MODELS_E2E_TEST_UTIL_H_
#define TFLITE_C_TESTS_MODELS_E2E_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "schema_generated.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace testing {

inline double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// A session with the default options (XNNPACK on unless `xnnpack` is false),
// allocated; all outputs of one Invoke as floats (int32 outputs converted).
// Inputs are floats; a UINT8 input takes them as 0..255 (truncated).
struct ModelRun {
  Session s;
  std::vector<names::Floats> outputs;
  int plan_size = 0;
  int delegate_nodes = 0;

  ModelRun(const std::vector<uint8_t>& bytes, bool xnnpack,
           const std::vector<names::Floats>& inputs) {
    s.model.reset(TfLiteModelCreate(bytes.data(), bytes.size()));
    EXPECT_NE(s.model, nullptr);
    if (!s.model) return;
    OptionsPtr options(TfLiteInterpreterOptionsCreate());
    TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &s.errors);
    if (!xnnpack) TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
    s.interpreter.reset(TfLiteInterpreterCreate(s.model.get(), options.get()));
    EXPECT_TRUE(s.ok()) << s.errors;
    if (!s.ok()) return;
    plan_size = static_cast<int>(s.plan().size());
    delegate_nodes = s.DelegateNodes();
    TfLiteInterpreter* it = s.interpreter.get();
    EXPECT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* in = TfLiteInterpreterGetInputTensor(it, static_cast<int>(i));
      if (TfLiteTensorType(in) == kTfLiteUInt8) {  // values given as 0..255
        std::vector<uint8_t> q;
        for (float v : inputs[i]) q.push_back(static_cast<uint8_t>(std::clamp(v, 0.0f, 255.0f)));
        EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, q.data(), q.size()), kTfLiteOk);
      } else {
        EXPECT_TRUE(s.SetInput(static_cast<int>(i), inputs[i]));
      }
    }
    EXPECT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s.errors;
    for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(it); ++i) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, i);
      names::Floats v;
      if (TfLiteTensorType(t) == kTfLiteInt32) {
        std::vector<int32_t> raw(TfLiteTensorByteSize(t) / sizeof(int32_t));
        TfLiteTensorCopyToBuffer(t, raw.data(), raw.size() * sizeof(int32_t));
        v.assign(raw.begin(), raw.end());
      } else {
        v.resize(TfLiteTensorByteSize(t) / sizeof(float));
        TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
      }
      outputs.push_back(v);
    }
  }
  // The builtin code of every node in the plan, in order.
  std::vector<int> PlanCodes() {
    std::vector<int> codes;
    for (int i : s.plan())
      codes.push_back(s.primary().node_and_registration(i)->second.builtin_code);
    return codes;
  }
};

inline void ExpectSameOutputs(const ModelRun& a, const ModelRun& b, float tol) {
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    ASSERT_EQ(a.outputs[i].size(), b.outputs[i].size()) << "output " << i;
    for (size_t j = 0; j < a.outputs[i].size(); ++j) {
      EXPECT_NEAR(a.outputs[i][j], b.outputs[i][j], tol * (1 + std::fabs(a.outputs[i][j])))
          << "output " << i << " element " << j;
    }
  }
}

// Checks the default run delegated exactly `delegated` nodes into one
// partition and kept `builtin` nodes (custom ops count as kTfLiteBuiltinCustom).
inline void ExpectBackboneDelegated(ModelRun& def, ModelRun& plain, int total_nodes,
                             const std::vector<int>& builtin) {
  EXPECT_EQ(plain.plan_size, total_nodes);
  EXPECT_EQ(plain.delegate_nodes, 0);
  if (!kWithXnnpack) {
    EXPECT_EQ(def.plan_size, total_nodes);
    return;
  }
  EXPECT_EQ(def.delegate_nodes, 1) << "the backbone should form one XNNPACK partition";
  EXPECT_EQ(def.plan_size, static_cast<int>(builtin.size()) + 1);
  std::vector<int> kept;
  for (int code : def.PlanCodes()) {
    if (code != kTfLiteBuiltinDelegate) kept.push_back(code);
  }
  EXPECT_EQ(kept, builtin);
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_MODELS_E2E_TEST_UTIL_H_
