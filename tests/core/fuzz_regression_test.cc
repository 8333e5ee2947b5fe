// Regression tests for what the fuzz/ targets found that has no better home:
// each rebuilds the failing input (here: a shared model with the fuzzer's
// field change) and expects a clean error or a clean run. The suite name
// matches "Fuzz", so CI also runs these under ASan+UBSan (label malformed).
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema_generated.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/shared_models.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;

std::unique_ptr<tflite::ModelT> LoadShared(const std::string& name) {
  std::ifstream in(tflite_c::testing::SharedModelPath(name), std::ios::binary);
  if (!in) return nullptr;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!tflite::VerifyModelBuffer(verifier)) return nullptr;
  return tflite::UnPackModel(bytes.data());
}

// Creates, allocates and (when that works) invokes `m`; returns whether
// AllocateTensors succeeded, with every message in `*log`.
bool AllocateAndInvoke(const tflite::ModelT& m, std::string* log) {
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &m));
  const std::vector<uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  if (model == nullptr) return false;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  bool allocated = false;
  if (interpreter != nullptr) {
    allocated = TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk;
    if (allocated) TfLiteInterpreterInvoke(interpreter);
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return allocated;
}

// structured_fuzzer: tflm_trained_lstm_int8 with one gate bias's buffer
// emptied (so the bias is no constant) made the integer LSTM's Prepare fold
// a null bias (UBSan: null pointer passed to memcpy). Prepare refuses it.
TEST(FuzzRegression, IntegerLstmBiasWithoutDataIsRefused) {
  std::unique_ptr<tflite::ModelT> m = LoadShared("tflm_trained_lstm_int8");
  if (m == nullptr) GTEST_SKIP() << "shared model tflm_trained_lstm_int8 not found";
  tflite::SubGraphT& sg = *m->subgraphs[0];
  tflite::OperatorT* lstm = nullptr;
  for (auto& op : sg.operators) {
    if (m->operator_codes[op->opcode_index]->builtin_code ==
        tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM) {
      lstm = op.get();
    }
  }
  ASSERT_NE(lstm, nullptr);
  ASSERT_GT(lstm->inputs.size(), 12u);
  const int bias = lstm->inputs[12];  // input gate bias
  ASSERT_GE(bias, 0);
  std::string log;
  {
    std::string ok_log;
    EXPECT_TRUE(AllocateAndInvoke(*m, &ok_log)) << ok_log;  // unchanged: runs
  }
  m->buffers[sg.tensors[bias]->buffer]->data.clear();
  EXPECT_FALSE(AllocateAndInvoke(*m, &log));
  EXPECT_NE(log.find("must be a constant tensor"), std::string::npos) << log;
}

}  // namespace

namespace misaligned {

// x[4] + c (constant {1, 2, 3, 4}) -> y; DEQUANTIZE(q: int8 [4], scale 0.5,
// zero point 5) -> z. Tensors: 0 x, 1 c, 2 y, 3 q, 4 z.
std::vector<uint8_t> Model() {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  const int q = b.AddInput(tflite::TensorType_INT8, {4}, "q");
  b.SetQuantization(q, {{0.5f}, {5}});
  const int z = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "z");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {y}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {q}, {z}, /*version=*/2);
  return b.Finish();
}

// Runs the model stored `shift` bytes past a 16-byte boundary (XNNPACK off:
// the builtin kernels read the constant in place).
void RunShifted(size_t shift) {
  const std::vector<uint8_t> bytes = Model();
  std::vector<std::max_align_t> storage(bytes.size() / sizeof(std::max_align_t) + 2);
  uint8_t* at = reinterpret_cast<uint8_t*>(storage.data()) + shift;
  std::memcpy(at, bytes.data(), bytes.size());
  std::string log;
  TfLiteModel* model = TfLiteModelCreateWithErrorReporter(at, bytes.size(), CaptureError, &log);
#if defined(__arm__)
  if (shift % 4 != 0) {
    EXPECT_EQ(model, nullptr) << "upstream refuses it on 32-bit ARM";
    EXPECT_NE(log.find("not 4-bytes aligned"), std::string::npos) << log;
    return;
  }
#endif
  ASSERT_NE(model, nullptr) << log;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetUseXNNPACK(options, false);
  TfLiteInterpreter* it = TfLiteInterpreterCreate(model, options);
  ASSERT_NE(it, nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk);
  const TfLiteTensor* c = TfLiteInterpreterGetTensor(it, 1);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c->data.raw) % alignof(std::max_align_t), 0u)
      << "the constant is read where the file put it";
  const float x[4] = {10, 20, 30, 40};
  const int8_t q[4] = {5, 7, -1, 127};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x, sizeof(x)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 1), q, sizeof(q)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk);
  float y[4], z[4];
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(it, 0), y, sizeof(y)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(it, 1), z, sizeof(z)),
            kTfLiteOk);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(y[i], x[i] + (i + 1)) << i;
    EXPECT_EQ(z[i], (q[i] - 5) * 0.5f) << i;  // the zero point read from the int64 vector
  }
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

}  // namespace misaligned

// model_fuzzer (UBSan: misaligned loads): a model whose bytes start 4 bytes
// past an 8-byte boundary has its int64 zero points and its constants off
// their alignment (flatbuffers 2.0.8 checks only 4-byte alignment). Zero
// points are now read byte-wise and such constants copied to aligned memory
// at load. Under ASan+UBSan (CI) the old reads fail this test.
TEST(FuzzRegression, MalformedMisalignedModelBytesAreReadSafely) {
  misaligned::RunShifted(4);
  misaligned::RunShifted(8);
}

// A buffer that is not even 4-byte aligned: upstream refuses it on 32-bit
// ARM; elsewhere the model works on an aligned copy.
TEST(FuzzRegression, MalformedOddModelAddressIsCopiedOrRefused) { misaligned::RunShifted(1); }
