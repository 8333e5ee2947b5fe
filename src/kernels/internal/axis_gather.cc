#include "src/kernels/internal/axis_gather.h"

#include <cstring>

namespace tflite_c {
namespace kernels {
namespace internal {

void AxisGather::SetAxis(int d, const std::vector<int>& index, int64_t stride) {
  offsets[d].resize(index.size());
  for (size_t i = 0; i < index.size(); ++i) offsets[d][i] = index[i] * stride;
}

void AxisGather::SetLinearAxis(int d, int64_t begin, int64_t step, int count, int64_t stride) {
  offsets[d].resize(count > 0 ? count : 0);
  for (int i = 0; i < count; ++i) offsets[d][i] = (begin + i * step) * stride;
}

namespace {

template <typename T>
void CopyRow(const ScratchVector<int64_t>& offsets, const char* base, char* out) {
  const T* in = reinterpret_cast<const T*>(base);
  T* o = reinterpret_cast<T*>(out);
  for (size_t i = 0; i < offsets.size(); ++i) o[i] = in[offsets[i]];
}

struct Gatherer {
  const AxisGather& g;
  size_t es;
  bool contiguous;  // innermost offsets are 0, 1, 2, ...: one memcpy per row

  // Fills the output rows of axes d.. at input offset `base`; returns the
  // output position after them.
  char* Run(int d, const char* base, char* out) const {
    const auto& offsets = g.offsets[d];
    if (d + 1 < static_cast<int>(g.offsets.size())) {
      for (int64_t off : offsets) out = Run(d + 1, base + off * es, out);
      return out;
    }
    if (contiguous) {
      std::memcpy(out, base + offsets[0] * es, offsets.size() * es);
    } else {
      switch (es) {
        case 1: CopyRow<uint8_t>(offsets, base, out); break;
        case 2: CopyRow<uint16_t>(offsets, base, out); break;
        case 4: CopyRow<uint32_t>(offsets, base, out); break;
        case 8: CopyRow<uint64_t>(offsets, base, out); break;
        default:
          for (size_t i = 0; i < offsets.size(); ++i) {
            std::memcpy(out + i * es, base + offsets[i] * es, es);
          }
      }
    }
    return out + offsets.size() * es;
  }
};

}  // namespace

void RunAxisGather(const AxisGather& g, const void* input, void* output, size_t element_bytes) {
  if (g.offsets.empty()) {
    std::memcpy(output, input, element_bytes);
    return;
  }
  for (const auto& axis : g.offsets) {
    if (axis.empty()) return;  // no output elements
  }
  const auto& inner = g.offsets.back();
  bool contiguous = true;
  for (size_t i = 1; i < inner.size() && contiguous; ++i) {
    contiguous = inner[i] == inner[i - 1] + 1;
  }
  Gatherer{g, element_bytes, contiguous}.Run(0, static_cast<const char*>(input),
                                              static_cast<char*>(output));
}

TfLiteStatus FinishGatherPrepare(TfLiteContext* context, TfLiteNode* node, GatherOpData* data,
                                 bool known, GatherPlanFn plan) {
  data->planned_in_prepare = known;
  if (known) return plan(context, node, data);
  SetTensorToDynamic(OutputAt(context, node, 0));
  return kTfLiteOk;
}

TfLiteStatus RunGatherOp(TfLiteContext* context, TfLiteNode* node, const GatherOpData& data) {
  const TfLiteTensor* input = InputAt(context, node, 0);
  TfLiteTensor* output = OutputAt(context, node, 0);
  if (NumElements(output) == 0) return kTfLiteOk;
  RunAxisGather(data.gather, input->data.raw, output->data.raw, data.element_bytes);
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
