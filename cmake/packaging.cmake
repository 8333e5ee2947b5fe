# Debian packages with CPack, one per install component (cmake/install.cmake):
#
#   libtflite-c0     component runtime: libtflite_c.so.0 (+ libtflite_cc.so.0,
#                    the XNNPACK delegate plugin) and libtensorflowlite_c.so
#   libtflite-c-dev  component dev: headers, the libtflite_c.so/libtflite_cc.so
#                    link names, static archives, .pc files, CMake package;
#                    Depends: libtflite-c0 (= version)
#   tflite-c-tools   component tools: benchmark_model, run_model,
#                    inference_diff, model_inspector; Depends: libtflite-c0
#                    (= version) and what dpkg-shlibdeps finds
#
#   cmake --build build --target package      (builds everything first)
#   cd build && cpack -G DEB                  (packages what is built)
#
# The runtime package is named after the SONAME (libtflite_c.so.N ->
# libtflite-cN) and ships a shlibs file (CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS),
# so packages built against it get "libtflite-c0 (>= version)" from their own
# dpkg-shlibdeps. Our deviation from Debian policy, on purpose:
# libtensorflowlite_c.so, an unversioned name, is in the runtime package, not
# in -dev: upstream's library has no versioned SONAME, so programs linked
# against upstream's libtensorflowlite_c.so (or dlopen()ing it) need that name
# at run time, and drop-in replacement is the point of this library.
#
# Paths come from GNUInstallDirs: configure with -DCMAKE_INSTALL_PREFIX=/usr
# for Debian's multiarch libdir (lib/<triplet>); with the default prefix the
# packages use /usr/lib.

set(CPACK_PACKAGE_NAME tflite-c)
set(CPACK_PACKAGE_VENDOR "tflite-c")
set(CPACK_PACKAGE_CONTACT "tflite-c maintainers <tflite-c@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # component DEPENDS -> "(= version)"

set(_tflite_c_deb_runtime libtflite-c${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${_tflite_c_deb_runtime})
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libtflite-c-dev)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME tflite-c-tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # name_version_arch.deb
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Descriptions: first line the synopsis (CPACK_PACKAGE_DESCRIPTION_SUMMARY is
# left unset, or CPack would put it above every component's).
string(CONCAT CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "TensorFlow Lite-compatible C runtime library\n"
  "A drop-in replacement for TensorFlow Lite ${TFLITE_C_UPSTREAM_VERSION}'s libtensorflowlite_c.so:\n"
  "same C API and ABI, with the XNNPACK delegate built in when it was\n"
  "available at build time. Also the C++ API library libtflite_cc.")
string(CONCAT CPACK_DEBIAN_DEV_DESCRIPTION
  "TensorFlow Lite-compatible C runtime - development files\n"
  "Headers (tensorflow/lite/c/...), pkg-config files (tensorflowlite_c,\n"
  "tflite_c, tflite_cc), the CMake package (find_package(tflite_c)) and the\n"
  "static archives that were built.")
string(CONCAT CPACK_DEBIAN_TOOLS_DESCRIPTION
  "TensorFlow Lite-compatible C runtime - command-line tools\n"
  "benchmark_model (upstream's flags and log lines), run_model,\n"
  "inference_diff and model_inspector.")

# Architecture: the target's Debian name (cross builds too).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(_tflite_c_deb_arch amd64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(_tflite_c_deb_arch arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
  set(_tflite_c_deb_arch armhf)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(i.86)$")
  set(_tflite_c_deb_arch i386)
else()
  string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _tflite_c_deb_arch)
endif()
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${_tflite_c_deb_arch})

# Dependencies: dpkg-shlibdeps reads the binaries. Our own libraries are found
# in the build tree (they belong to no installed package yet; the component
# dependency above names their package). A cross build cannot ask the host's
# dpkg about the target's libc, so it names the three runtime libraries.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
if(NOT CMAKE_CROSSCOMPILING)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
      ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/src/cc)
else()
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libgcc-s1, libstdc++6")
endif()
# The dev package holds no binaries of its own besides archives and links.
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)

include(CPack)
