// Model: the large-model form, where buffer data follows the flatbuffer and
// is addressed by offset and size.
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
// Large-model form: data after the flatbuffer, addressed by offset/size.
// ---------------------------------------------------------------------------

// Packs the base model with buffer 1 moved out of line: its data is
// appended after the flatbuffer (16-byte aligned) and the offset patched in.
Bytes LargeFormModel(uint64_t* offset_out) {
  auto m = BaseModel();
  m->buffers[1]->data.clear();
  m->buffers[1]->offset = 2;  // placeholders, so that the fields are written
  m->buffers[1]->size = 8;
  Bytes bytes = Pack(*m);
  while (bytes.size() % 16) bytes.push_back(0);
  const uint64_t offset = bytes.size();
  const Bytes weights = FloatBytes({5.f, 6.f});
  bytes.insert(bytes.end(), weights.begin(), weights.end());
  auto* buffer = tflite::GetMutableModel(bytes.data())->mutable_buffers()->GetMutableObject(1);
  EXPECT_TRUE(buffer->mutate_offset(offset));
  *offset_out = offset;
  return bytes;
}

void PatchBuffer1(Bytes& bytes, uint64_t offset, uint64_t size) {
  auto* buffer = tflite::GetMutableModel(bytes.data())->mutable_buffers()->GetMutableObject(1);
  ASSERT_TRUE(buffer->mutate_offset(offset));
  ASSERT_TRUE(buffer->mutate_size(size));
}

TEST(ModelLargeFormTest, DataAfterTheFlatbuffer) {
  uint64_t offset = 0;
  Loaded l = Load(LargeFormModel(&offset));
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(l.model->GetBuffer(1, &data, &size));
  ASSERT_EQ(size, 8u);
  EXPECT_EQ(data, l.bytes.data() + offset);
  float v[2];
  std::memcpy(v, data, 8);
  EXPECT_EQ(v[0], 5.f);
  EXPECT_EQ(v[1], 6.f);
  const auto* tensor = l.model->fb()->subgraphs()->Get(0)->tensors()->Get(1);
  ASSERT_TRUE(l.model->GetTensorData(*tensor, &data, &size));
  EXPECT_EQ(size, 8u);
}

TEST(ModelLargeFormTest, FileLargerThanTwoGigabytes) {
  // A sparse file: the flatbuffer at the start, constant data beyond 2 GiB.
  // Only the flatbuffer part may go through the flatbuffers verifier (which
  // refuses buffers of 2 GiB or more); the rest is addressed by offset.
  uint64_t unused = 0;
  Bytes bytes = LargeFormModel(&unused);
  const uint64_t far_offset = (uint64_t{1} << 31) + 4096;
  auto* buffer = tflite::GetMutableModel(bytes.data())->mutable_buffers()->GetMutableObject(1);
  ASSERT_TRUE(buffer->mutate_offset(far_offset));
  char path[] = "/tmp/tflite_c_model_test_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const Bytes weights = FloatBytes({7.f, 8.f});
  const bool written =
      write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) &&
      pwrite(fd, weights.data(), weights.size(), static_cast<off_t>(far_offset)) ==
          static_cast<ssize_t>(weights.size());
  close(fd);
  if (!written) {
    unlink(path);
    GTEST_SKIP() << "cannot create a sparse file larger than 2 GiB in /tmp";
  }
  CapturingReporter reporter;
  auto model = Model::FromFile(path, &reporter);
  unlink(path);
  ASSERT_NE(model, nullptr) << reporter.text();
  EXPECT_EQ(model->size(), far_offset + 8);
  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(model->GetBuffer(1, &data, &size));
  ASSERT_EQ(size, 8u);
  float v[2];
  std::memcpy(v, data, 8);
  EXPECT_EQ(v[0], 7.f);
  EXPECT_EQ(v[1], 8.f);
}

