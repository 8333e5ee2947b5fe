// HASHTABLE_LOOKUP: looks INT32 ids up in a table given as two tensors, sorted
// INT32 keys [n] and the rows of values [n, ...] (any fixed-size type, or a 1-D
// STRING tensor). Outputs the looked-up rows ([m, ...] for m ids) and a UINT8
// "hit" flag per id; a missing id yields a row of zero bytes (an empty string
// for STRING values) and hit 0.
//
// Keys must be in ascending order, as upstream requires; keys out of order
// make Eval fail instead of silently missing entries.
#include <algorithm>
#include <cstring>
#include <vector>

#include "src/core/string_util.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "HASHTABLE_LOOKUP";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 2));
  const TfLiteTensor* ids;
  const TfLiteTensor* keys;
  const TfLiteTensor* values;
  TfLiteTensor* output;
  TfLiteTensor* hits;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &ids));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &keys));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &values));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 1, kOp, &hits));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "lookup ids", ids, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "keys", keys, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "hits", hits, kTfLiteUInt8));
  if (values->type != output->type) {
    return internal::TypeMismatch(context, kOp, "values", values->type, "output", output->type);
  }
  if (internal::NumDims(ids) != 1 || internal::NumDims(keys) != 1 ||
      internal::NumDims(values) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: ids and keys must be 1-D and values at least 1-D", kOp);
    return kTfLiteError;
  }
  if (internal::Dim(keys, 0) != internal::Dim(values, 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: %d keys but %d rows of values", kOp, internal::Dim(keys, 0),
                       internal::Dim(values, 0));
    return kTfLiteError;
  }
  if (values->type == kTfLiteString && internal::NumDims(values) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: STRING values must be 1-D", kOp);
    return kTfLiteError;
  }
  if (values->type != kTfLiteString) {
    size_t element = 0;
    TF_LITE_ENSURE_OK(context,
                      internal::GetElementBytes(context, kOp, "values", values->type, &element));
  }
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(context, hits, {internal::Dim(ids, 0)}));
  if (output->type == kTfLiteString) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  TfLiteIntArray* shape = TfLiteIntArrayCopy(values->dims);
  if (shape == nullptr) return kTfLiteError;
  shape->data[0] = internal::Dim(ids, 0);
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* ids = internal::InputAt(context, node, 0);
  const TfLiteTensor* keys = internal::InputAt(context, node, 1);
  const TfLiteTensor* values = internal::InputAt(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  TfLiteTensor* hits = internal::OutputAt(context, node, 1);
  const int num_ids = internal::Dim(ids, 0);
  const int num_keys = internal::Dim(keys, 0);
  const int32_t* key = keys->data.i32;
  if (num_keys > 0 && key == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: keys have no data", kOp);
    return kTfLiteError;
  }
  if (!std::is_sorted(key, key + num_keys)) {
    TF_LITE_KERNEL_LOG(context, "%s: keys must be sorted in ascending order", kOp);
    return kTfLiteError;
  }
  // Row of each id, or -1.
  std::vector<int> rows(num_ids);
  for (int i = 0; i < num_ids; ++i) {
    const int32_t* it = std::lower_bound(key, key + num_keys, ids->data.i32[i]);
    rows[i] = (it != key + num_keys && *it == ids->data.i32[i]) ? static_cast<int>(it - key) : -1;
    hits->data.uint8[i] = rows[i] >= 0 ? 1 : 0;
  }
  if (values->type == kTfLiteString) {
    if (StringTensorCount(values) != num_keys) {
      TF_LITE_KERNEL_LOG(context, "%s: values hold %d strings, expected %d", kOp,
                         StringTensorCount(values), num_keys);
      return kTfLiteError;
    }
    std::vector<const char*> strings(num_ids, "");
    std::vector<int> lengths(num_ids, 0);
    for (int i = 0; i < num_ids; ++i) {
      if (rows[i] >= 0 && !StringTensorGet(values, rows[i], &strings[i], &lengths[i])) {
        TF_LITE_KERNEL_LOG(context, "%s: string %d of the values is malformed", kOp, rows[i]);
        return kTfLiteError;
      }
    }
    if (StringTensorWrite(output, strings.data(), lengths.data(), num_ids) != kTfLiteOk) {
      TF_LITE_KERNEL_LOG(context, "%s: cannot write %d strings", kOp, num_ids);
      return kTfLiteError;
    }
    return kTfLiteOk;
  }
  if (num_keys == 0) {
    if (output->bytes > 0) std::memset(output->data.raw, 0, output->bytes);
    return kTfLiteOk;
  }
  const size_t row_bytes = values->bytes / static_cast<size_t>(num_keys);
  if (row_bytes * static_cast<size_t>(num_ids) != output->bytes) {
    TF_LITE_KERNEL_LOG(context, "%s: output holds %zu bytes, expected %zu", kOp, output->bytes,
                       row_bytes * static_cast<size_t>(num_ids));
    return kTfLiteError;
  }
  for (int i = 0; i < num_ids; ++i) {
    char* dst = output->data.raw + static_cast<size_t>(i) * row_bytes;
    if (rows[i] < 0) {
      std::memset(dst, 0, row_bytes);
    } else {
      std::memcpy(dst, values->data.raw_const + static_cast<size_t>(rows[i]) * row_bytes,
                  row_bytes);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_HASHTABLE_LOOKUP() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
