// Checks of one tensor description: type, shape, quantization and, for
// constants, the size and layout of the data (dense, sparse or strings).
// Part of CheckModelSemantics; see model_checker.h.
#include <climits>
#include <cstring>
#include <vector>

#include "src/core/model.h"
#include "src/core/model_checker.h"

namespace tflite_c {

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


namespace {

// Bytes needed to store `count` elements; count <= INT_MAX so nothing here
// can overflow a 64-bit size_t (and on 32-bit hosts the caller compares
// against a real buffer size, which is smaller still).
uint64_t StorageBytes(Storage storage, size_t element_size, uint64_t count) {
  if (storage == Storage::kPacked4Bit) return (count + 1) / 2;
  return count * element_size;
}

// Calls fn(values) with the values of a sparse index vector, whichever of
// its three integer widths it uses. False when the union is empty, of an
// unknown type or lacks its values, or when fn returns false.
template <typename Fn>
bool WithIndexVector(tflite::SparseIndexVector type, const void* table, Fn&& fn) {
  if (table == nullptr) return false;
  switch (type) {
    case tflite::SparseIndexVector_Int32Vector: {
      const auto* v = static_cast<const tflite::Int32Vector*>(table)->values();
      return v != nullptr && fn(*v);
    }
    case tflite::SparseIndexVector_Uint16Vector: {
      const auto* v = static_cast<const tflite::Uint16Vector*>(table)->values();
      return v != nullptr && fn(*v);
    }
    case tflite::SparseIndexVector_Uint8Vector: {
      const auto* v = static_cast<const tflite::Uint8Vector*>(table)->values();
      return v != nullptr && fn(*v);
    }
    default:
      return false;
  }
}

// A CSR level below `parents` entries of the previous levels: parents + 1
// non-decreasing segment starts ending at the number of indices, and every
// index inside the dimension. Stores the number of indices in *count.
bool CheckCsrLevel(const tflite::DimensionMetadata& level, uint64_t parents, int64_t extent,
                   uint64_t* count) {
  int64_t end = -1;
  const bool segments_ok = WithIndexVector(level.array_segments_type(), level.array_segments(),
                                           [&](const auto& segments) {
                                             if (segments.size() != parents + 1) return false;
                                             int64_t previous = 0;
                                             for (uint32_t j = 0; j < segments.size(); ++j) {
                                               const int64_t v = segments.Get(j);
                                               if (v < previous) return false;
                                               previous = v;
                                             }
                                             end = previous;
                                             return true;
                                           });
  return segments_ok && WithIndexVector(level.array_indices_type(), level.array_indices(),
                                        [&](const auto& indices) {
                                          if (static_cast<int64_t>(indices.size()) != end)
                                            return false;
                                          for (uint32_t j = 0; j < indices.size(); ++j) {
                                            const int64_t v = indices.Get(j);
                                            if (v < 0 || v >= extent) return false;
                                          }
                                          *count = indices.size();
                                          return true;
                                        });
}

class TensorChecker {
 public:
  TensorChecker(const Model& model, ErrorReporter* reporter)
      : model_(model), fb_(*model.fb()), reporter_(reporter) {}

  bool CheckTensor(uint32_t sg, uint32_t t, const tflite::Tensor& tensor, size_t num_tensors) {
    size_t element_size = 0;
    const Storage storage = StorageOf(tensor.type(), &element_size);
    if (storage == Storage::kUnsupported) {
      return Reject(reporter_, "Subgraph %u tensor %u has unsupported data type %d.", sg, t,
                    static_cast<int>(tensor.type()));
    }
    if (tensor.buffer() >= fb_.buffers()->size() && tensor.buffer() != 0) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u specifies out of range buffer %u (only %u buffers).", sg,
                    t, tensor.buffer(), fb_.buffers()->size());
    }

    uint64_t num_elements = 0;
    if (!CheckShape(sg, t, tensor, &num_elements)) return false;
    if (!CheckQuantization(sg, t, tensor, num_tensors)) return false;

