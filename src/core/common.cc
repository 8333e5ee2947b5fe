// tflite-c: implementation of the helper functions declared in
// tensorflow/lite/core/c/common.h.
//
// Everything here is plain C ABI (extern "C"); visibility comes from the
// TFL_CAPI_EXPORT tags on the declarations. All functions tolerate NULL
// arguments and impossible sizes: they return NULL / 0 / kTfLiteError
// instead of crashing.

#include "tensorflow/lite/core/c/common.h"

#include "src/core/blockwise_quantization.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "tensorflow/lite/core/c/c_api_types.h"

namespace {

// Extra bytes appended to every dynamic tensor buffer so that vectorized
// kernels (e.g. XNNPACK) may over-read the last element safely.
constexpr size_t kTensorTailPadding = 16;

// Size of a variable-length array struct (header + `count` elements), or 0
// when `count` is negative or the result does not fit in size_t.
template <class Array>
size_t VarArrayBytes(int count) {
  if (count < 0) return 0;
  constexpr size_t kHeader = offsetof(Array, data);
  constexpr size_t kElem = sizeof(Array::data[0]);
  const size_t n = static_cast<size_t>(count);
  if (n > (std::numeric_limits<size_t>::max() - kHeader) / kElem) return 0;
  return kHeader + n * kElem;
}

template <class Array>
Array* VarArrayCreate(int count) {
  const size_t bytes = VarArrayBytes<Array>(count);
  if (bytes == 0) return nullptr;
  Array* array = static_cast<Array*>(std::malloc(bytes));
  if (array == nullptr) return nullptr;
  array->size = count;
  return array;
}

template <class Array>
Array* VarArrayCopy(const Array* src) {
  if (src == nullptr) return nullptr;
  Array* copy = VarArrayCreate<Array>(src->size);
  if (copy != nullptr && src->size > 0) {
    std::memcpy(copy->data, src->data,
                static_cast<size_t>(src->size) * sizeof(src->data[0]));
  }
  return copy;
}

template <class Array, class Elem>
int VarArrayEqualsData(const Array* a, int b_size, const Elem* b_data) {
  if (a == nullptr) return b_size == 0 ? 1 : 0;
  if (a->size != b_size) return 0;
  if (a->size <= 0) return 1;
  if (b_data == nullptr) return 0;
  return std::memcmp(a->data, b_data,
                     static_cast<size_t>(a->size) * sizeof(a->data[0])) == 0
             ? 1
             : 0;
}

// True when the tensor's buffer was malloc()ed by the runtime and must be
// released with free().
bool OwnsMallocBuffer(const TfLiteTensor* t) {
  return t->allocation_type == kTfLiteDynamic ||
         t->allocation_type == kTfLitePersistentRo;
}

// What a tensor's allocation type says about its buffer: the answers of the
// five TfLiteTensorGet* buffer queries (all unknown for a null tensor, a
// custom or non-CPU allocation, or a value outside the enum).
struct BufferProperties {
  TfLiteAllocationStrategy strategy = kTfLiteAllocationStrategyUnknown;
  TfLiteRunStability address = kTfLiteRunStabilityUnknown;
  TfLiteRunStability data = kTfLiteRunStabilityUnknown;
  TfLiteRunStep data_known = kTfLiteRunStepUnknown;
  TfLiteRunStep shape_known = kTfLiteRunStepUnknown;
};

BufferProperties BufferPropertiesOf(const TfLiteTensor* t) {
  if (t == nullptr) return {};
  switch (t->allocation_type) {
    case kTfLiteMemNone:
      return {kTfLiteAllocationStrategyNone, kTfLiteRunStabilityAcrossRuns,
              kTfLiteRunStabilityAcrossRuns, kTfLiteRunStepInit, kTfLiteRunStepInit};
    case kTfLiteMmapRo:
      return {kTfLiteAllocationStrategyMMap, kTfLiteRunStabilityAcrossRuns,
              kTfLiteRunStabilityAcrossRuns, kTfLiteRunStepInit, kTfLiteRunStepInit};
    case kTfLiteArenaRw:
      return {kTfLiteAllocationStrategyArena, kTfLiteRunStabilityUnstable,
              kTfLiteRunStabilitySingleRun, kTfLiteRunStepEval, kTfLiteRunStepPrepare};
    case kTfLiteArenaRwPersistent:
      return {kTfLiteAllocationStrategyArena, kTfLiteRunStabilityUnstable,
              kTfLiteRunStabilityAcrossRuns, kTfLiteRunStepEval, kTfLiteRunStepPrepare};
    case kTfLiteDynamic:
      return {kTfLiteAllocationStrategyMalloc, kTfLiteRunStabilitySingleRun,
              kTfLiteRunStabilitySingleRun, kTfLiteRunStepEval, kTfLiteRunStepEval};
    case kTfLitePersistentRo:
      return {kTfLiteAllocationStrategyUnknown, kTfLiteRunStabilitySingleRun,
              kTfLiteRunStabilitySingleRun, kTfLiteRunStepPrepare, kTfLiteRunStepPrepare};
    case kTfLiteVariantObject:
      return {kTfLiteAllocationStrategyNew, kTfLiteRunStabilityAcrossRuns,
              kTfLiteRunStabilitySingleRun, kTfLiteRunStepEval, kTfLiteRunStepEval};
    case kTfLiteCustom:
    case kTfLiteNonCpu:
      return {};
  }
  return {};
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------------------
// Int / float arrays
// ---------------------------------------------------------------------------

size_t TfLiteIntArrayGetSizeInBytes(int size) {
  return VarArrayBytes<TfLiteIntArray>(size);
}

TfLiteIntArray* TfLiteIntArrayCreate(int size) {
  return VarArrayCreate<TfLiteIntArray>(size);
}

int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == b) return 1;
  if (a == nullptr || b == nullptr) return 0;
  return VarArrayEqualsData(a, b->size, b->data);
}

