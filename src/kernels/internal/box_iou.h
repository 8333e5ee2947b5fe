// Axis-aligned boxes in corner form and their intersection over union, as
// the non-max-suppression kernels (NON_MAX_SUPPRESSION_V4/V5,
// TFLite_Detection_PostProcess) compare them.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_BOX_IOU_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_BOX_IOU_H_

#include <algorithm>

namespace tflite_c {
namespace kernels {
namespace internal {

// ymin <= ymax and xmin <= xmax unless the data is hostile; the functions
// below never fail either way (NaN coordinates give a NaN area and IoU,
// which compares false against every threshold).
struct CornerBox {
  float ymin, xmin, ymax, xmax;
};

inline float BoxArea(const CornerBox& b) { return (b.ymax - b.ymin) * (b.xmax - b.xmin); }

// IoU of `a` and `b` given their areas. A box without positive area overlaps
// nothing (0), so degenerate boxes never suppress or get suppressed.
inline float IntersectionOverUnion(const CornerBox& a, float area_a, const CornerBox& b,
                                   float area_b) {
  if (area_a <= 0.0f || area_b <= 0.0f) return 0.0f;
  const float height = std::max(std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin), 0.0f);
  const float width = std::max(std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin), 0.0f);
  const float intersection = height * width;
  const float union_area = area_a + area_b - intersection;
  return union_area == 0.0f ? 0.0f : intersection / union_area;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_BOX_IOU_H_
