// WHERE (condition): the coordinates of the non-zero (true) elements of the
// condition, in row-major order, as an INT64 tensor [count, rank]. BOOL and
// numeric conditions (FLOAT32, INT8/16/32/64, UINT8/32). The count is only
// known at Invoke, so the output is dynamic.
#include <cstdint>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "WHERE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* cond;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetUnaryTensors(context, node, kOp, &cond, &output));
  if (!internal::TypeIn(cond->type, {kTfLiteBool, kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8,
                                     kTfLiteInt16, kTfLiteInt32, kTfLiteUInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "condition", cond->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteInt64));
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "condition", cond));
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

template <typename T>
void FindTrue(const T* data, int64_t n, std::vector<int64_t>* found) {
  for (int64_t i = 0; i < n; ++i) {
    if (data[i] != T(0)) found->push_back(i);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* cond = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int64_t n = internal::NumElements(cond);
  std::vector<int64_t> found;
  switch (cond->type) {
    case kTfLiteBool: FindTrue(internal::BoolBytes(cond), n, &found); break;
    case kTfLiteFloat32: FindTrue(cond->data.f, n, &found); break;
    case kTfLiteInt8: FindTrue(cond->data.int8, n, &found); break;
    case kTfLiteUInt8: FindTrue(cond->data.uint8, n, &found); break;
    case kTfLiteInt16: FindTrue(cond->data.i16, n, &found); break;
    case kTfLiteInt32: FindTrue(cond->data.i32, n, &found); break;
    case kTfLiteUInt32: FindTrue(cond->data.u32, n, &found); break;
    default: FindTrue(cond->data.i64, n, &found); break;
  }
  const int rank = internal::NumDims(cond);
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(context, output,
                                                    {static_cast<int>(found.size()), rank}));
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(cond->dims, strides);
  int64_t* out = output->data.i64;
  for (int64_t flat : found) {
    for (int d = 0; d < rank; ++d) {
      *out++ = flat / strides[d];
      flat %= strides[d];
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_WHERE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
