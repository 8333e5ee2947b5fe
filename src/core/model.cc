// Loading of .tflite flatbuffers: file mapping, caller buffers, and the
// flatbuffer-level verification that precedes the semantic checks of
// model_checker.cc.
#include "src/core/model.h"

#include <new>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>

#include "src/core/model_checker.h"

namespace tflite_c {
namespace {

// The flatbuffer part of a model must fit in what the flatbuffers verifier
// accepts. Larger models append their weights after the flatbuffer and
// address them with Buffer.offset/size, relative to the start of the file.
constexpr size_t kMaxFlatbufferBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;

// Smallest conceivable model: a root offset plus the file identifier.
constexpr size_t kMinModelBytes = 8;

// strerror_r has two incompatible signatures (XSI returns int, GNU returns
// char*); these overloads accept either.
inline const char* ErrnoText(int result, const char* buf) {
  return result == 0 ? buf : "unknown error";
}
inline const char* ErrnoText(const char* result, const char*) { return result; }

}  // namespace

Model::~Model() {
  if (mmap_base_ != nullptr) munmap(mmap_base_, mmap_size_);
  if (fd_ >= 0) close(fd_);
}

std::unique_ptr<Model> Model::FromFile(const char* path, ErrorReporter* reporter) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  if (path == nullptr) {
    reporter->Reportf("Model file path is null.");
    return nullptr;
  }
  char errbuf[128] = {0};
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    reporter->Reportf("Could not open '%s': %s.", path,
                      ErrnoText(strerror_r(err, errbuf, sizeof(errbuf)), errbuf));
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    reporter->Reportf("Could not stat '%s': %s.", path,
                      ErrnoText(strerror_r(err, errbuf, sizeof(errbuf)), errbuf));
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    reporter->Reportf("'%s' is not a regular file.", path);
    return nullptr;
  }
  if (st.st_size <= 0) {
    close(fd);
    reporter->Reportf("Model file '%s' is empty.", path);
    return nullptr;
  }
  if (static_cast<uint64_t>(st.st_size) > SIZE_MAX) {
    close(fd);
    reporter->Reportf("Model file '%s' is too large to map.", path);
    return nullptr;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* base = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int map_errno = errno;
  if (base == MAP_FAILED) {
    close(fd);
    reporter->Reportf("Failed to mmap '%s': %s.", path,
                      ErrnoText(strerror_r(map_errno, errbuf, sizeof(errbuf)), errbuf));
    return nullptr;
  }
  std::unique_ptr<Model> model(new Model());
  model->mmap_base_ = base;
  model->mmap_size_ = size;
  // The mapping would stay valid without it, but delegates may ask for the
  // file descriptor (custom init data location), as upstream keeps it open.
  model->fd_ = fd;
  model->bytes_ = static_cast<const uint8_t*>(base);
  model->size_ = size;
  if (!model->Verify(reporter)) return nullptr;  // the destructor unmaps
  return model;
}

std::unique_ptr<Model> Model::FromBuffer(const void* data, size_t size, ErrorReporter* reporter) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  if (data == nullptr || size == 0) {
    reporter->Reportf("The model allocation is null/empty.");
    return nullptr;
  }
  if (reinterpret_cast<uintptr_t>(data) % 4 != 0) {
    // flatbuffers reads 4-byte offsets from the buffer. Upstream refuses
    // such a buffer on 32-bit ARM, where the loads fault, and reads it
    // misaligned elsewhere; we refuse it where upstream does and otherwise
    // work on an aligned copy.
#if defined(__arm__)
    reporter->Reportf("The supplied buffer is not 4-bytes aligned");
    return nullptr;
#else
    return FromBufferCopy(data, size, reporter);
#endif
  }
  std::unique_ptr<Model> model(new Model());
  model->bytes_ = static_cast<const uint8_t*>(data);
  model->size_ = size;
  if (!model->Verify(reporter)) return nullptr;
  return model;
}

std::unique_ptr<Model> Model::FromBufferCopy(const void* data, size_t size,
                                             ErrorReporter* reporter) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  if (data == nullptr || size == 0) {
    reporter->Reportf("The model allocation is null/empty.");
    return nullptr;
  }
  std::unique_ptr<Model> model(new Model());
  model->owned_bytes_.reset(new uint8_t[size]);
  std::memcpy(model->owned_bytes_.get(), data, size);
  model->bytes_ = model->owned_bytes_.get();
  model->size_ = size;
  if (!model->Verify(reporter)) return nullptr;
  return model;
}

namespace {

// Alignment the kernels' typed reads of a constant of `type` need: that of
// its scalar element (complex numbers are pairs of floats or doubles; string
// buffers start with int32 offsets). Types whose layout we do not read
// element-wise get a full max_align_t.
size_t ElementAlignment(tflite::TensorType type) {
  size_t element_size = 0;
  switch (StorageOf(type, &element_size)) {
    case Storage::kFixed: return std::min<size_t>(element_size, 8);
    case Storage::kPacked4Bit: return 1;
    default: return type == tflite::TensorType_STRING ? 4 : alignof(std::max_align_t);
  }
}

}  // namespace

