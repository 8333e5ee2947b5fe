// MediaPipe's "TransformTensorBilinear" (version 2; version 1 is registered
// as "TransformTensor"): resamples an image-like tensor
// through an affine transform, sampling bilinearly.
//
//   inputs:  data [1, H, W, C] float32, matrix [1, 4, 4] float32 (row-major;
//            only the first two rows are used, and of those the x, y and
//            translation columns)
//   output:  [1, OH, OW, C] float32
//   options (flexbuffer map):
//     version 2: output_height, output_width (ints)
//     version 1: output_size ([height, width]), mode (must be "bilinear")
//
// Output pixel (ox, oy) samples the input at
//   sx = m00 * ox + m01 * oy + m03,  sy = m10 * ox + m11 * oy + m13.
// Version 2 treats pixels as unit squares around their centres (the matrix
// maps pixel-centre coordinates: sx is evaluated at ox + 0.5 and 0.5 is
// taken off the result); version 1 uses the coordinates as they are.
// A sample point outside [0, W - 1] x [0, H - 1] gives 0 for every channel;
// otherwise the four surrounding pixels are blended, a neighbour past the
// last row or column counting as 0 (it only ever gets weight 0).
//
// Batches other than 1 are not supported (MediaPipe reads only the first).
#include <cmath>
#include <new>
#include <string>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kNameV1[] = "TransformTensor";
constexpr char kNameV2[] = "TransformTensorBilinear";

struct OpData {
  int version = 2;
  const char* name = kNameV2;
  int output_height = 0, output_width = 0;
  std::string error;  // why the options are unusable, reported by Prepare
};

void ParseOptions(const char* buffer, size_t length, OpData* data) {
  FlexMap map;
  if (!map.Parse(buffer, length)) {
    data->error = "custom options are missing or not a flexbuffer map";
    return;
  }
  if (data->version == 2) {
    if (!FlexInt(map, "output_height", true, &data->output_height, &data->error)) return;
    FlexInt(map, "output_width", true, &data->output_width, &data->error);
    return;
  }
  std::string mode;
  if (map.Has("mode") && (!map.GetString("mode", &mode) || mode != "bilinear")) {
    data->error = "mode '" + mode + "' is not supported (bilinear only)";
    return;
  }
  std::vector<int64_t> size;
  if (!map.GetIntVector("output_size", &size) || size.size() != 2 || size[0] > (1 << 24) ||
      size[1] > (1 << 24)) {
    data->error = "option 'output_size' must be [height, width]";
    return;
  }
  data->output_height = static_cast<int>(std::max<int64_t>(size[0], -1));
  data->output_width = static_cast<int>(std::max<int64_t>(size[1], -1));
}

void* InitVersion(const char* buffer, size_t length, int version) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  data->version = version;
  data->name = version == 1 ? kNameV1 : kNameV2;
  ParseOptions(buffer, length, data);
  return data;
}
TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, data != nullptr);
  const char* name = data->name;
  if (!data->error.empty()) {
    TfLiteOpaqueContextReportError(context, "%s: %s", name, data->error.c_str());
    return kTfLiteError;
  }
  if (data->output_height <= 0 || data->output_width <= 0) {
    TfLiteOpaqueContextReportError(context, "%s: invalid output size %dx%d", name,
                                   data->output_height, data->output_width);
    return kTfLiteError;
  }
  MEDIAPIPE_ENSURE_OK(CheckArity(context, node, name, 2, 1));
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* matrix = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  Nhwc in;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, input, name, "input", &in));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, input, name, "input"));
  MEDIAPIPE_ENSURE_OK(CheckMatrix4x4(context, matrix, name));
  TF_LITE_OPAQUE_ENSURE(context, output != nullptr);
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, output, name, "output"));
  if (in.batch != 1) {
    TfLiteOpaqueContextReportError(context, "%s: batch %d is not supported (1 only)", name,
                                   in.batch);
    return kTfLiteError;
  }
  Nhwc out = in;
  out.height = data->output_height;
  out.width = data->output_width;
  if (static_cast<double>(out.height) * out.width * out.channels * sizeof(float) > 2147483647.0) {
    TfLiteOpaqueContextReportError(context, "%s: output size %dx%dx%d is too large", name,
                                   out.height, out.width, out.channels);
    return kTfLiteError;
  }
  return ResizeNhwc(context, output, out);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  const char* name = data->name;
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* matrix = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  Nhwc in, out;
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, input, name, "input", &in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, output, name, "output", &out));
  if (out.size() == 0) return kTfLiteOk;
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(input));
  const auto* m = static_cast<const float*>(TfLiteOpaqueTensorData(matrix));
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, m != nullptr && y != nullptr);
  TF_LITE_OPAQUE_ENSURE(context, x != nullptr || in.size() == 0);

  const float ax = m[0], bx = m[1], ay = m[4], by = m[5];
  float cx = m[3], cy = m[7];
  if (data->version == 2) {
    // Shift to pixel centres before the transform and back after it.
    cx += 0.5f * (ax + bx) - 0.5f;
    cy += 0.5f * (ay + by) - 0.5f;
  }
  const int h = in.height, w = in.width, channels = in.channels;
  auto at = [&](int iy, int ix, int c) -> float {
    if (iy < 0 || ix < 0 || iy >= h || ix >= w) return 0.0f;
    return x[in.Offset(0, iy, ix, c)];
  };
  for (int oy = 0; oy < out.height; ++oy) {
    for (int ox = 0; ox < out.width; ++ox) {
      const float sx = ax * static_cast<float>(ox) + bx * static_cast<float>(oy) + cx;
      const float sy = ay * static_cast<float>(ox) + by * static_cast<float>(oy) + cy;
      float* dst = y + out.Offset(0, oy, ox, 0);
      // Written so that NaN coordinates land outside as well.
      if (!(sx >= 0.0f && sx <= static_cast<float>(w - 1) && sy >= 0.0f &&
            sy <= static_cast<float>(h - 1))) {
        for (int c = 0; c < channels; ++c) dst[c] = 0.0f;
        continue;
      }
      const float fx = std::floor(sx), fy = std::floor(sy);
      const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
      const float wx = sx - fx, wy = sy - fy;
      for (int c = 0; c < channels; ++c) {
        const float top = (1.0f - wx) * at(y0, x0, c) + wx * at(y0, x0 + 1, c);
        const float bottom = (1.0f - wx) * at(y0 + 1, x0, c) + wx * at(y0 + 1, x0 + 1, c);
        dst[c] = wy * bottom + (1.0f - wy) * top;
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_TRANSFORM_TENSOR_BILINEAR(int version) {
  return VersionedOperator<kNameV1, kNameV2, InitForVersion<InitVersion, 1>,
                           InitForVersion<InitVersion, 2>, DeleteUserData<OpData>, Prepare,
                           Invoke>(version);
}

}  // namespace mediapipe
}  // namespace tflite_c
