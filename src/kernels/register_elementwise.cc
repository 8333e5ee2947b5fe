#include "src/kernels/register_elementwise.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's. As in register.cc, a kernel
// registers its op's whole range and its Prepare rejects, by name, element
// types it does not implement.
void RegisterElementwiseKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinBatchMatmul, Register_BATCH_MATMUL(), 1, 4);

  resolver->AddBuiltin(kTfLiteBuiltinAbs, Register_ABS(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinCeil, Register_CEIL(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinCos, Register_COS(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinExp, Register_EXP(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinFloor, Register_FLOOR(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinLog, Register_LOG(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinLogicalNot, Register_LOGICAL_NOT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinNeg, Register_NEG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRound, Register_ROUND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRsqrt, Register_RSQRT(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinSign, Register_SIGN(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinSin, Register_SIN(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSqrt, Register_SQRT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSquare, Register_SQUARE(), 1, 1);

  // DIV v2 (UINT8 quantized) is registered so such models load; Prepare
  // rejects the type by name.
  resolver->AddBuiltin(kTfLiteBuiltinDiv, Register_DIV(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinMaximum, Register_MAXIMUM(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinMinimum, Register_MINIMUM(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinPow, Register_POW(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSquaredDifference, Register_SQUARED_DIFFERENCE(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinFloorDiv, Register_FLOOR_DIV(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinFloorMod, Register_FLOOR_MOD(), 1, 2);

  resolver->AddBuiltin(kTfLiteBuiltinEqual, Register_EQUAL(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinNotEqual, Register_NOT_EQUAL(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinLess, Register_LESS(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinLessEqual, Register_LESS_EQUAL(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinGreater, Register_GREATER(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinGreaterEqual, Register_GREATER_EQUAL(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinLogicalAnd, Register_LOGICAL_AND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinLogicalOr, Register_LOGICAL_OR(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSelect, Register_SELECT(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinSelectV2, Register_SELECT_V2(), 1, 2);

  resolver->AddBuiltin(kTfLiteBuiltinMean, Register_MEAN(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinSum, Register_SUM(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinReduceProd, Register_REDUCE_PROD(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinReduceMax, Register_REDUCE_MAX(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinReduceMin, Register_REDUCE_MIN(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinReduceAny, Register_REDUCE_ANY(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinReduceAll, Register_REDUCE_ALL(), 1, 1);

  // Quantized versions (TANH v2-3, LOG_SOFTMAX v2, L2_NORMALIZATION v2) are
  // implemented by the kernels in lut_activations.cc and rowwise_activations.cc.
  resolver->AddBuiltin(kTfLiteBuiltinTanh, Register_TANH(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinHardSwish, Register_HARD_SWISH(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinElu, Register_ELU(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinGelu, Register_GELU(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinLeakyRelu, Register_LEAKY_RELU(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinPrelu, Register_PRELU(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinLogSoftmax, Register_LOG_SOFTMAX(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinL2Normalization, Register_L2_NORMALIZATION(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinArgMax, Register_ARG_MAX(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinArgMin, Register_ARG_MIN(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinLocalResponseNormalization,
                       Register_LOCAL_RESPONSE_NORMALIZATION(), 1, 1);
  // FAKE_QUANT v2 adds narrow_range, which upstream's kernel refuses too.
  resolver->AddBuiltin(kTfLiteBuiltinFakeQuant, Register_FAKE_QUANT(), 1, 2);
}

}  // namespace tflite_c
