# MediaPipe's custom operators (src/kernels/mediapipe), compiled into the
# library like the builtin kernels; the C API's default resolver registers
# them by name (see src/kernels/mediapipe/mediapipe_ops.h).
file(GLOB TFLITE_C_MEDIAPIPE_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/mediapipe/*.cc)
if(TFLITE_C_SELECTIVE)  # the generated table registers the selected ones
  list(REMOVE_ITEM TFLITE_C_MEDIAPIPE_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/mediapipe/register_mediapipe.cc)
endif()
target_sources(tflite_c_obj PRIVATE ${TFLITE_C_MEDIAPIPE_SOURCES})
