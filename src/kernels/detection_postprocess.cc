// TFLite_Detection_PostProcess (custom op of the SSD detectors; upstream's
// builtin resolver registers it by default): decodes box encodings
// [1, anchors, >= 4] (y, x, h, w relative to the anchors [anchors, 4] given
// as y, x, h, w centers and sizes, scaled by the y/x/h/w_scale options) into
// corners, then keeps the best boxes by non-max suppression over the class
// predictions [1, anchors, num_classes (+1 background, skipped)]:
//  - fast (default): each anchor competes once with its best class score;
//    a selected anchor reports its max_classes_per_detection best classes;
//  - regular (use_regular_nms): suppression per class keeping at most
//    detections_per_class boxes each, then the max_detections best overall.
// Scores at or above nms_score_threshold are candidates; a candidate whose
// IoU with a selected box exceeds nms_iou_threshold is dropped; equal scores
// keep anchor order. Inputs FLOAT32, UINT8 or INT8 (dequantized with each
// tensor's scale and zero point); outputs FLOAT32: boxes [1, D, 4]
// (ymin, xmin, ymax, xmax), classes [1, D], scores [1, D] with
// D = max_detections * max_classes_per_detection, and the number of
// detections [1]. Unused output rows are zero.
//
// Where upstream's result depends on its sort (the classes of one anchor in
// fast mode, the merge of per-class results in regular mode), the same
// standard algorithm runs on the same sequence, so ties come out alike.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <numeric>
#include <string>
#include <vector>

#include "src/kernels/internal/box_iou.h"
#include "src/kernels/internal/flex_map.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::CornerBox;

constexpr char kOp[] = "TFLite_Detection_PostProcess";
enum Input { kBoxEncodings = 0, kClassPredictions, kAnchors };
enum Output { kDetectionBoxes = 0, kDetectionClasses, kDetectionScores, kNumDetections };

struct Options {
  int max_detections = 0;
  int max_classes_per_detection = 0;
  int detections_per_class = 100;
  bool use_regular_nms = false;
  float score_threshold = 0.0f;
  float iou_threshold = 0.0f;
  int num_classes = 0;
  float y_scale = 0.0f, x_scale = 0.0f, h_scale = 0.0f, w_scale = 0.0f;
};

// A candidate box of one class. Heap order: higher score first, then lower
// anchor, which is the order of a stable sort by descending score.
struct Ranked {
  float score;
  int anchor;
};
bool RanksBelow(const Ranked& a, const Ranked& b) {
  return a.score < b.score || (a.score == b.score && a.anchor > b.anchor);
}

struct Detection {
  float score;
  int anchor;
  int label;
};

// An 8-bit tensor's values, dequantized, indexed by bit pattern.
struct Lut {
  float value[256];
};

struct OpData {
  Options options;
  std::string error;  // why the options are unusable; Prepare reports it

  int num_anchors = 0;
  int encoding_length = 0;  // values per anchor in the box encodings (>= 4)
  int classes_with_background = 0;
  int label_offset = 0;  // 1 when the class predictions start with a background class
  int output_rows = 0;
  Lut luts[3];  // per input, when 8-bit

  internal::ScratchVector<CornerBox> boxes;
  internal::ScratchVector<float> areas;
  internal::ScratchVector<float> scores;  // dequantized class predictions (8-bit input only)
  internal::ScratchVector<float> max_scores;
  internal::ScratchVector<int> best_class;
  internal::ScratchVector<Ranked> heap;
  internal::ScratchVector<int> selected;
  internal::ScratchVector<int> order;  // argsort scratch
  std::vector<Detection> merged, merged_sorted;
};

