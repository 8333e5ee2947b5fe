// An immutable, verified view over a .tflite flatbuffer.
//
// A model created from a file is mmap'd read-only; a model created from a
// caller buffer (FromBuffer) refers to that buffer, which the caller keeps
// alive for the model's lifetime (as upstream); FromBufferCopy copies the
// bytes into memory the model owns.
#ifndef TFLITE_C_SRC_CORE_MODEL_H_
#define TFLITE_C_SRC_CORE_MODEL_H_

#include <vector>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "schema_generated.h"  // generated from schema/schema.fbs at build time
#include "src/core/error_reporter.h"

namespace tflite_c {

class Model {
 public:
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Both return nullptr (after reporting why through `reporter`) when the
  // bytes are not a valid, self-consistent schema-v3 model.
  static std::unique_ptr<Model> FromFile(const char* path, ErrorReporter* reporter);
  static std::unique_ptr<Model> FromBuffer(const void* data, size_t size,
                                           ErrorReporter* reporter);
  // FromBuffer over a private copy of the bytes (released with the model).
  // Throws std::bad_alloc when the copy cannot be allocated.
  static std::unique_ptr<Model> FromBufferCopy(const void* data, size_t size,
                                               ErrorReporter* reporter);

  const tflite::Model* fb() const { return model_; }
  const uint8_t* bytes() const { return bytes_; }
  size_t size() const { return size_; }
  // Read-only descriptor of the model file, kept open for the model's
  // lifetime (it is handed out by TfLiteOpaqueContextGetNodeInitDataMmapInfo).
  // -1 for models created from a caller buffer. bytes() maps the file from
  // offset 0.
  int file_descriptor() const { return fd_; }

  // Contents of buffer `index`, resolving both inline vectors and the
  // large-model form (offset/size relative to the start of the file).
  // Returns false if the index is out of range; an empty buffer yields
  // data == nullptr, size == 0 and true.
  bool GetBuffer(uint32_t index, const uint8_t** data, size_t* size) const;

  // Read-only contents of a tensor, with upstream's notion of "constant":
  // true when the tensor refers to a buffer other than 0 whose data is
  // present (an inline vector, possibly empty, or a large-model range).
  // Returns false for read-write tensors (buffer 0, or a buffer with no
  // data), leaving *data == nullptr and *size == 0.
  bool GetTensorData(const tflite::Tensor& tensor, const uint8_t** data,
                     size_t* size) const;

  // Custom options of an operator: the inline vector, or for large models
  // the range large_custom_options_offset/size of the file. Empty options
  // yield nullptr / 0.
  void GetCustomOptions(const tflite::Operator& op, const uint8_t** data,
                        size_t* size) const;

 private:
  Model() = default;
  bool Verify(ErrorReporter* reporter);

  const uint8_t* bytes_ = nullptr;
  size_t size_ = 0;
  void* mmap_base_ = nullptr;  // non-null when we own an mmap of a file
  size_t mmap_size_ = 0;
  std::unique_ptr<uint8_t[]> owned_bytes_;  // FromBufferCopy's copy
  int fd_ = -1;  // open descriptor of the mapped file, or -1
  const tflite::Model* model_ = nullptr;
  // Buffers whose data the file places off the alignment of the elements
  // stored in them (today's converters align buffers to 16 bytes; older
  // ones, such as the TFLM tooling's, to 4; a hostile model to nothing),
  // copied once to aligned memory at load: kernels read constants as int32,
  // int64 or float, which misaligned is undefined behaviour (and on some
  // 32-bit ARM loads a bus error). Bytes are read in place, as upstream
  // reads every buffer, so an int8 model's weights are neither copied nor
  // counted twice. By buffer index.
  // One block holds all copies; aligned_at_[index] points into it (null:
  // the buffer is read in place). Both null when no buffer needs a copy.
  std::unique_ptr<std::max_align_t[]> aligned_block_;
  std::unique_ptr<const uint8_t*[]> aligned_at_;
  // `*data` replaced by buffer `index`'s aligned copy, if it has one.
  void UseAlignedCopy(uint32_t index, const uint8_t** data) const {
    if (aligned_at_ && aligned_at_[index] != nullptr) *data = aligned_at_[index];
  }
  bool AlignBuffers(ErrorReporter* reporter);
  // Where buffer `index` keeps its bytes (*data / *size: them, with the
  // aligned copy if any; nullptr / 0 for kMissing and kNone).
  enum class BufferSource { kMissing, kNone, kInline, kFileRange };
  BufferSource FindBuffer(uint32_t index, const uint8_t** data, size_t* size) const;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_MODEL_H_
