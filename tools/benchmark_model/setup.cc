// benchmark_model: creating the interpreter, choosing the signature, sizing
// the inputs, creating and applying the delegates, and the plan probe that
// counts delegate kernels and names the op profile's nodes.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "benchmark_model/benchmark.h"
#include "common/plan_probe.h"
// The generated flatbuffer schema: subgraph names for the op profile.
#include "schema_generated.h"

namespace tflite_c_bench {
namespace {

// The probe delegate's Prepare: reads the execution plan into the PlanProbe
// of delegate->data_.
TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  auto* probe = static_cast<PlanProbe*>(delegate->data_);
  // Every subgraph is offered the probe; the counts are the primary's.
  const bool primary = probe->node_outputs.empty();
  std::map<int, std::vector<std::string>>& names = probe->node_outputs.emplace_back();
  int plan_size = 0, delegate_nodes = 0;
  tflite_c_tools::ForEachPlanNode(context, [&](int index, TfLiteNode* node, TfLiteRegistration*) {
    ++plan_size;
    if (node->delegate != nullptr) ++delegate_nodes;
    std::vector<std::string>& out = names[index];
    for (int k = 0; node->outputs != nullptr && k < node->outputs->size; ++k) {
      const int t = node->outputs->data[k];
      const char* name = t >= 0 && static_cast<size_t>(t) < context->tensors_size
                             ? context->tensors[t].name
                             : nullptr;
      out.push_back(name != nullptr ? name : "Unknown");
    }
  });
  if (primary) {
    probe->plan_size = plan_size;
    probe->delegate_nodes = delegate_nodes;
  }
  return kTfLiteOk;
}

}  // namespace

bool Benchmark::Init() {
  if (!CreateInterpreter() || !SelectSignature() || !ResizeInputs()) return false;
  if (!ApplyDelegates() || !ApplyDefaultXnnpack()) return false;
  if (profile_) ProbePlan();

  const TfLiteStatus alloc = runner_ ? TfLiteSignatureRunnerAllocateTensors(runner_)
                                     : TfLiteInterpreterAllocateTensors(interpreter_);
  if (alloc != kTfLiteOk) {
    LOG_ERROR << "Failed to allocate tensors!";
    return false;
  }
  if (profile_) profile_->EndInit();
  return true;
}

// Loads the model, creates the flags' delegates and the interpreter.
bool Benchmark::CreateInterpreter() {
  const std::string& path = f_.Str("graph");
  model_ = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), ErrorReporter, nullptr);
  if (model_ == nullptr) {
    LOG_ERROR << "Failed to load model " << path;
    return false;
  }
  LOG_INFO << "Loaded model " << path;

  options_ = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options_, ErrorReporter, nullptr);
  TfLiteInterpreterOptionsSetNumThreads(options_, f_.Int("num_threads"));
  // As upstream: an explicit --use_xnnpack (true or false) replaces the
  // default XNNPACK delegate; without the flag the default one applies. With
  // other delegates (--external_delegate_path, ...) the default XNNPACK
  // delegate comes after them, as upstream applies its lazy default delegate
  // at AllocateTensors, after the tool's ModifyGraphWithDelegate calls: the
  // library's default is turned off here and ApplyDefaultXnnpack adds it.
  if (!CreateDelegates()) return false;
  if (f_.Get("use_xnnpack").set || !delegates_.empty())
    TfLiteInterpreterOptionsSetUseXNNPACK(options_, false);
  if (profile_) {
    // As upstream's ProfilingListener: initialization is profiled too
    // (ModifyGraphWithDelegate, AllocateTensors), until the first run.
    TfLiteInterpreterOptionsSetProfiler(options_, profile_.get());
    profile_->StartInit();
  }
  interpreter_ = TfLiteInterpreterCreate(model_, options_);
  if (interpreter_ == nullptr) {
    LOG_ERROR << "Failed to initialize the interpreter";
    return false;
  }
  return true;
}