std::string ParseOptions(const char* buffer, size_t length, Options* o) {
  internal::FlexMap map;
  if (!map.Parse(buffer, length)) return "options are not a flexbuffer map";
  std::string error;
  int regular = 0;
  const bool ok =
      internal::FlexInt(map, "max_detections", true, &o->max_detections, &error) &&
      internal::FlexInt(map, "max_classes_per_detection", true, &o->max_classes_per_detection,
                        &error) &&
      internal::FlexInt(map, "detections_per_class", false, &o->detections_per_class, &error) &&
      internal::FlexInt(map, "use_regular_nms", false, &regular, &error) &&
      internal::FlexFloat(map, "nms_score_threshold", false, &o->score_threshold, &error) &&
      internal::FlexFloat(map, "nms_iou_threshold", true, &o->iou_threshold, &error) &&
      internal::FlexInt(map, "num_classes", true, &o->num_classes, &error) &&
      internal::FlexFloat(map, "y_scale", true, &o->y_scale, &error) &&
      internal::FlexFloat(map, "x_scale", true, &o->x_scale, &error) &&
      internal::FlexFloat(map, "h_scale", true, &o->h_scale, &error) &&
      internal::FlexFloat(map, "w_scale", true, &o->w_scale, &error);
  if (!ok) return error;
  o->use_regular_nms = regular != 0;
  if (o->max_detections < 0) return "max_detections must not be negative";
  if (o->max_classes_per_detection < 1) return "max_classes_per_detection must be at least 1";
  if (o->use_regular_nms && o->detections_per_class < 1) {
    return "detections_per_class must be at least 1";
  }
  if (o->num_classes < 1) return "num_classes must be at least 1";
  if (!(o->iou_threshold > 0.0f && o->iou_threshold <= 1.0f)) {
    return "nms_iou_threshold must be in (0, 1]";
  }
  if (o->y_scale == 0.0f || o->x_scale == 0.0f || o->h_scale == 0.0f || o->w_scale == 0.0f) {
    return "y_scale, x_scale, h_scale and w_scale must not be zero";
  }
  return "";
}

void* Init(TfLiteContext*, const char* buffer, size_t length) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  try {
    data->error = ParseOptions(buffer, length, &data->options);
  } catch (const std::bad_alloc&) {
    data->error = "out of memory";
  }
  return data;
}

void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

TfLiteStatus CheckInput(TfLiteContext* context, const char* what, const TfLiteTensor* t, int rank,
                        Lut* lut) {
  if (!internal::TypeIn(t->type, {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8})) {
    return internal::UnsupportedType(context, kOp, what, t->type);
  }
  if (internal::NumDims(t) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must have %d dimensions, got %d", kOp, what, rank,
                       internal::NumDims(t));
    return kTfLiteError;
  }
  if (t->type == kTfLiteFloat32) return kTfLiteOk;
  internal::QuantParams q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, what, t, &q));
  for (int bits = 0; bits < 256; ++bits) {
    const int v = t->type == kTfLiteInt8 ? static_cast<int8_t>(bits) : bits;
    lut->value[bits] = (static_cast<float>(v) - static_cast<float>(q.zero_point)) * q.scale;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckShapes(TfLiteContext* context, OpData* d, const TfLiteTensor* encodings,
                         const TfLiteTensor* predictions, const TfLiteTensor* anchors) {
  d->num_anchors = internal::Dim(encodings, 1);
  d->encoding_length = internal::Dim(encodings, 2);
  d->classes_with_background = internal::Dim(predictions, 2);
  const int num_classes = d->options.num_classes;
  if (internal::Dim(encodings, 0) != 1 || d->encoding_length < 4) {
    TF_LITE_KERNEL_LOG(context, "%s: box encodings must have shape [1, anchors, >= 4]", kOp);
    return kTfLiteError;
  }
  if (internal::Dim(predictions, 0) != 1 || internal::Dim(predictions, 1) != d->num_anchors) {
    TF_LITE_KERNEL_LOG(context, "%s: class predictions must have shape [1, %d, classes]", kOp,
                       d->num_anchors);
    return kTfLiteError;
  }
  if (internal::Dim(anchors, 0) != d->num_anchors || internal::Dim(anchors, 1) != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: anchors must have shape [%d, 4]", kOp, d->num_anchors);
    return kTfLiteError;
  }
  d->label_offset = d->classes_with_background - num_classes;
  if (d->label_offset != 0 && d->label_offset != 1) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: class predictions have %d classes per anchor; num_classes %d needs "
                       "%d or %d (with a background class)",
                       kOp, d->classes_with_background, num_classes, num_classes,
                       num_classes + 1);
    return kTfLiteError;
  }
  const int64_t rows = static_cast<int64_t>(d->options.max_detections) *
                       d->options.max_classes_per_detection;
  if (rows > std::numeric_limits<int>::max() / 4) {
    TF_LITE_KERNEL_LOG(context, "%s: max_detections * max_classes_per_detection = %lld is too large",
                       kOp, static_cast<long long>(rows));
    return kTfLiteError;
  }
  d->output_rows = static_cast<int>(rows);
  return kTfLiteOk;
}

