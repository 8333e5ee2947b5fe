# Finds the XNNPACK the delegate (src/delegates/xnnpack) is built on;
# included from the top-level CMakeLists.txt before the library is defined.
# Sets TFLITE_C_WITH_XNNPACK and, when ON, TFLITE_C_XNNPACK_LINK (the
# archives as imported targets, in link order, and what they need).
#
# XNNPACK, pthreadpool and cpuinfo come as static PIC archives from the
# per-version cache prefix that third_party/xnnpack/build.sh fills; they are
# linked into libtflite_c itself, so users need nothing extra at run time.
# Only TfLite* symbols leave the library (the version script hides the rest,
# and --exclude-libs keeps the archives' symbols out of the dynamic table).
#
#   -DTFLITE_C_XNNPACK_ROOT=<prefix>   use that prefix instead of the cache
#   -DTFLITE_C_WITH_XNNPACK=OFF        build without the delegate (its C API
#                                      then exists but creates nothing)
#
# The prefix must hold lib/libXNNPACK.a, lib/libmicrokernels-prod.a,
# lib/libpthreadpool.a, lib/libcpuinfo.a and include/xnnpack.h.

set(_xnn_libs XNNPACK microkernels-prod pthreadpool cpuinfo)  # link order

# Defaults that were computed (not given by the user) are recomputed on every
# configure, so a later build.sh run or a new pin is picked up.
if(NOT DEFINED CACHE{TFLITE_C_XNNPACK_ROOT} OR
   "${TFLITE_C_XNNPACK_ROOT}" STREQUAL "$CACHE{_TFLITE_C_XNNPACK_ROOT_AUTO}")
  # The same key the build script uses (--print-prefix only prints); a cross
  # build looks for the prefix of its target architecture.
  set(_xnn_arch host)
  if(CMAKE_CROSSCOMPILING)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)")
      set(_xnn_arch arm64)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
      set(_xnn_arch armhf)
    else()
      set(_xnn_arch none)
    endif()
  endif()
  execute_process(
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/third_party/xnnpack/build.sh --arch ${_xnn_arch} --print-prefix
    OUTPUT_VARIABLE _xnn_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _xnn_rc ERROR_QUIET)
  if(NOT _xnn_rc EQUAL 0)
    set(_xnn_prefix "")
  endif()
  set(TFLITE_C_XNNPACK_ROOT "${_xnn_prefix}" CACHE PATH
      "Install prefix of the pinned XNNPACK (default: third_party/xnnpack/build.sh's cache)" FORCE)
  set(_TFLITE_C_XNNPACK_ROOT_AUTO "${_xnn_prefix}" CACHE INTERNAL "")
endif()

set(_xnn_found OFF)
if(TFLITE_C_XNNPACK_ROOT AND EXISTS "${TFLITE_C_XNNPACK_ROOT}/include/xnnpack.h")
  set(_xnn_found ON)
  foreach(_l ${_xnn_libs})
    if(NOT EXISTS "${TFLITE_C_XNNPACK_ROOT}/lib/lib${_l}.a")
      set(_xnn_found OFF)
    endif()
  endforeach()
endif()

# option(TFLITE_C_WITH_XNNPACK): default ON exactly when the prefix is complete.
if(NOT DEFINED CACHE{TFLITE_C_WITH_XNNPACK} OR
   "${TFLITE_C_WITH_XNNPACK}" STREQUAL "$CACHE{_TFLITE_C_WITH_XNNPACK_AUTO}")
  set(TFLITE_C_WITH_XNNPACK ${_xnn_found} CACHE BOOL
      "Build the XNNPACK delegate into the library" FORCE)
  set(_TFLITE_C_WITH_XNNPACK_AUTO ${_xnn_found} CACHE INTERNAL "")
else()
  unset(_TFLITE_C_WITH_XNNPACK_AUTO CACHE)  # the user's choice from now on
endif()

if(TFLITE_C_WITH_XNNPACK AND NOT _xnn_found)
  message(FATAL_ERROR "TFLITE_C_WITH_XNNPACK=ON but no complete XNNPACK prefix at "
          "'${TFLITE_C_XNNPACK_ROOT}'. Run third_party/xnnpack/build.sh or pass "
          "-DTFLITE_C_XNNPACK_ROOT=<prefix>.")
endif()

if(NOT TFLITE_C_WITH_XNNPACK)
  if(NOT _xnn_found)
    message(STATUS "XNNPACK delegate: OFF (no XNNPACK prefix found; run "
            "third_party/xnnpack/build.sh, or pass -DTFLITE_C_XNNPACK_ROOT=<prefix>)")
  else()
    message(STATUS "XNNPACK delegate: OFF (TFLITE_C_WITH_XNNPACK=OFF)")
  endif()
  return()
endif()

message(STATUS "XNNPACK delegate: ON (${TFLITE_C_XNNPACK_ROOT})")

set(TFLITE_C_XNNPACK_LINK "")
foreach(_l ${_xnn_libs})
  if(NOT TARGET tflite_c_xnn_${_l})
    add_library(tflite_c_xnn_${_l} STATIC IMPORTED)
    set_target_properties(tflite_c_xnn_${_l} PROPERTIES
      IMPORTED_LOCATION "${TFLITE_C_XNNPACK_ROOT}/lib/lib${_l}.a")
  endif()
  list(APPEND TFLITE_C_XNNPACK_LINK tflite_c_xnn_${_l})
endforeach()
find_library(TFLITE_C_LIBM m)
list(APPEND TFLITE_C_XNNPACK_LINK Threads::Threads)
if(TFLITE_C_LIBM)
  list(APPEND TFLITE_C_XNNPACK_LINK m)
endif()
