# Install rules: headers, the shared library (+ upstream's name for it), the
# optional static archive, pkg-config files and a relocatable CMake package.
#
# Install components (cmake --install build --component <name>; the Debian
# packages of cmake/packaging.cmake are made from them):
#   runtime  the shared libraries (libtflite_c.so.N, libtflite_cc.so.N, the
#            XNNPACK delegate plugin) and libtensorflowlite_c.so, upstream's
#            name, which programs linked against upstream need at run time
#   dev      headers, the libtflite_c.so/libtflite_cc.so link names, static
#            archives, pkg-config files and the CMake package
#   tools    benchmark_model, run_model, inference_diff, model_inspector
#            (tools/CMakeLists.txt)
# A plain "cmake --install build" installs all three.
#
# Consumers can use any of:
#   pkg-config --cflags --libs tensorflowlite_c     (or tflite_c)
#   find_package(tflite_c) + target_link_libraries(app tflite_c::tflite_c)
#   cc app.c -I<prefix>/include -L<prefix>/lib -ltensorflowlite_c
include(CMakePackageConfigHelpers)

set(TFLITE_C_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tflite_c)
set(TFLITE_C_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- libraries -------------------------------------------------------------------
set(_tflite_c_install_targets tflite_c)
if(TARGET tflite_c_static)
  list(APPEND _tflite_c_install_targets tflite_c_static)
endif()
# The C++ SimpleDelegate framework (tflite_c::delegate_utils), a static
# archive over the shared library's C API.
if(TARGET tflite_c_delegate_utils)
  list(APPEND _tflite_c_install_targets tflite_c_delegate_utils)
endif()
install(TARGETS ${_tflite_c_install_targets} EXPORT tflite_cTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# libtensorflowlite_c.so -> libtflite_c.so.N, so "-ltensorflowlite_c" and
# dlopen("libtensorflowlite_c.so") work as they do with upstream's build.
# Component runtime, not dev: upstream's library has no versioned SONAME, so
# every binary built against it records NEEDED libtensorflowlite_c.so and
# needs this name at run time.
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/libtensorflowlite_c.so
  DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)

# ---- headers ------------------------------------------------------------------------
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
  FILES_MATCHING PATTERN "*.h")

# ---- pkg-config ------------------------------------------------------------------------
# The prefix is derived from the .pc file's own location so that
# "cmake --install build --prefix DIR" (and copying the tree) keeps it valid.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(TFLITE_C_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(TFLITE_C_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(TFLITE_C_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _tflite_c_pc_up "/p/${TFLITE_C_PKGCONFIG_DIR}" "/p")
  string(REGEX REPLACE "/$" "" _tflite_c_pc_up "${_tflite_c_pc_up}")
  set(TFLITE_C_PC_PREFIX "\${pcfiledir}/${_tflite_c_pc_up}")
  set(TFLITE_C_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(TFLITE_C_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# For "pkg-config --static": what the archive's C++ objects need.
set(TFLITE_C_PC_LIBS_PRIVATE "-lstdc++ -lm -lpthread")
foreach(_lib ${CMAKE_DL_LIBS})
  string(APPEND TFLITE_C_PC_LIBS_PRIVATE " -l${_lib}")
endforeach()

foreach(pc tensorflowlite_c tflite_c)
  if(pc STREQUAL "tensorflowlite_c")
    set(TFLITE_C_PC_LIBNAME tensorflowlite_c)
  else()
    set(TFLITE_C_PC_LIBNAME tflite_c)
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in
    ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${pc}.pc
    DESTINATION ${TFLITE_C_PKGCONFIG_DIR} COMPONENT dev)
endforeach()

# ---- CMake package: find_package(tflite_c) -> tflite_c::tflite_c ------------------------
install(EXPORT tflite_cTargets
  NAMESPACE tflite_c::
  FILE tflite_cTargets.cmake
  DESTINATION ${TFLITE_C_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tflite_cConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cmake/tflite_cConfig.cmake
  INSTALL_DESTINATION ${TFLITE_C_CMAKE_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/cmake/tflite_cConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/cmake/tflite_cConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/cmake/tflite_cConfigVersion.cmake
  DESTINATION ${TFLITE_C_CMAKE_DIR} COMPONENT dev)
