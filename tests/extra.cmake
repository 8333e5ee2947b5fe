# Tests that are scripts: packaging and the ABI, the examples, the tools
# (included by tests/CMakeLists.txt).

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
