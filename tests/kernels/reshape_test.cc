// RESHAPE beyond the op table (tests/kernels/op_table/layout.cc holds its
// table cases): a shape tensor fed at run time, changed between invokes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;

// Found by structured_fuzzer (UBSan: signed overflow in ResolveShape): a
// constant new shape whose product passes int64 ([2^20, 2^19, 2^31 - 1])
// is refused as too large, not wrapped around into another error.
TEST(ReshapeTest, MalformedShapeProductOverflowIsRefused) {
  OneOpModel m;
  m.Input(tflite::TensorType_FLOAT32, {2, 3});
  m.Const<int32_t>({3}, {1 << 20, 1 << 19, 0x7fffffff});
  m.Output(tflite::TensorType_FLOAT32, {6});
  m.Op(tflite::BuiltinOperator_RESHAPE);
  EXPECT_FALSE(m.Allocate());
  EXPECT_NE(m.log().find("new shape is too large"), std::string::npos) << m.log();
}

// A dynamic reshape must follow a new shape value on every Invoke.
TEST(ReshapeTest, DynamicShapeChangesBetweenInvokes) {
  OneOpModel m;
  // As a plain TfLiteInterpreterCreate would run it: default delegates on.
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetUseXNNPACK(o, true);
  };
  m.Input(tflite::TensorType_FLOAT32, {2, 3});
  m.Input(tflite::TensorType_INT32, {2});
  m.Output(tflite::TensorType_FLOAT32, {6});
  m.Op(tflite::BuiltinOperator_RESHAPE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  TfLiteInterpreter* interpreter = m.interpreter();
  const float data[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), data,
                                       sizeof data),
            kTfLiteOk);
  for (const std::vector<int32_t>& shape :
       {std::vector<int32_t>{3, 2}, {1, 6, 1}, {-1}, {2, -1, 1}}) {
    TfLiteTensor* shape_tensor = TfLiteInterpreterGetInputTensor(interpreter, 1);
    // The shape input is [2]; resize it when the new shape has another rank.
    if (TfLiteTensorDim(shape_tensor, 0) != static_cast<int>(shape.size())) {
      const int dims[1] = {static_cast<int>(shape.size())};
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 1, dims, 1), kTfLiteOk);
      ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
      ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), data,
                                           sizeof data),
                kTfLiteOk);
      shape_tensor = TfLiteInterpreterGetInputTensor(interpreter, 1);
    }
    ASSERT_EQ(
        TfLiteTensorCopyFromBuffer(shape_tensor, shape.data(), shape.size() * sizeof(int32_t)),
        kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
    const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    ASSERT_EQ(TfLiteTensorNumDims(out), static_cast<int>(shape.size()));
    int64_t elements = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] != -1) {
        EXPECT_EQ(TfLiteTensorDim(out, d), shape[d]);
      }
      elements *= TfLiteTensorDim(out, d);
    }
    EXPECT_EQ(elements, 6);
    float got[6] = {};
    ASSERT_EQ(TfLiteTensorCopyToBuffer(out, got, sizeof got), kTfLiteOk);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], data[i]);
  }
}

}  // namespace
}  // namespace tflite_c
