// Model: every semantic rejection rule of the loader (schema version,
// indices, types, shapes, constant sizes, strings, quantization, sparsity,
// control-flow subgraphs, signatures), each with the message it reports.
#include "src/core/model.h"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/core/model_test_util.h"

namespace tflite_c {
namespace model_testing {
namespace {

// ---------------------------------------------------------------------------
// Semantic rejection rules
// ---------------------------------------------------------------------------

TEST(ModelRulesTest, SchemaVersion) {
  auto m = BaseModel();
  m->version = 2;
  ExpectRejected(*m, {"schema version 2 not equal to supported version 3"});
  m->version = 4;
  ExpectRejected(*m, {"schema version 4"});
}

// Found by fuzz/model_fuzzer (UBSan: "load of value 60, which is not a valid
// value for type 'const bool'" in a kernel): constant bool data other than 0
// and 1 is refused at load; bytes past the shape's need are not looked at.
TEST(ModelRulesTest, MalformedConstantBoolBytes) {
  auto m = BaseModel();
  m->subgraphs[0]->tensors[1]->type = tflite::TensorType_BOOL;
  m->buffers[1]->data = {1, 0, 60};
  ExpectAccepted(*m);
  m->buffers[1]->data = {0, 60};
  ExpectRejected(*m, {"tensor 1: bool buffer 1 holds byte 60 at offset 1"});
  m->buffers[1]->data = {255, 1};
  ExpectRejected(*m, {"holds byte 255 at offset 0"});
}

// Found by structured_fuzzer (ASan memcpy-param-overlap in CONCATENATION's
// Prepare): an operator writing in place into a subgraph input that is also a
// constant. No operator may write a constant.
TEST(ModelRulesTest, MalformedOperatorWritesAConstant) {
  auto m = BaseModel();
  m->subgraphs[0]->operators[0]->outputs = {1};  // the constant
  ExpectRejected(*m, {"operator 0: output tensor 1 is a constant (buffer 1 holds 8 bytes)"});
  m = BaseModel();
  m->subgraphs[0]->inputs = {0, 1};
  m->subgraphs[0]->operators[0]->outputs = {1};  // in place, into a constant input
  ExpectRejected(*m, {"output tensor 1 is a constant"});
}

TEST(ModelRulesTest, NoSubgraphs) {
  auto m = BaseModel();
  m->subgraphs.clear();
  m->signature_defs.clear();
  ExpectRejected(*m, {"No subgraph"});
}

TEST(ModelRulesTest, NoBuffers) {
  auto m = BaseModel();
  m->buffers.clear();
  Tensor(*m, 1).buffer = 0;
  ExpectRejected(*m, {"No buffers"});
}

TEST(ModelRulesTest, SubgraphWithoutTensors) {
  auto m = BaseModel();
  auto empty = std::make_unique<tflite::SubGraphT>();
  m->subgraphs.push_back(std::move(empty));
  ExpectRejected(*m, {"tensors in subgraph 1"});
}

TEST(ModelRulesTest, SubgraphWithoutOperatorsIsFine) {
  auto m = BaseModel();
  Sub(*m).operators.clear();
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, OpcodeIndexOutOfRange) {
  auto m = BaseModel();
  Op(*m).opcode_index = 1;
  ExpectRejected(*m, {"Subgraph 0 operator 0", "opcode_index 1"});
  m->operator_codes.clear();
  Op(*m).opcode_index = 0;
  ExpectRejected(*m, {"opcode_index 0"});
}

TEST(ModelRulesTest, BuiltinCodeRange) {
  auto m = BaseModel();
  m->operator_codes[0]->builtin_code = static_cast<tflite::BuiltinOperator>(100000);
  ExpectRejected(*m, {"Operator code 0", "100000"});
  m->operator_codes[0]->builtin_code = static_cast<tflite::BuiltinOperator>(-3);
  m->operator_codes[0]->deprecated_builtin_code = -4;
  ExpectRejected(*m, {"Operator code 0", "-3"});
}

TEST(ModelRulesTest, EffectiveBuiltinCodeIsTheLargerField) {
  auto m = BaseModel();
  // Old models: only the deprecated int8 field is set.
  m->operator_codes[0]->builtin_code = tflite::BuiltinOperator_ADD;
  m->operator_codes[0]->deprecated_builtin_code = tflite::BuiltinOperator_MUL;
  ExpectAccepted(*m);
  // New models: placeholder 127 in the old field, the real code in the new.
  m->operator_codes[0]->builtin_code = tflite::BuiltinOperator_STABLEHLO_ADD;
  m->operator_codes[0]->deprecated_builtin_code = 127;
  ExpectAccepted(*m);
  // A CUSTOM code found through the deprecated field needs a custom_code.
  m->operator_codes[0]->builtin_code = tflite::BuiltinOperator_ADD;
  m->operator_codes[0]->deprecated_builtin_code = tflite::BuiltinOperator_CUSTOM;
  ExpectRejected(*m, {"no custom_code"});
  m->operator_codes[0]->custom_code = "MyOp";
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, OperatorInputs) {
  auto m = BaseModel();
  Op(*m).inputs = {0, -1};  // optional input
  ExpectAccepted(*m);
  Op(*m).inputs = {0, 3};
  ExpectRejected(*m, {"Subgraph 0 operator 0", "tensor index 3 in input 1"});
  Op(*m).inputs = {-2, 1};
  ExpectRejected(*m, {"tensor index -2 in input 0"});
  Op(*m).inputs = {0, INT32_MAX};
  ExpectRejected(*m, {"in input 1"});
}

TEST(ModelRulesTest, OperatorOutputs) {
  auto m = BaseModel();
  Op(*m).outputs = {-1};
  ExpectRejected(*m, {"tensor index -1 in output 0"});
  Op(*m).outputs = {3};
  ExpectRejected(*m, {"tensor index 3 in output 0"});
}

TEST(ModelRulesTest, OperatorWithoutInputOrOutputListsIsFine) {
  auto m = BaseModel();
  Op(*m).inputs.clear();
  Op(*m).outputs.clear();
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, OperatorIntermediates) {
  auto m = BaseModel();
  Op(*m).intermediates = {2};
  ExpectAccepted(*m);
  Op(*m).intermediates = {0, 7};
  ExpectRejected(*m, {"tensor index 7 in intermediate 1"});
}

TEST(ModelRulesTest, SubgraphInputsAndOutputs) {
  auto m = BaseModel();
  Sub(*m).inputs = {0, 3};
  ExpectRejected(*m, {"Subgraph 0 input 1 refers to tensor 3"});
  Sub(*m).inputs = {-1};
  ExpectRejected(*m, {"Subgraph 0 input 0 refers to tensor -1"});
  Sub(*m).inputs = {0};
  Sub(*m).outputs = {5};
  ExpectRejected(*m, {"Subgraph 0 output 0 refers to tensor 5"});
}

TEST(ModelRulesTest, TensorBufferIndex) {
  auto m = BaseModel();
  Tensor(*m, 1).buffer = 2;
  ExpectRejected(*m, {"tensor 1", "out of range buffer 2 (only 2 buffers)"});
  Tensor(*m, 1).buffer = UINT32_MAX;
  ExpectRejected(*m, {"tensor 1", "out of range buffer"});
}

TEST(ModelRulesTest, TensorType) {
  auto m = BaseModel();
  Tensor(*m, 0).type = tflite::TensorType_INT2;  // newer than the 2.19 ABI
  ExpectRejected(*m, {"Subgraph 0 tensor 0 has unsupported data type 19"});
  Tensor(*m, 0).type = static_cast<tflite::TensorType>(-7);
  ExpectRejected(*m, {"unsupported data type -7"});
  Tensor(*m, 0).type = tflite::TensorType_BFLOAT16;
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, NegativeDimensions) {
  auto m = BaseModel();
  Tensor(*m, 0).shape = {-1, 2};
  ExpectRejected(*m, {"Subgraph 0 tensor 0 has negative dimension -1 at index 0"});
  Tensor(*m, 0).shape = {1, 2};
  Tensor(*m, 0).shape_signature = {-1, 2};  // dynamic batch is fine here
  ExpectAccepted(*m);
  Tensor(*m, 0).shape_signature = {-2, 2};
  ExpectRejected(*m, {"invalid shape_signature entry -2"});
}

TEST(ModelRulesTest, OverflowingShape) {
  auto m = BaseModel();
  Tensor(*m, 2).shape = {65536, 65536};
  ExpectRejected(*m, {"Subgraph 0 tensor 2", "overflows"});
  Tensor(*m, 2).shape = {0, 65536, 65536};
  ExpectRejected(*m, {"Subgraph 0 tensor 2", "overflows"});
  Tensor(*m, 2).shape = {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX};
  ExpectRejected(*m, {"overflows"});
  Tensor(*m, 2).shape = {2, 1073741823};  // 2^31 - 2 elements: still an int
  ExpectAccepted(*m);
  // A constant whose shape overflows is rejected before its size is computed.
  Tensor(*m, 2).shape = {1, 2};
  Tensor(*m, 1).shape = {1 << 16, 1 << 16, 4};
  ExpectRejected(*m, {"Subgraph 0 tensor 1", "overflows"});
}

TEST(ModelRulesTest, ConstantBufferSize) {
  auto m = BaseModel();
  m->buffers[1]->data = FloatBytes({1.f});
  ExpectRejected(*m, {"Subgraph 0 tensor 1 needs 8 bytes", "buffer 1 holds 4 bytes"});
  // Larger buffers are accepted, as upstream does (it requires >=).
  m->buffers[1]->data = FloatBytes({1.f, 2.f, 3.f});
  ExpectAccepted(*m);
  // Scalars (no shape) need one element.
  Tensor(*m, 1).shape.clear();
  m->buffers[1]->data = Bytes(3, 0);
  ExpectRejected(*m, {"needs 4 bytes"});
  // Zero-element constants need no bytes at all.
  Tensor(*m, 1).shape = {0, 5};
  m->buffers[1]->data = Bytes(1, 0);
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, ConstantSizesPerType) {
  struct Case {
    tflite::TensorType type;
    std::vector<int32_t> shape;
    size_t bytes;
  };
  const Case cases[] = {
      {tflite::TensorType_INT8, {3}, 3},      {tflite::TensorType_INT16, {3}, 6},
      {tflite::TensorType_FLOAT16, {3}, 6},   {tflite::TensorType_INT64, {3}, 24},
      {tflite::TensorType_COMPLEX64, {3}, 24}, {tflite::TensorType_COMPLEX128, {3}, 48},
      {tflite::TensorType_BOOL, {2, 2}, 4},   {tflite::TensorType_INT4, {3}, 2},
      {tflite::TensorType_INT4, {4}, 2},      {tflite::TensorType_INT4, {2, 3}, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << "type " << c.type << " bytes " << c.bytes);
    auto m = BaseModel();
    Tensor(*m, 1).type = c.type;
    Tensor(*m, 1).shape = c.shape;
    m->buffers[1]->data = Bytes(c.bytes, 0);
    ExpectAccepted(*m);
    m->buffers[1]->data = Bytes(c.bytes - 1, 0);
    ExpectRejected(*m, {"needs"});
  }
}

TEST(ModelRulesTest, ResourceAndVariantConstantsAreNotSized) {
  for (auto type : {tflite::TensorType_RESOURCE, tflite::TensorType_VARIANT}) {
    auto m = BaseModel();
    Tensor(*m, 1).type = type;
    m->buffers[1]->data = Bytes(1, 0);
    ExpectAccepted(*m);
  }
}

Bytes StringBuffer(const std::vector<std::string>& strings) {
  const uint32_t count = static_cast<uint32_t>(strings.size());
  std::vector<uint32_t> header = {count};
  uint32_t offset = (count + 2) * 4;
  header.push_back(offset);
  for (const auto& s : strings) header.push_back(offset += static_cast<uint32_t>(s.size()));
  Bytes out(header.size() * 4);
  std::memcpy(out.data(), header.data(), out.size());
  for (const auto& s : strings) out.insert(out.end(), s.begin(), s.end());
  return out;
}

void PutU32(Bytes& b, size_t word, uint32_t v) { std::memcpy(b.data() + word * 4, &v, 4); }

TEST(ModelRulesTest, StringConstants) {
  auto m = BaseModel();
  Tensor(*m, 1).type = tflite::TensorType_STRING;
  Tensor(*m, 1).shape = {2};
  m->buffers[1]->data = StringBuffer({"a", "bc"});
  ExpectAccepted(*m);

  m->buffers[1]->data = StringBuffer({"a"});  // fewer strings than elements
  ExpectRejected(*m, {"Subgraph 0 tensor 1", "holds 1 strings, the shape needs 2"});

  m->buffers[1]->data = Bytes(4, 0);
  ExpectRejected(*m, {"too small"});

  Bytes b = StringBuffer({"a", "bc"});
  PutU32(b, 0, 1000000);  // count beyond the buffer
  m->buffers[1]->data = b;
  ExpectRejected(*m, {"declares 1000000 strings"});

  b = StringBuffer({"a", "bc"});
  PutU32(b, 0, UINT32_MAX);  // count whose header size overflows 32 bits
  m->buffers[1]->data = b;
  ExpectRejected(*m, {"declares"});

  b = StringBuffer({"a", "bc"});
  PutU32(b, 1, 12);  // first offset inside the header
  m->buffers[1]->data = b;
  ExpectRejected(*m, {"first offset must be 16"});

  b = StringBuffer({"a", "bc"});
  PutU32(b, 3, 100);  // last offset past the end
  m->buffers[1]->data = b;
  ExpectRejected(*m, {"offset 2 is invalid"});

  b = StringBuffer({"ab", "c"});
  PutU32(b, 2, 15);  // decreasing offsets
  m->buffers[1]->data = b;
  ExpectRejected(*m, {"offset 1 is invalid"});
}

TEST(ModelRulesTest, VariableWithConstantBuffer) {
  auto m = BaseModel();
  Tensor(*m, 1).is_variable = true;
  ExpectRejected(*m, {"Subgraph 0 tensor 1 is a variable tensor"});
  Tensor(*m, 1).buffer = 0;
  ExpectAccepted(*m);
  Tensor(*m, 1).type = tflite::TensorType_STRING;
  ExpectRejected(*m, {"Subgraph 0 tensor 1: variable tensors of type 5 are not supported"});
}

std::unique_ptr<tflite::QuantizationParametersT> Affine(std::vector<float> scale,
                                                        std::vector<int64_t> zero_point,
                                                        int32_t dim = 0) {
  auto q = std::make_unique<tflite::QuantizationParametersT>();
  q->scale = std::move(scale);
  q->zero_point = std::move(zero_point);
  q->quantized_dimension = dim;
  return q;
}

TEST(ModelRulesTest, AffineQuantization) {
  auto m = BaseModel();
  Tensor(*m, 1).quantization = Affine({0.5f}, {0});
  ExpectAccepted(*m);
  Tensor(*m, 1).quantization = Affine({0.5f, 0.25f}, {0, 0}, 1);  // per-axis over dim 1 (= 2)
  ExpectAccepted(*m);
  Tensor(*m, 1).quantization = Affine({}, {3});  // zero points without scales are ignored
  ExpectAccepted(*m);

  Tensor(*m, 1).quantization = Affine({0.5f}, {});
  ExpectRejected(*m, {"Subgraph 0 tensor 1", "non-null scale but null zero_point"});
  Tensor(*m, 1).quantization = Affine({0.5f, 0.25f}, {0});
  ExpectRejected(*m, {"1 zero_point values and 2 scale values"});
  Tensor(*m, 1).quantization = Affine({0.5f}, {0}, 2);
  ExpectRejected(*m, {"quantized_dimension must be in range [0, 2). Was 2."});
  Tensor(*m, 1).quantization = Affine({0.5f}, {0}, -1);
  ExpectRejected(*m, {"Was -1."});
  Tensor(*m, 1).quantization = Affine({0.5f, 0.25f, 1.f}, {0, 0, 0}, 1);
  ExpectRejected(*m, {"num_scales must be 1", "or 2 for per-axis", "got 3"});
  // Scalars accept any quantized_dimension >= 0 (upstream only checks
  // against a non-empty shape).
  Tensor(*m, 1).quantization.reset();
  Tensor(*m, 0).shape.clear();
  Tensor(*m, 0).quantization = Affine({0.5f, 1.f}, {0, 0}, 3);
  ExpectAccepted(*m);
}

TEST(ModelRulesTest, BlockwiseQuantization) {
  auto m = BaseModel();
  auto q = std::make_unique<tflite::QuantizationParametersT>();
  tflite::BlockwiseQuantizationT details;
  details.scales = 0;
  details.zero_points = -1;
  details.block_size = 32;
  q->details.Set(details);
  Tensor(*m, 1).quantization = std::move(q);
  ExpectAccepted(*m);
  Tensor(*m, 1).quantization->details.AsBlockwiseQuantization()->scales = 3;
  ExpectRejected(*m, {"Subgraph 0 tensor 1", "blockwise scales tensor index", "Was 3."});
  Tensor(*m, 1).quantization->details.AsBlockwiseQuantization()->scales = 2;
  Tensor(*m, 1).quantization->details.AsBlockwiseQuantization()->zero_points = -5;
  ExpectRejected(*m, {"blockwise zero_points", "or -1 if optional", "Was -5."});
}

TEST(ModelRulesTest, MultiAxisQuantization) {
  auto make = [](int32_t scales, int32_t zero_points, std::vector<int32_t> dims, int32_t block) {
    auto q = std::make_unique<tflite::QuantizationParametersT>();
    tflite::MultiAxisQuantizationT details;
    details.scales = scales;
    details.zero_points = zero_points;
    details.quantized_dimensions = std::move(dims);
    details.block_size = block;
    q->details.Set(details);
    return q;
  };
  auto m = BaseModel();
  Tensor(*m, 1).quantization = make(0, 2, {0, 1}, 32);
  ExpectAccepted(*m);
  Tensor(*m, 1).quantization = make(0, -1, {1}, 0);
  ExpectAccepted(*m);
  Tensor(*m, 1).quantization = make(3, -1, {1}, 0);
  ExpectRejected(*m, {"MultiAxisQuantization scales tensor index must be in range [0, 3). Was 3."});
  Tensor(*m, 1).quantization = make(0, 9, {1}, 0);
  ExpectRejected(*m, {"MultiAxisQuantization zero_points"});
  Tensor(*m, 1).quantization = make(0, -1, {1}, -4);
  ExpectRejected(*m, {"block_size must be non-negative. Was -4."});
  Tensor(*m, 1).quantization = make(0, -1, {0, 2}, 0);
  ExpectRejected(*m, {"quantized_dimensions must be in range [0, 2). Value 2 at index 1"});
  // Packing an empty vector leaves the field out: "missing".
  Tensor(*m, 1).quantization = make(0, -1, {}, 0);
  ExpectRejected(*m, {"invalid MultiAxisQuantization parameters"});
}

// 4x4 float constant in CSR form: row-dense, column-sparse, three values.
std::unique_ptr<tflite::SparsityParametersT> Csr4x4(std::vector<int32_t> segments,
                                                   std::vector<int32_t> indices) {
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  auto rows = std::make_unique<tflite::DimensionMetadataT>();
  rows->format = tflite::DimensionType_DENSE;
  rows->dense_size = 4;
  auto cols = std::make_unique<tflite::DimensionMetadataT>();
  cols->format = tflite::DimensionType_SPARSE_CSR;
  tflite::Int32VectorT seg;
  seg.values = std::move(segments);
  cols->array_segments.Set(seg);
  tflite::Uint8VectorT idx;
  idx.values.assign(indices.begin(), indices.end());
  cols->array_indices.Set(idx);
  s->dim_metadata.push_back(std::move(rows));
  s->dim_metadata.push_back(std::move(cols));
  return s;
}

std::unique_ptr<tflite::ModelT> SparseModel() {
  auto m = BaseModel();
  Tensor(*m, 1).shape = {4, 4};
  Tensor(*m, 1).sparsity = Csr4x4({0, 1, 2, 2, 3}, {0, 3, 1});
  m->buffers[1]->data = FloatBytes({1.f, 2.f, 3.f});
  return m;
}

TEST(ModelRulesTest, SparseConstants) {
  ExpectAccepted(*SparseModel());
  {
    auto m = SparseModel();
    m->buffers[1]->data = FloatBytes({1.f, 2.f});
    ExpectRejected(*m, {"Subgraph 0 tensor 1 needs 12 bytes for its sparse values"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity = Csr4x4({0, 1, 2, 2, 3}, {0, 4, 1});  // column 4 of 4
    ExpectRejected(*m, {"Subgraph 0 tensor 1 has invalid sparsity parameters: level 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity = Csr4x4({0, 2, 1, 2, 3}, {0, 3, 1});  // decreasing segments
    ExpectRejected(*m, {"level 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity = Csr4x4({0, 1, 2, 3}, {0, 3, 1});  // one segment short
    ExpectRejected(*m, {"level 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity = Csr4x4({0, 1, 2, 2, 5}, {0, 3, 1});  // ends past the indices
    ExpectRejected(*m, {"level 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->traversal_order = {1, 1};
    ExpectRejected(*m, {"traversal_order[1] = 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->dim_metadata[0]->dense_size = 5;
    ExpectRejected(*m, {"level 0 dense_size 5, expected 4"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->dim_metadata[1]->format = static_cast<tflite::DimensionType>(7);
    ExpectRejected(*m, {"level 1 (format 7)"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->dim_metadata[1]->array_indices.Reset();
    ExpectRejected(*m, {"level 1"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->traversal_order.clear();
    ExpectRejected(*m, {"traversal_order and dim_metadata are required"});
  }
  {
    auto m = SparseModel();
    Tensor(*m, 1).sparsity->block_map = {0};  // a block dimension nobody describes
    ExpectRejected(*m, {"do not match"});
  }
}

TEST(ModelRulesTest, BlockSparseConstant) {
  // 4x4 with 2x2 blocks: block rows dense (2), block columns CSR, then the
  // 2x2 block itself dense. One block stored -> 4 values.
  auto m = BaseModel();
  Tensor(*m, 1).shape = {4, 4};
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1, 2, 3};
  s->block_map = {0, 1};
  auto dense = [](int32_t n) {
    auto d = std::make_unique<tflite::DimensionMetadataT>();
    d->format = tflite::DimensionType_DENSE;
    d->dense_size = n;
    return d;
  };
  auto csr = std::make_unique<tflite::DimensionMetadataT>();
  csr->format = tflite::DimensionType_SPARSE_CSR;
  tflite::Uint16VectorT seg;
  seg.values = {0, 1, 1};
  csr->array_segments.Set(seg);
  tflite::Uint16VectorT idx;
  idx.values = {1};
  csr->array_indices.Set(idx);
  s->dim_metadata.push_back(dense(2));
  s->dim_metadata.push_back(std::move(csr));
  s->dim_metadata.push_back(dense(2));
  s->dim_metadata.push_back(dense(2));
  Tensor(*m, 1).sparsity = std::move(s);
  m->buffers[1]->data = FloatBytes({1.f, 2.f, 3.f, 4.f});
  ExpectAccepted(*m);
  m->buffers[1]->data = FloatBytes({1.f, 2.f, 3.f});
  ExpectRejected(*m, {"needs 16 bytes for its sparse values"});
  m->buffers[1]->data = FloatBytes({1.f, 2.f, 3.f, 4.f});
  Tensor(*m, 1).sparsity->block_map = {0, 5};
  ExpectRejected(*m, {"block dimension 1"});
}

TEST(ModelRulesTest, ControlFlowSubgraphIndices) {
  auto with_options = [](auto options) {
    auto m = BaseModel();
    Op(*m).builtin_options.Set(options);
    return m;
  };
  tflite::WhileOptionsT w;
  w.cond_subgraph_index = 0;
  w.body_subgraph_index = 0;
  ExpectAccepted(*with_options(w));
  w.body_subgraph_index = 1;
  ExpectRejected(*with_options(w), {"Subgraph 0 operator 0: body_subgraph_index 1 is out of range"});
  w.body_subgraph_index = 0;
  w.cond_subgraph_index = -1;
  ExpectRejected(*with_options(w), {"cond_subgraph_index -1"});

  tflite::IfOptionsT i;
  i.then_subgraph_index = 0;
  i.else_subgraph_index = 3;
  ExpectRejected(*with_options(i), {"else_subgraph_index 3"});

  tflite::CallOnceOptionsT c;
  c.init_subgraph_index = 2;
  ExpectRejected(*with_options(c), {"init_subgraph_index 2"});

  auto m = BaseModel();
  tflite::StableHLOCompositeOptionsT composite;
  composite.decomposition_subgraph_index = 4;
  Op(*m).builtin_options_2.Set(composite);
  ExpectRejected(*m, {"decomposition_subgraph_index 4"});
  tflite::StablehloCaseOptionsT cases;
  cases.branch_subgraph_indices = {0, 0, 9};
  Op(*m).builtin_options_2.Set(cases);
  ExpectRejected(*m, {"branch_subgraph_indices 9"});
}

TEST(ModelRulesTest, SignatureDefs) {
  {
    auto m = BaseModel();
    m->signature_defs[0]->subgraph_index = 1;
    ExpectRejected(*m, {"SignatureDef 0 ('serving_default'): subgraph_index 1 is out of range"});
  }
  {
    auto m = BaseModel();
    m->signature_defs[0]->outputs[0]->tensor_index = 3;
    ExpectRejected(*m, {"SignatureDef 0 ('serving_default'): output 'y' refers to tensor 3"});
  }
  {
    auto m = BaseModel();
    m->signature_defs[0]->inputs[0]->name.clear();
    ExpectRejected(*m, {"input 0 has no name"});
  }
  {
    auto m = BaseModel();
    m->signature_defs[0]->signature_key.clear();
    ExpectRejected(*m, {"SignatureDef 0: missing exported method name"});
  }
  {
    auto m = BaseModel();
    m->signature_defs[0]->inputs.clear();
    m->signature_defs[0]->outputs.clear();
    ExpectAccepted(*m);
  }
}

}  // namespace
}  // namespace model_testing
}  // namespace tflite_c
