#include "fuzz/fuzz_common.h"

#include <dirent.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "flatbuffers/flatbuffers.h"
#include "fuzz/fuzz_paths.h"
#include "schema_generated.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"

namespace tflite_c {
namespace fuzz {

namespace {
void SwallowReport(void*, const char*, va_list) {}

// A caller writes bool inputs as 0 / 1 (any other byte is not a C++ bool,
// and kernels read them as bool, as upstream's do).
void NormalizeBools(TfLiteTensor* t) {
  if (TfLiteTensorType(t) != kTfLiteBool) return;
  auto* data = static_cast<uint8_t*>(TfLiteTensorData(t));
  const size_t n = TfLiteTensorByteSize(t);
  for (size_t k = 0; data != nullptr && k < n; ++k) data[k] &= 1;
}
}  // namespace

TfLiteInterpreterOptions* NewOptions(bool xnnpack) {
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (options == nullptr) return nullptr;
  TfLiteInterpreterOptionsSetNumThreads(options, 1);
  TfLiteInterpreterOptionsSetErrorReporter(options, SwallowReport, nullptr);
  TfLiteInterpreterOptionsSetMaxAllocationBytes(options, kMaxAllocationBytes);
  TfLiteInterpreterOptionsSetMaxWhileIterations(options, kMaxWhileIterations);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, xnnpack);
  return options;
}

void FillInputs(TfLiteInterpreter* interpreter, const uint8_t* bytes, size_t size) {
  const int32_t count = TfLiteInterpreterGetInputTensorCount(interpreter);
  size_t at = 0;
  for (int32_t i = 0; i < count; ++i) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, i);
    if (t == nullptr || TfLiteTensorType(t) == kTfLiteString) continue;
    auto* data = static_cast<uint8_t*>(TfLiteTensorData(t));
    const size_t n = TfLiteTensorByteSize(t);
    if (data == nullptr || n == 0) continue;
    if (size == 0) {
      std::memset(data, 0, n);
      continue;
    }
    for (size_t k = 0; k < n; ++k) data[k] = bytes[(at + k) % size];
    at = (at + n) % size;
    NormalizeBools(t);
  }
}

void FillTensor(TfLiteTensor* t, Choices& c) {
  if (t == nullptr || TfLiteTensorType(t) == kTfLiteString) return;
  auto* data = static_cast<uint8_t*>(TfLiteTensorData(t));
  const size_t n = TfLiteTensorByteSize(t);
  if (data == nullptr || n == 0) return;
  const size_t avail = c.remaining();
  const uint8_t* src = c.rest();
  for (size_t k = 0; k < n; ++k) data[k] = avail ? src[k % avail] : 0;
  NormalizeBools(t);
  for (size_t k = 0; k < 4 && !c.empty(); ++k) c.Byte();  // the next tensor starts elsewhere
}

void TouchTensor(const TfLiteTensor* t) {
  if (t == nullptr) return;
  const auto* p = static_cast<const volatile uint8_t*>(TfLiteTensorData(t));
  const size_t n = TfLiteTensorByteSize(t);
  if (p == nullptr) return;
  uint8_t sum = 0;
  for (size_t k = 0; k < n; ++k) sum = static_cast<uint8_t>(sum + p[k]);
  (void)sum;
}

std::vector<int> ChooseShape(Choices& c) {
  std::vector<int> shape(c.Byte() % 6);
  for (int& d : shape) {
    const uint8_t b = c.Byte();
    if (b < 200) {
      d = 1 + b % 8;
    } else if (b < 220) {
      d = 0;
    } else if (b < 230) {
      d = -1;
    } else if (b < 245) {
      d = 16 + (b - 230) * 64;
    } else {
      d = static_cast<int>(c.U32());
    }
  }
  return shape;
}

void RunModel(const uint8_t* model_bytes, size_t model_size, bool xnnpack,
              const uint8_t* input_bytes, size_t input_size) {
  // An exact-size heap copy: aligned as a file read would be, and ASan sees
  // any read past its end.
  std::vector<uint8_t> copy(model_bytes, model_bytes + model_size);
  TfLiteModel* model = TfLiteModelCreateWithErrorReporter(copy.data(), copy.size(), SwallowReport,
                                                          nullptr);
  if (model == nullptr) return;
  TfLiteInterpreterOptions* options = NewOptions(xnnpack);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
    FillInputs(interpreter, input_bytes, input_size);
    // Twice: the second run sees the state (variables, dynamic tensors,
    // caches) the first one left.
    if (TfLiteInterpreterInvoke(interpreter) == kTfLiteOk) TfLiteInterpreterInvoke(interpreter);
    const int32_t outputs = TfLiteInterpreterGetOutputTensorCount(interpreter);
    for (int32_t i = 0; i < outputs; ++i) TouchTensor(TfLiteInterpreterGetOutputTensor(interpreter, i));
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

std::string ModelsDir() {
  const char* env = std::getenv("TFLITE_C_FUZZ_MODELS");
  if (env != nullptr && *env != '\0') return env;
  return std::string(TFLITE_C_FUZZ_SHARED_DIR) + "/models/files";
}

std::vector<uint8_t> ReadModel(const std::string& name) {
  std::ifstream in(ModelsDir() + "/" + name + ".tflite", std::ios::binary);
  if (!in) return {};
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<NamedModel>& SmallModels(size_t max_bytes, bool (*keep)(const std::vector<uint8_t>&)) {
  // Loaded once per process and kept (the fuzzers never unload them).
  static auto* models = new std::vector<NamedModel>();
  if (!models->empty()) return *models;
  std::vector<std::string> names;
  if (DIR* dir = opendir(ModelsDir().c_str())) {
    while (const dirent* e = readdir(dir)) {
      const std::string file = e->d_name;
      const std::string ext = ".tflite";
      if (file.size() > ext.size() && file.compare(file.size() - ext.size(), ext.size(), ext) == 0) {
        names.push_back(file.substr(0, file.size() - ext.size()));
      }
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    NamedModel m;
    m.name = name;
    m.bytes = ReadModel(m.name);
    if (m.bytes.empty() || m.bytes.size() > max_bytes || (keep && !keep(m.bytes))) continue;
    models->push_back(std::move(m));
  }
  // TfLiteModelCreate keeps a pointer to the bytes: create after the vector
  // stopped moving.
  for (NamedModel& m : *models) {
    m.model = TfLiteModelCreateWithErrorReporter(m.bytes.data(), m.bytes.size(), SwallowReport,
                                                 nullptr);
  }
  if (models->empty()) {
    fprintf(stderr, "fuzz: none of the seed models found under %s (set TFLITE_C_FUZZ_MODELS)\n",
            ModelsDir().c_str());
    std::abort();
  }
  return *models;
}

}  // namespace fuzz
}  // namespace tflite_c