// --list_signatures (which stops the benchmark) and --signature_to_run_for:
// the signature runner, or the primary subgraph when the model has at most
// one signature and none is asked for.
bool Benchmark::SelectSignature() {
  const int num_signatures = TfLiteInterpreterGetSignatureCount(interpreter_);
  if (f_.Bool("list_signatures")) {
    LOG_INFO << "The Model contains " << num_signatures << " signature key(s).";
    if (num_signatures > 0) LOG_INFO << "They are listed below: ";
    for (int i = 0; i < num_signatures; ++i)
      LOG_INFO << "-> Signature Key: " << TfLiteInterpreterGetSignatureKey(interpreter_, i);
    return false;
  }

  const std::string& key = f_.Str("signature_to_run_for");
  auto list_keys = [&] {
    LOG_ERROR << "Signature not specified or incorrect. Pass one of the following to the flag "
                 "\"--signature_to_run_for\"";
    for (int i = 0; i < num_signatures; ++i)
      LOG_ERROR << " #> Signature key: " << TfLiteInterpreterGetSignatureKey(interpreter_, i);
  };
  if (!key.empty()) {
    if (num_signatures == 0) {
      LOG_ERROR << "Signature key is specified, but the model does not have any signatures.";
      return false;
    }
    bool found = false;
    for (int i = 0; i < num_signatures; ++i)
      found = found || key == TfLiteInterpreterGetSignatureKey(interpreter_, i);
    if (!found) {
      list_keys();
      return false;
    }
    LOG_INFO << "Using signature: " << key;
    runner_ = TfLiteInterpreterGetSignatureRunner(interpreter_, key.c_str());
    if (runner_ == nullptr) return false;
  } else if (num_signatures > 1) {
    list_keys();
    return false;
  }
  return true;
}

// Checks the --input_layer* settings against the model's inputs and resizes
// the non-string inputs to --input_layer_shape.
bool Benchmark::ResizeInputs() {
  const int n_inputs = InputCount();
  if (!inputs_.empty() && static_cast<int>(inputs_.size()) != n_inputs) {
    LOG_ERROR << "Inputs mismatch: Model inputs #:" << inputs_.size() << " expected: " << n_inputs;
    return false;
  }
  for (size_t j = 0; j < inputs_.size(); ++j) {
    const TfLiteTensor* t = Input(static_cast<int>(j));
    const char* name = TfLiteTensorName(t) ? TfLiteTensorName(t) : "";
    if (inputs_[j].name != name)
      LOG_WARN << "Tensor # " << j << " is named " << name << " but flags call it "
               << inputs_[j].name;
    if (TfLiteTensorType(t) != kTfLiteString &&
        static_cast<int>(inputs_[j].shape.size()) != TfLiteTensorNumDims(t)) {
      LOG_ERROR << "Input tensor #" << j << " should have " << TfLiteTensorNumDims(t)
                << " dimensions!";
      return false;
    }
  }
  for (size_t j = 0; j < inputs_.size(); ++j) {
    const TfLiteTensor* t = Input(static_cast<int>(j));
    if (TfLiteTensorType(t) == kTfLiteString) continue;
    const std::vector<int>& s = inputs_[j].shape;
    TfLiteStatus st =
        runner_ ? TfLiteSignatureRunnerResizeInputTensor(
                      runner_, TfLiteSignatureRunnerGetInputName(runner_, static_cast<int>(j)),
                      s.data(), static_cast<int>(s.size()))
                : TfLiteInterpreterResizeInputTensor(interpreter_, static_cast<int>(j), s.data(),
                                                     static_cast<int>(s.size()));
    if (st != kTfLiteOk) {
      LOG_ERROR << "Failed to resize input #" << j;
      return false;
    }
  }
  return true;
}

// The delegates the flags ask for, from the tools' delegate registrar
// (tools/common/delegate_registry.h): XNNPACK, external, and any provider
// linked into this binary (--use_dummy_delegate in
// benchmark_model_plus_dummy_delegate).
bool Benchmark::CreateDelegates() {
  const auto& registry = tflite_c_tools::DelegateRegistry::Get();
  tflite_c_tools::ToolParams params;
  registry.DefineParams(&params);
  params.Define({"num_threads", tflite_c_tools::ParamType::kInt, "-1", "", ""});
  for (const Flag& fl : f_.all()) {
    if (!params.Defined(fl.name) || !fl.set) continue;
    std::string error;
    if (!params.Set(fl.name, fl.value, fl.position, &error)) {
      LOG_ERROR << error;
      return false;
    }
  }
  std::string error;
  if (!registry.CreateDelegates(params, &delegate_list_, &error)) {
    LOG_ERROR << error;
    return false;
  }
  for (const tflite_c_tools::ProvidedDelegate& d : delegate_list_.items()) {
    if (d.provider == "XNNPACK") LOG_INFO << "XNNPACK delegate created.";
    delegates_.push_back({d.provider, d.delegate, nullptr, d.position});
  }
  return true;
}

