#include "src/delegates/xnnpack/pad_folding.h"

#include <cstdint>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace xnnpack {
namespace {

// The constant [4, 2] paddings of tensor `t` (int32 or int64), if any.
bool ConstantPads4(const TfLiteContext* context, int t, int64_t out[8]) {
  if (t < 0 || t >= static_cast<int>(context->tensors_size)) return false;
  const TfLiteTensor& p = context->tensors[t];
  if (p.allocation_type != kTfLiteMmapRo || p.data.raw == nullptr || p.dims == nullptr ||
      p.dims->size != 2 || p.dims->data[0] != 4 || p.dims->data[1] != 2)
    return false;
  for (int i = 0; i < 8; ++i) {
    if (p.type == kTfLiteInt32 && p.bytes >= 8 * sizeof(int32_t)) {
      out[i] = p.data.i32[i];
    } else if (p.type == kTfLiteInt64 && p.bytes >= 8 * sizeof(int64_t)) {
      out[i] = p.data.i64[i];
    } else {
      return false;
    }
  }
  return true;
}

bool IsValidConv(const TfLiteNode* n, const TfLiteRegistration* r) {
  if (n->builtin_data == nullptr) return false;
  if (r->builtin_code == kTfLiteBuiltinConv2d)
    return static_cast<const TfLiteConvParams*>(n->builtin_data)->padding == kTfLitePaddingValid;
  if (r->builtin_code == kTfLiteBuiltinDepthwiseConv2d)
    return static_cast<const TfLiteDepthwiseConvParams*>(n->builtin_data)->padding ==
           kTfLitePaddingValid;
  return false;
}

}  // namespace

void FoldPads(const TfLiteContext* context, const std::vector<TfLiteNode*>& nodes,
              const std::vector<TfLiteRegistration*>& regs, const std::vector<char>& is_output,
              std::unordered_map<int, OpBuilder::FusedPad>* fused, std::vector<char>* folded) {
  // How many nodes of the partition read each tensor (any input position).
  std::unordered_map<int, int> readers;
  for (const TfLiteNode* n : nodes) {
    for (int k = 0; k < n->inputs->size; ++k) ++readers[n->inputs->data[k]];
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const TfLiteNode* pad = nodes[i];
    if (regs[i]->builtin_code != kTfLiteBuiltinPad || pad->inputs->size != 2 ||
        pad->outputs->size != 1)
      continue;
    const int in = pad->inputs->data[0], out = pad->outputs->data[0];
    if (in < 0 || out < 0 || is_output[out] || readers[out] != 1) continue;
    int64_t p[8];
    if (!ConstantPads4(context, pad->inputs->data[1], p)) continue;
    if (p[0] != 0 || p[1] != 0 || p[6] != 0 || p[7] != 0) continue;  // batch, channels
    if (p[2] < 0 || p[3] < 0 || p[4] < 0 || p[5] < 0 || p[2] > INT32_MAX || p[3] > INT32_MAX ||
        p[4] > INT32_MAX || p[5] > INT32_MAX)
      continue;
    for (size_t j = i + 1; j < nodes.size(); ++j) {
      const TfLiteNode* conv = nodes[j];
      bool reads = false;
      for (int k = 0; k < conv->inputs->size; ++k) reads = reads || conv->inputs->data[k] == out;
      if (!reads) continue;
      // The only reader: fold only into input 0 of a VALID convolution.
      if (conv->inputs->size >= 1 && conv->inputs->data[0] == out && IsValidConv(conv, regs[j])) {
        (*fused)[out] = {in, static_cast<uint32_t>(p[2]), static_cast<uint32_t>(p[5]),
                         static_cast<uint32_t>(p[3]), static_cast<uint32_t>(p[4])};
        (*folded)[i] = 1;
      }
      break;
    }
  }
}

}  // namespace xnnpack
}  // namespace tflite_c
