// LSH_PROJECTION (hash FLOAT32 [h, b], input [n, ...] of any type,
// optional weight FLOAT32 [n]) -> INT32: locality-sensitive hash bits of
// the input's n items, as upstream computes them.
//
// Bit (i, j) is the sign of sum over items k of weight[k] (1 without weights)
// times Fingerprint64(seed bytes + item bytes) read as a signed 64-bit value
// (in double), where seed = hash[i][j] as its 4 float bytes and an item is
// the k-th 1/n of the input's bytes. 1 when the sum is > 0.
//   DENSE: output [h * b], every bit.
//   SPARSE: output [h], row i's bits as a b-bit number (first bit highest)
//     plus i * 2^b; b + ceil(log2(h)) must not exceed 32, as upstream's
//     documentation requires, so that the result fits 32 bits.
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "src/kernels/internal/fingerprint64.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "LSH_PROJECTION";

TfLiteLSHProjectionType TypeOf(const TfLiteNode* node) {
  return static_cast<const TfLiteLSHProjectionParams*>(node->builtin_data)->type;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 3, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor *hash, *input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &hash));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  const TfLiteTensor* weight = internal::GetOptionalInput(context, node, 2);
  if (hash->type != kTfLiteFloat32 || internal::NumDims(hash) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: hash seeds must be a 2-D FLOAT32 tensor", kOp);
    return kTfLiteError;
  }
  const int num_hash = internal::Dim(hash, 0), num_bits = internal::Dim(hash, 1);
  if (num_bits > 32) {
    TF_LITE_KERNEL_LOG(context, "%s: %d bits per hash; at most 32 are supported", kOp, num_bits);
    return kTfLiteError;
  }
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1", kOp);
    return kTfLiteError;
  }
  if (weight != nullptr &&
      (weight->type != kTfLiteFloat32 || internal::NumDims(weight) != 1 ||
       internal::Dim(weight, 0) != internal::Dim(input, 0))) {
    TF_LITE_KERNEL_LOG(context, "%s: weight must be FLOAT32 [%d], one per input item", kOp,
                       internal::Dim(input, 0));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteInt32));
  switch (TypeOf(node)) {
    case kTfLiteLshProjectionDense:
      if (int64_t{num_hash} * num_bits > INT32_MAX) {
        TF_LITE_KERNEL_LOG(context, "%s: %d x %d output bits are too many", kOp, num_hash,
                           num_bits);
        return kTfLiteError;
      }
      return internal::ResizeOutput(context, output, {num_hash * num_bits});
    case kTfLiteLshProjectionSparse: {
      int index_bits = 0;
      while (index_bits < 32 && (int64_t{1} << index_bits) < num_hash) ++index_bits;
      if (num_bits + index_bits > 32) {
        TF_LITE_KERNEL_LOG(context,
                           "%s: SPARSE needs bits + ceil(log2(hashes)) <= 32, got %d bits and "
                           "%d hashes",
                           kOp, num_bits, num_hash);
        return kTfLiteError;
      }
      return internal::ResizeOutput(context, output, {num_hash});
    }
    default:
      TF_LITE_KERNEL_LOG(context, "%s: projection type must be SPARSE or DENSE", kOp);
      return kTfLiteError;
  }
}

// The sign bit of one seed's weighted fingerprint sum over the items.
int SignBit(float seed, const TfLiteTensor* input, const float* weight,
            std::vector<unsigned char>* key) {
  const int items = internal::Dim(input, 0);
  const size_t item_bytes = key->size() - sizeof(float);
  std::memcpy(key->data(), &seed, sizeof(float));
  double score = 0.0;
  for (int k = 0; k < items; ++k) {
    if (item_bytes > 0) {
      std::memcpy(key->data() + sizeof(float), input->data.raw_const + k * item_bytes,
                  item_bytes);
    }
    const auto value =
        static_cast<double>(static_cast<int64_t>(internal::Fingerprint64(key->data(), key->size())));
    score += weight == nullptr ? value : weight[k] * value;
  }
  return score > 0 ? 1 : 0;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* hash = internal::InputAt(context, node, 0);
  const TfLiteTensor* input = internal::InputAt(context, node, 1);
  const TfLiteTensor* weight_tensor = internal::GetOptionalInput(context, node, 2);
  const float* weight = weight_tensor ? weight_tensor->data.f : nullptr;
  int32_t* out = internal::OutputAt(context, node, 0)->data.i32;
  const int num_hash = internal::Dim(hash, 0), num_bits = internal::Dim(hash, 1);
  const int items = internal::Dim(input, 0);
  std::vector<unsigned char> key;
  try {
    key.resize(sizeof(float) + (items > 0 ? input->bytes / items : 0));
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for a hash key", kOp);
    return kTfLiteError;
  }
  const bool sparse = TypeOf(node) == kTfLiteLshProjectionSparse;
  for (int i = 0; i < num_hash; ++i) {
    uint32_t signature = 0;
    for (int j = 0; j < num_bits; ++j) {
      const int bit = SignBit(hash->data.f[i * num_bits + j], input, weight, &key);
      if (sparse) {
        signature = (signature << 1) | static_cast<uint32_t>(bit);
      } else {
        *out++ = bit;
      }
    }
    // Prepare keeps i * 2^bits + signature below 2^32.
    if (sparse) {
      const uint32_t offset = num_bits < 32 ? static_cast<uint32_t>(i) << num_bits : 0;
      *out++ = static_cast<int32_t>(signature + offset);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_LSH_PROJECTION() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
