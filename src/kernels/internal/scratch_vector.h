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
//
// Scratch that lives only during one Eval belongs in the arena instead
// (RequestArenaScratch / ArenaScratch below): it shares memory with tensors
// that are not live at that node and is planned with them.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

#include "src/core/memory_budget.h"
#include "tensorflow/lite/core/c/common.h"

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

// From Prepare: asks the arena for `count` elements of `element_bytes` for
// this node's Eval (*index = -1 when count is 0). Fails with a message when
// the size overflows.
inline TfLiteStatus RequestArenaScratch(TfLiteContext* context, const char* op, int64_t count,
                                        size_t element_bytes, int* index) {
  *index = -1;
  if (count == 0) return kTfLiteOk;
  size_t bytes = 0;
  if (count < 0 || __builtin_mul_overflow(static_cast<uint64_t>(count), element_bytes, &bytes)) {
    TF_LITE_KERNEL_LOG(context, "%s: scratch of %lld elements is too large", op,
                       static_cast<long long>(count));
    return kTfLiteError;
  }
  return context->RequestScratchBufferInArena(context, bytes, index);
}

// From Eval: the buffer RequestArenaScratch placed (nullptr if none).
template <typename T>
T* ArenaScratch(TfLiteContext* context, int index) {
  return index < 0 ? nullptr : static_cast<T*>(context->GetScratchBuffer(context, index));
}
}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_SCRATCH_VECTOR_H_
