# Cross-compile for 64-bit ARM Linux (Debian arm64, Raspberry Pi OS 64-bit,
# Jetson, Graviton) with Debian's g++-aarch64-linux-gnu; tests run under
# qemu-aarch64. Baseline ARMv8-A: NEON (Advanced SIMD) is always there; newer
# extensions (dot product, fp16 arithmetic, i8mm) are only used by XNNPACK,
# which picks them at run time through cpuinfo.
set(TFLITE_C_CROSS_TRIPLET aarch64-linux-gnu)
set(TFLITE_C_CROSS_PROCESSOR aarch64)
set(TFLITE_C_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-debian.cmake)
