// NON_MAX_SUPPRESSION_V4 (boxes, scores, max_output_size, iou_threshold,
// score_threshold) -> (selected_indices, num_selected) and
// NON_MAX_SUPPRESSION_V5 (... , soft_nms_sigma) -> (selected_indices,
// selected_scores, num_selected): greedy selection of boxes [N, 4] (two
// opposite corners, y1 x1 y2 x2 in any order) by descending score. Only
// scores above score_threshold are candidates; a candidate whose IoU with an
// already selected box reaches iou_threshold is dropped; with sigma > 0
// (V5) smaller overlaps decay its score by exp(-iou^2 / (2 sigma)) instead
// and it competes again with the decayed score. At most max_output_size
// indices are selected; the outputs have max_output_size entries, the
// unused ones zero. FLOAT32 only, as upstream 2.19. A non-constant
// max_output_size makes the index (and score) outputs dynamic.
//
// The selection runs the candidates through a binary heap ordered by score
// alone, pushed and popped in the same sequence as upstream (a selected box
// goes back on the heap and is dropped when it meets itself), so equal
// scores come out in the same order as there.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <vector>

#include "src/kernels/internal/box_iou.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::CornerBox;

enum Input { kBoxes = 0, kScores, kMaxOutputSize, kIouThreshold, kScoreThreshold, kSigma };

struct Candidate {
  int index;
  float score;
  int compared_up_to;  // selected boxes [0, compared_up_to) already applied
};

bool LowerScore(const Candidate& a, const Candidate& b) { return a.score < b.score; }

struct OpData {
  internal::ScratchVector<CornerBox> boxes;  // corners sorted, one per input box
  internal::ScratchVector<float> areas;
  internal::ScratchVector<Candidate> heap;
};

// The op's shape: V4 has 5 inputs and 2 outputs, V5 adds sigma and the
// selected scores (output 1).
struct Variant {
  const char* name;
  bool soft;
};
constexpr Variant kV4 = {"NON_MAX_SUPPRESSION_V4", false};
constexpr Variant kV5 = {"NON_MAX_SUPPRESSION_V5", true};

int NumSelectedOutput(const Variant& v) { return v.soft ? 2 : 1; }

TfLiteStatus CheckScalar(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t, TfLiteType type) {
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, what, t, type));
  if (internal::NumElements(t) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must be a scalar, got %lld elements", op, what,
                       static_cast<long long>(internal::NumElements(t)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeSelected(TfLiteContext* context, TfLiteNode* node, const Variant& v,
                            int max_output_size) {
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(context, internal::OutputAt(context, node, 0),
                                                    {max_output_size}));
  if (!v.soft) return kTfLiteOk;
  return internal::ResizeOutput(context, internal::OutputAt(context, node, 1), {max_output_size});
}

template <const Variant& v>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const int inputs = v.soft ? 6 : 5;
  const int outputs = v.soft ? 3 : 2;
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, v.name, inputs, inputs, outputs));
  const TfLiteTensor* in[6] = {};
  for (int i = 0; i < inputs; ++i) {
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, v.name, &in[i]));
  }
  TfLiteTensor* out[3] = {};
  for (int i = 0; i < outputs; ++i) {
    TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, i, v.name, &out[i]));
  }
  const TfLiteTensor* boxes = in[kBoxes];
  const TfLiteTensor* scores = in[kScores];
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, v.name, "boxes", boxes, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, v.name, "scores", scores, kTfLiteFloat32));
  if (internal::NumDims(boxes) != 2 || internal::Dim(boxes, 1) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: boxes must have shape [num_boxes, 4]", v.name);
    return kTfLiteError;
  }
  const int num_boxes = internal::Dim(boxes, 0);
  if (internal::NumDims(scores) != 1 || internal::Dim(scores, 0) != num_boxes) {
    TF_LITE_KERNEL_LOG(context, "%s: scores must have shape [%d] (one per box)", v.name,
                       num_boxes);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckScalar(context, v.name, "max_output_size",
                                         in[kMaxOutputSize], kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, CheckScalar(context, v.name, "iou_threshold", in[kIouThreshold],
                                         kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, CheckScalar(context, v.name, "score_threshold",
                                         in[kScoreThreshold], kTfLiteFloat32));
  if (v.soft) {
    TF_LITE_ENSURE_OK(context, CheckScalar(context, v.name, "soft_nms_sigma", in[kSigma],
                                           kTfLiteFloat32));
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, v.name, "selected_indices output",
                                                  out[0], kTfLiteInt32));
  if (v.soft) {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, v.name, "selected_scores output",
                                                    out[1], kTfLiteFloat32));
  }
  TfLiteTensor* num_selected = out[NumSelectedOutput(v)];
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, v.name, "num_selected output",
                                                  num_selected, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(context, num_selected, {}));

  auto* data = static_cast<OpData*>(node->user_data);
  try {
    data->boxes.resize(num_boxes);
    data->areas.resize(num_boxes);
    // Every pop precedes at most one push, so the heap never outgrows this.
    data->heap.reserve(num_boxes);
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for %d boxes", v.name, num_boxes);
    return kTfLiteError;
  }

  const TfLiteTensor* max_output_size = in[kMaxOutputSize];
  if (!internal::IsConstantOrPersistent(max_output_size)) {
    internal::SetTensorToDynamic(out[0]);
    if (v.soft) internal::SetTensorToDynamic(out[1]);
    return kTfLiteOk;
  }
  const int size = max_output_size->data.i32[0];
  if (size < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: max_output_size must not be negative, got %d", v.name, size);
    return kTfLiteError;
  }
  return ResizeSelected(context, node, v, size);
}

