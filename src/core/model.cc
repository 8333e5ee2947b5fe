// Loading and validation of .tflite flatbuffers.
//
// Validation happens once, here, so that everything downstream (interpreter
// builder, kernels, C API) may index the flatbuffer without re-checking:
// after Model::From* succeeds every index stored in the model is in range,
// every constant buffer is large enough for its tensor's shape and every
// element count fits in an int.
//
// Upstream splits these checks between FlatBufferModel (flatbuffer
// structure only) and InterpreterBuilder (everything semantic); we reject a
// bad model at creation instead, with the same wording where upstream has a
// message.
#include "src/core/model.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tflite_c {
namespace {

constexpr uint32_t kSupportedSchemaVersion = 3;
constexpr int32_t kOptionalTensor = -1;

// The flatbuffer part of a model must fit in what the flatbuffers verifier
// accepts. Larger models append their weights after the flatbuffer and
// address them with Buffer.offset/size, relative to the start of the file.
constexpr size_t kMaxFlatbufferBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;

// Smallest conceivable model: a root offset plus the file identifier.
constexpr size_t kMinModelBytes = 8;

bool IndexInRange(int64_t index, size_t count) {
  return index >= 0 && static_cast<uint64_t>(index) < count;
}

// True when [offset, offset + size) lies inside [0, total), written so that
// no addition can overflow.
bool RangeInside(uint64_t offset, uint64_t size, size_t total) {
  return size <= total && offset <= total - size;
}

// Buffer.offset values 0 and 1 mean "no out-of-flatbuffer data" (the
// converter uses 1 as a placeholder while writing).
bool HasExternalRange(const tflite::Buffer& buffer) {
  return buffer.data() == nullptr && buffer.offset() > 1;
}

// strerror_r has two incompatible signatures (XSI returns int, GNU returns
// char*); these overloads accept either.
inline const char* ErrnoText(int result, const char* buf) {
  return result == 0 ? buf : "unknown error";
}
inline const char* ErrnoText(const char* result, const char*) { return result; }

// How the elements of a tensor type are stored in a constant buffer.
enum class Storage {
  kFixed,        // element_size bytes per element
  kPacked4Bit,   // two elements per byte, rounded up
  kVariable,     // string, resource, variant: size not implied by the shape
  kUnsupported,  // not representable as a TfLiteType of the 2.19 ABI
};

Storage StorageOf(tflite::TensorType type, size_t* element_size) {
  *element_size = 0;
  switch (type) {
    case tflite::TensorType_BOOL:
    case tflite::TensorType_INT8:
    case tflite::TensorType_UINT8:
      *element_size = 1;
      return Storage::kFixed;
    case tflite::TensorType_FLOAT16:
    case tflite::TensorType_BFLOAT16:
    case tflite::TensorType_INT16:
    case tflite::TensorType_UINT16:
      *element_size = 2;
      return Storage::kFixed;
    case tflite::TensorType_FLOAT32:
    case tflite::TensorType_INT32:
    case tflite::TensorType_UINT32:
      *element_size = 4;
      return Storage::kFixed;
    case tflite::TensorType_FLOAT64:
    case tflite::TensorType_INT64:
    case tflite::TensorType_UINT64:
    case tflite::TensorType_COMPLEX64:
      *element_size = 8;
      return Storage::kFixed;
    case tflite::TensorType_COMPLEX128:
      *element_size = 16;
      return Storage::kFixed;
    case tflite::TensorType_INT4:
      return Storage::kPacked4Bit;
    case tflite::TensorType_STRING:
    case tflite::TensorType_RESOURCE:
    case tflite::TensorType_VARIANT:
      return Storage::kVariable;
    default:
      return Storage::kUnsupported;
  }
}

// Bytes needed to store `count` elements; count <= INT_MAX so nothing here
// can overflow a 64-bit size_t (and on 32-bit hosts the caller compares
// against a real buffer size, which is smaller still).
uint64_t StorageBytes(Storage storage, size_t element_size, uint64_t count) {
  if (storage == Storage::kPacked4Bit) return (count + 1) / 2;
  return count * element_size;
}

// Reads entry `i` of a sparse index vector (one of three integer widths).
// The caller has checked that the union holds a vector of known type.
int64_t SparseIndexAt(tflite::SparseIndexVector type, const void* table, uint32_t i) {
  switch (type) {
    case tflite::SparseIndexVector_Int32Vector:
      return static_cast<const tflite::Int32Vector*>(table)->values()->Get(i);
    case tflite::SparseIndexVector_Uint16Vector:
      return static_cast<const tflite::Uint16Vector*>(table)->values()->Get(i);
    case tflite::SparseIndexVector_Uint8Vector:
      return static_cast<const tflite::Uint8Vector*>(table)->values()->Get(i);
    default:
      return -1;
  }
}

// Length of a sparse index vector, or -1 when the union is empty, of an
// unknown type or lacks its values.
int64_t SparseIndexSize(tflite::SparseIndexVector type, const void* table) {
  if (table == nullptr) return -1;
  switch (type) {
    case tflite::SparseIndexVector_Int32Vector: {
      const auto* v = static_cast<const tflite::Int32Vector*>(table)->values();
      return v ? static_cast<int64_t>(v->size()) : -1;
    }
    case tflite::SparseIndexVector_Uint16Vector: {
      const auto* v = static_cast<const tflite::Uint16Vector*>(table)->values();
      return v ? static_cast<int64_t>(v->size()) : -1;
    }
    case tflite::SparseIndexVector_Uint8Vector: {
      const auto* v = static_cast<const tflite::Uint8Vector*>(table)->values();
      return v ? static_cast<int64_t>(v->size()) : -1;
    }
    default:
      return -1;
  }
}

// Semantic validation of an already flatbuffer-verified model. Every check
// reports one message naming the offending subgraph/tensor/operator.
class ModelChecker {
 public:
  ModelChecker(const Model& model, ErrorReporter* reporter)
      : model_(model), fb_(*model.fb()), reporter_(reporter) {}

