// Whole-model benchmarks over the shared model collection, through the public
// C API: Init (load + interpreter creation + AllocateTensors) and Invoke.
// Models that are absent, or that need operators this build lacks, are
// reported as skipped rather than failing the run. Counter "heap_MB": heap
// bytes (glibc mallinfo2: in-use + mmapped chunks) the loaded, allocated and
// once-invoked interpreter holds — arena, persistent buffers and kernel data.

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"

#ifndef TFLITE_C_MODELS_DIR
#define TFLITE_C_MODELS_DIR ""
#endif

namespace {

std::string ModelPath(const char* name) {
  return std::string(TFLITE_C_MODELS_DIR) + "/" + name + ".tflite";
}

bool Exists(const std::string& path) {
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fclose(f);
    return true;
  }
  return false;
}

double HeapBytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
#else
  return 0;
#endif
}

void Quiet(void*, const char*, va_list) {}

struct Session {
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  ~Session() {
    if (interpreter) TfLiteInterpreterDelete(interpreter);
    if (model) TfLiteModelDelete(model);
  }
  bool Init(const std::string& path, int threads) {
    model = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), Quiet, nullptr);
    if (!model) return false;
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetNumThreads(o, threads);
    TfLiteInterpreterOptionsSetErrorReporter(o, Quiet, nullptr);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
    return interpreter && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk;
  }
  void FillInputs() {
    std::mt19937 rng(1);
    for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, i);
      auto* p = static_cast<uint8_t*>(TfLiteTensorData(t));
      if (!p) continue;
      if (TfLiteTensorType(t) == kTfLiteFloat32) {
        std::uniform_real_distribution<float> d(-0.5f, 0.5f);
        float* f = reinterpret_cast<float*>(p);
        for (size_t k = 0; k < TfLiteTensorByteSize(t) / sizeof(float); ++k) f[k] = d(rng);
      } else {
        for (size_t k = 0; k < TfLiteTensorByteSize(t); ++k) p[k] = static_cast<uint8_t>(rng());
      }
    }
  }
};

void BM_ModelInit(benchmark::State& state, const char* name) {
  const std::string path = ModelPath(name);
  if (!Exists(path)) {
    state.SkipWithError(("model not found: " + path).c_str());
    return;
  }
  for (auto _ : state) {
    Session s;
    if (!s.Init(path, static_cast<int>(state.range(0)))) {
      state.SkipWithError("model cannot be loaded or allocated by this build");
      return;
    }
  }
}

void BM_ModelInvoke(benchmark::State& state, const char* name) {
  const std::string path = ModelPath(name);
  if (!Exists(path)) {
    state.SkipWithError(("model not found: " + path).c_str());
    return;
  }
  const double heap_before = HeapBytes();
  Session s;
  if (!s.Init(path, static_cast<int>(state.range(0)))) {
    state.SkipWithError("model cannot be loaded or allocated by this build");
    return;
  }
  s.FillInputs();
  if (TfLiteInterpreterInvoke(s.interpreter) != kTfLiteOk) {
    state.SkipWithError("Invoke failed (unsupported operator?)");
    return;
  }
  state.counters["heap_MB"] = (HeapBytes() - heap_before) / (1024.0 * 1024.0);
  for (auto _ : state) {
    if (TfLiteInterpreterInvoke(s.interpreter) != kTfLiteOk) {
      state.SkipWithError("Invoke failed");
      break;
    }
  }
}

void Threads(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
}

// BlazeFace (short range) is the reference model of the performance section.
BENCHMARK_CAPTURE(BM_ModelInit, blazeface_short_range, "mp_face_detection_short_range")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, blazeface_short_range, "mp_face_detection_short_range")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, selfie_segmentation, "mp_selfie_segmentation")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, palm_detection_lite, "mp_palm_detection_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, face_landmark, "mp_face_landmark")->Apply(Threads);

}  // namespace

BENCHMARK_MAIN();
