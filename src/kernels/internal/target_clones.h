// TFLITE_C_TARGET_CLONES: run-time dispatch without fixed ISA flags. With
// GCC on x86-64 Linux the annotated function is compiled once for AVX2 and
// once for the baseline, and the loader picks one (an ifunc). Other compilers
// and architectures get the baseline build alone, and so does a
// ThreadSanitizer build: the ifunc resolver runs while the dynamic loader
// relocates the program, before the TSan runtime is initialized, and its
// instrumentation would crash there.
//
// Contraction stays off in every clone (-ffp-contract=off), so a float loop
// gives the same results in both: AVX2 only widens the vectors.
//
// Helpers called from a cloned function are compiled for the baseline unless
// inlined: mark the hot ones TFLITE_C_ALWAYS_INLINE.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_TARGET_CLONES_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_TARGET_CLONES_H_

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define TFLITE_C_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TFLITE_C_TARGET_CLONES
#endif

#if defined(__GNUC__)
#define TFLITE_C_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TFLITE_C_ALWAYS_INLINE inline
#endif

// Eight floats at any 4-byte alignment, for the vector loops of cloned
// functions (GCC/Clang vector extension: one AVX register in an AVX2 clone,
// two SSE or NEON registers otherwise). Loads and stores through it may
// alias any float.
namespace tflite_c {
namespace kernels {
namespace internal {

typedef float Float8 __attribute__((vector_size(32), aligned(4), may_alias));

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_TARGET_CLONES_H_
