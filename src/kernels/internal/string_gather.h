// STRING tensors in the data-movement kernels (SLICE, TILE): the element
// positions an AxisGather would copy are worked out on an index array, and
// the output string buffer is built from the input strings at those
// positions. STRING outputs are dynamic tensors sized at Eval.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_

#include "src/kernels/internal/axis_gather.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Checks that `input` is a well-formed STRING tensor holding one string per
// element of its shape.
TfLiteStatus CheckStringTensor(TfLiteContext* context, const char* op, const char* what,
                               const TfLiteTensor* input);

// Writes into `output` (already resized to the gather's shape) the strings of
// `input` that `g` selects, keeping the output's shape.
TfLiteStatus RunStringGather(TfLiteContext* context, const char* op, const AxisGather& g,
                             const TfLiteTensor* input, TfLiteTensor* output);

// Writes `count` strings into `output`, each the `index`-th entry of `strings`
// (`strings` is a STRING tensor), and gives the output the shape `dims`
// (copied). With `index` null every output string is entry 0.
TfLiteStatus WriteStrings(TfLiteContext* context, const char* op, const TfLiteTensor* strings,
                          const int64_t* index, int64_t count, const TfLiteIntArray* dims,
                          TfLiteTensor* output);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_
