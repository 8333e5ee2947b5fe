// Registrations of the "extra" kernel group: scans, n-ary sums, scatters and
// slice updates, segment reductions, RANK, BUCKETIZE, bit operations, ATAN2,
// STABLEHLO_COMPOSITE, UNIQUE, EMBEDDING_LOOKUP_SPARSE, the window reductions
// (REDUCE_WINDOW, STABLEHLO_REDUCE_WINDOW), STABLEHLO_GATHER and STABLEHLO_SCATTER.
// RegisterExtraKernels (register_extra.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_EXTRA_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_EXTRA_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_ADD_N();             // add_n.cc
const TfLiteRegistration* Register_ATAN2();             // atan2.cc
const TfLiteRegistration* Register_CUMSUM();            // cumsum.cc
const TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE();  // dynamic_update_slice.cc
const TfLiteRegistration* Register_RANK();              // rank.cc
const TfLiteRegistration* Register_BUCKETIZE();         // bucketize.cc
const TfLiteRegistration* Register_BITWISE_XOR();       // bitwise.cc
const TfLiteRegistration* Register_RIGHT_SHIFT();       // bitwise.cc
const TfLiteRegistration* Register_SCATTER_ND();        // scatter_nd.cc
const TfLiteRegistration* Register_STABLEHLO_COMPOSITE();  // stablehlo_composite.cc
// segment_sum.cc
const TfLiteRegistration* Register_SEGMENT_SUM();
const TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM();
const TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD();
const TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX();
const TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN();
const TfLiteRegistration* Register_UNIQUE();                   // unique.cc
const TfLiteRegistration* Register_EMBEDDING_LOOKUP_SPARSE();  // embedding_lookup_sparse.cc
// reduce_window.cc
const TfLiteRegistration* Register_REDUCE_WINDOW();
const TfLiteRegistration* Register_STABLEHLO_REDUCE_WINDOW();
const TfLiteRegistration* Register_STABLEHLO_GATHER();   // stablehlo_gather.cc
const TfLiteRegistration* Register_STABLEHLO_SCATTER();  // stablehlo_scatter.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_EXTRA_H_
