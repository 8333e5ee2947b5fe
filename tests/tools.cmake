# Tests of the command-line tools (included from the end of extra.cmake).
if(TFLITE_C_BUILD_TOOLS)
  # benchmark_model: upstream's log lines, flag errors.
  foreach(case run unknown_flag bad_value no_graph)
    add_test(NAME benchmark_model_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/benchmark_model_test.sh
              $<TARGET_FILE:benchmark_model>
              ${TFLITE_C_SHARED_DIR}/models/files/java_add.tflite ${case})
    set_tests_properties(benchmark_model_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endif()