int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size,
                              const int b_data[]) {
  return VarArrayEqualsData(a, b_size, b_data);
}

TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src) {
  return VarArrayCopy(src);
}

void TfLiteIntArrayFree(TfLiteIntArray* a) { std::free(a); }

int TfLiteFloatArrayGetSizeInBytes(int size) {
  const size_t bytes = VarArrayBytes<TfLiteFloatArray>(size);
  if (bytes > static_cast<size_t>(std::numeric_limits<int>::max())) return 0;
  return static_cast<int>(bytes);
}

TfLiteFloatArray* TfLiteFloatArrayCreate(int size) {
  return VarArrayCreate<TfLiteFloatArray>(size);
}

TfLiteFloatArray* TfLiteFloatArrayCopy(const TfLiteFloatArray* src) {
  return VarArrayCopy(src);
}

void TfLiteFloatArrayFree(TfLiteFloatArray* a) { std::free(a); }

// ---------------------------------------------------------------------------
// Tensors
// ---------------------------------------------------------------------------

void TfLiteTensorDataFree(TfLiteTensor* t) {
  if (t == nullptr) return;
  if (t->allocation_type == kTfLiteVariantObject) {
    delete static_cast<VariantData*>(t->data.data);
  } else if (OwnsMallocBuffer(t)) {
    std::free(t->data.raw);
  }
  t->data.raw = nullptr;
}

void TfLiteQuantizationFree(TfLiteQuantization* quantization) {
  if (quantization == nullptr) return;
  if (quantization->type == kTfLiteAffineQuantization &&
      quantization->params != nullptr) {
    auto* affine =
        static_cast<TfLiteAffineQuantization*>(quantization->params);
    TfLiteFloatArrayFree(affine->scale);
    affine->scale = nullptr;
    TfLiteIntArrayFree(affine->zero_point);
    affine->zero_point = nullptr;
    std::free(affine);
  }
  if (quantization->type == tflite_c::kBlockwiseQuantization) std::free(quantization->params);
  quantization->params = nullptr;
  quantization->type = kTfLiteNoQuantization;
}

void TfLiteSparsityFree(TfLiteSparsity* sparsity) {
  if (sparsity == nullptr) return;
  TfLiteIntArrayFree(sparsity->traversal_order);
  sparsity->traversal_order = nullptr;
  TfLiteIntArrayFree(sparsity->block_map);
  sparsity->block_map = nullptr;
  if (sparsity->dim_metadata != nullptr) {
    for (int i = 0; i < sparsity->dim_metadata_size; ++i) {
      TfLiteDimensionMetadata* dim = &sparsity->dim_metadata[i];
      // Only CSR dimensions own their index arrays.
      if (dim->format == kTfLiteDimSparseCSR) {
        TfLiteIntArrayFree(dim->array_segments);
        dim->array_segments = nullptr;
        TfLiteIntArrayFree(dim->array_indices);
        dim->array_indices = nullptr;
      }
    }
    std::free(sparsity->dim_metadata);
    sparsity->dim_metadata = nullptr;
  }
  std::free(sparsity);
}

