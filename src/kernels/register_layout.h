// Registrations of the layout and data-movement kernels, added to the
// builtin resolver by RegisterLayoutKernels (register_layout.cc).
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_LAYOUT_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_LAYOUT_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_PAD();
const TfLiteRegistration* Register_PADV2();
const TfLiteRegistration* Register_MAX_POOL_2D();
const TfLiteRegistration* Register_AVERAGE_POOL_2D();
const TfLiteRegistration* Register_CONCATENATION();
const TfLiteRegistration* Register_DEQUANTIZE();
const TfLiteRegistration* Register_MIRROR_PAD();
const TfLiteRegistration* Register_QUANTIZE();
const TfLiteRegistration* Register_TRANSPOSE();
const TfLiteRegistration* Register_SPACE_TO_DEPTH();
const TfLiteRegistration* Register_DEPTH_TO_SPACE();
const TfLiteRegistration* Register_RESIZE_BILINEAR();
const TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR();
const TfLiteRegistration* Register_SLICE();
const TfLiteRegistration* Register_TILE();
const TfLiteRegistration* Register_BROADCAST_TO();
// Index and data-movement ops (issue 5).
const TfLiteRegistration* Register_SPLIT();
const TfLiteRegistration* Register_SPLIT_V();
const TfLiteRegistration* Register_UNPACK();
const TfLiteRegistration* Register_PACK();
const TfLiteRegistration* Register_STRIDED_SLICE();
const TfLiteRegistration* Register_CAST();
const TfLiteRegistration* Register_GATHER();
const TfLiteRegistration* Register_SQUEEZE();
const TfLiteRegistration* Register_EXPAND_DIMS();
const TfLiteRegistration* Register_SHAPE();
const TfLiteRegistration* Register_TOPK_V2();
const TfLiteRegistration* Register_WHERE();
const TfLiteRegistration* Register_GATHER_ND();
const TfLiteRegistration* Register_REVERSE_V2();
const TfLiteRegistration* Register_FILL();
const TfLiteRegistration* Register_ZEROS_LIKE();
const TfLiteRegistration* Register_RANGE();
const TfLiteRegistration* Register_ONE_HOT();
const TfLiteRegistration* Register_BROADCAST_ARGS();
const TfLiteRegistration* Register_SPACE_TO_BATCH_ND();
const TfLiteRegistration* Register_BATCH_TO_SPACE_ND();
const TfLiteRegistration* Register_EMBEDDING_LOOKUP();
const TfLiteRegistration* Register_L2_POOL_2D();          // pooling.cc
const TfLiteRegistration* Register_SPARSE_TO_DENSE();     // sparse_to_dense.cc
const TfLiteRegistration* Register_REVERSE_SEQUENCE();    // reverse_sequence.cc
const TfLiteRegistration* Register_MATRIX_DIAG();         // matrix_diag.cc
const TfLiteRegistration* Register_MATRIX_SET_DIAG();     // matrix_diag.cc
const TfLiteRegistration* Register_BITCAST();             // bitcast.cc
const TfLiteRegistration* Register_DILATE();              // dilate.cc
const TfLiteRegistration* Register_STABLEHLO_PAD();        // stablehlo_pad.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_LAYOUT_H_
