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

#include <unistd.h>

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
// zero point 5) -> z; a: int64 [2] + k (constant {2^40, -3}) -> s;
// DEQUANTIZE(w: int8 constant {1, -2, 3, -4}, scale 0.25, zero point -1)
// -> v. Tensors: 0 x, 1 c, 2 y, 3 q, 4 z, 5 a, 6 k, 7 s, 8 w, 9 v.
std::vector<uint8_t> Model() {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  const int q = b.AddInput(tflite::TensorType_INT8, {4}, "q");
  b.SetQuantization(q, {{0.5f}, {5}});
  const int z = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "z");
  const int a = b.AddInput(tflite::TensorType_INT64, {2}, "a");
  const int k = b.AddConstant<int64_t>({2}, {int64_t{1} << 40, -3});
  const int s = b.AddOutput(tflite::TensorType_INT64, {2}, "s");
  const int w = b.AddConstant<int8_t>({4}, {1, -2, 3, -4});
  b.SetQuantization(w, {{0.25f}, {-1}});
  const int v = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "v");
  b.SetInputs({x, q, a});
  b.SetOutputs({y, z, s, v});
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {y}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {q}, {z}, /*version=*/2);
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, k}, {s}, tflite::AddOptionsT(), /*version=*/4);
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {w}, {v}, /*version=*/2);
  return b.Finish();
}

// Runs the model stored `shift` bytes past a 16-byte boundary (XNNPACK off:
// the builtin kernels read the constants where the model keeps them).
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
  // Each constant sits on its element's alignment: read in place when the
  // file puts it there (the builder aligns buffers to 16 bytes, so here
  // always for the int8 and float ones), otherwise from an aligned copy.
  // The int64 one is copied when the shift puts it off 8 bytes.
  struct Constant {
    int tensor;
    size_t align;
  };
  const Constant constants[] = {{1, alignof(float)}, {6, alignof(int64_t)}, {8, 1}};
  for (const Constant& k : constants) {
    const TfLiteTensor* t = TfLiteInterpreterGetTensor(it, k.tensor);
    ASSERT_NE(t, nullptr);
    const uintptr_t p = reinterpret_cast<uintptr_t>(t->data.raw);
    EXPECT_EQ(p % k.align, 0u) << "tensor " << k.tensor << ", shift " << shift;
    if (shift % 4 != 0) continue;  // the whole model was copied
    const bool inside = p >= reinterpret_cast<uintptr_t>(at) &&
                        p < reinterpret_cast<uintptr_t>(at) + bytes.size();
    EXPECT_EQ(inside, shift % k.align == 0)
        << "tensor " << k.tensor << ", shift " << shift
        << (inside ? ": read in place off its alignment" : ": copied though aligned in the file");
  }
  const float x[4] = {10, 20, 30, 40};
  const int8_t q[4] = {5, 7, -1, 127};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x, sizeof(x)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 1), q, sizeof(q)),
            kTfLiteOk);
  const int64_t a[2] = {7, -(int64_t{1} << 50)};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 2), a, sizeof(a)),
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
  int64_t sum[2];
  float v[4];
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(it, 2), sum, sizeof(sum)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(it, 3), v, sizeof(v)),
            kTfLiteOk);
  EXPECT_EQ(sum[0], 7 + (int64_t{1} << 40));
  EXPECT_EQ(sum[1], -(int64_t{1} << 50) - 3);
  const float expected_v[4] = {0.5f, -0.25f, 1.0f, -0.75f};  // (w + 1) * 0.25
  for (int i = 0; i < 4; ++i) EXPECT_EQ(v[i], expected_v[i]) << i;
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

}  // namespace misaligned

// model_fuzzer (UBSan: misaligned loads): a model whose bytes start 4 bytes
// past an 8-byte boundary has its int64 zero points and its constants off
// their alignment (flatbuffers 2.0.8 checks only 4-byte alignment). Zero
// points are now read byte-wise and a constant off its element's alignment
// copied to aligned memory at load (bytes are read in place). Under
// ASan+UBSan (CI) the old reads fail this test.
TEST(FuzzRegression, MalformedMisalignedModelBytesAreReadSafely) {
  misaligned::RunShifted(4);
  misaligned::RunShifted(8);
  misaligned::RunShifted(12);
}

// A buffer that is not even 4-byte aligned: upstream refuses it on 32-bit
// ARM; elsewhere the model works on an aligned copy.
TEST(FuzzRegression, MalformedOddModelAddressIsCopiedOrRefused) { misaligned::RunShifted(1); }

