# Sourced by the scripts that build a program for the target and run it
# (install consumers, ABI probe, the custom-op example). In a cross build
# cmake/cross_run.cmake sets TFLITE_C_RUN (the emulator command line) and
# TFLITE_C_TOOLCHAIN_FILE; natively both are unset. Defines:
#   run        array: the emulator command to prefix target programs with
#              (empty natively)
#   toolchain  array: -DCMAKE_TOOLCHAIN_FILE=... for a CMake consumer, or empty
read -r -a run <<<"${TFLITE_C_RUN:-}"
toolchain=()
if [ -n "${TFLITE_C_TOOLCHAIN_FILE:-}" ]; then
  toolchain=(-DCMAKE_TOOLCHAIN_FILE="$TFLITE_C_TOOLCHAIN_FILE")
fi
