// Target 4: TfLiteInterpreterResizeInputTensor with random shapes on the
// shared set's small real models (every model up to 256 KiB, sorted by
// name). The bytes pick the model and XNNPACK on/off, then up to three
// rounds of: resize some inputs (random rank and dimensions: small, zero,
// negative, large), AllocateTensors, fill the inputs from the bytes, Invoke,
// read the outputs.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool profile = std::getenv("TFLITE_C_FUZZ_PROFILE") != nullptr;
  const auto start = std::chrono::steady_clock::now();
  auto& models = tflite_c::fuzz::SmallModels(256 << 10, nullptr);
  tflite_c::fuzz::Choices c(data, size);
  const auto& m = models[c.Below(static_cast<uint32_t>(models.size()))];
  if (m.model == nullptr) return 0;
  if (profile) fprintf(stderr, "profile: model %s\n", m.name.c_str());
  TfLiteInterpreterOptions* options = tflite_c::fuzz::NewOptions(c.Byte() & 1);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, options);
  if (interpreter != nullptr) {
    const int32_t inputs = TfLiteInterpreterGetInputTensorCount(interpreter);
    for (int round = 0; round < 3 && !c.empty(); ++round) {
      const uint8_t resizes = c.Byte() % 4;
      for (uint8_t k = 0; k < resizes && inputs > 0; ++k) {
        // Index `inputs` (one past the end) is asked for too.
        const int32_t i = static_cast<int32_t>(c.Below(static_cast<uint32_t>(inputs) + 1));
        const std::vector<int> shape = tflite_c::fuzz::ChooseShape(c);
        const TfLiteStatus s = TfLiteInterpreterResizeInputTensor(
            interpreter, i, shape.data(), static_cast<int32_t>(shape.size()));
        if (profile) {
          fprintf(stderr, "profile: round %d: resize input %d to [", round, i);
          for (size_t d = 0; d < shape.size(); ++d) fprintf(stderr, "%s%d", d ? "," : "", shape[d]);
          fprintf(stderr, "]: %s\n", s == kTfLiteOk ? "ok" : "refused");
        }
      }
      const bool allocated = TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk;
      if (profile) fprintf(stderr, "profile: round %d: allocate %s\n", round, allocated ? "ok" : "failed");
      if (!allocated) continue;
      for (int32_t i = 0; i < inputs; ++i) {
        tflite_c::fuzz::FillTensor(TfLiteInterpreterGetInputTensor(interpreter, i), c);
      }
      const bool invoked = TfLiteInterpreterInvoke(interpreter) == kTfLiteOk;
      if (profile) fprintf(stderr, "profile: round %d: invoke %s\n", round, invoked ? "ok" : "failed");
      if (!invoked) continue;
      const int32_t outputs = TfLiteInterpreterGetOutputTensorCount(interpreter);
      for (int32_t i = 0; i < outputs; ++i) {
        tflite_c::fuzz::TouchTensor(TfLiteInterpreterGetOutputTensor(interpreter, i));
      }
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  if (profile) {
    fprintf(stderr, "profile %s %.1f ms\n", m.name.c_str(),
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return 0;
}
