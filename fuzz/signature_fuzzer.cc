// Target 3: the signature-runner API on the shared set's small models that
// carry signature defs. The bytes pick the model, XNNPACK on/off, then a
// sequence of up to 24 calls on up to four runners: get a runner by key (a
// real key or a made-up one), resize an input (real or unknown name, random
// shape), allocate, fill inputs, invoke, read outputs, delete a runner, or
// allocate / invoke the interpreter itself in between.
// TFLITE_C_FUZZ_TRACE=1 prints the model and every call with its result, to
// turn a reproducer into a test.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_common.h"
#include "schema_generated.h"

namespace {

using tflite_c::fuzz::Choices;

bool HasSignatures(const std::vector<uint8_t>& bytes) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!tflite::VerifyModelBuffer(verifier)) return false;
  const auto* defs = tflite::GetModel(bytes.data())->signature_defs();
  return defs != nullptr && defs->size() > 0;
}

std::string MadeUpName(Choices& c) {
  std::string s;
  const int n = c.Byte() % 6;
  for (int i = 0; i < n; ++i) s += static_cast<char>('a' + c.Byte() % 26);
  return s;
}

bool Tracing() {
  static const bool on = std::getenv("TFLITE_C_FUZZ_TRACE") != nullptr;
  return on;
}

std::string ShapeText(const std::vector<int>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

// Prints one call when tracing.
#define TRACE(...)                                \
  do {                                            \
    if (Tracing()) std::fprintf(stderr, __VA_ARGS__); \
  } while (0)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto& models = tflite_c::fuzz::SmallModels(256 << 10, HasSignatures);
  Choices c(data, size);
  const auto& m = models[c.Below(static_cast<uint32_t>(models.size()))];
  if (m.model == nullptr) return 0;
  const bool xnnpack = c.Byte() & 1;
  TRACE("model %s, xnnpack %d\n", m.name.c_str(), xnnpack);
  TfLiteInterpreterOptions* options = tflite_c::fuzz::NewOptions(xnnpack);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(m.model, options);
  if (interpreter == nullptr) {
    TfLiteInterpreterOptionsDelete(options);
    return 0;
  }
  const int32_t keys = TfLiteInterpreterGetSignatureCount(interpreter);
  std::vector<TfLiteSignatureRunner*> runners;
  auto runner = [&]() -> TfLiteSignatureRunner* {
    return runners.empty() ? nullptr : runners[c.Below(static_cast<uint32_t>(runners.size()))];
  };
  for (int step = 0; step < 24 && !c.empty(); ++step) {
    switch (c.Byte() % 9) {
      case 0: {
        if (runners.size() >= 4) break;
        const uint32_t k = c.Below(static_cast<uint32_t>(keys) + 1);
        std::string key;
        if (static_cast<int32_t>(k) < keys) {
          const char* name = TfLiteInterpreterGetSignatureKey(interpreter, static_cast<int32_t>(k));
          if (name != nullptr) key = name;
        } else {
          key = MadeUpName(c);
        }
        TfLiteSignatureRunner* r = TfLiteInterpreterGetSignatureRunner(interpreter, key.c_str());
        TRACE("runner %zu = GetSignatureRunner(\"%s\") -> %p\n", runners.size(), key.c_str(),
              static_cast<void*>(r));
        if (r != nullptr) runners.push_back(r);
        break;
      }
      case 1: {
        TfLiteSignatureRunner* r = runner();
        if (r == nullptr) break;
        const size_t inputs = TfLiteSignatureRunnerGetInputCount(r);
        const uint32_t i = c.Below(static_cast<uint32_t>(inputs) + 1);
        std::string name;
        if (i < inputs) {
          const char* n = TfLiteSignatureRunnerGetInputName(r, static_cast<int32_t>(i));
          if (n != nullptr) name = n;
        } else {
          name = MadeUpName(c);
        }
        const std::vector<int> shape = tflite_c::fuzz::ChooseShape(c);
        const TfLiteStatus s = TfLiteSignatureRunnerResizeInputTensor(
            r, name.c_str(), shape.data(), static_cast<int32_t>(shape.size()));
        TRACE("%p ResizeInputTensor(\"%s\", %s) -> %d\n", static_cast<void*>(r), name.c_str(),
              ShapeText(shape).c_str(), s);
        break;
      }
      case 2:
        if (TfLiteSignatureRunner* r = runner()) {
          const TfLiteStatus s = TfLiteSignatureRunnerAllocateTensors(r);
          TRACE("%p AllocateTensors -> %d\n", static_cast<void*>(r), s);
        }
        break;
      case 3:
        if (TfLiteSignatureRunner* r = runner()) {
          const size_t inputs = TfLiteSignatureRunnerGetInputCount(r);
          for (size_t i = 0; i < inputs; ++i) {
            const char* n = TfLiteSignatureRunnerGetInputName(r, static_cast<int32_t>(i));
            if (n != nullptr) tflite_c::fuzz::FillTensor(TfLiteSignatureRunnerGetInputTensor(r, n), c);
          }
          TRACE("%p fill inputs\n", static_cast<void*>(r));
        }
        break;
      case 4:
      case 5:
        if (TfLiteSignatureRunner* r = runner()) {
          TRACE("%p Invoke ...\n", static_cast<void*>(r));
          const TfLiteStatus s = TfLiteSignatureRunnerInvoke(r);
          TRACE("%p Invoke -> %d\n", static_cast<void*>(r), s);
        }
        break;
      case 6:
        if (TfLiteSignatureRunner* r = runner()) {
          const size_t outputs = TfLiteSignatureRunnerGetOutputCount(r);
          for (size_t i = 0; i < outputs; ++i) {
            const char* n = TfLiteSignatureRunnerGetOutputName(r, static_cast<int32_t>(i));
            if (n != nullptr) tflite_c::fuzz::TouchTensor(TfLiteSignatureRunnerGetOutputTensor(r, n));
          }
          // Unknown names come back as NULL.
          TfLiteSignatureRunnerGetOutputTensor(r, MadeUpName(c).c_str());
          TfLiteSignatureRunnerGetInputTensor(r, MadeUpName(c).c_str());
        }
        break;
      case 7:
        if (!runners.empty()) {
          const uint32_t i = c.Below(static_cast<uint32_t>(runners.size()));
          TRACE("%p Delete\n", static_cast<void*>(runners[i]));
          TfLiteSignatureRunnerDelete(runners[i]);
          runners.erase(runners.begin() + i);
        }
        break;
      default:
        if (TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
          tflite_c::fuzz::FillInputs(interpreter, c.rest(), c.remaining());
          TRACE("interpreter AllocateTensors ok, Invoke ...\n");
          const TfLiteStatus s = TfLiteInterpreterInvoke(interpreter);
          TRACE("interpreter Invoke -> %d\n", s);
        } else {
          TRACE("interpreter AllocateTensors failed\n");
        }
        break;
    }
  }
  for (TfLiteSignatureRunner* r : runners) TfLiteSignatureRunnerDelete(r);
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  return 0;
}
