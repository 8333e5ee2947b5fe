// The C++ API's string tensors (string_util.h) and error reporter helpers.
// Only public headers are used.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/op_resolver.h"
#include "tensorflow/lite/stderr_reporter.h"
#include "tensorflow/lite/string_util.h"
#include "tests/cc/cc_api_test_util.h"

namespace {

using tflite_c::testing::CapturingReporter;
using tflite_c::testing::CcApi;

// ---- strings and reporters -------------------------------------------------------------

TEST_F(CcApi, StringTensors) {
  TfLiteTensor tensor{};
  tensor.type = kTfLiteString;
  tensor.allocation_type = kTfLiteDynamic;
  tflite::DynamicBuffer buffer;
  ASSERT_EQ(buffer.AddString("hello", 5), kTfLiteOk);
  ASSERT_EQ(buffer.AddString(tflite::StringRef{"", 0}), kTfLiteOk);
  buffer.AddJoinedString({{"a", 1}, {"bc", 2}}, ',');
  buffer.WriteToTensorAsVector(&tensor);
  ASSERT_NE(tensor.dims, nullptr);
  ASSERT_EQ(tensor.dims->size, 1);
  EXPECT_EQ(tensor.dims->data[0], 3);
  ASSERT_EQ(tflite::GetStringCount(&tensor), 3);
  EXPECT_EQ(tflite::GetStringCount(tensor.data.raw), 3);
  const tflite::StringRef s0 = tflite::GetString(&tensor, 0);
  EXPECT_EQ(std::string(s0.str, s0.len), "hello");
  EXPECT_EQ(tflite::GetString(&tensor, 1).len, 0);
  const tflite::StringRef s2 = tflite::GetString(tensor.data.raw, 2);
  EXPECT_EQ(std::string(s2.str, s2.len), "a,bc");
  EXPECT_EQ(tflite::GetString(&tensor, 3).str, nullptr);

  // A 2-D shape of the caller's choosing.
  tflite::DynamicBuffer two;
  two.AddString("x", 1);
  two.AddString("y", 1);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(2);
  shape->data[0] = 1;
  shape->data[1] = 2;
  two.WriteToTensor(&tensor, shape);
  EXPECT_EQ(tensor.dims->size, 2);
  EXPECT_EQ(tflite::GetStringCount(&tensor), 2);
  TfLiteTensorFree(&tensor);
  EXPECT_EQ(tflite::GetStringCount(static_cast<const TfLiteTensor*>(nullptr)), 0);
}

TEST_F(CcApi, ErrorReporterHelpers) {
  CapturingReporter reporter;
  reporter.Report("value %d", 42);
  TF_LITE_REPORT_ERROR(&reporter, "second %s", "line");
  reporter.ReportError(nullptr, "third");
  EXPECT_EQ(reporter.calls, 3);
  EXPECT_EQ(reporter.text, "value 42\nsecond line\nthird\n");
  tflite::ErrorReporter* none = nullptr;
  TF_LITE_REPORT_ERROR(none, "ignored");
  EXPECT_NE(tflite::DefaultErrorReporter(), nullptr);
}

}  // namespace
