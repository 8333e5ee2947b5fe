# Shared part of the Debian cross toolchain files (aarch64-linux-gnu.cmake,
# arm-linux-gnueabihf.cmake): the caller sets TFLITE_C_CROSS_TRIPLET,
# TFLITE_C_CROSS_PROCESSOR and TFLITE_C_CROSS_QEMU, then includes this file.
#
# Compilers: Debian's g++-<triplet> packages. Target libraries (googletest,
# glibc, libstdc++) come from Debian's multiarch packages (/usr/lib/<triplet>)
# and the cross runtime (/usr/<triplet>); header-only dependencies (Eigen,
# flatbuffers, nlohmann-json) are read from /usr/include, which the cross
# compilers search too. Programs (flatc, python3) run on the host.
#
# Executables run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR), so ctest and
# gtest_discover_tests work unchanged. No -mcpu/-march beyond the compiler's
# Debian default: the binaries run on every device of the architecture.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${TFLITE_C_CROSS_PROCESSOR})
set(CMAKE_LIBRARY_ARCHITECTURE ${TFLITE_C_CROSS_TRIPLET})

set(CMAKE_C_COMPILER ${TFLITE_C_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${TFLITE_C_CROSS_TRIPLET}-g++)
find_program(TFLITE_C_CROSS_STRIP ${TFLITE_C_CROSS_TRIPLET}-strip)
if(TFLITE_C_CROSS_STRIP)
  set(CMAKE_STRIP ${TFLITE_C_CROSS_STRIP} CACHE FILEPATH "")
endif()

# Search the cross runtime and the multiarch directories for target files,
# the host for programs.
set(CMAKE_FIND_ROOT_PATH /usr/${TFLITE_C_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# qemu-user with the cross runtime as its library prefix (the dynamic loader
# and libstdc++ live under /usr/<triplet>); multiarch libraries are found in
# /usr/lib/<triplet> through the host paths qemu falls back to.
find_program(TFLITE_C_CROSS_QEMU_PROGRAM ${TFLITE_C_CROSS_QEMU})
if(TFLITE_C_CROSS_QEMU_PROGRAM)
  # TFLITE_C_UNDER_EMULATOR tells tests that measure the process (RSS) that
  # the emulator's own memory (its translated-code cache) is in the figures.
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TFLITE_C_CROSS_QEMU_PROGRAM} -L /usr/${TFLITE_C_CROSS_TRIPLET}
      -E TFLITE_C_UNDER_EMULATOR=1)
endif()
