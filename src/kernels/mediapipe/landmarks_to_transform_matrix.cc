// MediaPipe's "Landmarks2TransformMatrix": from a set of landmarks, the
// affine transform of an axis-aligned crop around some of them, rotated so
// that two chosen landmarks lie level. TransformTensorBilinear samples with
// it and TransformLandmarks maps crop landmarks back with it.
//
//   input:   landmarks float32, (x, y, z) per landmark;
//            version 2: [1, N, 3]; version 1: [1, 1, 1, 3 * N]
//   output:  [1, 4, 4] float32, a row-major 4x4 matrix of the form
//            [a b 0 tx; c d 0 ty; 0 0 1 0; 0 0 0 1]
//   options: a flexbuffer map.
//
// Version 2 (options left_rotation_idx, right_rotation_idx, subset_idxs,
// output_height, output_width, scale_x, scale_y, target_rotation_radians):
//   r = target_rotation_radians - atan2(yR - yL, xR - xL)
//   the subset landmarks rotated by r span [x0, x1] x [y0, y1]; the crop
//   centre c is the middle of that box rotated back by -r, and
//   M = T(c) * R(-r) * S(scale_x * (x1 - x0) / output_width,
//                       scale_y * (y1 - y0) / output_height)
//         * T(-output_width / 2, -output_height / 2)
//   maps an output pixel to landmark coordinates.
//
// Version 1 (options input_hw, output_hw, dimensions = 3, landmarks_range,
// bbox_size_multiplier, left_rotation_idx, right_rotation_idx, subset):
//   a = -atan((yR - yL) / (xR - xL)); the subset rotated by a spans a box;
//   M = A * R'(-a, centre) * S(box size * multiplier / range) * N where N maps
//   output pixels to [-1, 1], R' rotates by -a and moves to the box centre
//   (rotated back, in [-1, 1] units of landmarks_range) and A maps [-1, 1]
//   to input pixels.
//
// Landmark indices must lie inside the input (MediaPipe does not check).
#include <cmath>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "Landmarks2TransformMatrix";

struct OpData {
  int version = 2;
  int left = 0, right = 0;
  std::vector<int> subset;  // every listed landmark (pairs do not matter)
  // Version 2.
  int output_height = 0, output_width = 0;
  float scale_x = 0, scale_y = 0, target_rotation = 0;
  // Version 1.
  int input_h = 0, input_w = 0, output_h = 0, output_w = 0;
  int dimensions = 0, landmarks_range = 0;
  float bbox_size_multiplier = 0;
  std::string error;
};

bool ReadIndexList(const FlexMap& map, const char* key, OpData* data) {
  std::vector<int64_t> values;
  if (!map.GetIntVector(key, &values) || values.empty()) {
    data->error = std::string("option '") + key + "' must be a non-empty list of landmark indices";
    return false;
  }
  for (int64_t v : values) {
    if (v < 0 || v > (1 << 28)) {
      data->error = std::string("option '") + key + "' holds invalid index " + std::to_string(v);
      return false;
    }
    data->subset.push_back(static_cast<int>(v));
  }
  return true;
}

bool ReadPair(const FlexMap& map, const char* key, int* h, int* w, std::string* error) {
  std::vector<int64_t> values;
  if (!map.GetIntVector(key, &values) || values.size() != 2 || values[0] < 1 ||
      values[1] < 1 || values[0] > (1 << 24) || values[1] > (1 << 24)) {
    *error = std::string("option '") + key + "' must be [height, width], both positive";
    return false;
  }
  *h = static_cast<int>(values[0]);
  *w = static_cast<int>(values[1]);
  return true;
}

void ParseV2(const FlexMap& map, OpData* d) {
  std::string& e = d->error;
  if (!FlexInt(map, "left_rotation_idx", true, &d->left, &e) ||
      !FlexInt(map, "right_rotation_idx", true, &d->right, &e) ||
      !FlexInt(map, "output_height", true, &d->output_height, &e) ||
      !FlexInt(map, "output_width", true, &d->output_width, &e) ||
      !FlexFloat(map, "scale_x", true, &d->scale_x, &e) ||
      !FlexFloat(map, "scale_y", true, &d->scale_y, &e) ||
      !FlexFloat(map, "target_rotation_radians", false, &d->target_rotation, &e) ||
      !ReadIndexList(map, "subset_idxs", d)) {
    return;
  }
  if (d->output_height <= 0 || d->output_width <= 0) {
    e = "options 'output_height' and 'output_width' must be positive";
  } else if (!(d->scale_x > 0.0f) || !(d->scale_y > 0.0f)) {
    e = "options 'scale_x' and 'scale_y' must be positive";
  }
}

