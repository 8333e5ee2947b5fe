// Model: loading from files and buffers, the flatbuffer-level checks,
// robustness against truncated and corrupted inputs (these also run under
// ASan+UBSan), every model of the shared set, buffers and custom options.
#include "src/core/model.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/core/model_test_util.h"

namespace tflite_c {
namespace model_testing {
namespace {

// ---------------------------------------------------------------------------
// Loading entry points
// ---------------------------------------------------------------------------

TEST(ModelTest, BaseModelLoadsWithoutCopy) {
  Bytes bytes = Pack(*BaseModel());
  CapturingReporter reporter;
  auto model = Model::FromBuffer(bytes.data(), bytes.size(), &reporter);
  ASSERT_NE(model, nullptr) << reporter.text();
  EXPECT_EQ(reporter.count(), 0);
  EXPECT_EQ(model->bytes(), bytes.data());
  EXPECT_EQ(model->size(), bytes.size());
  ASSERT_NE(model->fb(), nullptr);
  EXPECT_EQ(model->fb()->subgraphs()->size(), 1u);

  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(model->GetBuffer(1, &data, &size));
  ASSERT_EQ(size, 8u);
  float values[2];
  std::memcpy(values, data, sizeof(values));
  EXPECT_EQ(values[0], 1.f);
  EXPECT_EQ(values[1], 2.f);
  EXPECT_GE(data, bytes.data());
  EXPECT_LE(data + size, bytes.data() + bytes.size());

  ASSERT_TRUE(model->GetBuffer(0, &data, &size));
  EXPECT_EQ(data, nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_FALSE(model->GetBuffer(2, &data, &size));
  EXPECT_FALSE(model->GetBuffer(UINT32_MAX, &data, &size));

  const auto* tensors = model->fb()->subgraphs()->Get(0)->tensors();
  EXPECT_FALSE(model->GetTensorData(*tensors->Get(0), &data, &size));
  EXPECT_EQ(data, nullptr);
  ASSERT_TRUE(model->GetTensorData(*tensors->Get(1), &data, &size));
  EXPECT_EQ(size, 8u);
}

TEST(ModelTest, FromFileMapsTheFile) {
  Bytes bytes = Pack(*BaseModel());
  char path[] = "/tmp/tflite_c_model_test_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
  CapturingReporter reporter;
  auto model = Model::FromFile(path, &reporter);
  unlink(path);  // the mapping outlives the name
  ASSERT_NE(model, nullptr) << reporter.text();
  EXPECT_EQ(model->size(), bytes.size());
  EXPECT_EQ(0, std::memcmp(model->bytes(), bytes.data(), bytes.size()));
  TouchEverything(*model);
}

TEST(ModelTest, FromFileErrors) {
  {
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile("/nonexistent/dir/model.tflite", &reporter), nullptr);
    EXPECT_NE(reporter.text().find("Could not open '/nonexistent/dir/model.tflite'"),
              std::string::npos)
        << reporter.text();
  }
  {
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile(nullptr, &reporter), nullptr);
    EXPECT_EQ(reporter.count(), 1);
  }
  {
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile("/tmp", &reporter), nullptr);
    EXPECT_NE(reporter.text().find("not a regular file"), std::string::npos) << reporter.text();
  }
  {
    char path[] = "/tmp/tflite_c_model_test_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile(path, &reporter), nullptr);
    unlink(path);
    EXPECT_NE(reporter.text().find("is empty"), std::string::npos) << reporter.text();
  }
  {
    // A file that exists but holds garbage fails verification, and the
    // mapping is released (checked by ASan/LSan builds).
    char path[] = "/tmp/tflite_c_model_test_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    const char junk[] = "this is not a flatbuffer at all";
    ASSERT_EQ(write(fd, junk, sizeof(junk)), static_cast<ssize_t>(sizeof(junk)));
    close(fd);
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile(path, &reporter), nullptr);
    unlink(path);
    EXPECT_EQ(reporter.count(), 1);
  }
}

