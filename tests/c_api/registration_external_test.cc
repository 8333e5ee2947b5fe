// The pre-2.16 operator names (tensorflow/lite/c/c_api.h) from C++: real
// functions with their original signatures, the same objects as
// TfLiteOperator, registered with TfLiteInterpreterOptionsAddRegistrationExternal.
// (tests/c/guide_custom_op_test.c checks the same names from C.)
#include "tensorflow/lite/c/c_api.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/c/c_api_opaque.h"
#include "tests/util/model_builder.h"

namespace {

using tflite_c::testing::ModelBuilder;

static_assert(std::is_same<TfLiteRegistrationExternal, TfLiteOperator>::value,
              "TfLiteRegistrationExternal is TfLiteOperator");

TEST(RegistrationExternalTest, CreateWithThreeOrFourArguments) {
  TfLiteRegistrationExternal* r = TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "Op", 2);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(TfLiteRegistrationExternalGetBuiltInCode(r), kTfLiteBuiltinCustom);
  EXPECT_STREQ(TfLiteRegistrationExternalGetCustomName(r), "Op");
  EXPECT_EQ(TfLiteRegistrationExternalGetVersion(r), 2);
  EXPECT_EQ(TfLiteOperatorGetUserData(r), nullptr);
  TfLiteRegistrationExternalDelete(r);

  int tag = 0;
  TfLiteOperator* op = TfLiteRegistrationExternalCreate(kTfLiteBuiltinAdd, nullptr, 3, &tag);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(TfLiteOperatorGetUserData(op), &tag);
  EXPECT_EQ(TfLiteRegistrationExternalGetBuiltInCode(op), kTfLiteBuiltinAdd);
  EXPECT_EQ(TfLiteRegistrationExternalGetCustomName(op), nullptr);
  TfLiteOperatorDelete(op);  // either name releases either
}

TEST(RegistrationExternalTest, NullIsHarmless) {
  EXPECT_EQ(TfLiteRegistrationExternalGetCustomName(nullptr), nullptr);
  EXPECT_EQ(TfLiteRegistrationExternalGetVersion(nullptr), -1);
  EXPECT_EQ(TfLiteRegistrationExternalGetBuiltInCode(nullptr), kTfLiteBuiltinCustom);
  TfLiteRegistrationExternalDelete(nullptr);
  TfLiteRegistrationExternalSetInit(nullptr, nullptr);
  TfLiteRegistrationExternalSetFree(nullptr, nullptr);
  TfLiteRegistrationExternalSetPrepare(nullptr, nullptr);
  TfLiteRegistrationExternalSetInvoke(nullptr, nullptr);
  TfLiteRegistrationExternalSetAsyncKernel(nullptr, nullptr);
  TfLiteInterpreterOptionsAddRegistrationExternal(nullptr, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsAddRegistrationExternal(options, nullptr);
  TfLiteInterpreterOptionsDelete(options);
}

// A custom op written with the old names: out = in * factor, where factor
// is the first byte of its custom options. Logs every callback.
struct Log {
  std::string calls;
  std::vector<std::vector<uint8_t>> init_data;
};
Log* g_log;

void* ScaleInit(TfLiteOpaqueContext*, const char* buffer, size_t length) {
  g_log->calls += 'i';
  g_log->init_data.emplace_back(buffer, buffer + length);
  return new int(length > 0 ? buffer[0] : 1);
}
void ScaleFree(TfLiteOpaqueContext*, void* data) {
  g_log->calls += 'f';
  delete static_cast<int*>(data);
}
TfLiteStatus ScalePrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_log->calls += 'p';
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteIntArray* dims = TfLiteIntArrayCreate(TfLiteOpaqueTensorNumDims(in));
  for (int i = 0; i < dims->size; ++i) dims->data[i] = TfLiteOpaqueTensorDim(in, i);
  return TfLiteOpaqueContextResizeTensor(context, TfLiteOpaqueNodeGetOutput(context, node, 0),
                                         dims);
}
TfLiteStatus ScaleInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_log->calls += 'v';
  const int factor = *static_cast<int*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(in));
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(TfLiteOpaqueNodeGetOutput(context, node, 0)));
  for (size_t i = 0; i < TfLiteOpaqueTensorByteSize(in) / sizeof(float); ++i) y[i] = x[i] * factor;
  return kTfLiteOk;
}

TfLiteRegistrationExternal* MakeScale(TfLiteBuiltinOperator code, const char* name) {
  TfLiteRegistrationExternal* r = TfLiteRegistrationExternalCreate(code, name, 1);
  TfLiteRegistrationExternalSetInit(r, ScaleInit);
  TfLiteRegistrationExternalSetFree(r, ScaleFree);
  TfLiteRegistrationExternalSetPrepare(r, ScalePrepare);
  TfLiteRegistrationExternalSetInvoke(r, ScaleInvoke);
  return r;
}

std::vector<float> RunModel(const std::vector<uint8_t>& bytes, TfLiteRegistrationExternal* r,
                            const std::vector<float>& x, int invokes = 1) {
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsAddRegistrationExternal(options, r);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  std::vector<float> y;
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
    bool ok = true;
    for (int i = 0; i < invokes; ++i) {
      ok = ok &&
           TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x.data(),
                                      x.size() * sizeof(float)) == kTfLiteOk &&
           TfLiteInterpreterInvoke(interpreter) == kTfLiteOk;
    }
    const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    if (ok) {
      y.resize(TfLiteTensorByteSize(out) / sizeof(float));
      TfLiteTensorCopyToBuffer(out, y.data(), y.size() * sizeof(float));
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
  return y;
}

TEST(RegistrationExternalTest, CustomOpCallbacksInUpstreamOrder) {
  Log log;
  g_log = &log;
  // Two nodes of the op, chained; each gets its own custom options.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {3}, "x");
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {3}, "t");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {3}, "y");
  b.AddCustomOperator("Scale", {x}, {t}, {2, 0xff});
  b.AddCustomOperator("Scale", {t}, {y}, {3});
  TfLiteRegistrationExternal* r = MakeScale(kTfLiteBuiltinCustom, "Scale");
  EXPECT_EQ(RunModel(b.Finish(), r, {1, -2, 0.5f}, /*invokes=*/2),
            (std::vector<float>{6, -12, 3}));
  // init per node at creation, prepare per node at allocation, invoke per
  // node per Invoke, free per node when the interpreter is deleted.
  EXPECT_EQ(log.calls, "iippvvvvff");
  ASSERT_EQ(log.init_data.size(), 2u);
  EXPECT_EQ(log.init_data[0], (std::vector<uint8_t>{2, 0xff}));  // bytes passed unchanged
  EXPECT_EQ(log.init_data[1], (std::vector<uint8_t>{3}));
  TfLiteRegistrationExternalDelete(r);
  g_log = nullptr;
}

TEST(RegistrationExternalTest, OverridesBuiltinOp) {
  Log log;
  g_log = &log;
  // ADD(x, x) would double; the override (builtin code ADD, no name) scales
  // the first input by 1 instead: the output equals x.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {y});
  TfLiteRegistrationExternal* r = MakeScale(kTfLiteBuiltinAdd, nullptr);
  EXPECT_EQ(RunModel(b.Finish(), r, {4, 5}), (std::vector<float>{4, 5}));
  EXPECT_EQ(log.calls, "ipvf");
  TfLiteRegistrationExternalDelete(r);
  g_log = nullptr;
}

}  // namespace
