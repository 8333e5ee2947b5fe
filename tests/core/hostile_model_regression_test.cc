// Regressions of hostile_model_fuzz_test.cc: the exact mutations the fuzzer
// found (tensors written twice, operators out of execution order, huge
// tensors, zero points outside the type, resizes past the allocation limit),
// replayed on shared models through the public C API, with and without
// XNNPACK. The suite name matches "Fuzz", so CI reruns it under ASan+UBSan.
#include <sys/stat.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema_generated.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/shared_models.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ReadSharedModel;

// ---- regressions: exact mutations the fuzzer found ------------------------------

// Creates model + interpreter (XNNPACK as given) and allocates; returns the
// first failing step's messages, or "" when everything succeeded.
std::string BuildAndAllocate(const std::vector<uint8_t>& bytes, bool xnnpack,
                             int64_t max_allocation_bytes = 0) {
  std::string rep;  // what the library reported
  TfLiteModel* model = TfLiteModelCreateWithErrorReporter(bytes.data(), bytes.size(), CaptureError, &rep);
  if (model == nullptr) return "model: " + rep;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, xnnpack);
  if (max_allocation_bytes > 0) TfLiteInterpreterOptionsSetMaxAllocationBytes(options, max_allocation_bytes);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  if (interpreter == nullptr) return "interpreter: " + rep;
  const TfLiteStatus s = TfLiteInterpreterAllocateTensors(interpreter);
  TfLiteInterpreterDelete(interpreter);
  return s == kTfLiteOk ? std::string() : "allocate: " + rep;
}

// Sets the int32 at `offset` after checking that it holds `expected`, so that
// a changed model file shows up as a clear failure, not a silent pass.
void Poke(std::vector<uint8_t>* bytes, size_t offset, int32_t expected, int32_t value) {
  ASSERT_LE(offset + 4, bytes->size());
  int32_t old;
  std::memcpy(&old, bytes->data() + offset, 4);
  ASSERT_EQ(old, expected) << "the model file changed; offset " << offset;
  std::memcpy(bytes->data() + offset, &value, 4);
}

// java_add seed 145: operator 1's output 2 -> 0, so tensor 0 has two
// producers (and the graph output none). The XNNPACK delegate crashed
// (SIGSEGV in xnn_f32_vadd); the model is now refused when created.
TEST(HostileModelFuzz, TensorWrittenByTwoOperatorsIsRejected) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::vector<uint8_t> bytes = ReadSharedModel("java_add");
  ASSERT_FALSE(bytes.empty());
  Poke(&bytes, 340, 2, 0);
  for (bool xnnpack : {false, true}) {
    const std::string r = BuildAndAllocate(bytes, xnnpack);
    EXPECT_NE(r.find("output tensor 0 is also an output of operator 0"), std::string::npos) << r;
  }
}

// quant_split seed 125 (operator 1's output 1 -> 2, SPLIT's second output
// again): two producers; the XNNPACK path aborted with a double free.
TEST(HostileModelFuzz, SplitOutputWrittenTwiceIsRejected) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::vector<uint8_t> bytes = ReadSharedModel("quant_split");
  ASSERT_FALSE(bytes.empty());
  Poke(&bytes, 316, 1, 2);
  for (bool xnnpack : {false, true}) {
    const std::string r = BuildAndAllocate(bytes, xnnpack);
    EXPECT_NE(r.find("is also an output of operator"), std::string::npos) << r;
  }
}

// java_add with operator 0 reading the graph output, which operator 1
// writes: a use before definition (a cycle for XNNPACK, whose subgraph
// fusion aborted on such graphs, see mp_selfie_segmentation seed 6).
TEST(HostileModelFuzz, OperatorsOutOfExecutionOrderAreRejected) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::vector<uint8_t> bytes = ReadSharedModel("java_add");
  ASSERT_FALSE(bytes.empty());
  // Operator 0 is ADD(input 1, input 1) -> 0; make its second input tensor 2.
  const tflite::Model* m = tflite::GetModel(bytes.data());
  const auto* op0 = m->subgraphs()->Get(0)->operators()->Get(0);
  ASSERT_EQ(op0->inputs()->size(), 2u);
  const size_t offset = static_cast<size_t>(
      reinterpret_cast<const uint8_t*>(op0->inputs()->data() + 1) - bytes.data());
  Poke(&bytes, offset, op0->inputs()->Get(1), 2);
  const std::string r = BuildAndAllocate(bytes, true);
  EXPECT_NE(r.find("which operator 1 writes later"), std::string::npos) << r;
}

