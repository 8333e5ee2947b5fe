// The guide's MyDelegate, written so that it is correct on any graph.
//
// The guide's kernel writes every node's result into
// context->tensors[output].data. That only works for tensors the runtime
// allocated. As in upstream TensorFlow Lite, a tensor that is produced and
// consumed only inside a delegated partition (e.g. the middle tensors of
// ADD -> SUB -> ADD) gets no memory at all: the delegate owns it. So this
// kernel keeps those intermediate results in its own buffers and touches
// context memory only for the partition's inputs (including constants) and
// outputs.
//
// Shapes are propagated in Prepare (so the delegate also works after
// input resizes), with NumPy-style broadcasting; anything else that the
// kernel could not compute exactly like the CPU kernels (other types, fused
// activations, more than two inputs, rank > 6) is left to the CPU by
// IsNodeSupportedByDelegate.
#include "examples/dummy_delegate/dummy_delegate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"

namespace tflite {
namespace dummy_delegate {
namespace {

constexpr int kMaxRank = 6;

bool IsAddOrSub(int code) { return code == kTfLiteBuiltinAdd || code == kTfLiteBuiltinSub; }

using Shape = std::vector<int>;

Shape ShapeOf(const TfLiteTensor& t) {
  return t.dims ? Shape(t.dims->data, t.dims->data + t.dims->size) : Shape();
}

size_t NumElements(const Shape& s) {
  size_t n = 1;
  for (int d : s) n *= static_cast<size_t>(d);
  return n;
}

// NumPy broadcasting: align trailing dimensions; each pair must be equal or
// contain a 1.
bool BroadcastShape(const Shape& a, const Shape& b, Shape* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}

// Element strides of `in` over the dimensions of `out` (0 where broadcast).
void BroadcastStrides(const Shape& in, const Shape& out, int* strides) {
  const size_t pad = out.size() - in.size();
  int stride = 1;
  for (size_t i = out.size(); i-- > 0;) {
    const int d = i < pad ? 1 : in[i - pad];
    strides[i] = (d == 1 && out[i] != 1) ? 0 : stride;
    stride *= d;
  }
}

// One delegated ADD or SUB.
struct Step {
  int op = 0;
  int inputs[2] = {-1, -1};
  int output = -1;
  // Set in Prepare.
  Shape out_shape;
  size_t count = 0;
  bool same_shapes = false;
  int strides[2][kMaxRank] = {};
};

class DummyDelegateKernel : public SimpleDelegateKernelInterface {
 public:
  explicit DummyDelegateKernel(const DummyDelegateOptions& options) : options_(options) {}

  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    if (options_.error_during_init) {
      context->ReportError(context, "DummyDelegate: failing Init as asked (error_during_init)");
      return kTfLiteError;
    }
    const std::set<int> partition_outputs(
        params->output_tensors->data, params->output_tensors->data + params->output_tensors->size);
    for (int i = 0; i < params->nodes_to_replace->size; ++i) {
      TfLiteNode* node = nullptr;
      TfLiteRegistration* reg = nullptr;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(
          context, params->nodes_to_replace->data[i], &node, &reg));
      Step step;
      step.op = reg->builtin_code;
      step.inputs[0] = node->inputs->data[0];
      step.inputs[1] = node->inputs->data[1];
      step.output = node->outputs->data[0];
      // Results that never leave the partition live in our own buffers.
      if (partition_outputs.count(step.output) == 0) {
        const int buffer = static_cast<int>(buffers_.size());
        buffers_.emplace_back();
        internal_.emplace(step.output, buffer);
      }
      steps_.push_back(step);
    }
    return kTfLiteOk;
  }

  TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*) override {
    if (options_.error_during_prepare) {
      context->ReportError(context,
                           "DummyDelegate: failing Prepare as asked (error_during_prepare)");
      return kTfLiteError;
    }
    std::map<int, Shape> internal_shapes;
    auto shape_of = [&](int tensor) {
      auto it = internal_shapes.find(tensor);
      return it != internal_shapes.end() ? it->second : ShapeOf(context->tensors[tensor]);
    };
    for (Step& step : steps_) {
      const Shape a = shape_of(step.inputs[0]);
      const Shape b = shape_of(step.inputs[1]);
      if (!BroadcastShape(a, b, &step.out_shape) || step.out_shape.size() > kMaxRank) {
        context->ReportError(context, "DummyDelegate: cannot broadcast the inputs of %s (rank %d, %d)",
                             step.op == kTfLiteBuiltinAdd ? "ADD" : "SUB",
                             static_cast<int>(a.size()), static_cast<int>(b.size()));
        return kTfLiteDelegateError;
      }
      step.count = NumElements(step.out_shape);
      step.same_shapes = a == b;
      BroadcastStrides(a, step.out_shape, step.strides[0]);
      BroadcastStrides(b, step.out_shape, step.strides[1]);

      auto internal = internal_.find(step.output);
      if (internal != internal_.end()) {
        internal_shapes[step.output] = step.out_shape;
        buffers_[internal->second].resize(step.count);
        continue;
      }
      TfLiteTensor* out = &context->tensors[step.output];
      if (ShapeOf(*out) != step.out_shape) {
        TfLiteIntArray* dims = TfLiteIntArrayCreate(static_cast<int>(step.out_shape.size()));
        for (size_t d = 0; d < step.out_shape.size(); ++d) dims->data[d] = step.out_shape[d];
        TF_LITE_ENSURE_STATUS(context->ResizeTensor(context, out, dims));
      }
    }
    return kTfLiteOk;
  }

  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    if (options_.error_during_invoke) {
      context->ReportError(context, "DummyDelegate: failing Eval as asked (error_during_invoke)");
      return kTfLiteDelegateError;
    }
    // Each step is a "Delegate internal" event of an interpreter's profiler
    // (context->profiler is NULL unless someone profiles); the delegate node
    // is still timed as a whole (no kTfLiteDelegateFlagsPerOperatorProfiling).
    auto* profiler = reinterpret_cast<Profiler*>(context->profiler);
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& step = steps_[i];
      TFLITE_SCOPED_DELEGATE_OPERATOR_PROFILE(
          profiler, step.op == kTfLiteBuiltinAdd ? "DummyAdd" : "DummySub", static_cast<int>(i));
      const float* a = Data(context, step.inputs[0]);
      const float* b = Data(context, step.inputs[1]);
      float* out = Data(context, step.output);
      if (step.count > 0 && (a == nullptr || b == nullptr || out == nullptr)) {
        context->ReportError(context, "DummyDelegate: a tensor of the partition has no memory");
        return kTfLiteDelegateError;
      }
      if (step.op == kTfLiteBuiltinAdd) {
        Compute(step, a, b, out, [](float x, float y) { return x + y; });
      } else {
        Compute(step, a, b, out, [](float x, float y) { return x - y; });
      }
    }
    return kTfLiteOk;
  }

 private:
  float* Data(TfLiteContext* context, int tensor) {
    auto it = internal_.find(tensor);
    if (it != internal_.end()) return buffers_[it->second].data();
    return context->tensors[tensor].data.f;
  }

  // Like the CPU kernels, results are clamped to [lowest, max] (the range of
  // "no activation"), so +-inf becomes +-FLT_MAX and outputs match bit for bit.
  template <typename Fn>
  static void Compute(const Step& step, const float* a, const float* b, float* out, Fn fn) {
    static constexpr float kLo = std::numeric_limits<float>::lowest();
    static constexpr float kHi = std::numeric_limits<float>::max();
    auto clamp = [](float v) { return v < kLo ? kLo : (v > kHi ? kHi : v); };
    if (step.same_shapes) {
      for (size_t i = 0; i < step.count; ++i) out[i] = clamp(fn(a[i], b[i]));
      return;
    }
    const int rank = static_cast<int>(step.out_shape.size());
    int index[kMaxRank] = {};
    size_t ia = 0, ib = 0;
    for (size_t i = 0; i < step.count; ++i) {
      out[i] = clamp(fn(a[ia], b[ib]));
      for (int d = rank - 1; d >= 0; --d) {
        ia += step.strides[0][d];
        ib += step.strides[1][d];
        if (++index[d] < step.out_shape[d]) break;
        ia -= static_cast<size_t>(step.strides[0][d]) * step.out_shape[d];
        ib -= static_cast<size_t>(step.strides[1][d]) * step.out_shape[d];
        index[d] = 0;
      }
    }
  }

  const DummyDelegateOptions options_;
  std::vector<Step> steps_;
  std::map<int, int> internal_;             // tensor -> index into buffers_
  std::vector<std::vector<float>> buffers_;  // intermediate results
};

class DummyDelegate : public SimpleDelegateInterface {
 public:
  explicit DummyDelegate(const DummyDelegateOptions& options) : options_(options) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    const int code = registration->builtin_code;
    if (!IsAddOrSub(code)) return false;
    if (IsAddOrSub(options_.allowed_builtin_code) && code != options_.allowed_builtin_code) {
      return false;
    }
    if (node->inputs->size != 2 || node->outputs->size != 1) return false;
    // TfLiteAddParams and TfLiteSubParams both start with the activation.
    const auto* params = static_cast<const TfLiteAddParams*>(node->builtin_data);
    if (params != nullptr && params->activation != kTfLiteActNone) return false;
    for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
      for (int i = 0; i < list->size; ++i) {
        if (list->data[i] < 0) return false;
        const TfLiteTensor& t = context->tensors[list->data[i]];
        if (t.type != kTfLiteFloat32) return false;
        if (t.dims != nullptr && t.dims->size > kMaxRank) return false;
      }
    }
    return true;
  }

  TfLiteStatus Initialize(TfLiteContext*) override { return kTfLiteOk; }

  const char* Name() const override { return "DummyDelegate"; }

  std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
    return std::make_unique<DummyDelegateKernel>(options_);
  }

  SimpleDelegateInterface::Options DelegateOptions() const override {
    SimpleDelegateInterface::Options o;
    o.max_delegated_partitions = options_.max_delegated_partitions;
    o.min_nodes_per_partition = options_.min_nodes_per_partition;
    return o;
  }

 private:
  const DummyDelegateOptions options_;
};

}  // namespace
}  // namespace dummy_delegate
}  // namespace tflite

DummyDelegateOptions TfLiteDummyDelegateOptionsDefault() {
  DummyDelegateOptions options{};
  options.allowed_builtin_code = -1;
  return options;
}

TfLiteDelegate* TfLiteDummyDelegateCreate(const DummyDelegateOptions* options) {
  const DummyDelegateOptions o = options ? *options : TfLiteDummyDelegateOptionsDefault();
  return tflite::TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<tflite::dummy_delegate::DummyDelegate>(o));
}

void TfLiteDummyDelegateDelete(TfLiteDelegate* delegate) {
  tflite::TfLiteDelegateFactory::DeleteSimpleDelegate(delegate);
}
