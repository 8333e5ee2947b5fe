# MediaPipe's custom operators (src/kernels/mediapipe), compiled into the
# library like the builtin kernels; the C API's default resolver registers
# them by name (see src/kernels/mediapipe/mediapipe_ops.h).
file(GLOB TFLITE_C_MEDIAPIPE_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/mediapipe/*.cc)
target_sources(tflite_c_obj PRIVATE ${TFLITE_C_MEDIAPIPE_SOURCES})
