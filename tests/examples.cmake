# Tests of the examples/ that are built like a user would build them
# (included from tests/extra.cmake).

# examples/custom_op_atan: the guide's ATAN custom op, built as its own .so
# against the installed headers only, run on a model from the model builder.
add_executable(atan_model_writer ${CMAKE_CURRENT_SOURCE_DIR}/examples/atan_model_writer.cc)
target_link_libraries(atan_model_writer PRIVATE tflite_c_test_util)
tflite_c_runnable(_run_atan_model_writer atan_model_writer)
add_test(NAME example_custom_op_atan
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/examples/run_custom_op_atan.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/example_custom_op_atan ${_run_atan_model_writer}
          ${CMAKE_SOURCE_DIR}/examples/custom_op_atan)
set_tests_properties(example_custom_op_atan PROPERTIES
  ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}" TIMEOUT 300)

