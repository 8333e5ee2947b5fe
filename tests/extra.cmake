# Extra tests around packaging and the ABI (included by tests/CMakeLists.txt).

set(_inst ${CMAKE_CURRENT_SOURCE_DIR}/install)

# Install into a scratch prefix; build + run a C consumer via pkg-config and
# via find_package(tflite_c).
add_test(NAME install_consumer
  COMMAND bash ${_inst}/run_install_test.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/install_consumer
          ${TFLITE_C_SHARED_DIR}/models/files/java_add.tflite
          ${TFLITE_C_SANITIZE})
set_tests_properties(install_consumer PROPERTIES
  ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}" TIMEOUT 300)

# The Debian packages (cmake/packaging.cmake): cpack on the finished build,
# install (dpkg -i as root, else unpacked into a scratch root), a pkg-config
# consumer, the packaged tools, removal. Skipped without dpkg-deb.
add_test(NAME packages
  COMMAND bash ${_inst}/run_packages_test.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/packages_test
          ${TFLITE_C_SHARED_DIR}/models/files/java_add.tflite)
set_tests_properties(packages PROPERTIES LABELS packages SKIP_RETURN_CODE 77
  ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}" TIMEOUT 180)

# Upstream's struct layouts and enum values, seen through the installed headers.
add_test(NAME abi_probe_installed
  COMMAND bash ${_inst}/run_abi_probe.sh ${CMAKE_BINARY_DIR} ${TFLITE_C_SHARED_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/abi_probe_installed)
set_tests_properties(abi_probe_installed PROPERTIES
  SKIP_RETURN_CODE 77 ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}" TIMEOUT 120)

# Only public C names leave the shared library.
add_test(NAME exported_symbols
  COMMAND bash ${_inst}/check_exported_symbols.sh $<TARGET_FILE:tflite_c>)

# ---- label "malformed" -------------------------------------------------------------
# Tests that feed the library broken input, for the ASan+UBSan pass
# ("ctest -L malformed", see CMakePresets.json and .ci/run):
#   * every test of the executables in TFLITE_C_MALFORMED_TEST_EXES (the model
#     loader's tests are about rejecting bad flatbuffers);
#   * any test whose name matches TFLITE_C_MALFORMED_TEST_REGEX, e.g.
#     golden_test's Malformed.* (manifest expect_error models);
#   * the delegate framework's tests (delegates hand nodes, tensors and
#     buffers across the ABI in both directions, so they get the sanitizer
#     run too);
#   * the tests of the kernels added for upstream 2.19's full resolver, whose
#     error cases feed hostile shapes, options and indices (clean under
#     ASan+UBSan when they landed; kept that way).
# GoogleTest cases are discovered at test time, so they cannot be labelled
# here directly: a generated include file runs after the discovery files and
# labels them from each executable's <target>_TESTS list.
set(TFLITE_C_MALFORMED_TEST_EXES model_test
    delegate_test partitioner_test delegate_fallback_test dummy_delegate_test
    simple_delegate_test external_delegate_test xnnpack_default_test
    xnnpack_weight_cache_test xnnpack_precision_test xnnpack_plugin_test
    audio_ops_test complex_ops_test numeric_verify_test detection_postprocess_test
    non_max_suppression_test float_norm_ops_test sparse_ops_test unique_test
    matrix_diag_test data_movement_ops_test conv3d_test reduce_window_test
    stablehlo_data_ops_test random_ops_test stablehlo_elementwise_test stablehlo_case_test
    lsh_skip_gram_test e2e_postprocess_test qgemm_variants_test hostile_attributes_test
    quant_params_test graph_cycle_test teardown_test alloc_failure_test
    c_api_robustness_test c_api_null_args_test)
set(TFLITE_C_MALFORMED_TEST_REGEX "[Mm]alformed|[Cc]orrupt|[Ff]uzz|[Tt]runcat|ByteFlip|[Gg]arbage")

# ---- label "threads" -------------------------------------------------------------
# Tests that run the library on several threads (a model shared between
# interpreters, TfLiteInterpreterCancel from another thread), for the
# ThreadSanitizer pass ("ctest -L threads", CMakePresets.json "tsan", .ci/run):
# every test of the executables in TFLITE_C_THREADS_TEST_EXES, and tests of
# other executables whose name matches TFLITE_C_THREADS_TEST_REGEX (tests that
# cancel from another thread, e.g. WhileTest.EndlessLoopCanBeCancelled).
set(TFLITE_C_THREADS_TEST_EXES concurrency_test cancel_test)
set(TFLITE_C_THREADS_TEST_REGEX "CanBeCancelled")

set(_label_script ${CMAKE_CURRENT_BINARY_DIR}/label_tests.cmake)
set(_label_code "")
foreach(src ${CXX_TESTS})
  get_filename_component(_name ${src} NAME_WE)
  if(_name IN_LIST TFLITE_C_MALFORMED_TEST_EXES)
    set(_cond "1")
  else()
    set(_cond "t MATCHES \"${TFLITE_C_MALFORMED_TEST_REGEX}\"")
  endif()
  if(_name IN_LIST TFLITE_C_THREADS_TEST_EXES)
    set(_threads_cond "1")
  else()
    set(_threads_cond "t MATCHES \"${TFLITE_C_THREADS_TEST_REGEX}\"")
  endif()
  string(APPEND _label_code
    "foreach(t IN LISTS ${_name}_TESTS)\n"
    "  set(_labels \"\")\n"
    "  if(${_threads_cond})\n"
    "    list(APPEND _labels threads)\n"
    "  endif()\n"
    "  if(${_cond})\n"
    "    list(APPEND _labels malformed)\n"
    "  endif()\n"
    "  if(_labels)\n"
    "    set_tests_properties(\"\${t}\" PROPERTIES LABELS \"\${_labels}\")\n"
    "  endif()\n"
    "endforeach()\n")
endforeach()
file(WRITE ${_label_script} "${_label_code}")
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_label_script})

# Plain C tests: labelled by name at configure time.
foreach(src ${C_TESTS})
  get_filename_component(_name ${src} NAME_WE)
  if(_name MATCHES "${TFLITE_C_MALFORMED_TEST_REGEX}|c_api_conformance|plain_c_delegate|c_api_last_error|opaque_null_args")
    set_tests_properties(c_${_name} PROPERTIES LABELS malformed)
  endif()
endforeach()

# ---- label "malformed-ulimit" -------------------------------------------------------
# Every test labelled exactly "malformed" again, in a process whose address
# space is limited to 8,000,000 KiB (`ulimit -v 8000000`, as in a container or
# on a phone): the default allocation limit follows RLIMIT_AS, so a hostile
# model fails with a message instead of an uncaught std::bad_alloc. Not in
# sanitizer builds: ASan and TSan reserve terabytes of shadow address space.
# Not in cross builds either: there the limit would apply to qemu-user's own
# reservations, and the rerun would double the emulated pass's time in CI.
if(NOT TFLITE_C_SANITIZE AND NOT TFLITE_C_TSAN AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME malformed_under_ulimit
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_under_ulimit.sh 8000000
            ${CMAKE_CTEST_COMMAND} --test-dir ${CMAKE_BINARY_DIR} -L "^malformed$"
            --output-on-failure)
  set_tests_properties(malformed_under_ulimit PROPERTIES
    LABELS malformed-ulimit RUN_SERIAL TRUE ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}" TIMEOUT 1200)
endif()
include(${CMAKE_CURRENT_SOURCE_DIR}/examples.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/tools.cmake)
