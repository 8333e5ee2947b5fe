// Tests of string tensors: the buffer codec (src/core/string_util) and its
// opaque-API readers, and the string / lookup-table kernels of
// src/kernels/registrations.inc (HASHTABLE, HASHTABLE_FIND, HASHTABLE_IMPORT,
// HASHTABLE_SIZE, HASHTABLE_LOOKUP). Models are built with ModelBuilder and
// run through the public C API.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tests/kernels/string_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::EncodeStrings;
using testing::ExpectAllocateError;
using testing::ModelBuilder;
using testing::ReadStrings;
using tflite::BuiltinOperator;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto U8 = tflite::TensorType_UINT8;
constexpr auto STR = tflite::TensorType_STRING;
constexpr auto RES = tflite::TensorType_RESOURCE;

// ---- helpers -------------------------------------------------------------------

std::vector<int> ShapeOf(const TfLiteTensor* t) {
  std::vector<int> shape;
  for (int d = 0; d < TfLiteTensorNumDims(t); ++d) shape.push_back(TfLiteTensorDim(t, d));
  return shape;
}

// The shared runner, plus STRING inputs.
class Runner : public testing::ModelRunner {
 public:
  using ModelRunner::ModelRunner;
  // Writes strings into a STRING input through the opaque API, keeping the
  // declared shape when it holds as many elements.
  void SetStrings(int i, const std::vector<std::string>& strings) {
    ASSERT_EQ(testing::WriteStrings(input(i), strings), kTfLiteOk);
  }
};

// For models whose failing node comes after a node with a dynamic output
// (HASHTABLE's handle): such nodes are prepared at Invoke, as upstream. Runs
// the model on zero-filled inputs and expects an error at either step.
void ExpectRunError(const ModelBuilder& b, const std::string& message) {
  Runner r(b);
  bool failed = !r.Allocate();
  if (!failed) {
    for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(r.interpreter()); ++i) {
      TfLiteTensor* in = r.input(i);
      if (TfLiteTensorType(in) == kTfLiteString) {
        std::vector<std::string> empty(TfLiteTensorNumDims(in) > 0 ? TfLiteTensorDim(in, 0) : 1);
        r.SetStrings(i, empty);
      } else if (TfLiteTensorByteSize(in) > 0) {
        std::memset(TfLiteTensorData(in), 0, TfLiteTensorByteSize(in));
      }
    }
    failed = !r.Invoke();
  }
  EXPECT_TRUE(failed);
  EXPECT_NE(r.log().find(message), std::string::npos) << r.log();
}

// ---- the buffer codec ------------------------------------------------------------