TEST(ModelLargeFormTest, RangePastTheEnd) {
  uint64_t offset = 0;
  Bytes bytes = LargeFormModel(&offset);
  const size_t total = bytes.size();
  const std::pair<uint64_t, uint64_t> bad[] = {
      {offset + 4, 8},                  // 4 bytes past the end
      {total, 1},                       // starts at the end
      {offset, total + 1},              // longer than the file
      {UINT64_MAX - 3, 8},              // offset + size wraps around
      {8, UINT64_MAX},                  // size alone wraps
      {UINT64_MAX, UINT64_MAX},
  };
  for (const auto& b : bad) {
    PatchBuffer1(bytes, b.first, b.second);
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromBuffer(bytes.data(), bytes.size(), &reporter), nullptr)
        << "offset " << b.first << " size " << b.second;
    EXPECT_NE(reporter.text().find("Buffer 1 specifies an out of range offset"), std::string::npos)
        << reporter.text();
  }
  // Ending exactly at the end of the file is fine.
  PatchBuffer1(bytes, total - 8, 8);
  EXPECT_NE(Load(bytes).model, nullptr);
}

TEST(ModelLargeFormTest, SizeMustCoverTheShape) {
  uint64_t offset = 0;
  Bytes bytes = LargeFormModel(&offset);
  PatchBuffer1(bytes, offset, 4);
  Loaded l = Load(bytes);
  EXPECT_EQ(l.model, nullptr);
  EXPECT_NE(l.errors.find("needs 8 bytes"), std::string::npos) << l.errors;
}

TEST(ModelLargeFormTest, OffsetOneMeansNoData) {
  uint64_t offset = 0;
  Bytes bytes = LargeFormModel(&offset);
  // Offset 1 is the converter's placeholder: the tensor is read-write, and
  // an out-of-range size is not looked at.
  PatchBuffer1(bytes, 1, UINT64_MAX);
  Loaded l = Load(bytes);
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(l.model->GetBuffer(1, &data, &size));
  EXPECT_EQ(data, nullptr);
  EXPECT_EQ(size, 0u);
  const auto* tensor = l.model->fb()->subgraphs()->Get(0)->tensors()->Get(1);
  EXPECT_FALSE(l.model->GetTensorData(*tensor, &data, &size));
}

TEST(ModelLargeFormTest, LargeCustomOptions) {
  auto m = BaseModel();
  m->operator_codes[0]->builtin_code = tflite::BuiltinOperator_CUSTOM;
  m->operator_codes[0]->deprecated_builtin_code = tflite::BuiltinOperator_CUSTOM;
  m->operator_codes[0]->custom_code = "MyOp";
  Op(*m).builtin_options.Reset();
  Op(*m).large_custom_options_offset = 2;
  Op(*m).large_custom_options_size = 3;
  Bytes bytes = Pack(*m);
  const uint64_t offset = bytes.size();
  bytes.insert(bytes.end(), {7, 8, 9});
  auto* op = tflite::GetMutableModel(bytes.data())
                 ->mutable_subgraphs()
                 ->GetMutableObject(0)
                 ->mutable_operators()
                 ->GetMutableObject(0);
  ASSERT_TRUE(op->mutate_large_custom_options_offset(offset));
  {
    Loaded l = Load(bytes);
    ASSERT_NE(l.model, nullptr) << l.errors;
    const uint8_t* data;
    size_t size;
    l.model->GetCustomOptions(*l.model->fb()->subgraphs()->Get(0)->operators()->Get(0), &data,
                              &size);
    ASSERT_EQ(size, 3u);
    EXPECT_EQ(data[0], 7);
    EXPECT_EQ(data[2], 9);
  }
  ASSERT_TRUE(op->mutate_large_custom_options_size(4));
  Loaded l = Load(bytes);
  EXPECT_EQ(l.model, nullptr);
  EXPECT_NE(l.errors.find("Subgraph 0 operator 0: custom option offset"), std::string::npos)
      << l.errors;
}

}  // namespace
}  // namespace model_testing
}  // namespace tflite_c