TEST(ModelTest, FromBufferErrors) {
  CapturingReporter reporter;
  EXPECT_EQ(Model::FromBuffer(nullptr, 100, &reporter), nullptr);
  uint8_t byte = 0;
  EXPECT_EQ(Model::FromBuffer(&byte, 0, &reporter), nullptr);
  EXPECT_EQ(reporter.count(), 2);
  EXPECT_NE(reporter.text().find("null/empty"), std::string::npos);
}

TEST(ModelTest, NullReporterUsesDefault) {
  Bytes junk(16, 0);
  EXPECT_EQ(Model::FromBuffer(junk.data(), junk.size(), nullptr), nullptr);
  EXPECT_EQ(Model::FromFile("/nonexistent/model.tflite", nullptr), nullptr);
}

// ---------------------------------------------------------------------------
// Flatbuffer-level checks
// ---------------------------------------------------------------------------

TEST(ModelTest, RejectsTooSmall) {
  Bytes bytes = Pack(*BaseModel());
  for (size_t n = 1; n < 8; ++n) {
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromBuffer(bytes.data(), n, &reporter), nullptr);
    EXPECT_NE(reporter.text().find("at least 8"), std::string::npos) << reporter.text();
  }
}

TEST(ModelTest, RejectsWrongIdentifier) {
  Bytes bytes = Pack(*BaseModel());
  bytes[4] = 'X';
  bytes[7] = 0x01;
  CapturingReporter reporter;
  EXPECT_EQ(Model::FromBuffer(bytes.data(), bytes.size(), &reporter), nullptr);
  EXPECT_NE(reporter.text().find("identifier 'XFL\\x01', should be 'TFL3'"), std::string::npos)
      << reporter.text();
}

TEST(ModelTest, RejectsMissingIdentifier) {
  // Upstream requires the identifier too (both its verifier and its model
  // constructor check it).
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, BaseModel().get()));
  CapturingReporter reporter;
  EXPECT_EQ(Model::FromBuffer(fbb.GetBufferPointer(), fbb.GetSize(), &reporter), nullptr);
  EXPECT_NE(reporter.text().find("should be 'TFL3'"), std::string::npos) << reporter.text();
}

TEST(ModelTest, RejectsGarbageWithIdentifier) {
  Bytes bytes(64, 0xff);
  std::memcpy(bytes.data() + 4, "TFL3", 4);
  CapturingReporter reporter;
  EXPECT_EQ(Model::FromBuffer(bytes.data(), bytes.size(), &reporter), nullptr);
  EXPECT_NE(reporter.text().find("not a valid Flatbuffer"), std::string::npos) << reporter.text();
}

TEST(ModelTest, EveryTruncationIsRejectedSafely) {
  const Bytes full = Pack(*BaseModel());
  for (size_t n = 0; n < full.size(); ++n) {
    // A fresh heap copy of exactly n bytes, so ASan catches reads past it.
    std::unique_ptr<uint8_t[]> prefix(new uint8_t[n + 1]);
    std::memcpy(prefix.get(), full.data(), n);
    CapturingReporter reporter;
    auto model = Model::FromBuffer(prefix.get(), n, &reporter);
    EXPECT_EQ(model, nullptr) << "prefix of " << n << " bytes accepted";
    EXPECT_GE(reporter.count(), 1);
  }
}

TEST(ModelTest, EveryTruncationOfRealModelsIsSafe) {
  SKIP_WITHOUT_SHARED_MODELS();
  for (const char* name : {"java_add", "java_string", "litert_simple_group_norm_op"}) {
    const Bytes full = ReadFile(ModelPath(name));
    ASSERT_FALSE(full.empty()) << name;
    for (size_t n = 0; n < full.size(); ++n) {
      std::unique_ptr<uint8_t[]> prefix(new uint8_t[n + 1]);
      std::memcpy(prefix.get(), full.data(), n);
      CapturingReporter reporter;
      auto model = Model::FromBuffer(prefix.get(), n, &reporter);
      if (model) TouchEverything(*model);
      else EXPECT_GE(reporter.count(), 1);
    }
  }
}

