#include "src/kernels/internal/axis_split.h"

#include <cstring>

namespace tflite_c {
namespace kernels {
namespace internal {

namespace {

// One walk for both directions: `to_pieces` copies whole -> pieces.
void MovePieces(const AxisPieces& p, char* whole, char* const* pieces, bool to_pieces) {
  int64_t total = 0;
  for (int64_t s : p.sizes) total += s;
  const size_t row = p.inner * p.element_bytes;
  for (int64_t o = 0; o < p.outer; ++o) {
    char* w = whole + o * total * row;
    for (size_t i = 0; i < p.sizes.size(); ++i) {
      const size_t n = p.sizes[i] * row;
      char* piece = pieces[i] + o * n;
      if (n > 0) {
        if (to_pieces) {
          std::memcpy(piece, w, n);
        } else {
          std::memcpy(w, piece, n);
        }
      }
      w += n;
    }
  }
}

}  // namespace

void SplitAxis(const AxisPieces& p, const void* whole, void* const* pieces) {
  MovePieces(p, const_cast<char*>(static_cast<const char*>(whole)),
             reinterpret_cast<char* const*>(pieces), true);
}

void JoinAxis(const AxisPieces& p, const void* const* pieces, void* whole) {
  MovePieces(p, static_cast<char*>(whole),
             const_cast<char* const*>(reinterpret_cast<const char* const*>(pieces)), false);
}

TfLiteStatus CheckOutputTypes(TfLiteContext* context, TfLiteNode* node, const char* op,
                              const TfLiteTensor* input) {
  for (int i = 0; i < NumOutputs(node); ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, GetOutput(context, node, i, op, &output));
    if (output->type != input->type) {
      return TypeMismatch(context, op, "input", input->type, "output", output->type);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeSplitOutputs(TfLiteContext* context, TfLiteNode* node,
                                const TfLiteTensor* input, int axis,
                                const std::vector<int64_t>& sizes, bool drop_axis,
                                SplitOpData* data) {
  const int rank = NumDims(input);
  data->axis = axis;
  data->pieces.outer = DimsProduct(input->dims, 0, axis);
  data->pieces.inner = DimsProduct(input->dims, axis + 1, rank);
  data->pieces.sizes.assign(sizes.begin(), sizes.end());
  for (int i = 0; i < NumOutputs(node); ++i) {
    IntArrayPtr shape(TfLiteIntArrayCreate(drop_axis ? rank - 1 : rank));
    for (int d = 0, o = 0; d < rank; ++d) {
      if (d != axis) {
        shape->data[o++] = Dim(input, d);
      } else if (!drop_axis) {
        shape->data[o++] = static_cast<int>(sizes[i]);
      }
    }
    TF_LITE_ENSURE_OK(context,
                      context->ResizeTensor(context, OutputAt(context, node, i), shape.release()));
  }
  return kTfLiteOk;
}

TfLiteStatus FinishSplitPrepare(TfLiteContext* context, TfLiteNode* node, SplitOpData* data,
                                bool known, SplitPlanFn plan) {
  data->planned_in_prepare = known;
  if (known) return plan(context, node, data);
  for (int i = 0; i < NumOutputs(node); ++i) SetTensorToDynamic(OutputAt(context, node, i));
  return kTfLiteOk;
}

TfLiteStatus RunSplitOp(TfLiteContext* context, TfLiteNode* node, int input_index,
                        const SplitOpData& data) {
  const TfLiteTensor* input = InputAt(context, node, input_index);
  if (NumElements(input) == 0) return kTfLiteOk;
  std::vector<void*> pieces(NumOutputs(node));
  for (int i = 0; i < NumOutputs(node); ++i) pieces[i] = OutputAt(context, node, i)->data.raw;
  SplitAxis(data.pieces, input->data.raw, pieces.data());
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
