# Selective build: a library whose default resolver holds only the kernels
# some models (or a list of operators) need. Same ABI and C API; a model
# needing any other operator fails at TfLiteInterpreterCreate with the usual
# unresolved-operator message.
#
#   -DTFLITE_C_SELECTED_MODELS="a.tflite;b.tflite"   (relative: to the source dir)
#   -DTFLITE_C_SELECTED_OPS="CONV_2D,ADD,CUSTOM:TFLite_Detection_PostProcess"
#
# Either or both (the union is taken). Every selected operator keeps the
# whole version range of the full table. The models' operators are listed at
# build time by tflite_c_list_ops (the reader of "model_inspector --list_ops",
# tools/model_inspector/op_list.h); cmake/selected_kernels.cmake then writes
# generated/selected_kernels.cc from src/kernels/registrations.inc, which
# replaces src/kernels/register.cc and
# src/kernels/mediapipe/register_mediapipe.cc. Everything else is compiled as
# usual, with -ffunction-sections -fdata-sections; the library is linked with
# --gc-sections, so kernels nothing refers to any more are dropped.
#
# XNNPACK (on or off) is independent: operators are resolved before any
# delegate runs and the builtin kernels are the fallback for nodes the
# delegate declines, so a selected model keeps its builtin kernels even for
# the operators XNNPACK executes.
#
# Included from the top-level CMakeLists.txt after TFLITE_C_SOURCES (the
# library's sources, from src/sources.cmake) is set; sets TFLITE_C_SELECTIVE.

set(TFLITE_C_SELECTED_MODELS "" CACHE STRING
    "Selective build: .tflite models whose operators the default resolver keeps (';'-separated)")
set(TFLITE_C_SELECTED_OPS "" CACHE STRING
    "Selective build: operators the default resolver keeps (CONV_2D,...,CUSTOM:<name>)")
set(TFLITE_C_SELECTIVE OFF)
if(TFLITE_C_SELECTED_MODELS STREQUAL "" AND TFLITE_C_SELECTED_OPS STREQUAL "")
  return()
endif()
set(TFLITE_C_SELECTIVE ON)

set(_sel_models)
foreach(_m IN LISTS TFLITE_C_SELECTED_MODELS)
  get_filename_component(_m "${_m}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${_m}")
    message(FATAL_ERROR "TFLITE_C_SELECTED_MODELS: ${_m} not found")
  endif()
  list(APPEND _sel_models "${_m}")
endforeach()
string(REPLACE ";" "," _sel_ops "${TFLITE_C_SELECTED_OPS}")

# The registration table (src/kernels/register.cc, which expands
# src/kernels/registrations.inc) and the MediaPipe operators'
# register_mediapipe.cc are not compiled: the generated table replaces them.
# selected_kernels.cmake reads registrations.inc and the MediaPipe sources, so
# they are the generated table's inputs.
list(REMOVE_ITEM TFLITE_C_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/register.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/mediapipe/register_mediapipe.cc)
set(_sel_mediapipe_sources ${TFLITE_C_MEDIAPIPE_SOURCES})

set(_sel_out ${SCHEMA_GEN_DIR}/selected_kernels.cc)
set(_sel_gen ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR} "-DOPS=${_sel_ops}"
    -DOUT=${_sel_out})
set(_sel_depends ${CMAKE_CURRENT_SOURCE_DIR}/cmake/selected_kernels.cmake
    ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/registrations.inc ${_sel_mediapipe_sources} ${SCHEMA_FBS}
    ${CMAKE_CURRENT_SOURCE_DIR}/include/tensorflow/lite/builtin_ops.h)
if(_sel_models)
  # The op lister needs only the generated schema header, not the library.
  add_executable(tflite_c_list_ops
    ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_inspector/list_ops_main.cc ${SCHEMA_GEN_H})
  add_dependencies(tflite_c_list_ops tflite_c_schema)
  target_include_directories(tflite_c_list_ops PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/tools ${SCHEMA_GEN_DIR})
  set(_sel_ops_file ${SCHEMA_GEN_DIR}/selected_model_ops.txt)
  add_custom_command(OUTPUT ${_sel_out}
    COMMAND tflite_c_list_ops -o ${_sel_ops_file} ${_sel_models}
    COMMAND ${_sel_gen} -DOPS_FILE=${_sel_ops_file} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/selected_kernels.cmake
    DEPENDS tflite_c_list_ops ${_sel_models} ${_sel_depends}
    COMMENT "Selective build: kernels of ${TFLITE_C_SELECTED_MODELS} ${TFLITE_C_SELECTED_OPS}"
    VERBATIM)
else()
  add_custom_command(OUTPUT ${_sel_out}
    COMMAND ${_sel_gen} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/selected_kernels.cmake
    DEPENDS ${_sel_depends}
    COMMENT "Selective build: kernels of ${TFLITE_C_SELECTED_OPS}"
    VERBATIM)
endif()
list(APPEND TFLITE_C_SOURCES ${_sel_out})
message(STATUS "Selective build: models '${TFLITE_C_SELECTED_MODELS}', operators "
        "'${TFLITE_C_SELECTED_OPS}' (default resolver reduced to their kernels)")
