// INT16 LOGISTIC and TANH: symmetric int16 tensors (zero points 0) with an
// output scale of 2^-15, computed the way upstream's default kernels do, so
// results match them bit for bit:
//
// * Power-of-two input scale (2^-12 for LOGISTIC; 2^-12 or 2^-11 for TANH,
//   the latter first doubled with saturation): the input is read as Q3.12
//   and gemmlowp's 16-bit fixed-point logistic / tanh produce Q0.15
//   (lstm_integer.h).
// * Any other input scale: the input is rescaled to units of 1/12288 (so
//   that +-2^17 spans +-32/3) by an integer multiplier and right shift, and
//   a 256-entry table of sigmoid in Q0.16 is linearly interpolated; TANH
//   uses tanh(x) = 2 sigmoid(2x) - 1 on the same table. Entry i (0..254) is
//   65536 * sigmoid(i / 24) raised by half the error linear interpolation
//   makes at the interval's midpoint, rounded; the last entry, only ever the
//   right end of the last interval, is sigmoid's limit 65535.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

enum class Int16Activation { kLogistic, kTanh };

// How EvalInt16Activation computes, chosen by PrepareInt16Activation.
enum class Int16ActivationPath : uint8_t {
  kTable,              // any other input scale: the interpolated table
  kFixedPoint,         // input scale 2^-12: the fixed-point routine
  kFixedPointDoubled,  // TANH with input scale 2^-11: the input doubled first
};

struct Int16ActivationData {
  Int16Activation function = Int16Activation::kLogistic;
  Int16ActivationPath path = Int16ActivationPath::kTable;
  // kTable: table index source = (in * multiplier + rounding) >> shift.
  int32_t multiplier = 0;
  int shift = 0;
};

// For an INT16 input 0: checks arity, types and quantization, chooses the
// evaluation path and sizes the output.
TfLiteStatus PrepareInt16Activation(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    Int16Activation function, Int16ActivationData* data);

void EvalInt16Activation(const TfLiteTensor* input, TfLiteTensor* output,
                         const Int16ActivationData& data);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_INT16_ACTIVATION_H_
