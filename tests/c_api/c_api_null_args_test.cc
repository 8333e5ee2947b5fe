// NULL and out-of-range arguments, entry point by entry point, against what
// upstream TensorFlow Lite 2.19 does with the same call (its c_api.cc,
// c_api_experimental.cc, c_api_opaque.cc and common.cc): where upstream
// returns an error or NULL we return the same; where upstream dereferences
// the NULL or indexes out of range (a crash, "UB" below) we return the
// failure value the header documents. Every row must also leave the process
// alive and the interpreter usable (checked after the table).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "tests/util/model_builder.h"

namespace {

using tflite_c::testing::ModelBuilder;

void Quiet(void*, const char*, va_list) {}

// y = x + [10, 20], signature "add" (x -> y); one variable-free subgraph.
struct Fixture {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  TfLiteInterpreterOptions* options = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  TfLiteSignatureRunner* runner = nullptr;

  Fixture() {
    ModelBuilder b;
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
    const int w = b.AddConstant<float>({2}, {10, 20});
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
    b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {y}, tflite::AddOptionsT{});
    b.AddSignature("add", {{"x", x}}, {{"y", y}});
    bytes = b.Finish();
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(options, Quiet, nullptr);
    interpreter = TfLiteInterpreterCreate(model, options);
    runner = TfLiteInterpreterGetSignatureRunner(interpreter, "add");
  }
  ~Fixture() {
    TfLiteSignatureRunnerDelete(runner);
    TfLiteInterpreterDelete(interpreter);
    TfLiteInterpreterOptionsDelete(options);
    TfLiteModelDelete(model);
  }
};

struct Row {
  const char* call;      // what is called, with which bad argument
  const char* upstream;  // what upstream 2.19 does with it
  std::function<bool(Fixture&)> ours_fails_cleanly;
};

template <typename T>
bool IsNull(T* p) {
  return p == nullptr;
}
bool IsError(TfLiteStatus s) { return s == kTfLiteError; }

