// Dimension metadata for sparse tensors in ModelBuilder models (the
// SparsityParameters of the schema): a dense dimension and a CSR one.
#ifndef TFLITE_C_TESTS_UTIL_SPARSITY_H_
#define TFLITE_C_TESTS_UTIL_SPARSITY_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "schema_generated.h"

namespace tflite_c {
namespace testing {

inline std::unique_ptr<tflite::DimensionMetadataT> Dense(int size) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_DENSE;
  d->dense_size = size;
  return d;
}

inline std::unique_ptr<tflite::DimensionMetadataT> Csr(std::vector<int32_t> segments,
                                                       std::vector<int32_t> indices) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_SPARSE_CSR;
  tflite::Int32VectorT s, i;
  s.values = std::move(segments);
  i.values = std::move(indices);
  d->array_segments.Set(std::move(s));
  d->array_indices.Set(std::move(i));
  return d;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_SPARSITY_H_