// Applies the probe delegate, outside the op profile: probe_ then holds the
// current execution plan's view.
void Benchmark::RunPlanProbe() {
  probe_delegate_ = tflite_c_tools::MakePlanProbe(&probe_, ProbePrepare);
  probe_ = PlanProbe();
  if (profile_) profile_->Pause();
  TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
  if (profile_) profile_->Resume();
}

bool Benchmark::ApplyDelegates() {
  if (delegates_.empty()) {
    if (f_.Bool("require_full_delegation")) {
      LOG_ERROR << "Disallowed CPU fallback detected.";
      return false;
    }
    return true;
  }
  if (delegates_.size() >= 2)
    LOG_INFO << "Going to apply " << delegates_.size() << " delegates one after another.";
  int kernels_before = 0;
  for (const OwnedDelegate& d : delegates_) {
    if (TfLiteInterpreterModifyGraphWithDelegate(interpreter_, d.delegate) != kTfLiteOk) {
      LOG_ERROR << "Failed to apply " << d.name << " delegate.";
      return false;
    }
    // Count the delegate kernels now in the plan (not part of the profile).
    // (The last probe's view, after every delegate, names the profile's nodes.)
    RunPlanProbe();
    const int new_kernels = probe_.delegate_nodes - kernels_before;
    kernels_before = probe_.delegate_nodes;
    const bool full = probe_.delegate_nodes == 1 && probe_.plan_size == 1;
    if (f_.Bool("require_full_delegation") && !full) {
      LOG_ERROR << "Disallowed CPU fallback detected.";
      return false;
    }
    if (full) {
      LOG_INFO << "Explicitly applied " << d.name
               << " delegate, and the model graph will be completely executed by the delegate.";
    } else if (new_kernels > 0) {
      LOG_INFO << "Explicitly applied " << d.name
               << " delegate, and the model graph will be partially executed by the delegate w/ "
               << new_kernels << " delegate kernels.";
    } else {
      LOG_INFO << "Though " << d.name
               << " delegate is explicitly applied, the model graph will not be executed by the "
                  "delegate.";
    }
  }
  return true;
}

// After the flags' delegates, the default XNNPACK delegate takes what they
// left on the CPU (nothing to do without them: the library applied it at
// TfLiteInterpreterCreate; nor with an explicit --use_xnnpack).
bool Benchmark::ApplyDefaultXnnpack() {
  if (delegates_.empty() || f_.Get("use_xnnpack").set) return true;
  RunPlanProbe();
  if (probe_.plan_size == probe_.delegate_nodes) return true;  // fully delegated
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  opts.num_threads = std::max(1, f_.Int("num_threads"));
  default_xnnpack_ = TfLiteXNNPackDelegateCreate(&opts);
  // As the library's own default: when XNNPACK cannot be applied, the
  // builtin kernels run.
  if (default_xnnpack_ != nullptr &&
      TfLiteInterpreterModifyGraphWithDelegate(interpreter_, default_xnnpack_) != kTfLiteOk) {
    LOG_WARN << "The default XNNPACK delegate could not be applied; the builtin kernels run.";
  }
  return true;
}

// Names each profiled node after its outputs, as seen by a do-nothing
// delegate after all real delegates (their kernels included).
void Benchmark::ProbePlan() {
  if (delegates_.empty()) RunPlanProbe();
  for (size_t sg = 0; sg < probe_.node_outputs.size(); ++sg) {
    for (auto& [node, outputs] : probe_.node_outputs[sg]) {
      profile_->SetNodeOutputs(static_cast<int>(sg), node, outputs);
    }
  }
  // Subgraph names are not in the C API: read them from the model file (the
  // library has verified it already; verify again before trusting offsets).
  std::ifstream in(f_.Str("graph"), std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (bytes.empty() || !tflite::VerifyModelBuffer(verifier)) return;
  const auto* subgraphs = tflite::GetModel(bytes.data())->subgraphs();
  for (uint32_t i = 0; subgraphs != nullptr && i < subgraphs->size(); ++i) {
    const flatbuffers::String* name = subgraphs->Get(i)->name();
    if (name != nullptr) profile_->SetSubgraphName(static_cast<int>(i), name->str());
  }
}

}  // namespace tflite_c_bench
