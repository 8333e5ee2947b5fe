// Internal to the XNNPACK delegate: folding explicit PAD nodes into the
// convolution that reads them.
//
// Models converted from TensorFlow often pad explicitly before a VALID
// strided convolution. XNNPACK's subgraph optimizer folds such a Constant Pad
// into the convolution, but the snapshot we build compares the int8 padding
// value sign-extended against the zero point zero-extended, so for QS8 values
// with a negative zero point (the usual -128 after RELU6) the pad runs as an
// operator of its own. The delegate therefore folds it while building the
// XNNPACK subgraph: the convolution reads the PAD's input with the PAD's
// spatial paddings as its own implicit (zero-point) padding, which is what
// the PAD wrote.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_PAD_FOLDING_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_PAD_FOLDING_H_

#include <unordered_map>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// For every PAD node of `nodes` (a partition, in order) with constant
// paddings on the height and width of a 4-D tensor only, whose output is read
// by exactly one node -- a CONV_2D or DEPTHWISE_CONV_2D with VALID padding
// taking it as input 0 -- and not after the partition (`is_output`): records
// conv input tensor -> FusedPad in `fused` and sets folded[i] for the PAD.
void FoldPads(const TfLiteContext* context, const std::vector<TfLiteNode*>& nodes,
              const std::vector<TfLiteRegistration*>& regs, const std::vector<char>& is_output,
              std::unordered_map<int, OpBuilder::FusedPad>* fused, std::vector<char>* folded);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_PAD_FOLDING_H_