TEST(StringBufferTest, RoundTripsThroughTheOpaqueApi) {
  const std::vector<std::string> strings = {"", "a", "hello world", std::string("n\0l", 3)};
  std::vector<uint8_t> bytes = EncodeStrings(strings);
  // count 4, 5 offsets, 15 bytes of text.
  ASSERT_EQ(bytes.size(), 4u * 6 + 15);
  int32_t header[6];
  std::memcpy(header, bytes.data(), sizeof(header));
  EXPECT_EQ(header[0], 4);
  EXPECT_EQ(header[1], 24);
  EXPECT_EQ(header[5], static_cast<int32_t>(bytes.size()));

  TfLiteTensor t{};
  t.type = kTfLiteString;
  t.data.raw = reinterpret_cast<char*>(bytes.data());
  t.bytes = bytes.size();
  t.allocation_type = kTfLiteCustom;
  auto* opaque = reinterpret_cast<TfLiteOpaqueTensor*>(&t);
  ASSERT_EQ(TfLiteOpaqueTensorGetStringCount(opaque), 4);
  for (int i = 0; i < 4; ++i) {
    const char* str;
    int len;
    ASSERT_EQ(TfLiteOpaqueTensorGetString(opaque, i, &str, &len), kTfLiteOk);
    EXPECT_EQ(std::string(str, len), strings[i]);
  }
  const char* str;
  int len;
  EXPECT_EQ(TfLiteOpaqueTensorGetString(opaque, 4, &str, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(opaque, -1, &str, &len), kTfLiteError);
}

TEST(StringBufferTest, WriteStringsReshapesAndOwnsTheBuffer) {
  TfLiteTensor t{};
  t.type = kTfLiteString;
  t.dims = TfLiteIntArrayCreate(2);
  t.dims->data[0] = 2;
  t.dims->data[1] = 2;
  auto* opaque = reinterpret_cast<TfLiteOpaqueTensor*>(&t);
  const char* strs[] = {"x", "yz", "abc"};
  const int lens[] = {1, 2, 3};
  ASSERT_EQ(TfLiteOpaqueTensorWriteStrings(opaque, strs, 3, lens), kTfLiteOk);
  EXPECT_EQ(ShapeOf(&t), (std::vector<int>{3}));
  EXPECT_EQ(t.allocation_type, kTfLiteDynamic);
  EXPECT_EQ(ReadStrings(&t), (std::vector<std::string>{"x", "yz", "abc"}));
  ASSERT_EQ(TfLiteOpaqueTensorWriteString(opaque, "single", 6), kTfLiteOk);
  EXPECT_EQ(ReadStrings(&t), (std::vector<std::string>{"single"}));
  // Bad arguments change nothing.
  const int bad_lens[] = {1, -2};
  EXPECT_EQ(TfLiteOpaqueTensorWriteStrings(opaque, strs, 2, bad_lens), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorWriteStrings(opaque, strs, -1, lens), kTfLiteError);
  EXPECT_EQ(ReadStrings(&t), (std::vector<std::string>{"single"}));
  TfLiteTensorDataFree(&t);
  TfLiteIntArrayFree(t.dims);
}

// A malformed buffer: each case corrupts one int32 of a valid 2-string
// buffer ("ab", "cde"; header 16 bytes, total 21).
struct Corruption {
  const char* name;
  int word;       // which int32 to overwrite
  int32_t value;  // with what
  int bad_index;  // GetString(bad_index) must fail (-1: the count itself is bad)
};

class MalformedStringBufferTest : public ::testing::TestWithParam<Corruption> {};

TEST_P(MalformedStringBufferTest, IsRejected) {
  const Corruption& c = GetParam();
  std::vector<uint8_t> bytes = EncodeStrings({"ab", "cde"});
  ASSERT_EQ(bytes.size(), 21u);
  std::memcpy(bytes.data() + 4 * c.word, &c.value, sizeof(c.value));
  TfLiteTensor t{};
  t.type = kTfLiteString;
  t.data.raw = reinterpret_cast<char*>(bytes.data());
  t.bytes = bytes.size();
  auto* opaque = reinterpret_cast<TfLiteOpaqueTensor*>(&t);
  const char* str = nullptr;
  int len = -1;
  if (c.bad_index < 0) {
    EXPECT_EQ(StringTensorCount(&t), -1);
    EXPECT_EQ(TfLiteOpaqueTensorGetString(opaque, 0, &str, &len), kTfLiteError);
  } else {
    EXPECT_EQ(TfLiteOpaqueTensorGetString(opaque, c.bad_index, &str, &len), kTfLiteError);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedStringBufferTest,
    ::testing::Values(Corruption{"NegativeCount", 0, -1, -1},
                      Corruption{"CountPastTheBuffer", 0, 1000, -1},
                      Corruption{"HugeCount", 0, 0x7fffffff, -1},
                      Corruption{"EndPastTheBuffer", 3, 22, 1},
                      Corruption{"EndFarPastTheBuffer", 3, 0x7fffffff, 1},
                      Corruption{"NegativeOffset", 1, -4, 0},
                      Corruption{"OffsetsBackwards", 2, 14, 0},
                      Corruption{"StartInsideTheHeader", 1, 4, 0}),
    [](const ::testing::TestParamInfo<Corruption>& info) { return info.param.name; });

// ---- HASHTABLE / FIND / IMPORT / SIZE -------------------------------------------

tflite::HashtableOptionsT TableOpts(int id, tflite::TensorType key, tflite::TensorType value) {
  tflite::HashtableOptionsT o;
  o.table_id = id;
  o.key_dtype = key;
  o.value_dtype = value;
  return o;
}

int AddStringConstant(ModelBuilder& b, const std::vector<int>& shape,
                      const std::vector<std::string>& strings) {
  return b.AddConstantBytes(STR, shape, EncodeStrings(strings));
}

// main(keys) -> (FIND(keys), SIZE): a table filled by IMPORT from constants.
// INT64 -> STRING when `int_keys`, else STRING -> INT64. Operators: 0
// HASHTABLE, 1 IMPORT (unless `with_import` is false), then FIND and SIZE.
ModelBuilder TableModel(bool int_keys, int num_keys, bool with_import = true) {
  ModelBuilder b;
  const auto key_type = int_keys ? I64 : STR;
  const auto value_type = int_keys ? STR : I64;
  const int keys = b.AddInput(key_type, {num_keys}, "keys");
  const int found = b.AddOutput(value_type, {num_keys}, "found");
  const int size = b.AddOutput(I64, {1}, "size");
  const int handle = b.AddTensor(RES, {1}, "table");
  int table_keys, table_values, fallback;
  if (int_keys) {
    // 1 repeats: the first value wins.
    table_keys = b.AddConstant<int64_t>({4}, {1, 2, 1, -7});
    table_values = AddStringConstant(b, {4}, {"one", "two", "uno", "minus seven"});
    fallback = AddStringConstant(b, {1}, {"?"});
  } else {
    table_keys = AddStringConstant(b, {3}, {"apple", "", "pear"});
    table_values = b.AddConstant<int64_t>({3}, {10, 20, int64_t{1} << 40});
    fallback = b.AddConstant<int64_t>({1}, {-1});
  }
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {handle},
                TableOpts(7, key_type, value_type));
  if (with_import) {
    b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_IMPORT,
                  {handle, table_keys, table_values}, {});
  }
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_FIND, {handle, keys, fallback},
                {found});
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_SIZE, {handle}, {size});
  return b;
}

