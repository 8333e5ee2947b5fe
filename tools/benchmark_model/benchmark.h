// benchmark_model's Benchmark: one model, its interpreter and delegates, the
// timed runs and their report. Its members are defined in three files:
//   benchmark_model.cc  flag checks, the run loop, Run and main
//   setup.cc            the interpreter, signature, input shapes, delegates
//                       and the plan probe that names the profile's nodes
//   report.cc           the op profile, tensor state, outputs, memory status
#ifndef TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCHMARK_H_
#define TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCHMARK_H_

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "benchmark_model/bench_util.h"
#include "benchmark_model/flags.h"
#include "benchmark_model/inputs.h"
#include "common/delegate_registry.h"
#include "common/op_profile.h"

namespace tflite_c_bench {

// What a do-nothing delegate applied after the real ones sees of the
// execution plan through the public TfLiteContext: the delegate kernels a
// delegate has taken, which is all the C API lets an application see.
struct PlanProbe {
  int plan_size = 0;
  int delegate_nodes = 0;
  // Output tensor names of every node in the plan, per subgraph in the
  // order the runtime offers them (primary first), for the op profile.
  std::vector<std::map<int, std::vector<std::string>>> node_outputs;
};

struct OwnedDelegate {
  std::string name;
  TfLiteDelegate* delegate = nullptr;
  void (*deleter)(TfLiteDelegate*) = nullptr;
  int position = 0;
};

class Benchmark {
 public:
  explicit Benchmark(Flags& flags) : f_(flags), rng_(std::random_device()()) {}
  ~Benchmark() {
    if (runner_) TfLiteSignatureRunnerDelete(runner_);
    if (interpreter_) TfLiteInterpreterDelete(interpreter_);
    if (default_xnnpack_) TfLiteXNNPackDelegateDelete(default_xnnpack_);
    if (options_) TfLiteInterpreterOptionsDelete(options_);
    if (model_) TfLiteModelDelete(model_);
  }

  bool Run();

 private:
  // benchmark_model.cc
  bool Validate();
  bool PrepareInputData();
  void ResetInputs();
  bool Invoke() {
    return (runner_ ? TfLiteSignatureRunnerInvoke(runner_) : TfLiteInterpreterInvoke(interpreter_)) ==
           kTfLiteOk;
  }
  // `profiled`: these are the regular runs the op profile covers.
  Stats RunLoop(int min_runs, float min_secs, float max_secs, bool profiled, bool* ok);

  // setup.cc
  bool Init();
  bool CreateInterpreter();
  bool SelectSignature();
  bool ResizeInputs();
  bool CreateDelegates();
  bool ApplyDelegates();
  bool ApplyDefaultXnnpack();
  void RunPlanProbe();
  void ProbePlan();

  // report.cc
  void PrintState(const char* when);
  void SaveOutputs();
  bool ReportOpProfile();

  int InputCount() const {
    return runner_ ? static_cast<int>(TfLiteSignatureRunnerGetInputCount(runner_))
                   : TfLiteInterpreterGetInputTensorCount(interpreter_);
  }
  TfLiteTensor* Input(int i) const {
    return runner_ ? TfLiteSignatureRunnerGetInputTensor(runner_,
                                                         TfLiteSignatureRunnerGetInputName(runner_, i))
                   : TfLiteInterpreterGetInputTensor(interpreter_, i);
  }
  int OutputCount() const {
    return runner_ ? static_cast<int>(TfLiteSignatureRunnerGetOutputCount(runner_))
                   : TfLiteInterpreterGetOutputTensorCount(interpreter_);
  }
  const TfLiteTensor* Output(int i) const {
    return runner_ ? TfLiteSignatureRunnerGetOutputTensor(
                         runner_, TfLiteSignatureRunnerGetOutputName(runner_, i))
                   : TfLiteInterpreterGetOutputTensor(interpreter_, i);
  }

  Flags& f_;
  std::unique_ptr<tflite_c_tools::OpProfile> profile_;  // --enable_op_profiling
  std::mt19937 rng_;
  std::vector<InputLayerInfo> inputs_;
  std::vector<std::vector<char>> input_data_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  TfLiteSignatureRunner* runner_ = nullptr;
  tflite_c_tools::DelegateList delegate_list_;  // owns the delegates
  std::vector<OwnedDelegate> delegates_;       // in the order they apply
  // The library's default XNNPACK delegate, applied by the tool after the
  // flags' delegates (see ApplyDefaultXnnpack).
  TfLiteDelegate* default_xnnpack_ = nullptr;
  PlanProbe probe_;
  TfLiteDelegate probe_delegate_ = TfLiteDelegateCreate();
};

// The end-of-run memory lines of --report_peak_memory_footprint (report.cc).
void LogPeakMemory(double peak_mb);

}  // namespace tflite_c_bench

#endif  // TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCHMARK_H_
