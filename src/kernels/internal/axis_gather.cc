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

// The last two axes of a gather whose innermost rows are short (such as an
// NCHW to NHWC transpose, 3 channels a row) and whose second-last axis walks
// the input with step 1: column by column, each column a strided store of
// consecutive input elements, instead of one short row per call.
template <typename T>
void CopyPlaneByColumns(const ScratchVector<int64_t>& rows, const ScratchVector<int64_t>& columns,
                        const char* base, char* out) {
  const T* in = reinterpret_cast<const T*>(base) + rows[0];
  T* o = reinterpret_cast<T*>(out);
  const size_t num_rows = rows.size(), num_columns = columns.size();
  for (size_t j = 0; j < num_columns; ++j) {
    const T* column = in + columns[j];
    for (size_t i = 0; i < num_rows; ++i) o[i * num_columns + j] = column[i];
  }
}

// Whether offsets are first, first + 1, first + 2, ...
bool StepsByOne(const ScratchVector<int64_t>& offsets) {
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] != offsets[i - 1] + 1) return false;
  }
  return true;
}

struct Gatherer {
  const AxisGather& g;
  size_t es;
  bool contiguous;  // innermost offsets are 0, 1, 2, ...: one memcpy per row
  bool by_columns;  // the last two axes go through CopyPlaneByColumns

  // Fills the output rows of axes d.. at input offset `base`; returns the
  // output position after them.
  char* Run(int d, const char* base, char* out) const {
    const auto& offsets = g.offsets[d];
    const int rank = static_cast<int>(g.offsets.size());
    if (by_columns && d == rank - 2) {
      const auto& columns = g.offsets[d + 1];
      switch (es) {
        case 1: CopyPlaneByColumns<uint8_t>(offsets, columns, base, out); break;
        case 2: CopyPlaneByColumns<uint16_t>(offsets, columns, base, out); break;
        case 4: CopyPlaneByColumns<uint32_t>(offsets, columns, base, out); break;
        default: CopyPlaneByColumns<uint64_t>(offsets, columns, base, out); break;
      }
      return out + offsets.size() * columns.size() * es;
    }
    if (d + 1 < rank) {
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
  const bool contiguous = StepsByOne(inner);
  // Short rows (under 8 elements) that are not contiguous, under an axis of
  // at least 8 that is.
  const size_t rank = g.offsets.size();
  const bool by_columns = !contiguous && inner.size() < 8 && rank >= 2 &&
                          g.offsets[rank - 2].size() >= 8 && StepsByOne(g.offsets[rank - 2]) &&
                          (element_bytes == 1 || element_bytes == 2 || element_bytes == 4 ||
                           element_bytes == 8);
  Gatherer{g, element_bytes, contiguous, by_columns}.Run(0, static_cast<const char*>(input),
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