bool Model::AlignBuffers(ErrorReporter* reporter) {
  const auto* buffers = model_->buffers();
  const uint32_t count = buffers ? buffers->size() : 0;
  if (count <= 1) return true;
  constexpr size_t kAlign = alignof(std::max_align_t);
  // What each buffer's readers need: the widest element of the tensors
  // stored in it. A buffer no tensor uses (metadata) is read as bytes.
  std::unique_ptr<uint8_t[]> need(new (std::nothrow) uint8_t[count]());
  if (need == nullptr) {
    reporter->Reportf("out of memory");
    return false;
  }
  if (const auto* subgraphs = model_->subgraphs()) {
    for (const tflite::SubGraph* subgraph : *subgraphs) {
      if (subgraph == nullptr || subgraph->tensors() == nullptr) continue;
      for (const tflite::Tensor* tensor : *subgraph->tensors()) {
        if (tensor == nullptr || tensor->buffer() == 0 || tensor->buffer() >= count) continue;
        const size_t align = ElementAlignment(tensor->type());
        uint8_t& slot = need[tensor->buffer()];
        if (align > slot) slot = static_cast<uint8_t>(align);
      }
    }
  }
  // Pass 0 sizes the block, pass 1 fills it. No copy exists during either,
  // so GetBuffer gives the file's bytes.
  for (int pass = 0; pass < 2; ++pass) {
    size_t used = 0;
    for (uint32_t index = 1; index < count; ++index) {
      const uint8_t* data = nullptr;
      size_t size = 0;
      if (need[index] <= 1 || !GetBuffer(index, &data, &size) || size == 0 ||
          reinterpret_cast<uintptr_t>(data) % need[index] == 0)
        continue;
      if (pass == 1) {
        uint8_t* copy = reinterpret_cast<uint8_t*>(aligned_block_.get()) + used;
        std::memcpy(copy, data, size);
        aligned_at_[index] = copy;
      }
      used += (size + kAlign - 1) / kAlign * kAlign;
    }
    if (pass == 0) {
      if (used == 0) return true;
      aligned_block_.reset(new (std::nothrow) std::max_align_t[used / kAlign]);
      const uint8_t** at = new (std::nothrow) const uint8_t*[count]();
      if (aligned_block_ == nullptr || at == nullptr) {
        delete[] at;
        reporter->Reportf("out of memory");
        return false;
      }
      aligned_at_.reset(at);
    }
  }
  return true;
}

bool Model::Verify(ErrorReporter* reporter) {
  if (size_ < kMinModelBytes) {
    reporter->Reportf(
        "Model provided has %zu bytes; at least %zu are needed to hold the root "
        "offset and the identifier.",
        size_, kMinModelBytes);
    return false;
  }
  if (!tflite::ModelBufferHasIdentifier(bytes_)) {
    const uint8_t* id = bytes_ + sizeof(flatbuffers::uoffset_t);
    char shown[4 * 4 + 1] = {0};
    size_t n = 0;
    for (int i = 0; i < 4; ++i) {
      const uint8_t c = id[i];
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        shown[n++] = static_cast<char>(c);
      } else {
        static const char kHex[] = "0123456789abcdef";
        shown[n++] = '\\';
        shown[n++] = 'x';
        shown[n++] = kHex[c >> 4];
        shown[n++] = kHex[c & 15];
      }
    }
    reporter->Reportf("Model provided has model identifier '%s', should be '%s'.", shown,
                      tflite::ModelIdentifier());
    return false;
  }
  // Only the flatbuffer part goes through the verifier; weights of large
  // models lie beyond it and are range-checked by CheckModelSemantics.
  flatbuffers::Verifier verifier(bytes_, std::min(size_, kMaxFlatbufferBytes));
  if (!tflite::VerifyModelBuffer(verifier)) {
    reporter->Reportf("The model is not a valid Flatbuffer buffer.");
    return false;
  }
  model_ = tflite::GetModel(bytes_);
  if (!CheckModelSemantics(*this, reporter) || !AlignBuffers(reporter)) {
    model_ = nullptr;
    return false;
  }
  return true;
}

Model::BufferSource Model::FindBuffer(uint32_t index, const uint8_t** data,
                                     size_t* size) const {
  *data = nullptr;
  *size = 0;
  const auto* buffers = model_ ? model_->buffers() : nullptr;
  if (buffers == nullptr || index >= buffers->size()) return BufferSource::kMissing;
  const tflite::Buffer& buffer = *buffers->Get(index);
  BufferSource source = BufferSource::kNone;
  if (const auto* inline_data = buffer.data()) {
    *data = inline_data->data();
    *size = inline_data->size();
    source = BufferSource::kInline;
  } else if (HasExternalRange(buffer) && RangeInside(buffer.offset(), buffer.size(), size_)) {
    *data = bytes_ + buffer.offset();
    *size = static_cast<size_t>(buffer.size());
    source = BufferSource::kFileRange;
  }
  UseAlignedCopy(index, data);
  return source;
}

bool Model::GetBuffer(uint32_t index, const uint8_t** data, size_t* size) const {
  if (FindBuffer(index, data, size) == BufferSource::kMissing) return false;
  if (*size == 0) *data = nullptr;
  return true;
}

bool Model::GetTensorData(const tflite::Tensor& tensor, const uint8_t** data, size_t* size) const {
  const BufferSource source = FindBuffer(tensor.buffer(), data, size);
  if (tensor.buffer() != 0 &&
      (source == BufferSource::kInline || source == BufferSource::kFileRange)) {
    return true;
  }
  *data = nullptr;
  *size = 0;
  return false;
}

void Model::GetCustomOptions(const tflite::Operator& op, const uint8_t** data, size_t* size) const {
  *data = nullptr;
  *size = 0;
  if (const auto* options = op.custom_options()) {
    if (options->size() != 0) {
      *data = options->data();
      *size = options->size();
    }
    return;
  }
  if (op.large_custom_options_offset() > 1 && op.large_custom_options_size() != 0 &&
      RangeInside(op.large_custom_options_offset(), op.large_custom_options_size(), size_)) {
    *data = bytes_ + op.large_custom_options_offset();
    *size = static_cast<size_t>(op.large_custom_options_size());
  }
}

}  // namespace tflite_c
