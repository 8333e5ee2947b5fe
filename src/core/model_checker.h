// Semantic validation of a .tflite model whose flatbuffer structure has
// already been verified (see Model::Verify): index ranges, shapes, constant
// buffer sizes, quantization and sparsity parameters, subgraph references.
#ifndef TFLITE_C_SRC_CORE_MODEL_CHECKER_H_
#define TFLITE_C_SRC_CORE_MODEL_CHECKER_H_

#include <cstddef>
#include <cstdint>

#include "schema_generated.h"
#include "src/core/error_reporter.h"

namespace tflite_c {

class Model;

// Tensor index of an omitted optional operator input.
constexpr int32_t kOptionalTensor = -1;

// True when [offset, offset + size) lies inside [0, total), written so that
// no addition can overflow.
inline bool RangeInside(uint64_t offset, uint64_t size, size_t total) {
  return size <= total && offset <= total - size;
}

// Whether `buffer` keeps its data outside the flatbuffer (large-model form).
// Offsets 0 and 1 mean "no such data": the converter writes 1 as a
// placeholder.
inline bool HasExternalRange(const tflite::Buffer& buffer) {
  return buffer.data() == nullptr && buffer.offset() > 1;
}

// How the elements of a tensor type are stored in a constant buffer.
enum class Storage {
  kFixed,        // element_size bytes per element
  kPacked4Bit,   // two elements per byte, rounded up
  kVariable,     // string, resource, variant: size not implied by the shape
  kUnsupported,  // not representable as a TfLiteType of the 2.19 ABI
};

// The storage of `type`; *element_size is set for kFixed (0 otherwise).
Storage StorageOf(tflite::TensorType type, size_t* element_size);

// Reports the first problem found through `reporter` and returns false, or
// returns true when everything downstream may index the model unchecked.
bool CheckModelSemantics(const Model& model, ErrorReporter* reporter);

// The part of CheckModelSemantics that covers tensor `tensor` of subgraph
// `subgraph` (both in range): type, shape, quantization, and the size and
// layout of constant data (tensor_checker.cc).
bool CheckTensor(const Model& model, uint32_t subgraph, uint32_t tensor, ErrorReporter* reporter);

// Whether `index` is a valid position in a list of `count` entries.
inline bool IndexInRange(int64_t index, size_t count) {
  return index >= 0 && static_cast<uint64_t>(index) < count;
}

// Reports through `reporter` and returns false, so that a check reads
// `return Reject(reporter, "...", ...);`.
bool Reject(ErrorReporter* reporter, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_MODEL_CHECKER_H_