void ParseV1(const FlexMap& map, OpData* d) {
  std::string& e = d->error;
  if (!ReadPair(map, "input_hw", &d->input_h, &d->input_w, &e) ||
      !ReadPair(map, "output_hw", &d->output_h, &d->output_w, &e) ||
      !FlexInt(map, "dimensions", true, &d->dimensions, &e) ||
      !FlexInt(map, "landmarks_range", true, &d->landmarks_range, &e) ||
      !FlexFloat(map, "bbox_size_multiplier", true, &d->bbox_size_multiplier, &e) ||
      !FlexInt(map, "left_rotation_idx", true, &d->left, &e) ||
      !FlexInt(map, "right_rotation_idx", true, &d->right, &e) ||
      !ReadIndexList(map, "subset", d)) {
    return;
  }
  if (d->dimensions != 3) {
    e = "dimensions " + std::to_string(d->dimensions) + " are not supported (3 only)";
  } else if (d->landmarks_range <= 0) {
    e = "option 'landmarks_range' must be positive";
  } else if (d->bbox_size_multiplier == 0.0f) {
    e = "option 'bbox_size_multiplier' must not be 0";
  } else if (d->output_h < 2 || d->output_w < 2) {
    e = "option 'output_hw' must be at least [2, 2]";
  }
}

void* InitVersion(const char* buffer, size_t length, int version) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  data->version = version;
  FlexMap map;
  if (!map.Parse(buffer, length)) {
    data->error = "custom options are missing or not a flexbuffer map";
  } else if (version == 1) {
    ParseV1(map, data);
  } else {
    ParseV2(map, data);
  }
  if (data->error.empty() && (data->left < 0 || data->right < 0)) {
    data->error = "rotation landmark indices must not be negative";
  }
  return data;
}
TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, data != nullptr);
  if (!data->error.empty()) {
    TfLiteOpaqueContextReportError(context, "%s: %s", kName, data->error.c_str());
    return kTfLiteError;
  }
  MEDIAPIPE_ENSURE_OK(CheckArity(context, node, kName, 1, 1));
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const int rank = data->version == 1 ? 4 : 3;
  MEDIAPIPE_ENSURE_OK(CheckRank(context, input, kName, "landmarks", rank));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, input, kName, "landmarks"));
  TF_LITE_OPAQUE_ENSURE(context, output != nullptr);
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, output, kName, "output"));
  int64_t leading = 1;  // everything before the landmarks must be 1
  for (int i = 0; i < rank - (data->version == 1 ? 1 : 2); ++i) {
    leading *= TfLiteOpaqueTensorDim(input, i);
  }
  const int last = TfLiteOpaqueTensorDim(input, rank - 1);
  if (leading != 1 || (data->version == 2 && last != 3) || (data->version == 1 && last % 3)) {
    TfLiteOpaqueContextReportError(context,
                                   "%s: landmarks must be %s with x, y, z per landmark", kName,
                                   data->version == 1 ? "[1, 1, 1, 3 * N]" : "[1, N, 3]");
    return kTfLiteError;
  }
  const int count = data->version == 1 ? last / 3 : TfLiteOpaqueTensorDim(input, 1);
  int largest = std::max(data->left, data->right);
  for (int i : data->subset) largest = std::max(largest, i);
  if (largest >= count) {
    TfLiteOpaqueContextReportError(context, "%s: landmark index %d is out of range (%d landmarks)",
                                   kName, largest, count);
    return kTfLiteError;
  }
  return ResizeTo(context, output, {1, 4, 4});
}

// Writes [a b 0 tx; c d 0 ty; 0 0 1 0; 0 0 0 1].
void StoreAffine(double a, double b, double tx, double c, double d, double ty, float* out) {
  const double m[16] = {a, b, 0, tx, c, d, 0, ty, 0, 0, 1, 0, 0, 0, 0, 1};
  for (int i = 0; i < 16; ++i) out[i] = static_cast<float>(m[i]);
}

