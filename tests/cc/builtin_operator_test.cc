// tflite::BuiltinOperator_* names for C++ programs (upstream apps call
// resolver.AddBuiltin(tflite::BuiltinOperator_ADD, ...)): the installed
// include/tensorflow/lite/schema/schema_generated.h must list every
// enumerator of schema/schema.fbs with the same value, and the names must
// work with the op resolvers.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"
// Inside the build this is flatc's schema (see the header), the reference.
#include "tensorflow/lite/schema/schema_generated.h"
#include "tests/util/model_builder.h"
#include "tests/util/test_paths.h"

namespace {

// name -> value of the header's enumerators, read from its text.
std::map<std::string, int> ShippedEnumerators() {
  std::ifstream f(std::string(TFLITE_C_SOURCE_DIR) +
                  "/include/tensorflow/lite/schema/schema_generated.h");
  std::stringstream text;
  text << f.rdbuf();
  std::map<std::string, int> out;
  const std::regex entry(R"(BuiltinOperator_([A-Z0-9_]+) = (-?[0-9]+),)");
  const std::string s = text.str();
  for (std::sregex_iterator it(s.begin(), s.end(), entry), end; it != end; ++it) {
    out[(*it)[1]] = std::stoi((*it)[2]);
  }
  return out;
}

TEST(BuiltinOperatorTest, ShippedHeaderMatchesTheSchema) {
  const std::map<std::string, int> shipped = ShippedEnumerators();
  ASSERT_GT(shipped.size(), 200u);
  // Every schema enumerator is shipped with its value ...
  size_t schema_count = 0;
  for (const tflite::BuiltinOperator op : tflite::EnumValuesBuiltinOperator()) {
    const std::string name = tflite::EnumNameBuiltinOperator(op);
    ++schema_count;
    auto it = shipped.find(name);
    ASSERT_NE(it, shipped.end()) << name << " missing";
    EXPECT_EQ(it->second, static_cast<int>(op)) << name;
  }
  // ... and nothing else.
  EXPECT_EQ(shipped.size(), schema_count);
  EXPECT_EQ(shipped.at("ADD"), 0);
  EXPECT_EQ(shipped.at("HASHTABLE"), 136);
  EXPECT_EQ(static_cast<int>(tflite::BuiltinOperator_HASHTABLE_SIZE), kTfLiteBuiltinHashtableSize);
}

TEST(BuiltinOperatorTest, NamesWorkWithTheOpResolvers) {
  // y = x + x through a MutableOpResolver filled by BuiltinOperator_* names,
  // as upstream programs register their kernels.
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {y}, tflite::AddOptionsT{});
  const std::vector<uint8_t> bytes = b.Finish();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  ASSERT_NE(model, nullptr);

  tflite::ops::builtin::BuiltinOpResolver builtins;
  const TfLiteRegistration* add = builtins.FindOp(tflite::BuiltinOperator_ADD, 1);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(builtins.FindOp(tflite::BuiltinOperator_HASHTABLE_FIND, 1) != nullptr, true);

  tflite::MutableOpResolver resolver;
  {
    // Without ADD the builder fails.
    std::unique_ptr<tflite::Interpreter> interpreter;
    EXPECT_NE(tflite::InterpreterBuilder(*model, resolver)(&interpreter), kTfLiteOk);
  }
  resolver.AddBuiltin(tflite::BuiltinOperator_ADD, add);
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(tflite::InterpreterBuilder(*model, resolver)(&interpreter), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  interpreter->typed_input_tensor<float>(0)[0] = 1.5f;
  interpreter->typed_input_tensor<float>(0)[1] = -2.f;
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk);
  EXPECT_EQ(interpreter->typed_output_tensor<float>(0)[0], 3.f);
  EXPECT_EQ(interpreter->typed_output_tensor<float>(0)[1], -4.f);
}

}  // namespace
