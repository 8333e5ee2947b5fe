# Tests of label "size" (tests/size/run_size_test.sh), included at the end of
# the top-level CMakeLists.txt, once TFLITE_C_WITH_XNNPACK is known:
#   size_budget       stripped sizes of the full library and of MobileNet-only
#                     selective builds (XNNPACK off and on), against budgets
#   selective_build   a library for two shared models runs both (goldens) and
#                     refuses a third with the unresolved-operator message
# Both configure and build extra copies of the library next to the build
# directory (<build>-size-*). selective_build's Release tree gets the main
# build's objects from the compiler cache; size_budget's MinSizeRel trees
# compile theirs once (minutes), then only relink. They take turns (one
# build at a time). Not defined inside a selective build tree itself.
# Sanitizer builds neither (their sizes mean nothing; the trees would not be
# sanitized), nor cross builds: the budgets are x86-64 figures (the aarch64
# MobileNet-only library is 451 KB against the 400 KB budget), and the
# selective build lists operators with a host tool.
if(TFLITE_C_SELECTIVE OR TFLITE_C_SANITIZE OR CMAKE_CROSSCOMPILING OR NOT TARGET run_model
   OR NOT DEFINED TFLITE_C_SHARED_DIR)
  return()
endif()
tflite_c_runnable(_size_run_model run_model)
set(_size_args ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${TFLITE_C_SHARED_DIR}
    ${TFLITE_C_WITH_XNNPACK} "${TFLITE_C_XNNPACK_ROOT}" ${CMAKE_STRIP} ${CMAKE_BUILD_TYPE}
    ${_size_run_model})
add_test(NAME size_budget
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/size/run_size_test.sh budget ${_size_args})
tflite_c_runnable(_size_model_inspector model_inspector)
add_test(NAME selective_build
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/size/run_size_test.sh selective ${_size_args}
          ${_size_model_inspector})
set_tests_properties(size_budget selective_build PROPERTIES LABELS size SKIP_RETURN_CODE 77
  RESOURCE_LOCK tflite_c_size_builds TIMEOUT 3600 ENVIRONMENT "${TFLITE_C_TEST_RUN_ENV}")