TEST(HashtableTest, Int64ToString) {
  Runner r(TableModel(/*int_keys=*/true, 5));
  ASSERT_TRUE(r.Allocate()) << r.log();
  for (int run = 0; run < 2; ++run) {  // the table persists; the import runs once
    r.Set<int64_t>(0, {2, 1, 3, -7, 1});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(ReadStrings(r.output(0)),
              (std::vector<std::string>{"two", "one", "?", "minus seven", "one"}));
    EXPECT_EQ(ShapeOf(r.output(0)), (std::vector<int>{5}));
    EXPECT_EQ(r.Get<int64_t>(1), (std::vector<int64_t>{3}));
  }
}

TEST(HashtableTest, StringToInt64) {
  Runner r(TableModel(/*int_keys=*/false, 4));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.SetStrings(0, {"pear", "apple", "plum", ""});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int64_t>(0), (std::vector<int64_t>{int64_t{1} << 40, 10, -1, 20}));
  EXPECT_EQ(r.Get<int64_t>(1), (std::vector<int64_t>{3}));
}

TEST(HashtableTest, RejectsMalformedStringKeys) {
  Runner r(TableModel(/*int_keys=*/false, 2));
  ASSERT_TRUE(r.Allocate()) << r.log();
  // Two strings whose last offset points past the buffer.
  std::vector<uint8_t> bytes = EncodeStrings({"pear", "apple"});
  const int32_t bad_end = static_cast<int32_t>(bytes.size()) + 100;
  std::memcpy(bytes.data() + 12, &bad_end, sizeof(bad_end));
  TfLiteTensor* in = r.input(0);
  TfLiteTensorDataFree(in);
  in->data.raw = static_cast<char*>(std::malloc(bytes.size()));
  std::memcpy(in->data.raw, bytes.data(), bytes.size());
  in->bytes = bytes.size();
  in->allocation_type = kTfLiteDynamic;
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("malformed"), std::string::npos) << r.log();
  // Fewer strings than the shape has elements.
  r.SetStrings(0, {"pear"});
  TfLiteIntArrayFree(in->dims);
  in->dims = TfLiteIntArrayCreate(1);
  in->dims->data[0] = 2;
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("hold 1 strings but have 2 elements"), std::string::npos) << r.log();
}

TEST(HashtableTest, InitializedOnceThroughCallOnce) {
  // As converted models do: subgraph 1 (run by CALL_ONCE) creates table 3 and
  // imports into it; main creates the same table id and looks keys up.
  ModelBuilder b;
  const int keys = b.AddInput(I64, {2}, "keys");
  const int found = b.AddOutput(STR, {2}, "found");
  const int handle = b.AddTensor(RES, {1});
  const int fallback = AddStringConstant(b, {1}, {"none"});
  tflite::CallOnceOptionsT once;
  once.init_subgraph_index = 1;
  b.AddOperator(BuiltinOperator::BuiltinOperator_CALL_ONCE, {}, {}, once);
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {handle}, TableOpts(3, I64, STR));
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_FIND, {handle, keys, fallback}, {found});
  b.AddSubgraph("init");
  b.SetCurrentSubgraph(1);
  {
    const int h = b.AddTensor(RES, {1});
    const int k = b.AddConstant<int64_t>({2}, {5, 6});
    const int v = AddStringConstant(b, {2}, {"five", "six"});
    b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {h}, TableOpts(3, I64, STR));
    b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_IMPORT, {h, k, v}, {});
  }
  b.SetCurrentSubgraph(0);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int64_t>(0, {6, 7});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(ReadStrings(r.output(0)), (std::vector<std::string>{"six", "none"}));
  r.Set<int64_t>(0, {5, 5});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(ReadStrings(r.output(0)), (std::vector<std::string>{"five", "five"}));
}

