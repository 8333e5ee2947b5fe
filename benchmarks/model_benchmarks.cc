// Whole-model benchmarks over the shared model collection, through the public
// C API: Init (load + interpreter creation + AllocateTensors) and Invoke, each
// model twice: on the XNNPACK delegate (the library's default) and on the
// builtin reference kernels (TfLiteInterpreterOptionsSetUseXNNPACK(false)),
// so that the pair shows the delegate's speed-up. Models that are absent, or
// that need operators this build lacks, are reported as skipped rather than
// failing the run.
//
// Memory counters of the Invoke benchmarks (benchmark::Counter, MB):
//   arena_MB  heap bytes (glibc mallinfo2: in-use + mmapped chunks) the
//             created and allocated interpreter holds: tensor arena,
//             persistent buffers, kernel data, XNNPACK's packed weights;
//   invoke_MB heap bytes the first Invoke adds (lazy allocations);
//   peak_MB   the process' resident-set high-water mark (getrusage) after
//             the benchmark; a process-wide maximum, so it only grows from
//             one benchmark to the next (run one with --benchmark_filter
//             for that model's peak).

#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"

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

double PeakRssBytes() {
  rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

constexpr double kMB = 1024.0 * 1024.0;

void Quiet(void*, const char*, va_list) {}

struct Session {
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  ~Session() {
    if (interpreter) TfLiteInterpreterDelete(interpreter);
    if (model) TfLiteModelDelete(model);
  }
  bool Init(const std::string& path, int threads, bool xnnpack) {
    model = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), Quiet, nullptr);
    if (!model) return false;
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetNumThreads(o, threads);
    TfLiteInterpreterOptionsSetUseXNNPACK(o, xnnpack);
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
  state.SetLabel(state.range(1) ? "xnnpack" : "reference");
  for (auto _ : state) {
    Session s;
    if (!s.Init(path, static_cast<int>(state.range(0)), state.range(1) != 0)) {
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
  state.SetLabel(state.range(1) ? "xnnpack" : "reference");
  const double heap_before = HeapBytes();
  Session s;
  if (!s.Init(path, static_cast<int>(state.range(0)), state.range(1) != 0)) {
    state.SkipWithError("model cannot be loaded or allocated by this build");
    return;
  }
  const double heap_allocated = HeapBytes();
  s.FillInputs();
  if (TfLiteInterpreterInvoke(s.interpreter) != kTfLiteOk) {
    state.SkipWithError("Invoke failed (unsupported operator?)");
    return;
  }
  const double heap_invoked = HeapBytes();
  for (auto _ : state) {
    if (TfLiteInterpreterInvoke(s.interpreter) != kTfLiteOk) {
      state.SkipWithError("Invoke failed");
      break;
    }
  }
  state.counters["arena_MB"] = benchmark::Counter((heap_allocated - heap_before) / kMB);
  state.counters["invoke_MB"] = benchmark::Counter((heap_invoked - heap_allocated) / kMB);
  state.counters["peak_MB"] = benchmark::Counter(PeakRssBytes() / kMB);
}

// threads 1 and 2, each on XNNPACK (xnnpack:1) and the reference kernels.
void Threads(benchmark::internal::Benchmark* b) {
  b->ArgNames({"threads", "xnnpack"})
      ->ArgsProduct({{1, 2}, {1, 0}})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

// BlazeFace (short range) is the reference model of the performance section.
BENCHMARK_CAPTURE(BM_ModelInit, blazeface_short_range, "mp_face_detection_short_range")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, blazeface_short_range, "mp_face_detection_short_range")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, selfie_segmentation, "mp_selfie_segmentation")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, palm_detection_lite, "mp_palm_detection_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, face_landmark, "mp_face_landmark")->Apply(Threads);
// The six models of README's side-by-side table against upstream: init
// (load -> interpreter -> AllocateTensors) and invoke, both paths.
BENCHMARK_CAPTURE(BM_ModelInit, hand_landmark_lite, "mp_hand_landmark_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, hand_landmark_lite, "mp_hand_landmark_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInit, pose_landmark_lite, "mp_pose_landmark_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, pose_landmark_lite, "mp_pose_landmark_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInit, palm_detection_lite, "mp_palm_detection_lite")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInit, mobilenet_v2_int8, "tflm_mobilenet_v2_quantized_1x3x224x224")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, mobilenet_v2_int8, "tflm_mobilenet_v2_quantized_1x3x224x224")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInit, conformer, "litert_torchaudio_conformer")->Apply(Threads);
BENCHMARK_CAPTURE(BM_ModelInvoke, conformer, "litert_torchaudio_conformer")->Apply(Threads);

}  // namespace

BENCHMARK_MAIN();
