// Op table cases: ops driven by indices, ids or ranks (GATHER_ND, SCATTER_ND,
// ARG_MAX/ARG_MIN, TOPK_V2, CUMSUM, SEGMENT_SUM, UNSORTED_SEGMENT_*,
// EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE, BUCKETIZE, UNIQUE, SPARSE_TO_DENSE,
// HASHTABLE_LOOKUP, NON_MAX_SUPPRESSION_V4/V5). Expected values are hand-computed.
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

constexpr auto kI32T = tflite::TensorType_INT32;

tflite::BuiltinOptionsUnion ArgMax() {
  tflite::ArgMaxOptionsT o;
  o.output_type = kI32T;
  return Opts(o);
}

tflite::BuiltinOptionsUnion ArgMin() {
  tflite::ArgMinOptionsT o;
  o.output_type = kI32T;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Cumsum(bool exclusive, bool reverse) {
  tflite::CumsumOptionsT o;
  o.exclusive = exclusive;
  o.reverse = reverse;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Bucketize(std::vector<float> boundaries) {
  tflite::BucketizeOptionsT o;
  o.boundaries = std::move(boundaries);
  return Opts(o);
}

tflite::BuiltinOptionsUnion Unique() {
  tflite::UniqueOptionsT o;
  o.idx_out_type = kI32T;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Combiner(tflite::CombinerType combiner) {
  tflite::EmbeddingLookupSparseOptionsT o;
  o.combiner = combiner;
  return Opts(o);
}

}  // namespace

// clang-format off
std::vector<OpCase> IndexHandCases() {
  const auto kU8 = tflite::TensorType_UINT8;
  // ids of four rows: segments 1, 0, 1, 0 over [1, 2, 3, 4].
  auto data = [] { return F32({4}, {1, 2, 3, 4}); };
  auto ids = [] { return I32({4}, {1, 0, 1, 0}); };
  return Cases({
      {"Elements", tflite::BuiltinOperator_GATHER_ND, Opts(tflite::GatherNdOptionsT()),
       {F32({2, 2}, {1, 2, 3, 4}), I32({2, 2}, {0, 1, 1, 0})}, F32({2}, {2, 3})},
      {"Rows", tflite::BuiltinOperator_GATHER_ND, Opts(tflite::GatherNdOptionsT()),
       {I32({3, 2}, {1, 2, 3, 4, 5, 6}), I32({2, 1}, {2, 0})}, I32({2, 2}, {5, 6, 1, 2})},
      // Duplicate indices accumulate.
      {"Accumulates", tflite::BuiltinOperator_SCATTER_ND, Opts(tflite::ScatterNdOptionsT()),
       {I32({3, 1}, {2, 0, 2}), F32({3}, {5, 7, 1}), Const({1}, {4}, kI32T)},
       F32({4}, {7, 0, 6, 0})},
      // Ties resolve to the first index.
      {"LastAxis", tflite::BuiltinOperator_ARG_MAX, ArgMax(),
       {F32({2, 3}, {1, 5, 2, 7, 0, 7}), Const({1}, {1}, kI32T)}, I32({2}, {1, 0})},
      {"FirstAxis", tflite::BuiltinOperator_ARG_MIN, ArgMin(),
       {F32({2, 3}, {1, 5, 2, 7, 0, 2}), Const({1}, {0}, kI32T)}, I32({3}, {0, 1, 0})},
      Hand("Largest", tflite::BuiltinOperator_TOPK_V2, Opts(tflite::TopKV2OptionsT()),
           {F32({5}, {1, 5, 3, 5, 2}), Const({}, {3}, kI32T)}, F32({3}, {5, 5, 3}))
          .And(I32({3}, {1, 3, 2})),
      {"Inclusive", tflite::BuiltinOperator_CUMSUM, Cumsum(false, false),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), Const({}, {1}, kI32T)}, F32({2, 3}, {1, 3, 6, 4, 9, 15})},
      {"ExclusiveReverse", tflite::BuiltinOperator_CUMSUM, Cumsum(true, true),
       {I32({4}, {1, 2, 3, 4}), Const({}, {0}, kI32T)}, I32({4}, {9, 7, 4, 0})},
      {"Sorted", tflite::BuiltinOperator_SEGMENT_SUM, Opts(tflite::SegmentSumOptionsT()),
       {data(), Const({4}, {0, 0, 1, 1}, kI32T)}, F32({2}, {3, 7})},
      {"Basic", tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, Opts(tflite::UnsortedSegmentSumOptionsT()),
       {data(), ids(), Const({}, {2}, kI32T)}, F32({2}, {6, 4})},
      {"Basic", tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, Opts(tflite::UnsortedSegmentMaxOptionsT()),
       {data(), ids(), Const({}, {2}, kI32T)}, F32({2}, {4, 3})},
      {"Basic", tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN, Opts(tflite::UnsortedSegmentMinOptionsT()),
       {data(), ids(), Const({}, {2}, kI32T)}, F32({2}, {2, 1})},
      {"Basic", tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD, Opts(tflite::UnsortedSegmentProdOptionsT()),
       {data(), ids(), Const({}, {2}, kI32T)}, F32({2}, {8, 3})},
      {"Rows", tflite::BuiltinOperator_EMBEDDING_LOOKUP, {},
       {I32({2}, {2, 0}), Const({3, 2}, {1, 2, 3, 4, 5, 6})}, F32({2, 2}, {5, 6, 1, 2})},
      // A start past the end is clamped so that the update fits.
      {"ClampedStart", tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE, Opts(tflite::DynamicUpdateSliceOptionsT()),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({1, 2}, {8, 9}), I32({2}, {1, 5})},
       F32({2, 3}, {1, 2, 3, 4, 8, 9})},
      // Bucket i holds boundaries[i - 1] <= x < boundaries[i].
      {"Float", tflite::BuiltinOperator_BUCKETIZE, Bucketize({0, 1, 5}),
       {F32({5}, {-1, 0, 0.5, 2, 10})}, I32({5}, {0, 1, 1, 2, 3})},
      Hand("FirstSeenOrder", tflite::BuiltinOperator_UNIQUE, Unique(),
           {F32({5}, {3, 1, 3, 2, 1})}, F32({3}, {3, 1, 2}))
          .And(I32({5}, {0, 1, 0, 2, 1})),
      {"Vector", tflite::BuiltinOperator_SPARSE_TO_DENSE, Opts(tflite::SparseToDenseOptionsT()),
       {Const({2, 1}, {0, 2}, kI32T), Const({1}, {4}, kI32T), F32({2}, {5, 6}), F32({}, {-1})},
       F32({4}, {5, -1, 6, -1})},
      // Row 0 = 1 * params[1] + 2 * params[0], row 1 = 0.5 * params[2].
      {"Sum", tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE, Combiner(tflite::CombinerType_SUM),
       {I32({3}, {1, 0, 2}), I32({3, 2}, {0, 0, 0, 1, 1, 0}), I32({2}, {2, 2}), F32({3}, {1, 2, 0.5}),
        Const({3, 2}, {1, 2, 3, 4, 5, 6})},
       F32({2, 2}, {5, 8, 2.5, 3})},
      // Key 5 is missing: zeros, and hit 0.
      Hand("HitAndMiss", tflite::BuiltinOperator_HASHTABLE_LOOKUP, {},
           {I32({2}, {3, 5}), Const({3}, {1, 2, 3}, kI32T), Const({3, 2}, {1, 2, 3, 4, 5, 6})},
           F32({2, 2}, {5, 6, 0, 0}))
          .And(In({2}, {1, 0}, kU8)),
  });
}

// Boxes [y1, x1, y2, x2]: box 2 overlaps box 0 (IoU 0.9), box 1 is apart.
std::vector<OpCase> NmsHandCases() {
  auto boxes = [] {
    return F32({3, 4}, {0, 0, 1, 1, 0, 2, 1, 3, 0, 0, 1, 0.9});
  };
  auto scores = [] { return F32({3}, {0.9, 0.7, 0.8}); };
  return Cases({
      Hand("OverlapSuppressed", tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V4,
           Opts(tflite::NonMaxSuppressionV4OptionsT()),
           {boxes(), scores(), Const({}, {3}, kI32T), F32({}, {0.5}), F32({}, {0})},
           I32({3}, {0, 1, 0}))
          .And(I32({}, {2})),
      Hand("HardNms", tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5,
           Opts(tflite::NonMaxSuppressionV5OptionsT()),
           {boxes(), scores(), Const({}, {3}, kI32T), F32({}, {0.5}), F32({}, {0}), F32({}, {0})},
           I32({3}, {0, 1, 0}))
          .And(F32({3}, {0.9, 0.7, 0}))
          .And(I32({}, {2})),
  });
}
// clang-format on

}  // namespace op_table
}  // namespace tflite_c