    if (tensor.is_variable() && storage == Storage::kVariable) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: variable tensors of type %d are not supported.", sg, t,
                    static_cast<int>(tensor.type()));
    }

    const uint8_t* data = nullptr;
    size_t size = 0;
    if (!model_.GetTensorData(tensor, &data, &size)) return true;  // read-write tensor

    if (tensor.is_variable()) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u is a variable tensor with a constant buffer (%u).", sg,
                    t, tensor.buffer());
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
      return Reject(
          reporter_,
          "Subgraph %u tensor %u needs %llu bytes for its %s but buffer %u holds %zu bytes.", sg, t,
          static_cast<unsigned long long>(required), tensor.sparsity() ? "sparse values" : "shape",
          tensor.buffer(), size);
    }
    // Kernels read bool elements as C++ bool, for which any byte other than
    // 0 and 1 is undefined behaviour: constant bool data must hold only those.
    if (tensor.type() == tflite::TensorType_BOOL && tensor.sparsity() == nullptr) {
      for (uint64_t i = 0; i < required; ++i) {
        if (data[i] > 1) {
          return Reject(reporter_,
                        "Subgraph %u tensor %u: bool buffer %u holds byte %u at offset %llu "
                        "(only 0 and 1 are bool values).",
                        sg, t, tensor.buffer(), static_cast<unsigned>(data[i]),
                        static_cast<unsigned long long>(i));
        }
      }
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
          return Reject(reporter_, "Subgraph %u tensor %u has negative dimension %d at index %u.",
                        sg, t, dim, d);
        }
        if (dim == 0) has_zero = true;
        if (dim > 1) {
          product *= static_cast<uint64_t>(dim);
          if (product > static_cast<uint64_t>(INT_MAX)) {
            return Reject(reporter_, "Subgraph %u tensor %u: number of elements overflows.", sg, t);
          }
        }
      }
    }
    if (const auto* signature = tensor.shape_signature()) {
      for (uint32_t d = 0; d < signature->size(); ++d) {
        if (signature->Get(d) < -1) {
          return Reject(reporter_,
                        "Subgraph %u tensor %u has invalid shape_signature entry %d at index %u.",
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
          return Reject(reporter_,
                        "Subgraph %u tensor %u: blockwise quantization details are missing.", sg,
                        t);
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
      return Reject(reporter_,
                    "Subgraph %u tensor %u: quantization has non-null scale but null zero_point.",
                    sg, t);
    }
    if (zero_point->size() != scale->size()) {
      return Reject(
          reporter_,
          "Subgraph %u tensor %u: quantization has %u zero_point values and %u scale values; "
          "they must be the same number.",
          sg, t, zero_point->size(), scale->size());
    }
    const int32_t qdim = q->quantized_dimension();
    if (qdim < 0 || (rank > 0 && static_cast<size_t>(qdim) >= rank)) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: quantized_dimension must be in range [0, %zu). Was %d.",
                    sg, t, rank, qdim);
    }
    if (scale->size() != 1 && rank > 0) {
      const int32_t channels = tensor.shape()->Get(static_cast<uint32_t>(qdim));
      if (scale->size() != static_cast<uint32_t>(channels)) {
        return Reject(
            reporter_,
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
      return Reject(reporter_, "Subgraph %u tensor %u: invalid MultiAxisQuantization parameters.",
                    sg, t);
    }
    if (!CheckQuantTensorRef(sg, t, "MultiAxisQuantization scales", details->scales(), false,
                             num_tensors) ||
        !CheckQuantTensorRef(sg, t, "MultiAxisQuantization zero_points", details->zero_points(),
                             true, num_tensors)) {
      return false;
    }
    if (details->block_size() < 0) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: MultiAxisQuantization block_size must be non-negative. "
                    "Was %d.",
                    sg, t, details->block_size());
    }
    const auto& dims = *details->quantized_dimensions();
    if (dims.size() == 0) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: MultiAxisQuantization must have at least one quantized "
                    "dimension.",
                    sg, t);
    }
    for (uint32_t i = 0; i < dims.size(); ++i) {
      const int32_t d = dims.Get(i);
      if (d < 0 || (rank > 0 && static_cast<size_t>(d) >= rank)) {
        return Reject(
            reporter_,
            "Subgraph %u tensor %u: MultiAxisQuantization quantized_dimensions must be in "
            "range [0, %zu). Value %d at index %u is invalid.",
            sg, t, rank, d, i);
      }
    }
    return true;
  }

  bool CheckQuantTensorRef(uint32_t sg, uint32_t t, const char* what, int32_t index, bool optional,
                           size_t num_tensors) {
    if (optional && index == kOptionalTensor) return true;
    if (!IndexInRange(index, num_tensors)) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: %s tensor index must be in range [0, %zu)%s. Was %d.",
                    sg, t, what, num_tensors, optional ? ", or -1 if optional" : "", index);
    }
    return true;
  }

  // A string constant is an int32 count N, N + 1 int32 offsets (relative to
  // the buffer start, non-decreasing, the first one right after the header)
  // and the bytes they delimit. Kernels index it without further checks.
  bool CheckStringBuffer(uint32_t sg, uint32_t t, const tflite::Tensor& tensor, const uint8_t* data,
                         size_t size, uint64_t num_elements) {
    (void)tensor;
    auto read32 = [data](uint64_t at) {
      uint32_t v;
      std::memcpy(&v, data + at, sizeof(v));
      return v;
    };
    if (size < 2 * sizeof(uint32_t)) {
      return Reject(reporter_, "Subgraph %u tensor %u: string buffer of %zu bytes is too small.",
                    sg, t, size);
    }
    const uint64_t count = read32(0);
    const uint64_t header = (count + 2) * sizeof(uint32_t);
    if (header > size) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: string buffer declares %llu strings but holds only %zu "
                    "bytes.",
                    sg, t, static_cast<unsigned long long>(count), size);
    }
    if (count < num_elements) {
      return Reject(
          reporter_,
          "Subgraph %u tensor %u: string buffer holds %llu strings, the shape needs %llu.", sg, t,
          static_cast<unsigned long long>(count), static_cast<unsigned long long>(num_elements));
    }
    uint64_t previous = read32(sizeof(uint32_t));
    if (previous != header) {
      return Reject(reporter_,
                    "Subgraph %u tensor %u: string buffer's first offset must be %llu, was %llu.",
                    sg, t, static_cast<unsigned long long>(header),
                    static_cast<unsigned long long>(previous));
    }
    for (uint64_t i = 1; i <= count; ++i) {
      const uint64_t offset = read32((i + 1) * sizeof(uint32_t));
      if (offset < previous || offset > size) {
        return Reject(reporter_, "Subgraph %u tensor %u: string buffer offset %llu is invalid.", sg,
                      t, static_cast<unsigned long long>(i));
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
      return Reject(reporter_,
                    "Subgraph %u tensor %u has invalid sparsity parameters: traversal_order and "
                    "dim_metadata are required.",
                    sg, t);
    }
    const uint32_t rank = tensor.shape() ? tensor.shape()->size() : 0;
    const uint32_t total = order->size();
    const uint32_t block_rank = sparsity.block_map() ? sparsity.block_map()->size() : 0;
    if (levels->size() != total || total < rank || total - rank != block_rank) {
      return Reject(
          reporter_,
          "Subgraph %u tensor %u has invalid sparsity parameters: %u traversal levels, %u "
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
        return Reject(
            reporter_,
            "Subgraph %u tensor %u has invalid sparsity parameters: traversal_order[%u] = "
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
        return Reject(reporter_,
                      "Subgraph %u tensor %u has invalid sparsity parameters: block dimension %u.",
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
          return Reject(
              reporter_,
              "Subgraph %u tensor %u has invalid sparsity parameters: level %u dense_size "
              "%d, expected %lld.",
              sg, t, i, level.dense_size(), static_cast<long long>(dim_extent));
        }
        count *= static_cast<uint64_t>(dim_extent);
        if (count > static_cast<uint64_t>(INT_MAX)) {
          return Reject(reporter_, "Subgraph %u tensor %u: number of sparse values overflows.", sg,
                        t);
        }
        continue;
      }
      if (level.format() != tflite::DimensionType_SPARSE_CSR ||
          !CheckCsrLevel(level, count, dim_extent, &count)) {
        return Reject(
            reporter_,
            "Subgraph %u tensor %u has invalid sparsity parameters: level %u (format %d).", sg, t,
            i, static_cast<int>(level.format()));
      }
    }
    *num_values = count;
    return true;
  }

  const Model& model_;
  const tflite::Model& fb_;
  ErrorReporter* reporter_;
};

}  // namespace

bool CheckTensor(const Model& model, uint32_t subgraph, uint32_t tensor, ErrorReporter* reporter) {
  const auto& tensors = *model.fb()->subgraphs()->Get(subgraph)->tensors();
  return TensorChecker(model, reporter)
      .CheckTensor(subgraph, tensor, *tensors.Get(tensor), tensors.size());
}

}  // namespace tflite_c