void TfLiteTensorFree(TfLiteTensor* t) {
  if (t == nullptr) return;
  TfLiteTensorDataFree(t);
  TfLiteIntArrayFree(t->dims);
  t->dims = nullptr;
  // dims_signature is const in the struct but owned by the tensor.
  TfLiteIntArrayFree(const_cast<TfLiteIntArray*>(t->dims_signature));
  t->dims_signature = nullptr;
  TfLiteQuantizationFree(&t->quantization);
  TfLiteSparsityFree(t->sparsity);
  t->sparsity = nullptr;
}

void TfLiteTensorReset(TfLiteType type, const char* name, TfLiteIntArray* dims,
                       TfLiteQuantizationParams quantization, char* buffer,
                       size_t size, TfLiteAllocationType allocation_type,
                       const void* allocation, bool is_variable,
                       TfLiteTensor* tensor) {
  if (tensor == nullptr) return;
  TfLiteTensorFree(tensor);
  tensor->type = type;
  tensor->name = name;
  tensor->dims = dims;
  tensor->params = quantization;
  tensor->data.raw = buffer;
  tensor->bytes = size;
  tensor->allocation_type = allocation_type;
  tensor->allocation = allocation;
  tensor->is_variable = is_variable;
  tensor->quantization.type = kTfLiteNoQuantization;
  tensor->quantization.params = nullptr;
}

TfLiteStatus TfLiteTensorCopy(const TfLiteTensor* src, TfLiteTensor* dst) {
  // Copying from/to nothing is a successful no-op (matches upstream).
  if (src == nullptr || dst == nullptr) return kTfLiteOk;
  if (src->bytes != dst->bytes) return kTfLiteError;
  if (src == dst) return kTfLiteOk;

  const bool variant = src->allocation_type == kTfLiteVariantObject;
  if (!variant && src->bytes > 0 &&
      (src->data.raw_const == nullptr || dst->data.raw == nullptr)) {
    return kTfLiteError;
  }

  if (src->dims != nullptr) {
    TfLiteIntArray* dims = TfLiteIntArrayCopy(src->dims);
    if (dims == nullptr) return kTfLiteError;
    TfLiteIntArrayFree(dst->dims);
    dst->dims = dims;
  } else {
    TfLiteIntArrayFree(dst->dims);
    dst->dims = nullptr;
  }
  dst->type = src->type;

  if (variant) {
    // Control-flow ops may copy into an output that was never set up as a
    // variant tensor; convert it first.
    if (dst->allocation_type != kTfLiteVariantObject) {
      TfLiteTensorDataFree(dst);
      dst->allocation_type = kTfLiteVariantObject;
    }
    auto* src_data = static_cast<const VariantData*>(src->data.data);
    auto* dst_data = static_cast<VariantData*>(dst->data.data);
    if (src_data == nullptr) {
      delete dst_data;
      dst->data.data = nullptr;
    } else {
      dst->data.data = src_data->CloneTo(dst_data);
    }
  } else if (src->bytes > 0) {
    std::memmove(dst->data.raw, src->data.raw_const, src->bytes);
  }

  dst->buffer_handle = src->buffer_handle;
  dst->data_is_stale = src->data_is_stale;
  dst->delegate = src->delegate;
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorResizeMaybeCopy(size_t num_bytes, TfLiteTensor* tensor,
                                         bool preserve_data) {
  if (tensor == nullptr) return kTfLiteError;
  // Only buffers the runtime malloc()ed can be resized here.
  if (!OwnsMallocBuffer(tensor)) return kTfLiteOk;
  if (num_bytes > std::numeric_limits<size_t>::max() - kTensorTailPadding) {
    return kTfLiteError;
  }
  const size_t alloc_bytes = num_bytes + kTensorTailPadding;

  if (tensor->data.data == nullptr) {
    void* fresh = std::malloc(alloc_bytes);
    if (fresh == nullptr) return kTfLiteError;
    tensor->data.data = fresh;
  } else if (num_bytes > tensor->bytes) {
    void* fresh;
    if (preserve_data) {
      fresh = std::realloc(tensor->data.data, alloc_bytes);
      // On failure realloc leaves the old block intact; keep it.
      if (fresh == nullptr) return kTfLiteError;
    } else {
      // Nothing to keep: free first so peak memory stays low.
      std::free(tensor->data.data);
      tensor->data.data = nullptr;
      fresh = std::malloc(alloc_bytes);
      if (fresh == nullptr) {
        tensor->bytes = 0;
        return kTfLiteError;
      }
    }
    tensor->data.data = fresh;
  }
  // Shrinking keeps the existing (larger) block.
  tensor->bytes = num_bytes;
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorRealloc(size_t num_bytes, TfLiteTensor* tensor) {
  return TfLiteTensorResizeMaybeCopy(num_bytes, tensor, /*preserve_data=*/true);
}

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

const char* TfLiteTypeGetName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType:
      return "NOTYPE";
    case kTfLiteFloat32:
      return "FLOAT32";
    case kTfLiteInt32:
      return "INT32";
    case kTfLiteUInt8:
      return "UINT8";
    case kTfLiteInt64:
      return "INT64";
    case kTfLiteString:
      return "STRING";
    case kTfLiteBool:
      return "BOOL";
    case kTfLiteInt16:
      return "INT16";
    case kTfLiteComplex64:
      return "COMPLEX64";
    case kTfLiteInt8:
      return "INT8";
    case kTfLiteFloat16:
      return "FLOAT16";
    case kTfLiteFloat64:
      return "FLOAT64";
    case kTfLiteComplex128:
      return "COMPLEX128";
    case kTfLiteUInt64:
      return "UINT64";
    case kTfLiteResource:
      return "RESOURCE";
    case kTfLiteVariant:
      return "VARIANT";
    case kTfLiteUInt32:
      return "UINT32";
    case kTfLiteUInt16:
      return "UINT16";
    case kTfLiteInt4:
      return "INT4";
    case kTfLiteBFloat16:
      return "BFLOAT16";
  }
  return "Unknown type";
}