// litert_gather_string seed 14: GATHER's positions became INT64 with a shape
// of 1537071219 elements; the runtime allocated and zeroed a 12 GB arena,
// then the kernel threw std::bad_alloc. The allocation limit refuses it.
TEST(HostileModelFuzz, HugeTensorIsRefusedByTheAllocationLimit) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::vector<uint8_t> bytes = ReadSharedModel("java_add");
  ASSERT_FALSE(bytes.empty());
  // The graph input [1,8,8,3] becomes [1,8,8,1<<22]: 1 GiB of float, which
  // a 32-bit size_t still holds, so every architecture reaches the limit.
  const tflite::Model* m = tflite::GetModel(bytes.data());
  const auto* input = m->subgraphs()->Get(0)->tensors()->Get(1);
  ASSERT_EQ(input->shape()->size(), 4u);
  const size_t offset = static_cast<size_t>(
      reinterpret_cast<const uint8_t*>(input->shape()->data() + 3) - bytes.data());
  Poke(&bytes, offset, 3, 1 << 22);
  for (bool xnnpack : {false, true}) {
    const std::string r = BuildAndAllocate(bytes, xnnpack, 1 << 20);
    EXPECT_NE(r.find("more than the allocation limit of 1048576 bytes"), std::string::npos) << r;
  }
  // A limit below the unmutated model's arena (3 tensors of 768 bytes) fails
  // AllocateTensors; a sufficient one does not.
  const std::vector<uint8_t> original = ReadSharedModel("java_add");
  const std::string small = BuildAndAllocate(original, false, 1000);
  EXPECT_NE(small.find("tensor arena would need"), std::string::npos) << small;
  EXPECT_EQ(BuildAndAllocate(original, false, 1 << 20), "");
}

// tflite_add_quantized_int8 seed 21: tensor 0's zero point 0 -> INT_MIN;
// ADD's Prepare negated it (signed overflow, found by UBSan). Now refused.
TEST(HostileModelFuzz, QuantizedAddZeroPointOutsideTheTypeIsRejected) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::vector<uint8_t> bytes = ReadSharedModel("tflite_add_quantized_int8");
  ASSERT_FALSE(bytes.empty());
  int32_t old;
  std::memcpy(&old, bytes.data() + 688, 4);
  ASSERT_EQ(old, 0);
  const int32_t zp = INT_MIN;
  std::memcpy(bytes.data() + 688, &zp, 4);  // 64-bit zero_point: low word
  const int32_t sign = -1;
  std::memcpy(bytes.data() + 692, &sign, 4);
  const std::string r = BuildAndAllocate(bytes, false);
  EXPECT_NE(r.find("is outside the"), std::string::npos) << r;
}

// Resizing an input past the limit fails cleanly and leaves the interpreter
// usable at its old size.
TEST(HostileModelFuzz, ResizePastTheAllocationLimitFails) {
  SKIP_WITHOUT_SHARED_MODELS();
  const std::vector<uint8_t> bytes = ReadSharedModel("java_add");
  ASSERT_FALSE(bytes.empty());
  std::string rep;  // what the library reported
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, false);
  ASSERT_EQ(TfLiteInterpreterOptionsSetMaxAllocationBytes(options, 1 << 20), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterOptionsSetMaxAllocationBytes(options, -1), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterOptionsSetMaxAllocationBytes(nullptr, 1), kTfLiteError);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  ASSERT_NE(interpreter, nullptr) << rep;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << rep;
  const int big[] = {1, 1024, 1024, 3};  // 12 MiB
  const size_t before = rep.size();
  EXPECT_NE(TfLiteInterpreterResizeInputTensor(interpreter, 0, big, 4), kTfLiteOk);
  EXPECT_GT(rep.size(), before);
  EXPECT_NE(rep.find("more than the allocation limit of 1048576 bytes"), std::string::npos)
      << rep;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << rep;
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk) << rep;
  TfLiteInterpreterDelete(interpreter);
}

}  // namespace
