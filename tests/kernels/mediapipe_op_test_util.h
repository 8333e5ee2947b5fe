// Shared by the tests of MediaPipe's and LiteRT's custom ops
// (mediapipe_transform_tensor_test.cc, mediapipe_landmarks_test.cc,
// litert_max_unpooling_test.cc, face_landmark_attention_test.cc, flex_map_test.cc):
// a one-model run through the C API, raw input bytes, flexbuffer options,
// the affine matrices the ops take, and the shared model folder.
#ifndef TFLITE_C_TESTS_KERNELS_MEDIAPIPE_OP_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_MEDIAPIPE_OP_TEST_UTIL_H_

#include <cstring>
#include <string>
#include <vector>

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/test_paths.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace testing {

// A model + interpreter built with the default resolver.
struct OpRun {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  std::string log;

  explicit OpRun(std::vector<uint8_t> b) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
  }
  ~OpRun() {
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  // Inputs are raw bytes so that int32 and float inputs can be mixed.
  TfLiteStatus Invoke(const std::vector<std::vector<uint8_t>>& inputs) {
    if (interpreter == nullptr) return kTfLiteError;
    TfLiteStatus s = TfLiteInterpreterAllocateTensors(interpreter);
    if (s != kTfLiteOk) return s;
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, static_cast<int>(i));
      s = TfLiteTensorCopyFromBuffer(t, inputs[i].data(), inputs[i].size());
      if (s != kTfLiteOk) return s;
    }
    return TfLiteInterpreterInvoke(interpreter);
  }
  std::vector<float> Output(int i = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<float> v(TfLiteTensorByteSize(t) / sizeof(float));
    TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
    return v;
  }
  std::vector<int> OutputShape(int i = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<int> d;
    for (int k = 0; k < TfLiteTensorNumDims(t); ++k) d.push_back(TfLiteTensorDim(t, k));
    return d;
  }
  // AllocateTensors must fail with `message` in the log.
  void ExpectPrepareError(const std::string& message) {
    ASSERT_NE(interpreter, nullptr) << log;
    EXPECT_NE(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
    EXPECT_NE(log.find(message), std::string::npos) << "log: " << log;
  }
};

template <typename T>
std::vector<uint8_t> Raw(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// A flexbuffer map built by flatbuffers' own encoder.
template <typename F>
std::vector<uint8_t> Flex(F fill) {
  flexbuffers::Builder fbb;
  fbb.Map([&] { fill(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Row-major 4x4 affine matrix [a b p tx; c d q ty; ...]; p and q (the z
// column) and the last two rows are filled with junk the ops must ignore.
inline std::vector<float> Affine(float a, float b, float tx, float c, float d, float ty) {
  return {a, b, 7.0f, tx, c, d, -5.0f, ty, 3.0f, 4.0f, 9.0f, 1.0f, 2.0f, 8.0f, 6.0f, 1.0f};
}

// Applies a [1, 4, 4] matrix (as the ops define it) to (x, y).
inline void Apply(const std::vector<float>& m, double x, double y, double* ox, double* oy) {
  *ox = m[0] * x + m[1] * y + m[3];
  *oy = m[4] * x + m[5] * y + m[7];
}

inline std::string SharedFile(const std::string& path) {
  return std::string(TFLITE_C_SHARED_DIR) + "/models/" + path;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_MEDIAPIPE_OP_TEST_UTIL_H_