TEST(ModelTest, RandomByteFlipsNeverCrash) {
  SKIP_WITHOUT_SHARED_MODELS();
  std::mt19937 rng(20240519);
  int loaded = 0, rejected = 0;
  for (const char* name : {"java_add", "java_string", "java_mul_add_signature_def",
                           "mp_face_detection_full_range_sparse", "litert_simple_group_norm_op",
                           "java_quantized"}) {
    const Bytes original = ReadFile(ModelPath(name));
    if (original.empty()) continue;
    for (int iter = 0; iter < 400; ++iter) {
      Bytes bytes = original;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        const size_t pos = rng() % bytes.size();
        switch (rng() % 3) {
          case 0: bytes[pos] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
          case 1: bytes[pos] = static_cast<uint8_t>(rng()); break;
          default: bytes[pos] = (rng() & 1) ? 0xff : 0x00; break;
        }
      }
      CapturingReporter reporter;
      auto model = Model::FromBuffer(bytes.data(), bytes.size(), &reporter);
      if (model) {
        ++loaded;
        TouchEverything(*model);
      } else {
        ++rejected;
        EXPECT_GE(reporter.count(), 1);
      }
    }
  }
  // Both outcomes must occur; otherwise the mutation is not exercising much.
  EXPECT_GT(loaded, 0);
  EXPECT_GT(rejected, 0);
}

// ---------------------------------------------------------------------------
// Real models from the shared set
// ---------------------------------------------------------------------------

// Models of the shared set that a conforming runtime refuses. The first two
// are broken flatbuffers; the other three are rejected by upstream when the
// interpreter is built, which we do at model creation.
const std::set<std::string>& ModelsRejectedAtCreation() {
  static const std::set<std::string> names = {
      "java_invalid_model",        // 25 bytes, not a flatbuffer
      "tflite_test_model_broken",  // corrupt flatbuffer
      "quant_transpose",           // schema version 2
      "tflite_no_subgraphs",       // zero subgraphs
      "tflm_person_detect",        // quantized_dimension 3 on rank-1 tensors
  };
  return names;
}

TEST(ModelTest, LoadsEverySharedModel) {
  SKIP_WITHOUT_SHARED_MODELS();
  const auto names = ListModelFiles();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const bool expect_error = ModelsRejectedAtCreation().count(name) != 0;
    CapturingReporter file_reporter;
    auto from_file = Model::FromFile(ModelPath(name).c_str(), &file_reporter);
    const Bytes bytes = ReadFile(ModelPath(name));
    CapturingReporter buffer_reporter;
    auto from_buffer = Model::FromBuffer(bytes.data(), bytes.size(), &buffer_reporter);
    if (expect_error) {
      EXPECT_EQ(from_file, nullptr);
      EXPECT_EQ(from_buffer, nullptr);
      EXPECT_EQ(file_reporter.count(), 1) << file_reporter.text();
      EXPECT_EQ(file_reporter.text(), buffer_reporter.text());
    } else {
      ASSERT_NE(from_file, nullptr) << file_reporter.text();
      ASSERT_NE(from_buffer, nullptr) << buffer_reporter.text();
      EXPECT_EQ(file_reporter.count(), 0) << file_reporter.text();
      EXPECT_EQ(TouchEverything(*from_file), TouchEverything(*from_buffer));
    }
  }
}

TEST(ModelTest, SharedModelRejectionMessages) {
  SKIP_WITHOUT_SHARED_MODELS();
  const std::pair<const char*, const char*> cases[] = {
      {"quant_transpose", "schema version 2 not equal to supported version 3"},
      {"tflite_no_subgraphs", "No subgraph in the model"},
      {"tflm_person_detect", "quantized_dimension must be in range [0, 1). Was 3."},
      {"java_invalid_model", "TFL3"},
      {"tflite_test_model_broken", "should be 'TFL3'"},
  };
  for (const auto& c : cases) {
    CapturingReporter reporter;
    EXPECT_EQ(Model::FromFile(ModelPath(c.first).c_str(), &reporter), nullptr);
    EXPECT_NE(reporter.text().find(c.second), std::string::npos)
        << c.first << ": " << reporter.text();
  }
}

