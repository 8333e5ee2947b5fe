# tflite_c_runnable(<var> <target>): a path to an executable target that test
# scripts and tests can run as a program. Natively that is the target's file;
# in a cross build it is a generated wrapper script,
# <build>/cross-run/<target>, that runs the file through
# CMAKE_CROSSCOMPILING_EMULATOR (qemu-user), so the scripts stay unchanged.
#
# TFLITE_C_TEST_RUN_ENV: the ENVIRONMENT of tests whose scripts compile a
# program for the target and run it (tests/install/run_install_test.sh and
# friends): CC and CXX, and in a cross build TFLITE_C_RUN (the emulator
# command line), TFLITE_C_TOOLCHAIN_FILE (for CMake consumers) and
# TFLITE_C_TARGET_ARCH (CMAKE_SYSTEM_PROCESSOR).
set(TFLITE_C_TEST_RUN_ENV "CC=${CMAKE_C_COMPILER}" "CXX=${CMAKE_CXX_COMPILER}")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _tflite_c_emulator_line)
  list(APPEND TFLITE_C_TEST_RUN_ENV "TFLITE_C_RUN=${_tflite_c_emulator_line}"
       "TFLITE_C_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
       "TFLITE_C_TARGET_ARCH=${CMAKE_SYSTEM_PROCESSOR}")
endif()

function(tflite_c_runnable var target)
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR "\" \"" _emu)
    set(_wrapper ${CMAKE_BINARY_DIR}/cross-run/${target})
    get_property(_done GLOBAL PROPERTY TFLITE_C_RUNNABLE_${target})
    if(NOT _done)  # one wrapper per target, however many tests ask
      set_property(GLOBAL PROPERTY TFLITE_C_RUNNABLE_${target} TRUE)
      file(GENERATE OUTPUT ${_wrapper}
        CONTENT "#!/bin/sh\nexec \"${_emu}\" \"$<TARGET_FILE:${target}>\" \"$@\"\n"
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                         WORLD_READ WORLD_EXECUTE)
    endif()
    set(${var} ${_wrapper} PARENT_SCOPE)
  else()
    set(${var} $<TARGET_FILE:${target}> PARENT_SCOPE)
  endif()
endfunction()
