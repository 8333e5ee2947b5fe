// Integer building blocks of the fully quantized (8x8->16) LSTM: int16
// fixed-point sigmoid/tanh with gemmlowp's rounding, gate matrix products with
// requantization, element-wise products and the integer layer norm. Each
// function states the upstream tensor_utils routine whose results it matches
// bit for bit.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_LSTM_INTEGER_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_LSTM_INTEGER_H_

#include <cstdint>

namespace tflite_c {
namespace kernels {
namespace internal {

// sigmoid of Q3.12 inputs, results in Q0.15 (gemmlowp::logistic on int16).
void Int16Sigmoid(const int16_t* in, int n, int16_t* out);
// tanh of inputs with `integer_bits` (0..6) integer bits, results in Q0.15
// (gemmlowp::tanh on int16). Returns false for unsupported integer_bits.
bool Int16Tanh(int integer_bits, const int16_t* in, int n, int16_t* out);

// out[b, r] = saturate<Out>(out[b, r] + output_zp +
//     requantize(bias[r] + sum_c in[b, c] * w[r, c], multiplier, shift)).
void MatVecAccumulate(const int8_t* in, const int32_t* bias, const int8_t* w, int32_t multiplier,
                      int shift, int n_batch, int n_in, int n_out, int32_t output_zp,
                      int16_t* out);
void MatVecAccumulate(const int8_t* in, const int32_t* bias, const int8_t* w, int32_t multiplier,
                      int shift, int n_batch, int n_in, int n_out, int32_t output_zp,
                      int8_t* out);

// out = saturate_int16(out + requantize(v[i] * batch_v[b, i])) (peephole).
void VectorBatchProductAccumulate(const int16_t* v, int n, const int16_t* batch_v, int n_batch,
                                  int32_t multiplier, int shift, int16_t* out);

// Integer layer normalization of `n_batch` rows of `n` int16 values, scaled by
// `weights`, plus `bias`, requantized (upstream ApplyLayerNorm).
void Int16LayerNorm(const int16_t* in, const int16_t* weights, const int32_t* bias,
                    int32_t scale_a, int scale_b, int32_t variance_limit, int n_batch, int n,
                    int16_t* out);

// out = round(a * b / 2^shift) (element-wise, int16).
void CwiseMulShift(const int16_t* a, const int16_t* b, int n, int shift, int16_t* out);
// out = saturate_int8(requantize(a * b) + zp).
void CwiseMulRequant(const int16_t* a, const int16_t* b, int n, int32_t multiplier, int shift,
                     int32_t zp, int8_t* out);
// out = saturate_int16(a + b).
void CwiseAddSat(const int16_t* a, const int16_t* b, int n, int16_t* out);

// Row sums of an int8 [rows, cols] matrix times `scalar`, added to out[rows].
void AddRowSumsTimes(const int8_t* w, int32_t scalar, int rows, int cols, int32_t* out);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_LSTM_INTEGER_H_
