// SELECT and SELECT_V2: out = condition ? x : y element-wise. Condition is
// BOOL; x, y and the output share one type: BOOL, FLOAT32, UINT8, INT8,
// INT16, INT32, INT64.
// SELECT_V2 broadcasts all three inputs. SELECT (v1) needs x and y of one
// shape and a condition of that shape, a scalar, or a vector selecting whole
// slices along dimension 0.
#include <cstdint>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

TfLiteStatus CheckTypes(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 3, 3, 1));
  const TfLiteTensor* cond;
  const TfLiteTensor* x;
  const TfLiteTensor* y;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &cond));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, op, &x));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, op, &y));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &out));
  if (cond->type != kTfLiteBool) {
    return internal::UnsupportedType(context, op, "condition", cond->type);
  }
  if (!internal::TypeIn(x->type, {kTfLiteBool, kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8,
                                  kTfLiteInt16, kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, op, "input", x->type);
  }
  if (y->type != x->type) return internal::TypeMismatch(context, op, "x", x->type, "y", y->type);
  if (out->type != x->type) {
    return internal::TypeMismatch(context, op, "input", x->type, "output", out->type);
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareV2(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckTypes(context, node, "SELECT_V2"));
  return internal::PrepareBroadcastOp(context, node, "SELECT_V2", 0, 3,
                                      static_cast<internal::BroadcastOpData*>(node->user_data));
}

TfLiteStatus PrepareV1(TfLiteContext* context, TfLiteNode* node) {
  constexpr char kOp[] = "SELECT";
  TF_LITE_ENSURE_OK(context, CheckTypes(context, node, kOp));
  const TfLiteTensor* cond = internal::InputAt(context, node, 0);
  const TfLiteTensor* x = internal::InputAt(context, node, 1);
  const TfLiteTensor* y = internal::InputAt(context, node, 2);
  char sc[96], sx[96], sy[96];
  if (!internal::SameShape(x->dims, y->dims)) {
    TF_LITE_KERNEL_LOG(context, "%s: x %s and y %s must have the same shape", kOp,
                       internal::ShapeToString(x->dims, sx, sizeof(sx)),
                       internal::ShapeToString(y->dims, sy, sizeof(sy)));
    return kTfLiteError;
  }
  const bool same = internal::SameShape(cond->dims, x->dims);
  const bool scalar = internal::NumDims(cond) == 0;
  const bool rows = internal::NumDims(cond) == 1 && internal::NumDims(x) >= 1 &&
                    internal::Dim(cond, 0) == internal::Dim(x, 0);
  if (!same && !scalar && !rows) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: condition %s must have the shape of x %s, be a scalar, or be a "
                       "vector the size of x's first dimension",
                       kOp, internal::ShapeToString(cond->dims, sc, sizeof(sc)),
                       internal::ShapeToString(x->dims, sx, sizeof(sx)));
    return kTfLiteError;
  }
  // Describe the selection as a broadcast over x's shape.
  internal::NaryBroadcast& b = static_cast<internal::BroadcastOpData*>(node->user_data)->nary;
  b = internal::NaryBroadcast();
  b.num_inputs = 3;
  b.rank = internal::NumDims(x);
  int64_t stride = 1;
  for (int d = b.rank - 1; d >= 0; --d) {
    b.dims[d] = internal::Dim(x, d);
    b.strides[1][d] = b.strides[2][d] = stride;
    b.strides[0][d] = same ? stride : (rows && d == 0 ? 1 : 0);
    stride *= b.dims[d];
  }
  return internal::ResizeOutputLike(context, internal::OutputAt(context, node, 0), x->dims);
}

template <typename T>
void Select(TfLiteContext* context, const TfLiteNode* node, const internal::NaryBroadcast& b) {
  const uint8_t* c = internal::BoolBytes(internal::InputAt(context, node, 0));
  const T* x = static_cast<const T*>(internal::InputAt(context, node, 1)->data.data);
  const T* y = static_cast<const T*>(internal::InputAt(context, node, 2)->data.data);
  T* out = static_cast<T*>(internal::OutputAt(context, node, 0)->data.data);
  internal::ForEachBroadcast(b, [&](int64_t o, const int64_t* in) {
    out[o] = c[in[0]] != 0 ? x[in[1]] : y[in[2]];
  });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& b = static_cast<const internal::BroadcastOpData*>(node->user_data)->nary;
  // Only the element size matters for copying.
  switch (internal::OutputAt(context, node, 0)->type) {
    case kTfLiteInt16:
      Select<uint16_t>(context, node, b);
      break;
    case kTfLiteFloat32:
    case kTfLiteInt32:
      Select<uint32_t>(context, node, b);
      break;
    case kTfLiteInt64:
      Select<uint64_t>(context, node, b);
      break;
    default:  // BOOL, UINT8, INT8
      Select<uint8_t>(context, node, b);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SELECT() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<internal::BroadcastOpData>,
                                 internal::FreeOpData<internal::BroadcastOpData>, PrepareV1, Eval);
  return &r;
}

const TfLiteRegistration* Register_SELECT_V2() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<internal::BroadcastOpData>,
                                 internal::FreeOpData<internal::BroadcastOpData>, PrepareV2, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