const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = {
      // ---- model ----
      {"TfLiteModelCreate(NULL, 0)", "NULL", [](Fixture&) { return IsNull(TfLiteModelCreate(nullptr, 0)); }},
      {"TfLiteModelCreate(bytes, 3)", "NULL", [](Fixture& f) { return IsNull(TfLiteModelCreate(f.bytes.data(), 3)); }},
      {"TfLiteModelCreateFromFile(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteModelCreateFromFile(nullptr)); }},
      {"TfLiteModelCreateFromFile(missing)", "NULL", [](Fixture&) { return IsNull(TfLiteModelCreateFromFile("/nonexistent.tflite")); }},
      {"TfLiteModelCreateCopy(NULL, 8)", "(ours)", [](Fixture&) { return IsNull(TfLiteModelCreateCopy(nullptr, 8)); }},
      {"TfLiteModelDelete(NULL)", "no-op", [](Fixture&) { TfLiteModelDelete(nullptr); return true; }},
      // ---- options ----
      {"TfLiteInterpreterOptionsCopy(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteInterpreterOptionsCopy(nullptr)); }},
      {"TfLiteInterpreterOptionsDelete(NULL)", "no-op", [](Fixture&) { TfLiteInterpreterOptionsDelete(nullptr); return true; }},
      {"TfLiteInterpreterOptionsSetNumThreads(NULL, 2)", "UB", [](Fixture&) { TfLiteInterpreterOptionsSetNumThreads(nullptr, 2); return true; }},
      {"TfLiteInterpreterOptionsAddDelegate(NULL, d)", "UB", [](Fixture&) { TfLiteInterpreterOptionsAddDelegate(nullptr, nullptr); return true; }},
      {"TfLiteInterpreterOptionsSetErrorReporter(NULL, ...)", "UB", [](Fixture&) { TfLiteInterpreterOptionsSetErrorReporter(nullptr, Quiet, nullptr); return true; }},
      {"TfLiteInterpreterOptionsAddOperator(NULL, NULL)", "UB", [](Fixture&) { TfLiteInterpreterOptionsAddOperator(nullptr, nullptr); return true; }},
      {"TfLiteInterpreterOptionsEnableCancellation(NULL, true)", "UB", [](Fixture&) { return IsError(TfLiteInterpreterOptionsEnableCancellation(nullptr, true)); }},
      {"TfLiteInterpreterOptionsAddBuiltinOp(options, op, NULL, 1, 1)", "UB", [](Fixture& f) { TfLiteInterpreterOptionsAddBuiltinOp(f.options, kTfLiteBuiltinAdd, nullptr, 1, 1); return true; }},
      {"TfLiteInterpreterOptionsAddCustomOp(options, NULL, r, 1, 1)", "UB", [](Fixture& f) { static TfLiteRegistration r{}; TfLiteInterpreterOptionsAddCustomOp(f.options, nullptr, &r, 1, 1); return true; }},
      {"TfLiteInterpreterOptionsSetUseNNAPI(NULL, true)", "UB", [](Fixture&) { TfLiteInterpreterOptionsSetUseNNAPI(nullptr, true); return true; }},
      {"TfLiteInterpreterOptionsSetEnableDelegateFallback(NULL, true)", "UB", [](Fixture&) { TfLiteInterpreterOptionsSetEnableDelegateFallback(nullptr, true); return true; }},
      {"TfLiteInterpreterOptionsSetOpResolver(NULL, ...)", "UB", [](Fixture&) { TfLiteInterpreterOptionsSetOpResolver(nullptr, nullptr, nullptr, nullptr); return true; }},
      // ---- interpreter ----
      {"TfLiteInterpreterCreate(NULL, NULL)", "NULL", [](Fixture&) { return IsNull(TfLiteInterpreterCreate(nullptr, nullptr)); }},
      {"TfLiteInterpreterCreateWithSelectedOps(NULL, NULL)", "NULL", [](Fixture&) { return IsNull(TfLiteInterpreterCreateWithSelectedOps(nullptr, nullptr)); }},
      {"TfLiteInterpreterDelete(NULL)", "no-op", [](Fixture&) { TfLiteInterpreterDelete(nullptr); return true; }},
      {"TfLiteInterpreterGetInputTensorCount(NULL)", "UB", [](Fixture&) { return TfLiteInterpreterGetInputTensorCount(nullptr) == 0; }},
      {"TfLiteInterpreterInputTensorIndices(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteInterpreterInputTensorIndices(nullptr)); }},
      {"TfLiteInterpreterGetInputTensor(NULL, 0)", "UB", [](Fixture&) { return IsNull(TfLiteInterpreterGetInputTensor(nullptr, 0)); }},
      {"TfLiteInterpreterGetInputTensor(i, -1)", "UB", [](Fixture& f) { return IsNull(TfLiteInterpreterGetInputTensor(f.interpreter, -1)); }},
      {"TfLiteInterpreterGetInputTensor(i, count)", "UB", [](Fixture& f) { return IsNull(TfLiteInterpreterGetInputTensor(f.interpreter, 1)); }},
      {"TfLiteInterpreterGetOutputTensor(i, 99)", "UB", [](Fixture& f) { return IsNull(TfLiteInterpreterGetOutputTensor(f.interpreter, 99)); }},
      {"TfLiteInterpreterGetOutputTensorCount(NULL)", "UB", [](Fixture&) { return TfLiteInterpreterGetOutputTensorCount(nullptr) == 0; }},
      {"TfLiteInterpreterOutputTensorIndices(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteInterpreterOutputTensorIndices(nullptr)); }},
      {"TfLiteInterpreterGetTensor(i, -1)", "NULL", [](Fixture& f) { return IsNull(TfLiteInterpreterGetTensor(f.interpreter, -1)); }},
      {"TfLiteInterpreterGetTensor(i, 1000)", "NULL", [](Fixture& f) { return IsNull(TfLiteInterpreterGetTensor(f.interpreter, 1000)); }},
      {"TfLiteInterpreterResizeInputTensor(NULL, ...)", "UB", [](Fixture&) { const int d[1] = {2}; return IsError(TfLiteInterpreterResizeInputTensor(nullptr, 0, d, 1)); }},
      {"TfLiteInterpreterResizeInputTensor(i, 5, ...)", "UB", [](Fixture& f) { const int d[1] = {2}; return IsError(TfLiteInterpreterResizeInputTensor(f.interpreter, 5, d, 1)); }},
      {"TfLiteInterpreterResizeInputTensor(i, 0, NULL, 1)", "UB", [](Fixture& f) { return IsError(TfLiteInterpreterResizeInputTensor(f.interpreter, 0, nullptr, 1)); }},
      {"TfLiteInterpreterResizeInputTensor(i, 0, d, -1)", "UB", [](Fixture& f) { const int d[1] = {2}; return IsError(TfLiteInterpreterResizeInputTensor(f.interpreter, 0, d, -1)); }},
      {"TfLiteInterpreterAllocateTensors(NULL)", "UB", [](Fixture&) { return IsError(TfLiteInterpreterAllocateTensors(nullptr)); }},
      {"TfLiteInterpreterInvoke(NULL)", "UB", [](Fixture&) { return IsError(TfLiteInterpreterInvoke(nullptr)); }},
      {"TfLiteInterpreterCancel(NULL)", "UB", [](Fixture&) { return IsError(TfLiteInterpreterCancel(nullptr)); }},
      {"TfLiteInterpreterCancel(i) without EnableCancellation", "error", [](Fixture& f) { return IsError(TfLiteInterpreterCancel(f.interpreter)); }},
      {"TfLiteInterpreterGetLastError(NULL)", "(ours)", [](Fixture&) { return IsNull(TfLiteInterpreterGetLastError(nullptr)); }},
      // ---- experimental ----
      {"TfLiteInterpreterResetVariableTensors(NULL)", "UB", [](Fixture&) { return IsError(TfLiteInterpreterResetVariableTensors(nullptr)); }},
      {"TfLiteInterpreterGetVariableTensorCount(NULL)", "UB", [](Fixture&) { return TfLiteInterpreterGetVariableTensorCount(nullptr) == 0; }},
      {"TfLiteInterpreterGetVariableTensor(i, 0) (none)", "UB", [](Fixture& f) { return IsNull(TfLiteInterpreterGetVariableTensor(f.interpreter, 0)); }},
      {"TfLiteInterpreterGetInputTensorIndex(i, 9)", "UB", [](Fixture& f) { return TfLiteInterpreterGetInputTensorIndex(f.interpreter, 9) == -1; }},
      {"TfLiteInterpreterGetOutputTensorIndex(i, -1)", "UB", [](Fixture& f) { return TfLiteInterpreterGetOutputTensorIndex(f.interpreter, -1) == -1; }},
      {"TfLiteInterpreterModifyGraphWithDelegate(i, NULL)", "error", [](Fixture& f) { return TfLiteInterpreterModifyGraphWithDelegate(f.interpreter, nullptr) != kTfLiteOk; }},
      {"TfLiteInterpreterSetCustomAllocationForTensor(i, 0, NULL, 0)", "UB", [](Fixture& f) { return IsError(TfLiteInterpreterSetCustomAllocationForTensor(f.interpreter, 0, nullptr, 0)); }},
      {"TfLiteInterpreterSetCustomAllocationForTensor(i, 999, a, 0)", "error", [](Fixture& f) { static char buf[64]; TfLiteCustomAllocation a{buf, sizeof(buf)}; return IsError(TfLiteInterpreterSetCustomAllocationForTensor(f.interpreter, 999, &a, 0)); }},
      {"TfLiteInterpreterEnsureTensorDataIsReadable(i, 999)", "error", [](Fixture& f) { return IsError(TfLiteInterpreterEnsureTensorDataIsReadable(f.interpreter, 999)); }},
      {"TfLiteInterpreterGetBufferHandle(i, 999, ...)", "error", [](Fixture& f) { TfLiteBufferHandle h; TfLiteOpaqueDelegate* d; return IsError(TfLiteInterpreterGetBufferHandle(f.interpreter, 999, &h, &d)); }},
      {"TfLiteInterpreterSetBufferHandle(i, NULL, ...)", "UB", [](Fixture& f) { return IsError(TfLiteInterpreterSetBufferHandle(f.interpreter, nullptr, 0, nullptr)); }},
      // ---- signatures ----
      {"TfLiteInterpreterGetSignatureCount(NULL)", "UB", [](Fixture&) { return TfLiteInterpreterGetSignatureCount(nullptr) == 0; }},
      {"TfLiteInterpreterGetSignatureKey(i, 5)", "NULL", [](Fixture& f) { return IsNull(TfLiteInterpreterGetSignatureKey(f.interpreter, 5)); }},
      {"TfLiteInterpreterGetSignatureRunner(i, \"nope\")", "NULL", [](Fixture& f) { return IsNull(TfLiteInterpreterGetSignatureRunner(f.interpreter, "nope")); }},
      {"TfLiteInterpreterGetSignatureRunner(NULL, \"add\")", "UB", [](Fixture&) { return IsNull(TfLiteInterpreterGetSignatureRunner(nullptr, "add")); }},
      {"TfLiteSignatureRunnerGetInputName(r, 3)", "NULL", [](Fixture& f) { return IsNull(TfLiteSignatureRunnerGetInputName(f.runner, 3)); }},
      {"TfLiteSignatureRunnerGetOutputName(r, -1)", "NULL", [](Fixture& f) { return IsNull(TfLiteSignatureRunnerGetOutputName(f.runner, -1)); }},
      {"TfLiteSignatureRunnerGetInputTensor(r, \"nope\")", "NULL", [](Fixture& f) { return IsNull(TfLiteSignatureRunnerGetInputTensor(f.runner, "nope")); }},
      {"TfLiteSignatureRunnerGetInputTensor(r, NULL)", "UB", [](Fixture& f) { return IsNull(TfLiteSignatureRunnerGetInputTensor(f.runner, nullptr)); }},
      {"TfLiteSignatureRunnerGetOutputTensor(r, \"nope\")", "NULL", [](Fixture& f) { return IsNull(TfLiteSignatureRunnerGetOutputTensor(f.runner, "nope")); }},
      {"TfLiteSignatureRunnerResizeInputTensor(r, \"nope\", ...)", "error", [](Fixture& f) { const int d[1] = {2}; return IsError(TfLiteSignatureRunnerResizeInputTensor(f.runner, "nope", d, 1)); }},
      {"TfLiteSignatureRunnerAllocateTensors(NULL)", "UB", [](Fixture&) { return IsError(TfLiteSignatureRunnerAllocateTensors(nullptr)); }},
      {"TfLiteSignatureRunnerInvoke(NULL)", "UB", [](Fixture&) { return IsError(TfLiteSignatureRunnerInvoke(nullptr)); }},
      {"TfLiteSignatureRunnerGetInputCount(NULL)", "UB", [](Fixture&) { return TfLiteSignatureRunnerGetInputCount(nullptr) == 0; }},
      {"TfLiteSignatureRunnerDelete(NULL)", "no-op", [](Fixture&) { TfLiteSignatureRunnerDelete(nullptr); return true; }},
      // ---- tensors ----
      {"TfLiteTensorType(NULL)", "UB", [](Fixture&) { return TfLiteTensorType(nullptr) == kTfLiteNoType; }},
      {"TfLiteTensorNumDims(NULL)", "UB", [](Fixture&) { return TfLiteTensorNumDims(nullptr) == -1; }},
      {"TfLiteTensorDim(t, 7)", "UB", [](Fixture& f) { return TfLiteTensorDim(TfLiteInterpreterGetInputTensor(f.interpreter, 0), 7) == -1; }},
      {"TfLiteTensorByteSize(NULL)", "UB", [](Fixture&) { return TfLiteTensorByteSize(nullptr) == 0; }},
      {"TfLiteTensorData(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteTensorData(nullptr)); }},
      {"TfLiteTensorName(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteTensorName(nullptr)); }},
      {"TfLiteTensorCopyFromBuffer(t, buf, wrong size)", "error", [](Fixture& f) { float b[3] = {}; return IsError(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(f.interpreter, 0), b, sizeof(b))); }},
      {"TfLiteTensorCopyFromBuffer(t, NULL, size)", "UB", [](Fixture& f) { return IsError(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(f.interpreter, 0), nullptr, 8)); }},
      {"TfLiteTensorCopyToBuffer(NULL, buf, 8)", "UB", [](Fixture&) { float b[2]; return IsError(TfLiteTensorCopyToBuffer(nullptr, b, sizeof(b))); }},
      // ---- opaque API and operators ----
      {"TfLiteOpaqueTensorType(NULL)", "UB", [](Fixture&) { return TfLiteOpaqueTensorType(nullptr) == kTfLiteNoType; }},
      {"TfLiteOpaqueTensorDim(NULL, 0)", "UB", [](Fixture&) { return TfLiteOpaqueTensorDim(nullptr, 0) == -1; }},
      {"TfLiteOpaqueTensorData(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteOpaqueTensorData(nullptr)); }},
      {"TfLiteOpaqueNodeGetInput(NULL, NULL, 0)", "UB", [](Fixture&) { return IsNull(TfLiteOpaqueNodeGetInput(nullptr, nullptr, 0)); }},
      {"TfLiteOpaqueContextGetOpaqueTensor(NULL, 0)", "UB", [](Fixture&) { return IsNull(TfLiteOpaqueContextGetOpaqueTensor(nullptr, 0)); }},
      {"TfLiteOperatorGetCustomName(NULL)", "UB", [](Fixture&) { return IsNull(TfLiteOperatorGetCustomName(nullptr)); }},
      {"TfLiteOperatorDelete(NULL)", "no-op", [](Fixture&) { TfLiteOperatorDelete(nullptr); return true; }},
      {"TfLiteIntArrayCreate(-1)", "NULL", [](Fixture&) { TfLiteIntArray* a = TfLiteIntArrayCreate(-1); const bool ok = a == nullptr; TfLiteIntArrayFree(a); return ok; }},
  };
  return rows;
}

TEST(NullArgsTest, EveryRowFailsCleanlyAndTheInterpreterStillRuns) {
  Fixture f;
  ASSERT_NE(f.interpreter, nullptr);
  ASSERT_NE(f.runner, nullptr);
  for (const Row& row : Rows()) {
    EXPECT_TRUE(row.ours_fails_cleanly(f)) << row.call << " (upstream: " << row.upstream << ")";
  }
  // Nothing above broke the interpreter.
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(f.interpreter), kTfLiteOk);
  const float in[2] = {1, 2};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(f.interpreter, 0), in,
                                       sizeof(in)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(f.interpreter), kTfLiteOk);
  const float* out =
      static_cast<const float*>(TfLiteTensorData(TfLiteInterpreterGetOutputTensor(f.interpreter, 0)));
  EXPECT_EQ(out[0], 11.0f);
  EXPECT_EQ(out[1], 22.0f);
}

// Where upstream keeps an argument and fails later, so do we.
TEST(NullArgsTest, NullDelegateIsKeptAndFailsCreateLikeUpstream) {
  Fixture f;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCopy(f.options);
  TfLiteInterpreterOptionsAddDelegate(options, nullptr);
  EXPECT_EQ(TfLiteInterpreterCreate(f.model, options), nullptr);
  EXPECT_STREQ(TfLiteGetLastCreateError(), "Null delegate.");
  TfLiteInterpreterOptionsDelete(options);
}

}  // namespace