  bool Check() {
    if (fb_.version() != kSupportedSchemaVersion) {
      return Fail("Model provided is schema version %u not equal to supported version %u.",
                  fb_.version(), kSupportedSchemaVersion);
    }
    if (fb_.subgraphs() == nullptr || fb_.subgraphs()->size() == 0) {
      return Fail("No subgraph in the model.");
    }
    if (fb_.buffers() == nullptr) return Fail("No buffers in the model.");
    num_subgraphs_ = fb_.subgraphs()->size();
    if (!CheckBuffers() || !CheckOperatorCodes()) return false;
    for (uint32_t i = 0; i < num_subgraphs_; ++i) {
      if (!CheckSubgraph(i)) return false;
    }
    return CheckSignatures();
  }

 private:
  bool Fail(const char* format, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
  {
    va_list args;
    va_start(args, format);
    reporter_->Report(format, args);
    va_end(args);
    return false;
  }

  bool CheckBuffers() {
    const auto& buffers = *fb_.buffers();
    for (uint32_t i = 0; i < buffers.size(); ++i) {
      const tflite::Buffer& buffer = *buffers.Get(i);
      if (HasExternalRange(buffer) &&
          !RangeInside(buffer.offset(), buffer.size(), model_.size())) {
        return Fail(
            "Buffer %u specifies an out of range offset: %llu bytes at offset %llu, "
            "but the model file has %zu bytes.",
            i, static_cast<unsigned long long>(buffer.size()),
            static_cast<unsigned long long>(buffer.offset()), model_.size());
      }
    }
    return true;
  }

  bool CheckOperatorCodes() {
    const auto* codes = fb_.operator_codes();
    if (codes == nullptr) return true;
    for (uint32_t i = 0; i < codes->size(); ++i) {
      const tflite::OperatorCode& code = *codes->Get(i);
      // Old models carry only the int8 field; newer ones set it to a
      // placeholder (127) and store the real code in builtin_code.
      const int32_t builtin =
          std::max<int32_t>(code.deprecated_builtin_code(), code.builtin_code());
      if (builtin < tflite::BuiltinOperator_MIN || builtin > tflite::BuiltinOperator_MAX) {
        return Fail("Operator code %u has builtin code %d, which is out of range [%d, %d].", i,
                    builtin, static_cast<int>(tflite::BuiltinOperator_MIN),
                    static_cast<int>(tflite::BuiltinOperator_MAX));
      }
      if (builtin == tflite::BuiltinOperator_CUSTOM && code.custom_code() == nullptr) {
        return Fail("Operator code %u: operator with CUSTOM builtin_code has no custom_code.", i);
      }
    }
    return true;
  }

  bool CheckSubgraph(uint32_t sg) {
    const tflite::SubGraph& subgraph = *fb_.subgraphs()->Get(sg);
    if (subgraph.tensors() == nullptr) {
      return Fail("Did not get tensors in subgraph %u.", sg);
    }
    const auto& tensors = *subgraph.tensors();
    const size_t num_tensors = tensors.size();
    for (uint32_t t = 0; t < num_tensors; ++t) {
      if (!CheckTensor(sg, t, *tensors.Get(t), num_tensors)) return false;
    }
    if (!CheckIndexList(sg, "input", subgraph.inputs(), num_tensors) ||
        !CheckIndexList(sg, "output", subgraph.outputs(), num_tensors)) {
      return false;
    }
    if (const auto* ops = subgraph.operators()) {
      for (uint32_t o = 0; o < ops->size(); ++o) {
        if (!CheckOperator(sg, o, *ops->Get(o), num_tensors)) return false;
      }
    }
    return true;
  }

  bool CheckIndexList(uint32_t sg, const char* what, const flatbuffers::Vector<int32_t>* list,
                      size_t num_tensors) {
    if (list == nullptr) return true;
    for (uint32_t i = 0; i < list->size(); ++i) {
      const int32_t index = list->Get(i);
      if (!IndexInRange(index, num_tensors)) {
        return Fail("Subgraph %u %s %u refers to tensor %d; the subgraph has %zu tensors.", sg,
                    what, i, index, num_tensors);
      }
    }
    return true;
  }

  // ---- tensors ---------------------------------------------------------------

  bool CheckTensor(uint32_t sg, uint32_t t, const tflite::Tensor& tensor, size_t num_tensors) {
    size_t element_size = 0;
    const Storage storage = StorageOf(tensor.type(), &element_size);
    if (storage == Storage::kUnsupported) {
      return Fail("Subgraph %u tensor %u has unsupported data type %d.", sg, t,
                  static_cast<int>(tensor.type()));
    }
    if (tensor.buffer() >= fb_.buffers()->size() && tensor.buffer() != 0) {
      return Fail("Subgraph %u tensor %u specifies out of range buffer %u (only %u buffers).", sg,
                  t, tensor.buffer(), fb_.buffers()->size());
    }

    uint64_t num_elements = 0;
    if (!CheckShape(sg, t, tensor, &num_elements)) return false;
    if (!CheckQuantization(sg, t, tensor, num_tensors)) return false;

    const uint8_t* data = nullptr;
    size_t size = 0;
    if (!model_.GetTensorData(tensor, &data, &size)) return true;  // read-write tensor

    if (tensor.is_variable()) {
      return Fail("Subgraph %u tensor %u is a variable tensor with a constant buffer (%u).", sg, t,
                  tensor.buffer());
    }
    if (storage == Storage::kVariable) {
      if (tensor.type() != tflite::TensorType_STRING) return true;
      return CheckStringBuffer(sg, t, tensor, data, size, num_elements);
    }
    if (tensor.sparsity() != nullptr) {
      if (!CheckSparsity(sg, t, tensor, &num_elements)) return false;
    }
    const uint64_t required = StorageBytes(storage, element_size, num_elements);
    if (required > size) {
      return Fail(
          "Subgraph %u tensor %u needs %llu bytes for its %s but buffer %u holds %zu bytes.", sg,
          t, static_cast<unsigned long long>(required),
          tensor.sparsity() ? "sparse values" : "shape", tensor.buffer(), size);
    }
    return true;
  }

  // Dimensions must be non-negative (unknown sizes live in shape_signature,
  // as -1) and the element count must fit in an int, the type TfLiteTensor
  // sizes are computed in. Dimensions 0 and 1 are left out of the overflow
  // product so that e.g. [0, 2^20, 2^20] is still rejected.
  bool CheckShape(uint32_t sg, uint32_t t, const tflite::Tensor& tensor, uint64_t* num_elements) {
    uint64_t product = 1;
    bool has_zero = false;
    if (const auto* shape = tensor.shape()) {
      for (uint32_t d = 0; d < shape->size(); ++d) {
        const int32_t dim = shape->Get(d);
        if (dim < 0) {
          return Fail("Subgraph %u tensor %u has negative dimension %d at index %u.", sg, t, dim,
                      d);
        }
        if (dim == 0) has_zero = true;
        if (dim > 1) {
          product *= static_cast<uint64_t>(dim);
          if (product > static_cast<uint64_t>(INT_MAX)) {
            return Fail("Subgraph %u tensor %u: number of elements overflows.", sg, t);
          }
        }
      }
    }
    if (const auto* signature = tensor.shape_signature()) {
      for (uint32_t d = 0; d < signature->size(); ++d) {
        if (signature->Get(d) < -1) {
          return Fail("Subgraph %u tensor %u has invalid shape_signature entry %d at index %u.",
                      sg, t, signature->Get(d), d);
        }
      }
    }
    *num_elements = has_zero ? 0 : product;
    return true;
  }

  // Mirrors what the interpreter needs to build a TfLiteQuantization:
  // affine parameters with matching scale/zero_point counts and a valid
  // quantized_dimension; blockwise and multi-axis details whose tensor
  // references exist.
  bool CheckQuantization(uint32_t sg, uint32_t t, const tflite::Tensor& tensor,
                         size_t num_tensors) {
    const tflite::QuantizationParameters* q = tensor.quantization();
    if (q == nullptr) return true;
    const size_t rank = tensor.shape() ? tensor.shape()->size() : 0;

    switch (q->details_type()) {
      case tflite::QuantizationDetails_MultiAxisQuantization:
        return CheckMultiAxis(sg, t, q->details_as_MultiAxisQuantization(), rank, num_tensors);
      case tflite::QuantizationDetails_BlockwiseQuantization: {
        const auto* blockwise = q->details_as_BlockwiseQuantization();
        if (blockwise == nullptr) {
          return Fail("Subgraph %u tensor %u: blockwise quantization details are missing.", sg, t);
        }
        return CheckQuantTensorRef(sg, t, "blockwise scales", blockwise->scales(), false,
                                   num_tensors) &&
               CheckQuantTensorRef(sg, t, "blockwise zero_points", blockwise->zero_points(), true,
                                   num_tensors);
      }
      default:
        break;  // affine (custom details carry affine parameters too)
    }

    const auto* scale = q->scale();
    if (scale == nullptr || scale->size() == 0) return true;
    const auto* zero_point = q->zero_point();
    if (zero_point == nullptr) {
      return Fail("Subgraph %u tensor %u: quantization has non-null scale but null zero_point.",
                  sg, t);
    }
    if (zero_point->size() != scale->size()) {
      return Fail(
          "Subgraph %u tensor %u: quantization has %u zero_point values and %u scale values; "
          "they must be the same number.",
          sg, t, zero_point->size(), scale->size());
    }
    const int32_t qdim = q->quantized_dimension();
    if (qdim < 0 || (rank > 0 && static_cast<size_t>(qdim) >= rank)) {
      return Fail("Subgraph %u tensor %u: quantized_dimension must be in range [0, %zu). Was %d.",
                  sg, t, rank, qdim);
    }
    if (scale->size() != 1 && rank > 0) {
      const int32_t channels = tensor.shape()->Get(static_cast<uint32_t>(qdim));
      if (scale->size() != static_cast<uint32_t>(channels)) {
        return Fail(
            "Subgraph %u tensor %u: num_scales must be 1 for per-layer quantization, or %d for "
            "per-axis quantization, but got %u.",
            sg, t, channels, scale->size());
      }
    }
    return true;
  }

  bool CheckMultiAxis(uint32_t sg, uint32_t t, const tflite::MultiAxisQuantization* details,
                      size_t rank, size_t num_tensors) {
    if (details == nullptr || details->quantized_dimensions() == nullptr) {
      return Fail("Subgraph %u tensor %u: invalid MultiAxisQuantization parameters.", sg, t);
    }
    if (!CheckQuantTensorRef(sg, t, "MultiAxisQuantization scales", details->scales(), false,
                             num_tensors) ||
        !CheckQuantTensorRef(sg, t, "MultiAxisQuantization zero_points", details->zero_points(),
                             true, num_tensors)) {
      return false;
    }
    if (details->block_size() < 0) {
      return Fail("Subgraph %u tensor %u: MultiAxisQuantization block_size must be non-negative. "
                  "Was %d.",
                  sg, t, details->block_size());
    }
    const auto& dims = *details->quantized_dimensions();
    if (dims.size() == 0) {
      return Fail("Subgraph %u tensor %u: MultiAxisQuantization must have at least one quantized "
                  "dimension.",
                  sg, t);
    }
    for (uint32_t i = 0; i < dims.size(); ++i) {
      const int32_t d = dims.Get(i);
      if (d < 0 || (rank > 0 && static_cast<size_t>(d) >= rank)) {
        return Fail("Subgraph %u tensor %u: MultiAxisQuantization quantized_dimensions must be in "
                    "range [0, %zu). Value %d at index %u is invalid.",
                    sg, t, rank, d, i);
      }
    }
    return true;
  }

  bool CheckQuantTensorRef(uint32_t sg, uint32_t t, const char* what, int32_t index,
                           bool optional, size_t num_tensors) {
    if (optional && index == kOptionalTensor) return true;
    if (!IndexInRange(index, num_tensors)) {
      return Fail("Subgraph %u tensor %u: %s tensor index must be in range [0, %zu)%s. Was %d.",
                  sg, t, what, num_tensors, optional ? ", or -1 if optional" : "", index);
    }
    return true;
  }

  // A string constant is an int32 count N, N + 1 int32 offsets (relative to
  // the buffer start, non-decreasing, the first one right after the header)
  // and the bytes they delimit. Kernels index it without further checks.
  bool CheckStringBuffer(uint32_t sg, uint32_t t, const tflite::Tensor& tensor,
                         const uint8_t* data, size_t size, uint64_t num_elements) {
    (void)tensor;
    auto read32 = [data](uint64_t at) {
      uint32_t v;
      std::memcpy(&v, data + at, sizeof(v));
      return v;
    };
    if (size < 2 * sizeof(uint32_t)) {
      return Fail("Subgraph %u tensor %u: string buffer of %zu bytes is too small.", sg, t, size);
    }
    const uint64_t count = read32(0);
    const uint64_t header = (count + 2) * sizeof(uint32_t);
    if (header > size) {
      return Fail("Subgraph %u tensor %u: string buffer declares %llu strings but holds only %zu "
                  "bytes.",
                  sg, t, static_cast<unsigned long long>(count), size);
    }
    if (count < num_elements) {
      return Fail("Subgraph %u tensor %u: string buffer holds %llu strings, the shape needs %llu.",
                  sg, t, static_cast<unsigned long long>(count),
                  static_cast<unsigned long long>(num_elements));
    }
    uint64_t previous = read32(sizeof(uint32_t));
    if (previous != header) {
      return Fail("Subgraph %u tensor %u: string buffer's first offset must be %llu, was %llu.", sg,
                  t, static_cast<unsigned long long>(header),
                  static_cast<unsigned long long>(previous));
    }
    for (uint64_t i = 1; i <= count; ++i) {
      const uint64_t offset = read32((i + 1) * sizeof(uint32_t));
      if (offset < previous || offset > size) {
        return Fail("Subgraph %u tensor %u: string buffer offset %llu is invalid.", sg, t,
                    static_cast<unsigned long long>(i));
      }
      previous = offset;
    }
    return true;
  }

  // Sparse constants (TACO format): traversal_order lists the original
  // dimensions followed by block dimensions, dim_metadata describes each
  // level as dense or CSR. Counts the stored values into *num_values.
  bool CheckSparsity(uint32_t sg, uint32_t t, const tflite::Tensor& tensor, uint64_t* num_values) {
    const tflite::SparsityParameters& sparsity = *tensor.sparsity();
    const auto* order = sparsity.traversal_order();
    const auto* levels = sparsity.dim_metadata();
    if (order == nullptr || levels == nullptr) {
      return Fail("Subgraph %u tensor %u has invalid sparsity parameters: traversal_order and "
                  "dim_metadata are required.",
                  sg, t);
    }
    const uint32_t rank = tensor.shape() ? tensor.shape()->size() : 0;
    const uint32_t total = order->size();
    const uint32_t block_rank = sparsity.block_map() ? sparsity.block_map()->size() : 0;
    if (levels->size() != total || total < rank || total - rank != block_rank) {
      return Fail("Subgraph %u tensor %u has invalid sparsity parameters: %u traversal levels, %u "
                  "dim_metadata entries, rank %u and %u block dimensions do not match.",
                  sg, t, total, levels->size(), rank, block_rank);
    }
    // The first `rank` levels permute the original dimensions, the rest the
    // block dimensions.
    std::vector<bool> seen(total, false);
    for (uint32_t i = 0; i < total; ++i) {
      const int32_t d = order->Get(i);
      const bool ok = i < rank ? IndexInRange(d, rank)
                               : (d >= static_cast<int32_t>(rank) && IndexInRange(d, total));
      if (!ok || seen[d]) {
        return Fail("Subgraph %u tensor %u has invalid sparsity parameters: traversal_order[%u] = "
                    "%d.",
                    sg, t, i, d);
      }
      seen[d] = true;
    }
    // Size of every expanded dimension: original dims divided by the block
    // size of the block dimension mapped onto them.
    std::vector<int64_t> extent(total, 0);
    for (uint32_t d = 0; d < rank; ++d) extent[d] = tensor.shape()->Get(d);
    for (uint32_t b = 0; b < block_rank; ++b) {
      const int32_t mapped = sparsity.block_map()->Get(b);
      const int32_t block_size = levels->Get(rank + b)->dense_size();
      if (!IndexInRange(mapped, rank) || block_size <= 0 ||
          levels->Get(rank + b)->format() != tflite::DimensionType_DENSE) {
        return Fail("Subgraph %u tensor %u has invalid sparsity parameters: block dimension %u.",
                    sg, t, b);
      }
      extent[order->Get(rank + b)] = block_size;
      extent[mapped] /= block_size;
    }
    uint64_t count = 1;
    for (uint32_t i = 0; i < total; ++i) {
      const tflite::DimensionMetadata& level = *levels->Get(i);
      const int64_t dim_extent = extent[order->Get(i)];
      if (level.format() == tflite::DimensionType_DENSE) {
        if (level.dense_size() != dim_extent) {
          return Fail("Subgraph %u tensor %u has invalid sparsity parameters: level %u dense_size "
                      "%d, expected %lld.",
                      sg, t, i, level.dense_size(), static_cast<long long>(dim_extent));
        }
        count *= static_cast<uint64_t>(dim_extent);
        if (count > static_cast<uint64_t>(INT_MAX)) {
          return Fail("Subgraph %u tensor %u: number of sparse values overflows.", sg, t);
        }
        continue;
      }
      if (level.format() != tflite::DimensionType_SPARSE_CSR ||
          !CheckCsrLevel(level, count, dim_extent)) {
        return Fail("Subgraph %u tensor %u has invalid sparsity parameters: level %u (format %d).",
                    sg, t, i, static_cast<int>(level.format()));
      }
      count = static_cast<uint64_t>(SparseIndexSize(level.array_indices_type(),
                                                    level.array_indices()));
    }
    *num_values = count;
    return true;
  }

  // A CSR level over `parents` entries of the previous levels: parents + 1
  // non-decreasing segment starts ending at the number of indices, and
  // every index inside the dimension.
  static bool CheckCsrLevel(const tflite::DimensionMetadata& level, uint64_t parents,
                            int64_t extent) {
    const auto seg_type = level.array_segments_type();
    const auto idx_type = level.array_indices_type();
    const int64_t num_segments = SparseIndexSize(seg_type, level.array_segments());
    const int64_t num_indices = SparseIndexSize(idx_type, level.array_indices());
    if (num_segments < 1 || num_indices < 0) return false;
    if (static_cast<uint64_t>(num_segments) != parents + 1) return false;
    int64_t previous = 0;
    for (int64_t j = 0; j < num_segments; ++j) {
      const int64_t v = SparseIndexAt(seg_type, level.array_segments(), static_cast<uint32_t>(j));
      if (v < previous) return false;
      previous = v;
    }
    if (previous != num_indices) return false;
    for (int64_t j = 0; j < num_indices; ++j) {
      const int64_t v = SparseIndexAt(idx_type, level.array_indices(), static_cast<uint32_t>(j));
      if (v < 0 || v >= extent) return false;
    }
    return true;
  }

  // ---- operators -------------------------------------------------------------

  bool CheckOperator(uint32_t sg, uint32_t o, const tflite::Operator& op, size_t num_tensors) {
    const uint32_t num_codes = fb_.operator_codes() ? fb_.operator_codes()->size() : 0;
    if (op.opcode_index() >= num_codes) {
      return Fail("Subgraph %u operator %u: missing registration for opcode_index %u (the model "
                  "has %u operator codes).",
                  sg, o, op.opcode_index(), num_codes);
    }
    if (!CheckOperatorTensors(sg, o, "input", op.inputs(), num_tensors, true) ||
        !CheckOperatorTensors(sg, o, "output", op.outputs(), num_tensors, false) ||
        !CheckOperatorTensors(sg, o, "intermediate", op.intermediates(), num_tensors, false)) {
      return false;
    }
    if (op.custom_options() == nullptr && op.large_custom_options_offset() > 1 &&
        !RangeInside(op.large_custom_options_offset(), op.large_custom_options_size(),
                     model_.size())) {
      return Fail("Subgraph %u operator %u: custom option offset for opcode_index %u is out of "
                  "bound.",
                  sg, o, op.opcode_index());
    }
    return CheckControlFlow(sg, o, op);
  }

  bool CheckOperatorTensors(uint32_t sg, uint32_t o, const char* what,
                            const flatbuffers::Vector<int32_t>* list, size_t num_tensors,
                            bool optional_allowed) {
    if (list == nullptr) return true;
    for (uint32_t i = 0; i < list->size(); ++i) {
      const int32_t index = list->Get(i);
      if (optional_allowed && index == kOptionalTensor) continue;
      if (!IndexInRange(index, num_tensors)) {
        return Fail("Subgraph %u operator %u: invalid tensor index %d in %s %u. The subgraph has "
                    "%zu tensors.",
                    sg, o, index, what, i, num_tensors);
      }
    }
    return true;
  }

  // Subgraph indices stored in control-flow and StableHLO region options.
  bool CheckControlFlow(uint32_t sg, uint32_t o, const tflite::Operator& op) {
    if (const auto* w = op.builtin_options_as_WhileOptions()) {
      return CheckSubgraphRef(sg, o, "cond_subgraph_index", w->cond_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "body_subgraph_index", w->body_subgraph_index());
    }
    if (const auto* i = op.builtin_options_as_IfOptions()) {
      return CheckSubgraphRef(sg, o, "then_subgraph_index", i->then_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "else_subgraph_index", i->else_subgraph_index());
    }
    if (const auto* c = op.builtin_options_as_CallOnceOptions()) {
      return CheckSubgraphRef(sg, o, "init_subgraph_index", c->init_subgraph_index());
    }
    if (const auto* w = op.builtin_options_2_as_StablehloWhileOptions()) {
      return CheckSubgraphRef(sg, o, "cond_subgraph_index", w->cond_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "body_subgraph_index", w->body_subgraph_index());
    }
    if (const auto* r = op.builtin_options_2_as_StablehloReduceOptions()) {
      return CheckSubgraphRef(sg, o, "body_subgraph_index", r->body_subgraph_index());
    }
    if (const auto* r = op.builtin_options_2_as_StablehloReduceWindowOptions()) {
      return CheckSubgraphRef(sg, o, "body_subgraph_index", r->body_subgraph_index());
    }
    if (const auto* s = op.builtin_options_2_as_StablehloSortOptions()) {
      return CheckSubgraphRef(sg, o, "comparator_subgraph_index", s->comparator_subgraph_index());
    }
    if (const auto* s = op.builtin_options_2_as_StablehloScatterOptions()) {
      return CheckSubgraphRef(sg, o, "update_computation_subgraph_index",
                              s->update_computation_subgraph_index());
    }
    if (const auto* c = op.builtin_options_2_as_StableHLOCompositeOptions()) {
      return CheckSubgraphRef(sg, o, "decomposition_subgraph_index",
                              c->decomposition_subgraph_index());
    }
    if (const auto* c = op.builtin_options_2_as_StablehloCaseOptions()) {
      if (const auto* branches = c->branch_subgraph_indices()) {
        for (uint32_t b = 0; b < branches->size(); ++b) {
          if (!CheckSubgraphRef(sg, o, "branch_subgraph_indices", branches->Get(b))) return false;
        }
      }
    }
    return true;
  }

  bool CheckSubgraphRef(uint32_t sg, uint32_t o, const char* field, int32_t index) {
    if (IndexInRange(index, num_subgraphs_)) return true;
    return Fail("Subgraph %u operator %u: %s %d is out of range (the model has %u subgraphs).", sg,
                o, field, index, num_subgraphs_);
  }

  // ---- signatures ------------------------------------------------------------

  bool CheckSignatures() {
    const auto* signatures = fb_.signature_defs();
    if (signatures == nullptr) return true;
    for (uint32_t s = 0; s < signatures->size(); ++s) {
      const tflite::SignatureDef& sig = *signatures->Get(s);
      if (sig.signature_key() == nullptr) {
        return Fail("SignatureDef %u: missing exported method name (signature_key).", s);
      }
      if (sig.subgraph_index() >= num_subgraphs_) {
        return Fail("SignatureDef %u ('%s'): subgraph_index %u is out of range (the model has %u "
                    "subgraphs).",
                    s, sig.signature_key()->c_str(), sig.subgraph_index(), num_subgraphs_);
      }
      const size_t num_tensors = fb_.subgraphs()->Get(sig.subgraph_index())->tensors()->size();
      if (!CheckTensorMap(s, sig, "input", sig.inputs(), num_tensors) ||
          !CheckTensorMap(s, sig, "output", sig.outputs(), num_tensors)) {
        return false;
      }
    }
    return true;
  }

  bool CheckTensorMap(uint32_t s, const tflite::SignatureDef& sig, const char* what,
                      const flatbuffers::Vector<flatbuffers::Offset<tflite::TensorMap>>* map,
                      size_t num_tensors) {
    if (map == nullptr) return true;
    for (uint32_t i = 0; i < map->size(); ++i) {
      const tflite::TensorMap& entry = *map->Get(i);
      if (entry.name() == nullptr) {
        return Fail("SignatureDef %u ('%s'): %s %u has no name.", s, sig.signature_key()->c_str(),
                    what, i);
      }
      if (entry.tensor_index() >= num_tensors) {
        return Fail("SignatureDef %u ('%s'): %s '%s' refers to tensor %u; subgraph %u has %zu "
                    "tensors.",
                    s, sig.signature_key()->c_str(), what, entry.name()->c_str(),
                    entry.tensor_index(), sig.subgraph_index(), num_tensors);
      }
    }
    return true;
  }

  const Model& model_;
  const tflite::Model& fb_;
  ErrorReporter* reporter_;
  uint32_t num_subgraphs_ = 0;
};

}  // namespace

Model::~Model() {
  if (mmap_base_ != nullptr) munmap(mmap_base_, mmap_size_);
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
  close(fd);  // the mapping stays valid without the descriptor
  if (base == MAP_FAILED) {
    reporter->Reportf("Failed to mmap '%s': %s.", path,
                      ErrnoText(strerror_r(map_errno, errbuf, sizeof(errbuf)), errbuf));
    return nullptr;
  }
  std::unique_ptr<Model> model(new Model());
  model->mmap_base_ = base;
  model->mmap_size_ = size;
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
  std::unique_ptr<Model> model(new Model());
  model->bytes_ = static_cast<const uint8_t*>(data);
  model->size_ = size;
  if (!model->Verify(reporter)) return nullptr;
  return model;
}

bool Model::Verify(ErrorReporter* reporter) {
  if (size_ < kMinModelBytes) {
    reporter->Reportf("Model provided has %zu bytes; at least %zu are needed to hold the root "
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
  // models lie beyond it and are range-checked by ModelChecker.
  flatbuffers::Verifier verifier(bytes_, std::min(size_, kMaxFlatbufferBytes));
  if (!tflite::VerifyModelBuffer(verifier)) {
    reporter->Reportf("The model is not a valid Flatbuffer buffer.");
    return false;
  }
  model_ = tflite::GetModel(bytes_);
  if (!ModelChecker(*this, reporter).Check()) {
    model_ = nullptr;
    return false;
  }
  return true;
}

bool Model::GetBuffer(uint32_t index, const uint8_t** data, size_t* size) const {
  *data = nullptr;
  *size = 0;
  const auto* buffers = model_ ? model_->buffers() : nullptr;
  if (buffers == nullptr || index >= buffers->size()) return false;
  const tflite::Buffer& buffer = *buffers->Get(index);
  if (const auto* inline_data = buffer.data()) {
    if (inline_data->size() != 0) {
      *data = inline_data->data();
      *size = inline_data->size();
    }
    return true;
  }
  if (HasExternalRange(buffer) && buffer.size() != 0 &&
      RangeInside(buffer.offset(), buffer.size(), size_)) {
    *data = bytes_ + buffer.offset();
    *size = static_cast<size_t>(buffer.size());
  }
  return true;
}

bool Model::GetTensorData(const tflite::Tensor& tensor, const uint8_t** data,
                          size_t* size) const {
  *data = nullptr;
  *size = 0;
  const auto* buffers = model_ ? model_->buffers() : nullptr;
  const uint32_t index = tensor.buffer();
  if (index == 0 || buffers == nullptr || index >= buffers->size()) return false;
  const tflite::Buffer& buffer = *buffers->Get(index);
  if (const auto* inline_data = buffer.data()) {
    *data = inline_data->data();
    *size = inline_data->size();
    return true;
  }
  if (HasExternalRange(buffer) && RangeInside(buffer.offset(), buffer.size(), size_)) {
    *data = bytes_ + buffer.offset();
    *size = static_cast<size_t>(buffer.size());
    return true;
  }
  return false;
}

void Model::GetCustomOptions(const tflite::Operator& op, const uint8_t** data,
                             size_t* size) const {
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
