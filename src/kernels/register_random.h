// Registrations of the random kernel group: TensorFlow's stateful random ops
// (random_ops.cc) and STABLEHLO_RNG_BIT_GENERATOR
// (stablehlo_rng_bit_generator.cc), all on the counter-based generators of
// internal/counter_rng.h. RegisterRandomKernels (register_random.cc) adds them.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_RANDOM_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_RANDOM_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_RANDOM_UNIFORM();               // random_ops.cc
const TfLiteRegistration* Register_RANDOM_STANDARD_NORMAL();       // random_ops.cc
const TfLiteRegistration* Register_MULTINOMIAL();                  // random_ops.cc
const TfLiteRegistration* Register_STABLEHLO_RNG_BIT_GENERATOR();  // stablehlo_rng_bit_generator.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_RANDOM_H_
