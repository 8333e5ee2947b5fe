// XNNPACK's allocator callbacks over the counted blocks of
// src/core/memory_budget.h; see allocator.h.
#include "src/delegates/xnnpack/allocator.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "src/core/memory_budget.h"

namespace tflite_c {
namespace xnnpack {
namespace {

void* Allocate(void*, size_t size) {
  return internal::CountedAllocate(size, alignof(std::max_align_t));
}

void* Reallocate(void*, void* pointer, size_t size) {
  void* fresh = internal::CountedAllocate(size, alignof(std::max_align_t));
  if (fresh == nullptr || pointer == nullptr) return fresh;  // the old block stays on failure
  std::memcpy(fresh, pointer, std::min(size, internal::CountedSize(pointer)));
  internal::CountedFree(pointer);
  return fresh;
}

void Deallocate(void*, void* pointer) { internal::CountedFree(pointer); }

void* AlignedAllocate(void*, size_t alignment, size_t size) {
  return internal::CountedAllocate(size, alignment);
}

const xnn_allocator kCounting = {nullptr, Allocate, Reallocate, Deallocate, AlignedAllocate,
                                 Deallocate};

}  // namespace

const xnn_allocator* CountingAllocator() { return &kCounting; }

}  // namespace xnnpack
}  // namespace tflite_c