TfLiteStatus AllocateScratch(TfLiteContext* context, OpData* d, bool quantized_scores) {
  const Options& o = d->options;
  const size_t anchors = static_cast<size_t>(d->num_anchors);
  const size_t per_class = std::min<size_t>(o.detections_per_class, anchors);
  const size_t kept = std::min<size_t>(o.max_detections, anchors * o.num_classes);
  try {
    d->boxes.resize(anchors);
    d->areas.resize(anchors);
    d->scores.resize(quantized_scores ? anchors * d->classes_with_background : 0);
    d->heap.reserve(anchors);
    if (o.use_regular_nms) {
      d->selected.reserve(per_class);
      d->merged.resize(kept + per_class);
      d->merged_sorted.resize(kept + per_class);
      d->order.resize(kept + per_class);
    } else {
      d->max_scores.resize(anchors);
      d->best_class.resize(anchors);
      d->selected.reserve(std::min<size_t>(o.max_detections, anchors));
      d->order.resize(o.num_classes);
    }
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for %d anchors", kOp, d->num_anchors);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  if (d == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory", kOp);
    return kTfLiteError;
  }
  if (!d->error.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s: %s", kOp, d->error.c_str());
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 4));
  const TfLiteTensor *encodings, *predictions, *anchors;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kBoxEncodings, kOp, &encodings));
  TF_LITE_ENSURE_OK(context,
                    internal::GetInput(context, node, kClassPredictions, kOp, &predictions));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kAnchors, kOp, &anchors));
  TF_LITE_ENSURE_OK(context, CheckInput(context, "box encodings", encodings, 3,
                                        &d->luts[kBoxEncodings]));
  TF_LITE_ENSURE_OK(context, CheckInput(context, "class predictions", predictions, 3,
                                        &d->luts[kClassPredictions]));
  TF_LITE_ENSURE_OK(context, CheckInput(context, "anchors", anchors, 2, &d->luts[kAnchors]));
  TF_LITE_ENSURE_OK(context, CheckShapes(context, d, encodings, predictions, anchors));

  static const char* const kOutputNames[] = {"detection boxes", "detection classes",
                                             "detection scores", "num detections"};
  for (int i = 0; i < 4; ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, i, kOp, &output));
    TF_LITE_ENSURE_OK(
        context, internal::ExpectType(context, kOp, kOutputNames[i], output, kTfLiteFloat32));
  }
  const int rows = d->output_rows;
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(
                                 context, internal::OutputAt(context, node, kDetectionBoxes),
                                 {1, rows, 4}));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(
                                 context, internal::OutputAt(context, node, kDetectionClasses),
                                 {1, rows}));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(
                                 context, internal::OutputAt(context, node, kDetectionScores),
                                 {1, rows}));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(
                                 context, internal::OutputAt(context, node, kNumDetections), {1}));
  return AllocateScratch(context, d, predictions->type != kTfLiteFloat32);
}

// Row `row` (4 values from `row * stride`) of a FLOAT32 or 8-bit tensor.
void ReadRow(const TfLiteTensor* t, const Lut& lut, int row, int stride, float out[4]) {
  const size_t at = static_cast<size_t>(row) * stride;
  if (t->type == kTfLiteFloat32) {
    for (int i = 0; i < 4; ++i) out[i] = t->data.f[at + i];
  } else {
    for (int i = 0; i < 4; ++i) out[i] = lut.value[t->data.uint8[at + i]];
  }
}

