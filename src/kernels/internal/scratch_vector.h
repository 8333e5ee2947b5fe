// ScratchVector<T>: a std::vector whose memory counts against the
// interpreter's allocation limit (TfLiteInterpreterOptionsSetMaxAllocationBytes
// or the process's budget, src/core/memory_budget.h).
//
// Kernels keep their packed weights and scratch in ScratchVector members of
// their op data. The interpreter makes its account current on the calling
// thread while it runs a kernel's init / prepare / invoke / free, and each
// block is charged to the account current when it is allocated; it credits
// that same account when freed. Growing past the limit throws
// std::bad_alloc, which the interpreter turns into a failed node with an
// "out of memory" message. Outside any interpreter call nothing is counted.
//
// The allocator is stateless (the account travels in each block's header),
// so vectors copy, move and swap exactly like std::vector.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

#include "src/core/memory_budget.h"

namespace tflite_c {
namespace internal {

template <typename T>
class ScratchAllocator {
 public:
  using value_type = T;
  using is_always_equal = std::true_type;

  ScratchAllocator() noexcept = default;
  template <typename U>
  ScratchAllocator(const ScratchAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(ScratchAllocate(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, size_t) noexcept { CountedFree(p); }

  template <typename U>
  bool operator==(const ScratchAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const ScratchAllocator<U>&) const noexcept {
    return false;
  }
};

template <typename T>
using ScratchVector = std::vector<T, ScratchAllocator<T>>;

}  // namespace internal

// Kernels live in tflite_c::kernels and name their helpers internal::...
namespace kernels {
namespace internal {
using tflite_c::internal::ScratchAllocator;
using tflite_c::internal::ScratchVector;
}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_
