// MediaPipe's "TransformLandmarks": maps landmark coordinates through an
// affine transform (typically the one Landmarks2TransformMatrix produced,
// taking landmarks from a crop back into the full image).
//
//   inputs:  landmarks float32, matrix [1, 4, 4] float32 (row-major)
//   output:  float32, the shape of the landmarks
//   version 2: landmarks [B, N, D] with D (2 or 3) values per landmark; no
//              options
//   version 1: landmarks [B, H, W, C], C a multiple of `dimensions`; options
//              (flexbuffer map, both optional) dimensions (2 or 3, default
//              3) and scale (non-zero, default 1), which multiplies the
//              matrix's translation column
//
// Each landmark (x, y[, z]) becomes
//   x' = m00 * x + m01 * y + m03 * scale,  y' = m10 * x + m11 * y + m13 * scale
// and z is copied unchanged (the matrix's z column is not applied: MediaPipe
// transforms with z = 0).
//
// MediaPipe transforms only the first batch entry; here every entry is
// transformed with the same matrix.
#include <new>
#include <string>
#include <vector>

#include "src/kernels/mediapipe/mediapipe_common.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {
namespace {

constexpr char kName[] = "TransformLandmarks";

struct OpData {
  int version = 2;
  int dimensions = 3;  // version 1's option; version 2 takes the last dimension
  float scale = 1.0f;
  std::string error;
};

void* InitV1(TfLiteOpaqueContext*, const char* buffer, size_t length) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  data->version = 1;
  FlexMap map;
  if (length == 0) return data;  // both options have defaults
  if (!map.Parse(buffer, length)) {
    data->error = "custom options are not a flexbuffer map";
  } else if (FlexInt(map, "dimensions", false, &data->dimensions, &data->error)) {
    FlexFloat(map, "scale", false, &data->scale, &data->error);
  }
  return data;
}

void* InitV2(TfLiteOpaqueContext*, const char*, size_t) {
  auto* data = new (std::nothrow) OpData;
  if (data != nullptr) data->version = 2;
  return data;
}

// The number of values per landmark for this node.
int Dimensions(const OpData& data, const TfLiteOpaqueTensor* landmarks) {
  if (data.version == 1) return data.dimensions;
  return TfLiteOpaqueTensorDim(landmarks, TfLiteOpaqueTensorNumDims(landmarks) - 1);
}

TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, data != nullptr);
  if (!data->error.empty()) {
    TfLiteOpaqueContextReportError(context, "%s: %s", kName, data->error.c_str());
    return kTfLiteError;
  }
  if (data->scale == 0.0f) {
    TfLiteOpaqueContextReportError(context, "%s: option 'scale' must not be 0", kName);
    return kTfLiteError;
  }
  MEDIAPIPE_ENSURE_OK(CheckArity(context, node, kName, 2, 1));
  const TfLiteOpaqueTensor* landmarks = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* matrix = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const int rank = data->version == 1 ? 4 : 3;
  MEDIAPIPE_ENSURE_OK(CheckRank(context, landmarks, kName, "landmarks", rank));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, landmarks, kName, "landmarks"));
  MEDIAPIPE_ENSURE_OK(CheckMatrix4x4(context, matrix, kName));
  TF_LITE_OPAQUE_ENSURE(context, output != nullptr);
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, output, kName, "output"));
  const int dimensions = Dimensions(*data, landmarks);
  if (dimensions != 2 && dimensions != 3) {
    TfLiteOpaqueContextReportError(
        context, "%s: %d values per landmark are not supported (2 or 3 only)", kName, dimensions);
    return kTfLiteError;
  }
  const int last = TfLiteOpaqueTensorDim(landmarks, rank - 1);
  if (last % dimensions != 0) {
    TfLiteOpaqueContextReportError(context,
                                   "%s: last dimension %d is not a multiple of %d dimensions",
                                   kName, last, dimensions);
    return kTfLiteError;
  }
  std::vector<int> dims(rank);
  for (int i = 0; i < rank; ++i) dims[i] = TfLiteOpaqueTensorDim(landmarks, i);
  return ResizeTo(context, output, dims);
}

TfLiteStatus Invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* data = static_cast<const OpData*>(TfLiteOpaqueNodeGetUserData(node));
  const TfLiteOpaqueTensor* landmarks = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* matrix = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const size_t count = TfLiteOpaqueTensorByteSize(landmarks) / sizeof(float);
  if (count == 0) return kTfLiteOk;
  TF_LITE_OPAQUE_ENSURE(context, TfLiteOpaqueTensorByteSize(output) == count * sizeof(float));
  const auto* in = static_cast<const float*>(TfLiteOpaqueTensorData(landmarks));
  const auto* m = static_cast<const float*>(TfLiteOpaqueTensorData(matrix));
  auto* out = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, in != nullptr && m != nullptr && out != nullptr);
  const int dimensions = Dimensions(*data, landmarks);
  const float tx = m[3] * data->scale, ty = m[7] * data->scale;
  for (size_t i = 0; i + dimensions <= count; i += dimensions) {
    const float x = in[i], y = in[i + 1];
    out[i] = m[0] * x + m[1] * y + tx;
    out[i + 1] = m[4] * x + m[5] * y + ty;
    if (dimensions == 3) out[i + 2] = in[i + 2];
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteOperator* Register_TRANSFORM_LANDMARKS(int version) {
  return VersionedOperator<kName, kName, InitV1, InitV2, DeleteUserData<OpData>, Prepare,
                           Invoke>(version);
}

}  // namespace mediapipe
}  // namespace tflite_c
