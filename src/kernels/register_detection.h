// Registrations of the detection kernel group: NON_MAX_SUPPRESSION_V4/V5 and
// the TFLite_Detection_PostProcess custom op of the SSD detectors.
// RegisterDetectionKernels (register_detection.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_DETECTION_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_DETECTION_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

// non_max_suppression.cc
const TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4();
const TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5();
// detection_postprocess.cc
const TfLiteRegistration* Register_DETECTION_POSTPROCESS();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_DETECTION_H_
