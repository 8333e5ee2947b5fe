// STRING and packed INT4 tensors in the data-movement kernels (SLICE, TILE,
// TRANSPOSE), whose elements are not fixed-size bytes: the element positions
// an AxisGather would copy are worked out on an index array, and the output
// is built from the input elements at those positions. STRING outputs are
// dynamic tensors whose buffer is built at Eval.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_

#include <cstdint>
#include <vector>

#include "src/kernels/internal/axis_gather.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// positions[i] = the input element that output element i of `g` reads, for
// the `output_count` output elements of a gather over `input_count` inputs.
void GatherPositions(const AxisGather& g, int64_t input_count, int64_t output_count,
                     std::vector<int64_t>* positions);

// Runs `g` over packed INT4 values (two per byte, low nibble first) of
// `input` into `output`, checking that both hold their values.
TfLiteStatus RunInt4Gather(TfLiteContext* context, const char* op, const AxisGather& g,
                           const TfLiteTensor* input, TfLiteTensor* output);

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

// ---- gather kernels that also move STRING or INT4 values ------------------

// Which of the non-fixed-size types a kernel accepts besides fixed-size ones.
enum PackedGatherTypes : int { kGatherStrings = 1, kGatherInt4 = 2 };

// The start of such a kernel's Prepare: checks that the node has `num_inputs`
// inputs (the data, then the parameters) and one output, fetches them into
// inputs[0..num_inputs) and *output, checks that the output has the input's
// type and stores the element size in data->element_bytes (0 for a type in
// `packed`, which must hold kGatherStrings and/or kGatherInt4 bits).
TfLiteStatus GetPackedGatherTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    int num_inputs, int packed, GatherOpData* data,
                                    const TfLiteTensor** inputs, TfLiteTensor** output);

// Such a kernel's Eval: EvalGatherOp for fixed-size types, else plans (when
// Prepare could not) and runs RunInt4Gather or RunStringGather.
TfLiteStatus EvalPackedGatherOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                GatherPlanFn plan);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_STRING_GATHER_H_