// ---------------------------------------------------------------------------
// Delegates
// ---------------------------------------------------------------------------

TfLiteDelegate TfLiteDelegateCreate(void) {
  TfLiteDelegate delegate;
  std::memset(&delegate, 0, sizeof(delegate));
  return delegate;
}

TfLiteOpaqueDelegate* TfLiteOpaqueDelegateCreate(
    const TfLiteOpaqueDelegateBuilder* opaque_delegate_builder) {
  if (opaque_delegate_builder == nullptr) return nullptr;
  auto* delegate = static_cast<TfLiteDelegate*>(
      std::calloc(1, sizeof(TfLiteDelegate)));
  if (delegate == nullptr) return nullptr;
  auto* builder = static_cast<TfLiteOpaqueDelegateBuilder*>(
      std::malloc(sizeof(TfLiteOpaqueDelegateBuilder)));
  if (builder == nullptr) {
    std::free(delegate);
    return nullptr;
  }
  *builder = *opaque_delegate_builder;
  delegate->opaque_delegate_builder = builder;
  // In this (non stable-ABI) build TfLiteOpaqueDelegate is TfLiteDelegate.
  return delegate;
}

void TfLiteOpaqueDelegateDelete(TfLiteOpaqueDelegate* delegate) {
  if (delegate == nullptr) return;
  std::free(delegate->opaque_delegate_builder);
  std::free(delegate);
}

void* TfLiteOpaqueDelegateGetData(const TfLiteOpaqueDelegate* delegate) {
  if (delegate == nullptr) return nullptr;
  if (delegate->opaque_delegate_builder != nullptr) {
    return delegate->opaque_delegate_builder->data;
  }
  return delegate->data_;
}

// ---------------------------------------------------------------------------
// Buffer properties derived from the allocation type
// ---------------------------------------------------------------------------

TfLiteAllocationStrategy TfLiteTensorGetAllocationStrategy(
    const TfLiteTensor* t) {
  return BufferPropertiesOf(t).strategy;
}

TfLiteRunStability TfLiteTensorGetBufferAddressStability(
    const TfLiteTensor* t) {
  return BufferPropertiesOf(t).address;
}

TfLiteRunStability TfLiteTensorGetDataStability(const TfLiteTensor* t) {
  return BufferPropertiesOf(t).data;
}

TfLiteRunStep TfLiteTensorGetDataKnownStep(const TfLiteTensor* t) {
  return BufferPropertiesOf(t).data_known;
}

TfLiteRunStep TfLiteTensorGetShapeKnownStep(const TfLiteTensor* t) {
  return BufferPropertiesOf(t).shape_known;
}

}  // extern "C"