// Center-size encodings relative to the anchors -> corners. Computed in
// double and rounded once, as upstream does, so boxes match it bit for bit.
TfLiteStatus DecodeBoxes(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  const TfLiteTensor* encodings = internal::InputAt(context, node, kBoxEncodings);
  const TfLiteTensor* anchors = internal::InputAt(context, node, kAnchors);
  const Options& o = d->options;
  for (int i = 0; i < d->num_anchors; ++i) {
    float e[4], a[4];  // y, x, h, w
    ReadRow(encodings, d->luts[kBoxEncodings], i, d->encoding_length, e);
    ReadRow(anchors, d->luts[kAnchors], i, 4, a);
    const double y = static_cast<double>(e[0]) / o.y_scale * a[2] + a[0];
    const double x = static_cast<double>(e[1]) / o.x_scale * a[3] + a[1];
    const double half_h = 0.5 * std::exp(static_cast<double>(e[2]) / o.h_scale) * a[2];
    const double half_w = 0.5 * std::exp(static_cast<double>(e[3]) / o.w_scale) * a[3];
    const float yc = static_cast<float>(y), xc = static_cast<float>(x);
    const float hh = static_cast<float>(half_h), hw = static_cast<float>(half_w);
    CornerBox& box = d->boxes[i];
    box = {yc - hh, xc - hw, yc + hh, xc + hw};
    if (box.ymin > box.ymax || box.xmin > box.xmax) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: decoded box %d is inverted (ymin > ymax or xmin > xmax): "
                         "anchors need non-negative heights and widths",
                         kOp, i);
      return kTfLiteError;
    }
    d->areas[i] = internal::BoxArea(box);
  }
  return kTfLiteOk;
}

// Greedy suppression within one class: scores[a * stride] is anchor a's
// score. Leaves at most `limit` anchors in d->selected, best first.
void SelectOneClass(OpData* d, const float* scores, size_t stride, int limit) {
  const float threshold = d->options.score_threshold;
  const float iou_threshold = d->options.iou_threshold;
  auto& heap = d->heap;
  heap.clear();
  for (int a = 0; a < d->num_anchors; ++a) {
    const float s = scores[a * stride];
    if (s >= threshold) heap.push_back({s, a});  // NaN never passes
  }
  std::make_heap(heap.begin(), heap.end(), RanksBelow);
  d->selected.clear();
  while (static_cast<int>(d->selected.size()) < limit && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), RanksBelow);
    const int c = heap.back().anchor;
    heap.pop_back();
    bool suppressed = false;
    for (int s : d->selected) {
      if (internal::IntersectionOverUnion(d->boxes[s], d->areas[s], d->boxes[c], d->areas[c]) >
          iou_threshold) {
        suppressed = true;
        break;
      }
    }
    if (!suppressed) d->selected.push_back(c);
  }
}

struct Outputs {
  float* boxes;
  float* classes;
  float* scores;
  int rows;
};

void WriteRow(const OpData* d, const Outputs& out, int row, int anchor, int label, float score) {
  const CornerBox& b = d->boxes[anchor];
  float* box = out.boxes + static_cast<size_t>(row) * 4;
  box[0] = b.ymin;
  box[1] = b.xmin;
  box[2] = b.ymax;
  box[3] = b.xmax;
  out.classes[row] = static_cast<float>(label);
  out.scores[row] = score;
}

// Index of the first largest of n values (n >= 1).
int FirstMax(const float* v, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (v[i] > v[best]) best = i;
  }
  return best;
}

