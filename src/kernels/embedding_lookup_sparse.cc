// EMBEDDING_LOOKUP_SPARSE (ids, indices, dense_shape, weights, params):
// combines weighted rows of `params` (FLOAT32, rank >= 2) per row of a sparse
// tensor. Entry i of the sparse tensor sits at indices[i] (a row of
// dense_shape's rank) and looks up params row ids[i] with weight weights[i];
// entries whose indices agree on all but the last coordinate go to the same
// output row. Output shape: dense_shape[:-1] + params.shape[1:], FLOAT32,
// known only at Invoke (dynamic). ids, indices, dense_shape: INT32.
//
// Combiners: SUM, MEAN (divided by the sum of weights) and SQRTN (divided by
// the square root of the sum of squared weights). As upstream, entries are
// combined in runs of consecutive equal output rows (indices are meant to be
// sorted): a run ends by dividing its output row, so a row split over two
// runs is divided twice. An id, or an index coordinate, out of range fails
// Invoke.
#include <algorithm>
#include <cmath>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "EMBEDDING_LOOKUP_SPARSE";

TfLiteStatus CheckInput(TfLiteContext* context, TfLiteNode* node, int i, const char* what,
                        TfLiteType type, int rank, const TfLiteTensor** t) {
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, t));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, what, *t, type));
  if (rank >= 0 && internal::NumDims(*t) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must have rank %d, got %d", kOp, what, rank,
                       internal::NumDims(*t));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 5, 5, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor *ids, *indices, *dense_shape, *weights, *params;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, CheckInput(context, node, 0, "ids", kTfLiteInt32, 1, &ids));
  TF_LITE_ENSURE_OK(context, CheckInput(context, node, 1, "indices", kTfLiteInt32, 2, &indices));
  TF_LITE_ENSURE_OK(context,
                    CheckInput(context, node, 2, "dense_shape", kTfLiteInt32, 1, &dense_shape));
  TF_LITE_ENSURE_OK(context,
                    CheckInput(context, node, 3, "weights", kTfLiteFloat32, 1, &weights));
  TF_LITE_ENSURE_OK(context,
                    CheckInput(context, node, 4, "params", kTfLiteFloat32, -1, &params));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  const int entries = internal::Dim(ids, 0);
  if (internal::Dim(indices, 0) != entries || internal::Dim(weights, 0) != entries) {
    TF_LITE_KERNEL_LOG(context, "%s: ids, indices and weights must have the same length", kOp);
    return kTfLiteError;
  }
  if (internal::Dim(indices, 1) < 1 || internal::Dim(indices, 1) != internal::Dim(dense_shape, 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: indices rows (%d) must match dense_shape's rank (%d)", kOp,
                       internal::Dim(indices, 1), internal::Dim(dense_shape, 0));
    return kTfLiteError;
  }
  if (internal::NumDims(params) < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: params must have rank >= 2, got %d", kOp,
                       internal::NumDims(params));
    return kTfLiteError;
  }
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* dense_shape,
                          const TfLiteTensor* params, TfLiteTensor* output) {
  const int lookup_rank = internal::Dim(dense_shape, 0);
  const int params_rank = internal::NumDims(params);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(lookup_rank - 1 + params_rank - 1));
  int k = 0;
  for (int d = 0; d < lookup_rank - 1; ++d) {
    const int size = dense_shape->data.i32[d];
    if (size < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: dense_shape holds negative size %d", kOp, size);
      return kTfLiteError;
    }
    shape->data[k++] = size;
  }
  for (int d = 1; d < params_rank; ++d) shape->data[k++] = internal::Dim(params, d);
  return context->ResizeTensor(context, output, shape.release());
}

// Divides an output row by the run's weight total, as the combiner says.
void FinishRun(TfLiteCombinerType combiner, int count, float sum, float sum_of_squares,
               float* row, int64_t row_size) {
  if (combiner == kTfLiteCombinerTypeSum || count == 0) return;
  const float divisor = combiner == kTfLiteCombinerTypeMean ? sum : std::sqrt(sum_of_squares);
  for (int64_t k = 0; k < row_size; ++k) row[k] /= divisor;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto combiner =
      static_cast<const TfLiteEmbeddingLookupSparseParams*>(node->builtin_data)->combiner;
  const TfLiteTensor* ids = internal::InputAt(context, node, 0);
  const TfLiteTensor* indices = internal::InputAt(context, node, 1);
  const TfLiteTensor* dense_shape = internal::InputAt(context, node, 2);
  const float* weights = internal::InputAt(context, node, 3)->data.f;
  const TfLiteTensor* params = internal::InputAt(context, node, 4);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  TF_LITE_ENSURE_OK(context, ResizeOutput(context, dense_shape, params, output));

  const int lookup_rank = internal::Dim(dense_shape, 0);
  const int64_t row_size = internal::DimsProduct(params->dims, 1, internal::NumDims(params));
  const int rows = internal::Dim(params, 0);
  float* out = output->data.f;
  std::fill_n(out, internal::NumElements(output), 0.0f);

  int64_t run_row = 0;  // output row of the current run
  int run_count = 0;
  float run_sum = 0.0f, run_sum_of_squares = 0.0f;
  for (int i = 0; i < internal::Dim(ids, 0); ++i) {
    const int id = ids->data.i32[i];
    if (id < 0 || id >= rows) {
      TF_LITE_KERNEL_LOG(context, "%s: id %d is out of range [0, %d)", kOp, id, rows);
      return kTfLiteError;
    }
    const int32_t* coords = indices->data.i32 + static_cast<int64_t>(i) * lookup_rank;
    int64_t row = 0;
    for (int d = 0; d < lookup_rank - 1; ++d) {
      const int size = dense_shape->data.i32[d];
      if (coords[d] < 0 || coords[d] >= size) {
        TF_LITE_KERNEL_LOG(context, "%s: index %d of entry %d is outside dimension %d (size %d)",
                           kOp, coords[d], i, d, size);
        return kTfLiteError;
      }
      row = row * size + coords[d];
    }
    if (row != run_row) {
      FinishRun(combiner, run_count, run_sum, run_sum_of_squares, out + run_row * row_size,
                row_size);
      run_row = row;
      run_count = 0;
      run_sum = run_sum_of_squares = 0.0f;
    }
    const float w = weights[i];
    ++run_count;
    run_sum += w;
    run_sum_of_squares += w * w;
    const float* embedding = params->data.f + static_cast<int64_t>(id) * row_size;
    float* dst = out + row * row_size;
    for (int64_t k = 0; k < row_size; ++k) dst[k] += embedding[k] * w;
  }
  FinishRun(combiner, run_count, run_sum, run_sum_of_squares, out + run_row * row_size, row_size);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_EMBEDDING_LOOKUP_SPARSE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
