// Shared by the tests of the ops that run subgraphs or keep state
// (while_test.cc, if_test.cc, resource_variable_test.cc, densify_test.cc):
// the model runner with the WHILE-related interpreter options and BOOL inputs.
#ifndef TFLITE_C_TESTS_KERNELS_CONTROL_FLOW_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_CONTROL_FLOW_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace testing {

// The shared model runner, plus the WHILE-related interpreter options and BOOL inputs.
class ControlFlowRunner : public ModelRunner {
 public:
  using ModelRunner::ModelRunner;

  // Loads and allocates; false when any step fails.
  // `max_while_iterations` > 0 sets the WHILE step budget.
  bool Allocate(bool cancellable = false, int64_t max_while_iterations = 0) {
    return ModelRunner::Allocate([&](TfLiteInterpreterOptions* options) {
      if (cancellable) TfLiteInterpreterOptionsEnableCancellation(options, true);
      return max_while_iterations <= 0 ||
             TfLiteInterpreterOptionsSetMaxWhileIterations(options, max_while_iterations) ==
                 kTfLiteOk;
    });
  }
  void SetBool(int i, bool value) {
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(input(i), &value, 1), kTfLiteOk);
  }
};

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_CONTROL_FLOW_TEST_UTIL_H_