TEST(HashtableTest, FindBeforeImportFails) {
  Runner r(TableModel(true, 1, /*with_import=*/false));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int64_t>(0, {1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("HASHTABLE_IMPORT must run first"), std::string::npos) << r.log();
}

TEST(HashtableTest, RejectsUnsupportedTypes) {
  // HASHTABLE INT32 -> STRING.
  {
    ModelBuilder b;
    const int h = b.AddOutput(RES, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {h}, TableOpts(0, I32, STR));
    ExpectAllocateError(b, "HASHTABLE: a table from INT32 to STRING is not supported");
  }
  // FIND whose output type differs from the default value's.
  {
    ModelBuilder b = TableModel(true, 2);
    b.op(2).inputs[2] = b.AddConstant<int64_t>({1}, {0});
    ExpectRunError(b, "HASHTABLE_FIND: default value type INT64 does not match output type STRING");
  }
  // IMPORT with keys and values of different shapes.
  {
    ModelBuilder b = TableModel(true, 2);
    b.op(1).inputs[1] = b.AddConstant<int64_t>({2}, {1, 2});
    ExpectRunError(b, "keys [2] and values [4] must have the same shape");
  }
  // SIZE into INT32.
  {
    ModelBuilder b = TableModel(true, 2);
    b.op(3).outputs[0] = b.AddTensor(I32, {1});
    ExpectRunError(b, "HASHTABLE_SIZE: output type INT32 is not supported");
  }
  // An empty default value.
  {
    ModelBuilder b = TableModel(false, 2);
    b.op(2).inputs[2] = b.AddConstant<int64_t>({0}, {});
    ExpectRunError(b, "default value must hold at least one element");
  }
}

TEST(HashtableTest, RejectsATableUsedWithOtherTypes) {
  // A second HASHTABLE op names table 7 with the opposite types.
  ModelBuilder b = TableModel(true, 1);
  const int h2 = b.AddTensor(RES, {1});
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {h2}, TableOpts(7, STR, I64));
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int64_t>(0, {1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("the table maps INT64 to STRING, the op uses STRING to INT64"),
            std::string::npos)
      << r.log();
}

TEST(HashtableTest, TableIdsAndVariablesDoNotMix) {
  // VAR_HANDLE gets resource id 0 and ASSIGN_VARIABLE creates a variable
  // there; a HASHTABLE with table_id 0 must not take it over.
  ModelBuilder b;
  const int x = b.AddInput(F32, {1});
  const int out = b.AddOutput(RES, {1});
  const int var = b.AddTensor(RES, {1});
  tflite::VarHandleOptionsT vh;
  vh.shared_name = "v";
  b.AddOperator(BuiltinOperator::BuiltinOperator_VAR_HANDLE, {}, {var}, vh);
  b.AddOperator(BuiltinOperator::BuiltinOperator_ASSIGN_VARIABLE, {var, x}, {});
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE, {}, {out}, TableOpts(0, I64, STR));
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {1.f});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("resource id 0 already names a variable"), std::string::npos) << r.log();
}

TEST(HashtableTest, HandleThatIsNotATable) {
  // FIND on a handle nothing created.
  ModelBuilder b;
  const int keys = b.AddInput(I64, {1});
  const int found = b.AddOutput(STR, {1});
  const int handle = b.AddConstant<int32_t>({1}, {42});
  const int fallback = AddStringConstant(b, {1}, {"?"});
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_FIND, {handle, keys, fallback}, {found});
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int64_t>(0, {1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("resource 42 is not a hash table"), std::string::npos) << r.log();
}

// ---- HASHTABLE_LOOKUP -------------------------------------------------------------

