// Shared by the MediaPipe custom ops. These kernels are written against the
// opaque extension API only (tensorflow/lite/c/c_api_opaque.h), exactly as a
// custom op shipped in its own .so would be: nothing here sees TfLiteTensor
// or TfLiteNode fields.
//
// The pooling and transposed-convolution ops of MediaPipe do not store
// flexbuffers in custom_options: the bytes are a plain TfLitePoolParams /
// TfLiteTransposeConvParams struct (models written before those structs grew
// carry only their leading fields). The landmark/transform ops store a
// flexbuffer map, read with FlexMap (src/kernels/internal/flex_map.h).
#ifndef TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_
#define TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/internal/flex_map.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api_opaque.h"

// Returns the status of `expr` from the calling kernel function unless it is
// kTfLiteOk (the helpers below have already reported why).
#define MEDIAPIPE_ENSURE_OK(expr)              \
  do {                                         \
    const TfLiteStatus status_ = (expr);       \
    if (status_ != kTfLiteOk) return status_;  \
  } while (0)

namespace tflite_c {
namespace mediapipe {

using kernels::internal::FlexFloat;
using kernels::internal::FlexInt;
using kernels::internal::FlexMap;

// A zero-initialized T overlaid with the first min(length, sizeof(T)) bytes
// of `buffer`. Custom options need not be aligned, hence memcpy.
template <typename T>
T ParamsFromCustomOptions(const char* buffer, size_t length) {
  T params;
  std::memset(&params, 0, sizeof(params));
  if (buffer != nullptr) std::memcpy(&params, buffer, std::min(length, sizeof(T)));
  return params;
}

// The user data of the window ops (pooling, unpooling, transposed
// convolution): their options struct `Params` and the padding in front of
// the larger side, which Prepare computes.
template <typename Params>
struct WindowOpData {
  Params params;
  int pad_top = 0, pad_left = 0;
};

// Raw options bytes may hold any integer where Params has an enum (padding,
// activation); loading such a value as the enum is undefined behaviour.
// Read them as ints: an out-of-range one turns padding into
// kTfLitePaddingUnknown (Prepare refuses it) and activation into none.
template <typename Params>
void ClampWindowEnums(Params* params) {
  auto* bytes = reinterpret_cast<unsigned char*>(params);
  int padding, activation;
  std::memcpy(&padding, bytes + offsetof(Params, padding), sizeof(int));
  std::memcpy(&activation, bytes + offsetof(Params, activation), sizeof(int));
  const bool bad_activation = activation < kTfLiteActNone || activation > kTfLiteActSigmoid;
  if (padding < kTfLitePaddingUnknown || padding > kTfLitePaddingValid || bad_activation) {
    padding = kTfLitePaddingUnknown;
  }
  if (bad_activation) activation = kTfLiteActNone;
  std::memcpy(bytes + offsetof(Params, padding), &padding, sizeof(int));
  std::memcpy(bytes + offsetof(Params, activation), &activation, sizeof(int));
}

// init/free of a window op: Params is read with ParamsFromCustomOptions.
template <typename Params>
void* InitWindowOp(TfLiteOpaqueContext*, const char* buffer, size_t length) {
  static_assert(sizeof(TfLitePadding) == sizeof(int) && sizeof(TfLiteFusedActivation) == sizeof(int),
                "enums are stored as int");
  auto* data = new (std::nothrow) WindowOpData<Params>;
  if (data != nullptr) {
    data->params = ParamsFromCustomOptions<Params>(buffer, length);
    ClampWindowEnums(&data->params);
  }
  return data;
}
template <typename Params>
void FreeWindowOp(TfLiteOpaqueContext*, void* data) {
  delete static_cast<WindowOpData<Params>*>(data);
}

// Dimensions of a 4-D NHWC tensor.
struct Nhwc {
  int batch = 0, height = 0, width = 0, channels = 0;
  size_t size() const {
    return static_cast<size_t>(batch) * height * width * channels;
  }
  size_t Offset(int b, int y, int x, int c) const {
    return ((static_cast<size_t>(b) * height + y) * width + x) * channels + c;
  }
};

// Reads `tensor`'s shape; reports and fails unless it is 4-D.
TfLiteStatus GetNhwc(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                     const char* op, const char* what, Nhwc* shape);

// Resizes `tensor` to `shape` (the runtime takes ownership of the dims).
TfLiteStatus ResizeNhwc(TfLiteOpaqueContext* context, TfLiteOpaqueTensor* tensor,
                        const Nhwc& shape);

// Checks the node's input and output counts.
TfLiteStatus CheckArity(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                        int inputs, int outputs);

// Fails unless `tensor` is float32 (or, with allow_int32, int32).
TfLiteStatus CheckFloat(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                        const char* op, const char* what, bool allow_int32 = false);

// Fails unless `tensor` is present and has `rank` dimensions, all
// non-negative.
TfLiteStatus CheckRank(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                       const char* op, const char* what, int rank);

// Resizes `tensor` to `dims` (the runtime takes ownership of the array).
TfLiteStatus ResizeTo(TfLiteOpaqueContext* context, TfLiteOpaqueTensor* tensor,
                      const std::vector<int>& dims);

// The shared Prepare preamble of the pooling-window ops. Checks the arity
// (pooling: 1 input, 2 outputs; unpooling: 2 inputs, 1 output), the window
// parameters, a 4-D float32 input 0 and float32 output 0, and indices
// (pooling: output 1; unpooling: input 1, shaped like input 0) of type int32,
// or also float32 unless `int_indices_only`. Fills `tensors` on success.
struct PoolingTensors {
  const TfLiteOpaqueTensor* input = nullptr;
  const TfLiteOpaqueTensor* input_indices = nullptr;  // unpooling only
  TfLiteOpaqueTensor* output = nullptr;
  TfLiteOpaqueTensor* output_indices = nullptr;       // pooling only
  Nhwc in;
};
TfLiteStatus PreparePooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                            const TfLitePoolParams& params, bool unpooling, bool int_indices_only,
                            PoolingTensors* tensors);

// Size of the larger side of a window operation (the side before pooling,
// after upsampling) for a smaller side of `in` elements.
int UpsampledSize(TfLitePadding padding, int in, int stride, int filter);
// The pooled size of a dimension of `in` elements.
int PooledSize(TfLitePadding padding, int in, int stride, int filter);
// Padding in front of a window operation's larger side of size `big` that
// yields `small` windows: half of what the windows overhang (SAME), or 0.
int PaddingBefore(int big, int small, int stride, int filter);

// Fails unless padding is SAME/VALID and strides (and, for pooling, filter
// sizes) are positive.
// The larger side of a window operation over `small` (its input, or the
// unpooled / transposed output's source) must stay well inside int: reports
// and fails when size * stride + filter exceeds 2^24 in either direction.
TfLiteStatus CheckWindowExtent(TfLiteOpaqueContext* context, const char* op, const Nhwc& small,
                               int stride_height, int stride_width, int filter_height,
                               int filter_width);
TfLiteStatus CheckWindow(TfLiteOpaqueContext* context, const char* op, TfLitePadding padding,
                         int stride_height, int stride_width, int filter_height = 1,
                         int filter_width = 1);

// Clamps to the range of a fused activation (none, ReLU, ReLU6, ReLU-1..1).
float Activate(TfLiteFusedActivation activation, float v);

// A TfLiteOperator for version `version` of a custom op, created once and
// never destroyed (it must outlive every interpreter that resolved it).
const TfLiteOperator* MakeCustomOperator(
    const char* name, void* (*init)(TfLiteOpaqueContext*, const char*, size_t),
    void (*free)(TfLiteOpaqueContext*, void*),
    TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
    TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*), int version = 1);