// The greedy (soft) selection; returns how many indices it wrote.
int Select(OpData* data, const float* scores, int num_boxes, int max_output_size,
           float iou_threshold, float score_threshold, float sigma, int* selected_indices,
           float* selected_scores) {
  auto& heap = data->heap;
  heap.clear();
  for (int i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) {
      heap.push_back({i, scores[i], 0});
      std::push_heap(heap.begin(), heap.end(), LowerScore);
    }
  }
  const int wanted = std::min(static_cast<int>(heap.size()), max_output_size);
  const float decay = sigma > 0.0f ? -0.5f / sigma : 0.0f;
  int count = 0;
  while (count < wanted && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), LowerScore);
    Candidate c = heap.back();
    heap.pop_back();
    const float original = c.score;
    bool dropped = false;
    // Most recent selections first: overlapping boxes tend to have close
    // scores, so a dropping overlap is found early.
    for (int j = count - 1; j >= c.compared_up_to; --j) {
      const int s = selected_indices[j];
      const float iou = internal::IntersectionOverUnion(data->boxes[c.index], data->areas[c.index],
                                                        data->boxes[s], data->areas[s]);
      if (iou >= iou_threshold) {
        dropped = true;
        break;
      }
      if (sigma > 0.0f) c.score *= std::exp(decay * iou * iou);
      if (c.score <= score_threshold) break;
    }
    c.compared_up_to = count;
    if (dropped) continue;
    if (c.score == original) {
      selected_indices[count] = c.index;
      if (selected_scores != nullptr) selected_scores[count] = c.score;
      ++count;
    }
    if (c.score > score_threshold) {
      heap.push_back(c);
      std::push_heap(heap.begin(), heap.end(), LowerScore);
    }
  }
  return count;
}

template <const Variant& v>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* boxes = internal::InputAt(context, node, kBoxes);
  const TfLiteTensor* scores = internal::InputAt(context, node, kScores);
  TfLiteTensor* indices = internal::OutputAt(context, node, 0);
  TfLiteTensor* selected_scores = v.soft ? internal::OutputAt(context, node, 1) : nullptr;
  TfLiteTensor* num_selected = internal::OutputAt(context, node, NumSelectedOutput(v));
  const int max_output_size = internal::InputAt(context, node, kMaxOutputSize)->data.i32[0];
  if (max_output_size < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: max_output_size must not be negative, got %d", v.name,
                       max_output_size);
    return kTfLiteError;
  }
  if (internal::IsDynamic(indices)) {
    TF_LITE_ENSURE_OK(context, ResizeSelected(context, node, v, max_output_size));
  } else if (internal::Dim(indices, 0) != max_output_size) {
    // Sized in Prepare from a constant, so this only happens if the
    // constant's bytes were changed behind the runtime's back.
    TF_LITE_KERNEL_LOG(context, "%s: max_output_size changed from %d to %d after Prepare",
                       v.name, internal::Dim(indices, 0), max_output_size);
    return kTfLiteError;
  }
  const float iou_threshold = internal::InputAt(context, node, kIouThreshold)->data.f[0];
  const float score_threshold = internal::InputAt(context, node, kScoreThreshold)->data.f[0];
  const float sigma = v.soft ? internal::InputAt(context, node, kSigma)->data.f[0] : 0.0f;
  if (sigma < 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: soft_nms_sigma must not be negative, got %f", v.name,
                       static_cast<double>(sigma));
    return kTfLiteError;
  }
  const int num_boxes = internal::Dim(boxes, 0);
  const float* b = boxes->data.f;
  for (int i = 0; i < num_boxes; ++i, b += 4) {
    CornerBox& box = data->boxes[i];
    box = {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]),
           std::max(b[1], b[3])};
    data->areas[i] = internal::BoxArea(box);
  }
  const int count =
      Select(data, scores->data.f, num_boxes, max_output_size, iou_threshold, score_threshold,
             sigma, indices->data.i32, selected_scores ? selected_scores->data.f : nullptr);
  std::fill(indices->data.i32 + count, indices->data.i32 + max_output_size, 0);
  if (selected_scores != nullptr) {
    std::fill(selected_scores->data.f + count, selected_scores->data.f + max_output_size, 0.0f);
  }
  num_selected->data.i32[0] = count;
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare<kV4>, Eval<kV4>);
  return &r;
}

const TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare<kV5>, Eval<kV5>);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
