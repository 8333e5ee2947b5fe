// Internal to the XNNPACK delegate: which reduced-precision runtime flags a
// partition's xnn_runtime gets.
//
//   TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16  -> XNN_FLAG_FORCE_FP16_INFERENCE
//       (XNNPACK then refuses to build the runtime when the CPU has neither
//       native nor emulated fp16 arithmetic, or the subgraph cannot run in
//       fp16; the delegate reports that and is not applied).
//   otherwise, the model's "reduced_precision_support" metadata: when it
//   allows fp16 inference with fp16 accumulation (e.g. "fp16accfp16",
//   "fp16bf16accfp16") -> XNN_FLAG_HINT_FP16_INFERENCE (XNNPACK uses fp16
//   only where the CPU has native fp16 arithmetic; elsewhere it is a no-op).
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_PRECISION_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_PRECISION_H_

#include <cstddef>
#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// The metadata entry name (same as TensorFlow Lite's converter writes).
inline constexpr char kReducedPrecisionMetadataKey[] = "reduced_precision_support";

// A parsed "reduced_precision_support" value: one or more inference types
// ("fp16", "bf16"), then "acc", then one accumulation type ("fp16", "fp32"),
// and nothing else.
struct ReducedPrecision {
  bool fp16_inference = false;
  bool bf16_inference = false;
  bool fp16_accumulation = false;
  bool fp32_accumulation = false;
};

// Returns false (and leaves *out alone) when the value is not well formed.
bool ParseReducedPrecision(const char* data, size_t size, ReducedPrecision* out);

// The precision bits of xnn_create_runtime's flags for a partition of the
// model `context` belongs to.
uint32_t PrecisionRuntimeFlags(TfLiteContext* context, bool force_fp16);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_PRECISION_H_