// Fast NMS: one competition over each anchor's best class score. Returns the
// number of selected anchors.
int FastNms(OpData* d, const float* scores, const Outputs& out) {
  const Options& o = d->options;
  const int classes = o.num_classes;
  const size_t stride = d->classes_with_background;
  for (int a = 0; a < d->num_anchors; ++a) {
    const float* row = scores + a * stride + d->label_offset;
    d->best_class[a] = FirstMax(row, classes);
    d->max_scores[a] = row[d->best_class[a]];
  }
  SelectOneClass(d, d->max_scores.data(), 1, o.max_detections);
  const int per_anchor = std::min(o.max_classes_per_detection, classes);
  int* order = d->order.data();
  for (size_t k = 0; k < d->selected.size(); ++k) {
    const int a = d->selected[k];
    const float* row = scores + a * stride + d->label_offset;
    const int first_row = static_cast<int>(k) * o.max_classes_per_detection;
    if (per_anchor == 1) {
      WriteRow(d, out, first_row, a, d->best_class[a], d->max_scores[a]);
      continue;
    }
    std::iota(order, order + classes, 0);
    std::partial_sort(order, order + per_anchor, order + classes,
                      [row](int i, int j) { return row[i] > row[j]; });
    for (int c = 0; c < per_anchor; ++c) WriteRow(d, out, first_row + c, a, order[c], row[order[c]]);
  }
  return static_cast<int>(d->selected.size());
}

// Regular NMS: suppression per class, each class's survivors merged into the
// running list of the max_detections best. Returns the list's length.
int RegularNms(OpData* d, const float* scores, const Outputs& out) {
  const Options& o = d->options;
  const size_t stride = d->classes_with_background;
  int kept = 0;
  for (int c = 0; c < o.num_classes; ++c) {
    const float* column = scores + d->label_offset + c;
    SelectOneClass(d, column, stride, o.detections_per_class);
    int total = kept;
    for (int a : d->selected) d->merged[total++] = {column[a * stride], a, c};
    const int keep = std::min(total, o.max_detections);
    Detection* merged = d->merged.data();
    int* order = d->order.data();
    if (keep == 1) {
      int best = 0;
      for (int i = 1; i < total; ++i) {
        if (merged[i].score > merged[best].score) best = i;
      }
      order[0] = best;
    } else {
      std::iota(order, order + total, 0);
      std::partial_sort(order, order + keep, order + total,
                        [merged](int i, int j) { return merged[i].score > merged[j].score; });
    }
    for (int i = 0; i < keep; ++i) d->merged_sorted[i] = merged[order[i]];
    std::copy(d->merged_sorted.begin(), d->merged_sorted.begin() + keep, d->merged.begin());
    kept = keep;
  }
  for (int i = 0; i < kept; ++i) {
    WriteRow(d, out, i, d->merged[i].anchor, d->merged[i].label, d->merged[i].score);
  }
  return kept;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, DecodeBoxes(context, node, d));
  const TfLiteTensor* predictions = internal::InputAt(context, node, kClassPredictions);
  const float* scores = predictions->data.f;
  if (predictions->type != kTfLiteFloat32) {
    const Lut& lut = d->luts[kClassPredictions];
    for (size_t i = 0; i < d->scores.size(); ++i) d->scores[i] = lut.value[predictions->data.uint8[i]];
    scores = d->scores.data();
  }
  const Outputs out = {internal::OutputAt(context, node, kDetectionBoxes)->data.f,
                       internal::OutputAt(context, node, kDetectionClasses)->data.f,
                       internal::OutputAt(context, node, kDetectionScores)->data.f,
                       d->output_rows};
  // Rows no detection fills stay zero.
  std::fill(out.boxes, out.boxes + static_cast<size_t>(out.rows) * 4, 0.0f);
  std::fill(out.classes, out.classes + out.rows, 0.0f);
  std::fill(out.scores, out.scores + out.rows, 0.0f);
  const int count =
      d->options.use_regular_nms ? RegularNms(d, scores, out) : FastNms(d, scores, out);
  internal::OutputAt(context, node, kNumDetections)->data.f[0] = static_cast<float>(count);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DETECTION_POSTPROCESS() {
  static const TfLiteRegistration r = internal::MakeRegistration(Init, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
