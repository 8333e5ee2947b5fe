# XNNPACK delegate (src/delegates/xnnpack), included at the end of the
# top-level CMakeLists.txt.
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
  # The C API of xnnpack_delegate.h still exists and reports "not built".
  target_sources(tflite_c_obj PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/delegates/xnnpack/xnnpack_disabled.cc)
  return()
endif()

message(STATUS "XNNPACK delegate: ON (${TFLITE_C_XNNPACK_ROOT})")

set(_xnn_targets)
foreach(_l ${_xnn_libs})
  if(NOT TARGET tflite_c_xnn_${_l})
    add_library(tflite_c_xnn_${_l} STATIC IMPORTED)
    set_target_properties(tflite_c_xnn_${_l} PROPERTIES
      IMPORTED_LOCATION "${TFLITE_C_XNNPACK_ROOT}/lib/lib${_l}.a")
  endif()
  list(APPEND _xnn_targets tflite_c_xnn_${_l})
endforeach()
find_library(TFLITE_C_LIBM m)
set(_xnn_link ${_xnn_targets} Threads::Threads)
if(TFLITE_C_LIBM)
  list(APPEND _xnn_link m)
endif()

file(GLOB TFLITE_C_XNNPACK_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/src/delegates/xnnpack/*.cc)
list(REMOVE_ITEM TFLITE_C_XNNPACK_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/delegates/xnnpack/xnnpack_disabled.cc)
target_sources(tflite_c_obj PRIVATE ${TFLITE_C_XNNPACK_SOURCES})
# Our prefix first, so that no system xnnpack.h/pthreadpool.h (bookworm's
# libxnnpack-dev is too old) can shadow it.
set_source_files_properties(${TFLITE_C_XNNPACK_SOURCES} PROPERTIES
  INCLUDE_DIRECTORIES "${TFLITE_C_XNNPACK_ROOT}/include")
# INTERFACE: no library source looks at it, so the library's objects compile
# the same with XNNPACK on or off (and share compiler-cache entries).
target_compile_definitions(tflite_c_obj INTERFACE TFLITE_C_WITH_XNNPACK=1)

# Objects -> shared library: the archives (by full path, in order) are linked
# in; their symbols stay local.
target_link_libraries(tflite_c PRIVATE ${_xnn_link})
target_link_options(tflite_c PRIVATE -Wl,--exclude-libs,ALL)
# Everything else that links the objects directly (tests, tools).
target_link_libraries(tflite_c_obj PUBLIC ${_xnn_link})
if(TARGET tflite_c_static)
  # A static archive cannot contain other archives; its users link these too.
  target_link_libraries(tflite_c_static PUBLIC $<BUILD_INTERFACE:${_xnn_link}>)
endif()

# The delegate as an external delegate library, libtflite_c_xnnpack_delegate.so
# (TfLiteExternalDelegateCreate, --external_delegate_path): option parsing
# only, on top of libtflite_c's C API. Exports the two plugin entry points.
set(_xnn_plugin_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/delegates/xnnpack/plugin)
add_library(tflite_c_xnnpack_plugin SHARED ${_xnn_plugin_dir}/xnnpack_plugin.cc)
target_include_directories(tflite_c_xnnpack_plugin PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(tflite_c_xnnpack_plugin PRIVATE tflite_c)
target_link_options(tflite_c_xnnpack_plugin PRIVATE
  -Wl,--version-script=${_xnn_plugin_dir}/exported_symbols.map ${TFLITE_C_NO_UNDEFINED})
set_target_properties(tflite_c_xnnpack_plugin PROPERTIES
  OUTPUT_NAME tflite_c_xnnpack_delegate CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON LINK_DEPENDS ${_xnn_plugin_dir}/exported_symbols.map
  INSTALL_RPATH "\$ORIGIN")
# Installed next to libtflite_c.so (found through $ORIGIN).
install(TARGETS tflite_c_xnnpack_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  COMPONENT runtime)
if(TFLITE_C_BUILD_TESTS)
  function(tflite_c_wire_xnnpack_plugin_test)
    # White-box tests of the delegate's internals see xnnpack.h too.
    foreach(_t xnnpack_precision_test xnnpack_weight_cache_test)
      if(TARGET ${_t})
        target_include_directories(${_t} PRIVATE "${TFLITE_C_XNNPACK_ROOT}/include")
      endif()
    endforeach()
    if(TARGET xnnpack_plugin_test)
      add_dependencies(xnnpack_plugin_test tflite_c_xnnpack_plugin)
      target_compile_definitions(xnnpack_plugin_test PRIVATE
        XNNPACK_PLUGIN_PATH="$<TARGET_FILE:tflite_c_xnnpack_plugin>")
      if(TARGET benchmark_model)
        tflite_c_runnable(_run_benchmark_model benchmark_model)
        add_dependencies(xnnpack_plugin_test benchmark_model)
        target_compile_definitions(xnnpack_plugin_test PRIVATE
          BENCHMARK_MODEL_PATH="${_run_benchmark_model}")
      endif()
    endif()
  endfunction()
  cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                 CALL tflite_c_wire_xnnpack_plugin_test)
endif()
