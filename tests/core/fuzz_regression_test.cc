// Regression tests for what the fuzz/ targets found that has no better home:
// each rebuilds the failing input (here: a shared model with the fuzzer's
// field change) and expects a clean error or a clean run. The suite name
// matches "Fuzz", so CI also runs these under ASan+UBSan (label malformed).
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema_generated.h"
#include "tensorflow/lite/c/c_api.h"
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