TEST(ModelTest, LargeModelBuffersOfRealModel) {
  SKIP_WITHOUT_SHARED_MODELS();
  // This model keeps constant data after the flatbuffer (offset/size).
  const Bytes bytes = ReadFile(ModelPath("litert_simple_group_norm_op"));
  Loaded l = Load(bytes);
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(l.model->GetBuffer(2, &data, &size));
  EXPECT_EQ(size, 8u);
  EXPECT_EQ(data, l.bytes.data() + 3360);
}


// ---------------------------------------------------------------------------
// Buffers and custom options
// ---------------------------------------------------------------------------

TEST(ModelTest, InlineCustomOptions) {
  auto m = BaseModel();
  m->operator_codes[0]->builtin_code = tflite::BuiltinOperator_CUSTOM;
  m->operator_codes[0]->custom_code = "MyOp";
  Op(*m).builtin_options.Reset();
  Op(*m).custom_options = {1, 2, 3, 4, 5};
  Loaded l = Load(Pack(*m));
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  l.model->GetCustomOptions(*l.model->fb()->subgraphs()->Get(0)->operators()->Get(0), &data,
                            &size);
  ASSERT_EQ(size, 5u);
  EXPECT_EQ(data[4], 5);
}

// A data vector that is present but empty marks a tensor constant (upstream
// maps it read-only with zero bytes). The object API drops empty vectors, so
// this model is assembled with the low-level builder.
Bytes ModelWithEmptyDataVector(std::vector<int32_t> const_shape) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers = {
      tflite::CreateBuffer(fbb),
      tflite::CreateBuffer(fbb, fbb.CreateVector(std::vector<uint8_t>{})),
  };
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors = {
      tflite::CreateTensor(fbb, fbb.CreateVector(std::vector<int32_t>{1}),
                           tflite::TensorType_FLOAT32, 0),
      tflite::CreateTensor(fbb, fbb.CreateVector(const_shape), tflite::TensorType_FLOAT32, 1),
  };
  auto subgraph = tflite::CreateSubGraph(fbb, fbb.CreateVector(tensors),
                                         fbb.CreateVector(std::vector<int32_t>{0}),
                                         fbb.CreateVector(std::vector<int32_t>{0}));
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {subgraph};
  auto model = tflite::CreateModel(fbb, 3, 0, fbb.CreateVector(subgraphs), 0,
                                   fbb.CreateVector(buffers));
  tflite::FinishModelBuffer(fbb, model);
  return Bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

TEST(ModelTest, PresentButEmptyDataVector) {
  Loaded l = Load(ModelWithEmptyDataVector({0, 3}));
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  ASSERT_TRUE(l.model->GetBuffer(1, &data, &size));
  EXPECT_EQ(data, nullptr);  // GetBuffer: empty is empty
  EXPECT_EQ(size, 0u);
  const auto* tensor = l.model->fb()->subgraphs()->Get(0)->tensors()->Get(1);
  EXPECT_TRUE(l.model->GetTensorData(*tensor, &data, &size));  // but the tensor is constant
  EXPECT_EQ(size, 0u);

  Loaded bad = Load(ModelWithEmptyDataVector({2}));
  EXPECT_EQ(bad.model, nullptr);
  EXPECT_NE(bad.errors.find("tensor 1 needs 8 bytes"), std::string::npos) << bad.errors;
}

TEST(ModelTest, BufferZeroNeverBacksATensor) {
  // Tensors naming buffer 0 are read-write even if buffer 0 holds data
  // (upstream only warns about such a buffer 0).
  auto m = BaseModel();
  m->buffers[0]->data = FloatBytes({9.f});
  Loaded l = Load(Pack(*m));
  ASSERT_NE(l.model, nullptr) << l.errors;
  const uint8_t* data;
  size_t size;
  const auto* tensor = l.model->fb()->subgraphs()->Get(0)->tensors()->Get(0);
  EXPECT_FALSE(l.model->GetTensorData(*tensor, &data, &size));
  ASSERT_TRUE(l.model->GetBuffer(0, &data, &size));
  EXPECT_EQ(size, 4u);
}

}  // namespace
}  // namespace model_testing
}  // namespace tflite_c