void ComputeV2(const OpData& p, const float* lm, float* out) {
  const auto X = [&](int i) { return static_cast<double>(lm[3 * i]); };
  const auto Y = [&](int i) { return static_cast<double>(lm[3 * i + 1]); };
  const double r =
      p.target_rotation - std::atan2(Y(p.right) - Y(p.left), X(p.right) - X(p.left));
  const double cr = std::cos(r), sr = std::sin(r);
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (size_t k = 0; k < p.subset.size(); ++k) {
    const int i = p.subset[k];
    const double rx = cr * X(i) - sr * Y(i), ry = sr * X(i) + cr * Y(i);
    if (k == 0 || rx < x0) x0 = rx;
    if (k == 0 || rx > x1) x1 = rx;
    if (k == 0 || ry < y0) y0 = ry;
    if (k == 0 || ry > y1) y1 = ry;
  }
  // Box centre, rotated back into landmark coordinates (rotation by -r).
  const double mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  const double cx = cr * mx + sr * my, cy = -sr * mx + cr * my;
  const double sx = p.scale_x * (x1 - x0) / p.output_width;
  const double sy = p.scale_y * (y1 - y0) / p.output_height;
  // R(-r) * S: columns scaled.
  const double a = cr * sx, b = sr * sy, c = -sr * sx, d = cr * sy;
  const double hx = -p.output_width / 2.0, hy = -p.output_height / 2.0;
  StoreAffine(a, b, a * hx + b * hy + cx, c, d, c * hx + d * hy + cy, out);
}

void ComputeV1(const OpData& p, const float* lm, float* out) {
  const auto X = [&](int i) { return static_cast<double>(lm[3 * i]); };
  const auto Y = [&](int i) { return static_cast<double>(lm[3 * i + 1]); };
  const double alpha = -std::atan((Y(p.right) - Y(p.left)) / (X(p.right) - X(p.left)));
  const double ca = std::cos(alpha), sa = std::sin(alpha);
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (size_t k = 0; k < p.subset.size(); ++k) {
    const int i = p.subset[k];
    const double rx = ca * X(i) - sa * Y(i), ry = sa * X(i) + ca * Y(i);
    if (k == 0 || rx < x0) x0 = rx;
    if (k == 0 || rx > x1) x1 = rx;
    if (k == 0 || ry < y0) y0 = ry;
    if (k == 0 || ry > y1) y1 = ry;
  }
  const double range = p.landmarks_range;
  const double bw = (x1 - x0) * p.bbox_size_multiplier, bh = (y1 - y0) * p.bbox_size_multiplier;
  const double mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  // The centre rotated by -alpha, then in [-1, 1] units.
  const double rmx = ca * mx + sa * my, rmy = -sa * mx + ca * my;
  const double ux = rmx / range * 2 - 1, uy = rmy / range * 2 - 1;
  // Rotation (by -alpha) with the centre as translation, times the scale.
  const double r00 = ca * bw / range, r01 = sa * bh / range;
  const double r10 = -sa * bw / range, r11 = ca * bh / range;
  // Output pixels to [-1, 1]: p * 2 / (size - 1) - 1.
  const double nx = 2.0 / (p.output_w - 1), ny = 2.0 / (p.output_h - 1);
  const double a0 = r00 * nx, b0 = r01 * ny, t0 = -r00 - r01 + ux;
  const double c0 = r10 * nx, d0 = r11 * ny, t1 = -r10 - r11 + uy;
  // [-1, 1] to input pixels: q * (size - 1) / 2 + (size - 1) / 2.
  const double hx = (p.input_w - 1) / 2.0, hy = (p.input_h - 1) / 2.0;
  StoreAffine(hx * a0, hx * b0, hx * t0 + hx, hy * c0, hy * d0, hy * t1 + hy, out);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const auto* lm = static_cast<const float*>(TfLiteOpaqueTensorData(input));
  auto* out = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, lm != nullptr && out != nullptr);
  if (data->version == 1) {
    ComputeV1(*data, lm, out);
  } else {
    ComputeV2(*data, lm, out);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_LANDMARKS_TO_TRANSFORM_MATRIX(int version) {
  return VersionedOperator<kName, kName, InitForVersion<InitVersion, 1>,
                           InitForVersion<InitVersion, 2>, DeleteUserData<OpData>, Prepare,
                           Invoke>(version);
}

}  // namespace mediapipe
}  // namespace tflite_c
