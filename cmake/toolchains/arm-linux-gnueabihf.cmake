# Cross-compile for 32-bit ARM Linux (Debian armhf, Raspberry Pi OS 32-bit on
# ARMv7 and newer boards) with Debian's g++-arm-linux-gnueabihf; tests run
# under qemu-arm. Baseline: the compiler's Debian armhf default, ARMv7-A,
# Thumb-2, VFPv3-D16, hard-float ABI. NEON is optional in that ABI, so the
# NEON code paths are chosen at run time (AT_HWCAP) in our kernels and through
# cpuinfo in XNNPACK.
set(TFLITE_C_CROSS_TRIPLET arm-linux-gnueabihf)
set(TFLITE_C_CROSS_PROCESSOR armv7l)
set(TFLITE_C_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/cross-debian.cmake)