ModelBuilder LookupModel(tflite::TensorType value_type, const std::vector<int>& value_shape,
                         int value_tensor_builder(ModelBuilder&), std::vector<int32_t> keys,
                         int num_ids) {
  ModelBuilder b;
  const int ids = b.AddInput(I32, {num_ids}, "ids");
  const int k = b.AddConstant<int32_t>({static_cast<int>(keys.size())}, keys);
  const int v = value_tensor_builder(b);
  std::vector<int> out_shape = value_shape;
  out_shape[0] = num_ids;
  const int out = b.AddOutput(value_type, out_shape, "out");
  const int hits = b.AddOutput(U8, {num_ids}, "hits");
  b.AddOperator(BuiltinOperator::BuiltinOperator_HASHTABLE_LOOKUP, {ids, k, v}, {out, hits});
  return b;
}

int FloatRows(ModelBuilder& b) { return b.AddConstant<float>({3, 2}, {1, 2, 3, 4, 5, 6}); }
int StringRows(ModelBuilder& b) { return AddStringConstant(b, {3}, {"one", "five", "nine"}); }

TEST(HashtableLookupTest, FloatRows) {
  Runner r(LookupModel(F32, {3, 2}, FloatRows, {1, 5, 9}, 4));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int32_t>(0, {5, 2, 9, 1});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(0), (std::vector<float>{3, 4, 0, 0, 5, 6, 1, 2}));
  EXPECT_EQ(r.Get<uint8_t>(1), (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(HashtableLookupTest, StringRows) {
  Runner r(LookupModel(STR, {3}, StringRows, {1, 5, 9}, 3));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int32_t>(0, {9, 4, 1});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(ReadStrings(r.output(0)), (std::vector<std::string>{"nine", "", "one"}));
  EXPECT_EQ(r.Get<uint8_t>(1), (std::vector<uint8_t>{1, 0, 1}));
}

TEST(HashtableLookupTest, RejectsBadInputs) {
  {
    Runner r(LookupModel(F32, {3, 2}, FloatRows, {9, 5, 1}, 1));
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.Set<int32_t>(0, {5});
    EXPECT_FALSE(r.Invoke());
    EXPECT_NE(r.log().find("keys must be sorted in ascending order"), std::string::npos)
        << r.log();
  }
  ExpectAllocateError(LookupModel(F32, {3, 2}, FloatRows, {1, 5}, 1), "2 keys but 3 rows");
  {
    ModelBuilder b = LookupModel(F32, {3, 2}, FloatRows, {1, 5, 9}, 1);
    b.op(0).outputs[1] = b.AddTensor(I32, {1});
    ExpectAllocateError(b, "HASHTABLE_LOOKUP: hits type INT32 is not supported");
  }
}

// ---- string paths of other ops -------------------------------------------------------

TEST(StringOpsTest, EqualAndNotEqualBroadcast) {
  for (const auto op : {BuiltinOperator::BuiltinOperator_EQUAL,
                        BuiltinOperator::BuiltinOperator_NOT_EQUAL}) {
    ModelBuilder b;
    const int a = b.AddInput(STR, {2, 2}, "a");
    const int c = AddStringConstant(b, {2}, {"x", ""});
    const int y = b.AddOutput(tflite::TensorType_BOOL, {2, 2}, "y");
    b.AddOperator(op, {a, c}, {y});
    Runner r(b);
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.SetStrings(0, {"x", "", "xy", std::string("\0", 1)});
    // WriteStrings made the input 1-D; restore the declared shape.
    TfLiteIntArrayFree(r.input(0)->dims);
    r.input(0)->dims = TfLiteIntArrayCreate(2);
    r.input(0)->dims->data[0] = 2;
    r.input(0)->dims->data[1] = 2;
    ASSERT_TRUE(r.Invoke()) << r.log();
    const std::vector<uint8_t> got = r.Get<uint8_t>(0);
    const std::vector<uint8_t> equal = {1, 1, 0, 0};
    ASSERT_EQ(got.size(), 4u);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(got[i], op == BuiltinOperator::BuiltinOperator_EQUAL ? equal[i] : 1 - equal[i])
          << i;
    }
  }
  // Ordering comparisons have no STRING form.
  ModelBuilder b;
  const int a = b.AddInput(STR, {1}, "a");
  const int c = AddStringConstant(b, {1}, {"x"});
  const int y = b.AddOutput(tflite::TensorType_BOOL, {1}, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_LESS, {a, c}, {y});
  ExpectAllocateError(b, "LESS: input type STRING is not supported");
}

}  // namespace
}  // namespace tflite_c
