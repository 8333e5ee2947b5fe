// Helpers of the Model tests (model_loading_test.cc, model_rules_test.cc,
// model_large_form_test.cc): a reporter that counts messages, the shared
// model files, a small synthetic model built through the generated object
// API, and loading/rejection expectations.
#ifndef TFLITE_C_TESTS_CORE_MODEL_TEST_UTIL_H_
#define TFLITE_C_TESTS_CORE_MODEL_TEST_UTIL_H_

#include <dirent.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/core/model.h"
#include "tests/util/shared_models.h"

namespace tflite_c {
namespace model_testing {

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

inline Bytes ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return Bytes();
  Bytes bytes(static_cast<size_t>(f.tellg()));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

inline std::string ModelsDir() { return ::tflite_c::testing::SharedModelsDir(); }

inline std::vector<std::string> ListModelFiles() {
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

inline std::string ModelPath(const std::string& name) {
  return ModelsDir() + "/files/" + name + ".tflite";
}


// Reads everything a loaded model exposes, so that ASan notices any range
// that points outside the model bytes.
inline size_t TouchEverything(const Model& model) {
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

inline Bytes FloatBytes(std::initializer_list<float> values) {
  Bytes out(values.size() * sizeof(float));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

inline std::unique_ptr<tflite::TensorT> MakeTensor(
    const char* name, std::vector<int32_t> shape, uint32_t buffer = 0,
    tflite::TensorType type = tflite::TensorType_FLOAT32) {
  auto t = std::make_unique<tflite::TensorT>();
  t->name = name;
  t->shape = std::move(shape);
  t->buffer = buffer;
  t->type = type;
  return t;
}

// out = in + const, shapes [1, 2]; signature "serving_default".
inline std::unique_ptr<tflite::ModelT> BaseModel() {
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

inline Bytes Pack(const tflite::ModelT& m) {
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &m));
  return Bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

inline tflite::SubGraphT& Sub(tflite::ModelT& m, size_t i = 0) { return *m.subgraphs[i]; }
inline tflite::TensorT& Tensor(tflite::ModelT& m, size_t i) { return *m.subgraphs[0]->tensors[i]; }
inline tflite::OperatorT& Op(tflite::ModelT& m, size_t i = 0) {
  return *m.subgraphs[0]->operators[i];
}

// Loads `bytes`, expecting success; returns the model (kept alive with bytes).
struct Loaded {
  Bytes bytes;
  std::unique_ptr<Model> model;
  std::string errors;
};

inline Loaded Load(Bytes bytes) {
  Loaded l;
  l.bytes = std::move(bytes);
  CapturingReporter reporter;
  l.model = Model::FromBuffer(l.bytes.data(), l.bytes.size(), &reporter);
  l.errors = reporter.text();
  return l;
}

// Expects `m` to be rejected with a message containing every string of
// `needles`; exactly one message must be reported.
inline void ExpectRejected(const tflite::ModelT& m, std::initializer_list<const char*> needles) {
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

inline void ExpectAccepted(const tflite::ModelT& m) {
  Loaded l = Load(Pack(m));
  EXPECT_NE(l.model, nullptr) << l.errors;
  if (l.model) TouchEverything(*l.model);
}

}  // namespace model_testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_CORE_MODEL_TEST_UTIL_H_
