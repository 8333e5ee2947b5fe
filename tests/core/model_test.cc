// Tests for Model: loading from files and buffers, the flatbuffer-level
// checks, every semantic rejection rule, and robustness against truncated
// and corrupted inputs (these also run under ASan+UBSan).
#include "src/core/model.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/util/shared_models.h"

namespace tflite_c {
namespace {

using Bytes = std::vector<uint8_t>;

class CapturingReporter : public ErrorReporter {
 public:
  void Report(const char* format, va_list args) override {
    char buf[1024];
    vsnprintf(buf, sizeof(buf), format, args);
    if (!text_.empty()) text_ += '\n';
    text_ += buf;
    ++count_;
  }
  const std::string& text() const { return text_; }
  int count() const { return count_; }

 private:
  std::string text_;
  int count_ = 0;
};

Bytes ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return Bytes();
  Bytes bytes(static_cast<size_t>(f.tellg()));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

std::string ModelsDir() { return ::tflite_c::testing::SharedModelsDir(); }

std::vector<std::string> ListModelFiles() {
  std::vector<std::string> names;
  const std::string dir = ModelsDir() + "/files";
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      const std::string ext = ".tflite";
      if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        names.push_back(name.substr(0, name.size() - ext.size()));
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string ModelPath(const std::string& name) {
  return ModelsDir() + "/files/" + name + ".tflite";
}


// Reads everything a loaded model exposes, so that ASan notices any range
// that points outside the model bytes.
size_t TouchEverything(const Model& model) {
  size_t checksum = 0;
  auto touch = [&checksum](const uint8_t* data, size_t size) {
    for (size_t i = 0; i < size; ++i) checksum += data[i];
  };
  const tflite::Model* fb = model.fb();
  const uint8_t* data;
  size_t size;
  for (uint32_t b = 0; b < fb->buffers()->size(); ++b) {
    EXPECT_TRUE(model.GetBuffer(b, &data, &size));
    touch(data, size);
  }
  EXPECT_FALSE(model.GetBuffer(fb->buffers()->size(), &data, &size));
  for (const auto* subgraph : *fb->subgraphs()) {
    for (const auto* tensor : *subgraph->tensors()) {
      if (model.GetTensorData(*tensor, &data, &size)) touch(data, size);
    }
    if (subgraph->operators()) {
      for (const auto* op : *subgraph->operators()) {
        model.GetCustomOptions(*op, &data, &size);
        touch(data, size);
      }
    }
  }
  return checksum;
}

// ---------------------------------------------------------------------------
// Small synthetic models, built through the generated object API.
// ---------------------------------------------------------------------------

Bytes FloatBytes(std::initializer_list<float> values) {
  Bytes out(values.size() * sizeof(float));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

std::unique_ptr<tflite::TensorT> MakeTensor(const char* name, std::vector<int32_t> shape,
                                            uint32_t buffer = 0,
                                            tflite::TensorType type = tflite::TensorType_FLOAT32) {
  auto t = std::make_unique<tflite::TensorT>();
  t->name = name;
  t->shape = std::move(shape);
  t->buffer = buffer;
  t->type = type;
  return t;
}

// out = in + const, shapes [1, 2]; signature "serving_default".
std::unique_ptr<tflite::ModelT> BaseModel() {
  auto m = std::make_unique<tflite::ModelT>();
  m->version = 3;
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = tflite::BuiltinOperator_ADD;
  code->deprecated_builtin_code = tflite::BuiltinOperator_ADD;
  m->operator_codes.push_back(std::move(code));

  m->buffers.push_back(std::make_unique<tflite::BufferT>());
  auto weights = std::make_unique<tflite::BufferT>();
  weights->data = FloatBytes({1.f, 2.f});
  m->buffers.push_back(std::move(weights));

  auto sg = std::make_unique<tflite::SubGraphT>();
  sg->tensors.push_back(MakeTensor("in", {1, 2}));
  sg->tensors.push_back(MakeTensor("const", {1, 2}, 1));
  sg->tensors.push_back(MakeTensor("out", {1, 2}));
  sg->inputs = {0};
  sg->outputs = {2};
  auto op = std::make_unique<tflite::OperatorT>();
  op->opcode_index = 0;
  op->inputs = {0, 1};
  op->outputs = {2};
  op->builtin_options.Set(tflite::AddOptionsT());
  sg->operators.push_back(std::move(op));
  m->subgraphs.push_back(std::move(sg));

  auto sig = std::make_unique<tflite::SignatureDefT>();
  sig->signature_key = "serving_default";
  sig->subgraph_index = 0;
  auto in = std::make_unique<tflite::TensorMapT>();
  in->name = "x";
  in->tensor_index = 0;
  sig->inputs.push_back(std::move(in));
  auto out = std::make_unique<tflite::TensorMapT>();
  out->name = "y";
  out->tensor_index = 2;
  sig->outputs.push_back(std::move(out));
  m->signature_defs.push_back(std::move(sig));
  return m;
}

Bytes Pack(const tflite::ModelT& m) {
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &m));
  return Bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

tflite::SubGraphT& Sub(tflite::ModelT& m, size_t i = 0) { return *m.subgraphs[i]; }
tflite::TensorT& Tensor(tflite::ModelT& m, size_t i) { return *m.subgraphs[0]->tensors[i]; }
tflite::OperatorT& Op(tflite::ModelT& m, size_t i = 0) { return *m.subgraphs[0]->operators[i]; }

// Loads `bytes`, expecting success; returns the model (kept alive with bytes).
struct Loaded {
  Bytes bytes;
  std::unique_ptr<Model> model;
  std::string errors;
};

Loaded Load(Bytes bytes) {
  Loaded l;
  l.bytes = std::move(bytes);
  CapturingReporter reporter;
  l.model = Model::FromBuffer(l.bytes.data(), l.bytes.size(), &reporter);
  l.errors = reporter.text();
  return l;
}

// Expects `m` to be rejected with a message containing every string of
// `needles`; exactly one message must be reported.
void ExpectRejected(const tflite::ModelT& m, std::initializer_list<const char*> needles) {
  Bytes bytes = Pack(m);
  CapturingReporter reporter;
  auto model = Model::FromBuffer(bytes.data(), bytes.size(), &reporter);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(reporter.count(), 1) << reporter.text();
  for (const char* needle : needles) {
    EXPECT_NE(reporter.text().find(needle), std::string::npos)
        << "message '" << reporter.text() << "' lacks '" << needle << "'";
  }
}

void ExpectAccepted(const tflite::ModelT& m) {
  Loaded l = Load(Pack(m));
  EXPECT_NE(l.model, nullptr) << l.errors;
  if (l.model) TouchEverything(*l.model);
}

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
}  // namespace tflite_c
