# Tests of the command-line tools (included from the end of extra.cmake).

# A deliberately wrong external delegate (ADD computes a + b + 1).
add_library(tflite_c_test_wrong_add_delegate SHARED
  ${CMAKE_CURRENT_SOURCE_DIR}/tools/wrong_add_delegate.c)
target_include_directories(tflite_c_test_wrong_add_delegate PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(tflite_c_test_wrong_add_delegate PRIVATE tflite_c)

if(TFLITE_C_BUILD_TOOLS)
  set(_tools_models ${TFLITE_C_SHARED_DIR}/models/files)
  # The tools as programs the scripts can run (through qemu in a cross build).
  tflite_c_runnable(_run_benchmark_model benchmark_model)
  tflite_c_runnable(_run_inference_diff inference_diff)
  tflite_c_runnable(_run_model_inspector model_inspector)

  # benchmark_model: upstream's log lines, flag errors, op profile tables.
  foreach(case run unknown_flag bad_value no_graph op_profiling op_profiling_csv
               op_profiling_subgraphs bad_profiling_mode op_profiling_delegate_internal
               op_profiling_xnnpack xnnpack_weight_cache external_then_xnnpack)
    add_test(NAME benchmark_model_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/benchmark_model_test.sh
              ${_run_benchmark_model}
              ${_tools_models}/java_add.tflite ${case}
              $<TARGET_FILE:tflite_c_dummy_external_delegate>)
    set_tests_properties(benchmark_model_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()

  # benchmarks/compare.sh: the ratio table over two benchmark_model configurations.
  foreach(case table markdown bad_args failing_run)
    add_test(NAME benchmark_compare_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_test.sh
              ${PROJECT_SOURCE_DIR}/benchmarks/compare.sh ${_run_benchmark_model}
              ${_tools_models}/java_add.tflite ${case})
    set_tests_properties(benchmark_compare_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()

  # The guide's benchmark_model_plus_dummy_delegate: --use_dummy_delegate
  # through the tools' delegate registrar.
  if(TARGET benchmark_model_plus_dummy_delegate)
    tflite_c_runnable(_run_benchmark_model_plus_dummy_delegate benchmark_model_plus_dummy_delegate)
    add_test(NAME benchmark_model_dummy_provider
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/benchmark_model_test.sh
              ${_run_benchmark_model_plus_dummy_delegate}
              ${_tools_models}/java_add.tflite dummy_provider)
    set_tests_properties(benchmark_model_dummy_provider PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endif()

  if(TARGET inference_diff_plus_dummy_delegate)
    tflite_c_runnable(_run_inference_diff_plus_dummy_delegate inference_diff_plus_dummy_delegate)
    add_test(NAME inference_diff_dummy_provider
      COMMAND sh -c "[ -f \"$1\" ] || exit 77; \"$0\" --graph=\"$1\" --use_dummy_delegate=true --num_runs=3 --max_abs_error=0 >\"$2\" || exit 1; grep -q '^Delegate under test: dummy delegate$' \"$2\""
              ${_run_inference_diff_plus_dummy_delegate} ${_tools_models}/java_add.tflite
              ${CMAKE_CURRENT_BINARY_DIR}/inference_diff_dummy_provider.txt)
    set_tests_properties(inference_diff_dummy_provider PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endif()

  # library_diff: our library against itself (XNNPACK on and off), tolerance
  # breaches, and a missing library, model or flag.
  tflite_c_runnable(_run_library_diff library_diff)
  foreach(case same xnnpack_on_off strict bad_lib bad_model bad_flag)
    add_test(NAME library_diff_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/library_diff_test.sh ${_run_library_diff}
              $<TARGET_FILE:tflite_c> ${_tools_models} ${case})
    set_tests_properties(library_diff_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()

  # inference_diff: exact delegate, wrong delegate, flag and model errors.
  foreach(case exact wrong bad_flag no_delegate bad_model)
    add_test(NAME inference_diff_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/inference_diff_test.sh
              ${_run_inference_diff} ${_tools_models}/java_add.tflite
              $<TARGET_FILE:tflite_c_dummy_external_delegate>
              $<TARGET_FILE:tflite_c_test_wrong_add_delegate> ${case})
    set_tests_properties(inference_diff_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()

  # model_inspector: text and JSON reports, partition preview, malformed models.
  foreach(case text json multi_signature quantized unsupported preview malformed)
    add_test(NAME model_inspector_${case}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_inspector_test.sh
              ${_run_model_inspector} ${_tools_models}
              $<TARGET_FILE:tflite_c_dummy_external_delegate> ${case})
    set_tests_properties(model_inspector_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endif()