// The Init of version `version` of an op whose user data `init` makes from
// the options and the version.
template <void* (*init)(const char*, size_t, int), int version>
void* InitForVersion(TfLiteOpaqueContext*, const char* buffer, size_t length) {
  return init(buffer, length, version);
}

// The Free of an op whose user data is a T made with new.
template <typename T>
void DeleteUserData(TfLiteOpaqueContext*, void* data) {
  delete static_cast<T*>(data);
}

// MakeCustomOperator's result for one set of arguments, made on first use:
// the body of a Register_* function.
template <const char* name, void* (*init)(TfLiteOpaqueContext*, const char*, size_t),
          void (*free)(TfLiteOpaqueContext*, void*),
          TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
          TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*), int version>
const TfLiteOperator* CustomOperator() {
  static const TfLiteOperator* op = MakeCustomOperator(name, init, free, prepare, invoke, version);
  return op;
}

// The operator of a pooling kernel: its options are a TfLitePoolParams held
// in a WindowOpData.
template <const char* name, TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
          TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*)>
const TfLiteOperator* PoolingOperator() {
  return CustomOperator<name, InitWindowOp<TfLitePoolParams>, FreeWindowOp<TfLitePoolParams>,
                        prepare, invoke, 1>();
}

// Version 1 or 2 (`version`) of a custom op whose two versions differ by
// name and Init only.
template <const char* name_v1, const char* name_v2,
          void* (*init_v1)(TfLiteOpaqueContext*, const char*, size_t),
          void* (*init_v2)(TfLiteOpaqueContext*, const char*, size_t),
          void (*free)(TfLiteOpaqueContext*, void*),
          TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
          TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*)>
const TfLiteOperator* VersionedOperator(int version) {
  return version == 1 ? CustomOperator<name_v1, init_v1, free, prepare, invoke, 1>()
                      : CustomOperator<name_v2, init_v2, free, prepare, invoke, 2>();
}

// Fails unless `tensor` is a float32 4x4 matrix (16 elements, last
// dimension 4, e.g. [1, 4, 4]).
TfLiteStatus CheckMatrix4x4(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                            const char* op);

// ---- the pooling kernels (MaxPoolingWithArgmax2D and the unpoolings) -----

using PoolingOpData = WindowOpData<TfLitePoolParams>;


// PreparePooling with the node's own options: *data is its user data.
TfLiteStatus PreparePoolingNode(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node,
                                const char* op, bool unpooling, bool int_indices_only,
                                PoolingOpData** data, PoolingTensors* tensors);

// The Prepare of an unpooling kernel: PreparePoolingNode, then sizes the
// output (each side upsampled) and stores the padding in front in the
// PoolingOpData.
TfLiteStatus PrepareUnpooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node,
                              const char* op, bool int_indices_only);
template <const char* op, bool int_indices_only>
TfLiteStatus PrepareUnpooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  return PrepareUnpooling(context, node, op, int_indices_only);
}

// What an unpooling Invoke (values at input 0, indices at input 1) works on.
struct UnpoolingBuffers {
  Nhwc in, out;
  const float* x = nullptr;
  const void* indices = nullptr;
  TfLiteType index_type = kTfLiteNoType;
  float* y = nullptr;
};
// The start of an unpooling Invoke: reads the shapes and buffers and zeroes
// the output. Sets *done when nothing is left to write (an empty side).
TfLiteStatus BeginUnpooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                            UnpoolingBuffers* b, bool* done);

}  // namespace mediapipe
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_