namespace constant_input {

// structured_fuzzer: a PAD whose paddings tensor is both a constant and a
// subgraph input. The fuzz harness (like any client filling every input)
// wrote new paddings after AllocateTensors; PAD had sized its output from
// the old ones in Prepare and wrote past it in Eval (ASan). Such a constant
// now gets a private copy; Invoke refuses values changed after
// AllocateTensors, which applies them.
//   x float [2, 3], p int32 [2, 2] = {0, 0, 1, 1} (also an input) -> PAD -> y
std::vector<uint8_t> Model() {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3}, "x");
  const int p = b.AddConstant<int32_t>({2, 2}, {0, 0, 1, 1});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 5}, "y");
  b.SetInputs({x, p});
  b.AddOperator(tflite::BuiltinOperator_PAD, {x, p}, {y}, tflite::PadOptionsT());
  return b.Finish();
}

std::vector<float> RunOnce(TfLiteInterpreter* it) {
  const float x[6] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x, sizeof(x)),
            kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk);
  const TfLiteTensor* y = TfLiteInterpreterGetOutputTensor(it, 0);
  const float* data = static_cast<const float*>(TfLiteTensorData(y));
  return std::vector<float>(data, data + TfLiteTensorByteSize(y) / sizeof(float));
}

// Writes paddings {0, 0, 2, 2} into the constant input the way a client
// fills inputs, then checks Invoke refuses and AllocateTensors applies them.
void WriteNewPaddings(TfLiteInterpreter* it, const std::string& log) {
  TfLiteTensor* p = TfLiteInterpreterGetInputTensor(it, 1);
  ASSERT_EQ(TfLiteTensorByteSize(p), 4 * sizeof(int32_t));
  int32_t* values = static_cast<int32_t*>(TfLiteTensorData(p));
  values[2] = 2;
  values[3] = 2;
  EXPECT_EQ(TfLiteInterpreterInvoke(it), kTfLiteError);
  EXPECT_NE(log.find("changed after AllocateTensors"), std::string::npos) << log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << log;
  const TfLiteTensor* y = TfLiteInterpreterGetOutputTensor(it, 0);
  ASSERT_EQ(TfLiteTensorNumDims(y), 2);
  EXPECT_EQ(TfLiteTensorDim(y, 1), 7);
  const std::vector<float> expected = {0, 0, 1, 2, 3, 0, 0, 0, 0, 4, 5, 6, 0, 0};
  EXPECT_EQ(RunOnce(it), expected);
}

TfLiteInterpreter* Create(TfLiteModel* model, TfLiteInterpreterOptions* options,
                          std::string* log) {
  TfLiteInterpreterOptionsSetUseXNNPACK(options, false);
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, log);
  TfLiteInterpreter* it = TfLiteInterpreterCreate(model, options);
  if (it != nullptr && TfLiteInterpreterAllocateTensors(it) != kTfLiteOk) {
    TfLiteInterpreterDelete(it);
    return nullptr;
  }
  return it;
}

}  // namespace constant_input

TEST(FuzzRegression, ConstantInputWrittenAfterAllocateIsRefusedThenApplied) {
  const std::vector<uint8_t> bytes = constant_input::Model();
  const std::vector<uint8_t> original = bytes;
  std::string log;
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreter* it = constant_input::Create(model, options, &log);
  ASSERT_NE(it, nullptr) << log;
  const std::vector<float> padded = {0, 1, 2, 3, 0, 0, 4, 5, 6, 0};
  EXPECT_EQ(constant_input::RunOnce(it), padded);
  constant_input::WriteNewPaddings(it, log);
  EXPECT_EQ(bytes, original) << "the write reached the caller's model bytes";
  // A second interpreter on the same model still sees the model's values.
  std::string log2;
  TfLiteInterpreter* other = constant_input::Create(model, options, &log2);
  ASSERT_NE(other, nullptr) << log2;
  EXPECT_EQ(constant_input::RunOnce(other), padded);
  TfLiteInterpreterDelete(other);
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

// From a file the model is mapped read-only: writing the constant input
// went to that mapping (a SIGSEGV). It now lands in the private copy.
TEST(FuzzRegression, ConstantInputOfAMappedModelIsWritable) {
  const std::vector<uint8_t> bytes = constant_input::Model();
  char path[] = "/tmp/tflite_c_constant_input_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
  TfLiteModel* model = TfLiteModelCreateFromFile(path);
  ASSERT_NE(model, nullptr);
  std::string log;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreter* it = constant_input::Create(model, options, &log);
  ASSERT_NE(it, nullptr) << log;
  constant_input::WriteNewPaddings(it, log);
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  unlink(path);
}

// structured_fuzzer: CONCATENATION of two [0, 2] inputs along axis 0 copied
// zero bytes to and from null buffers (UBSan: null pointer passed to memcpy);
// later an empty input beside a non-empty one did the same from its null
// buffer (fuzz_regression_kernels_test.cc). An empty output returns at once,
// and an empty slab is skipped.
TEST(FuzzRegression, MalformedEmptyConcatenationCopiesNothing) {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {0, 2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {0, 2}, "y");
  tflite::ConcatenationOptionsT o;
  o.axis = 0;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {x, x}, {y}, o);
  std::string log;
  EXPECT_TRUE(AllocateAndInvoke(*tflite::UnPackModel(b.Finish().data()), &log)) << log;
}
