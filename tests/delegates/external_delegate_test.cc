// External delegates (delegates/external/external_delegate.h): loading the
// dummy delegate .so, and each failure (missing file, missing symbols, the
// plugin returning NULL, bad options) with a message that names the library
// and the cause.
#include "tensorflow/lite/delegates/external/external_delegate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"

#ifndef DUMMY_EXTERNAL_DELEGATE_PATH
#error "DUMMY_EXTERNAL_DELEGATE_PATH must be defined by the build"
#endif

namespace tflite_c {
namespace testing {
namespace {

::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in:\n" << text;
}

// Runs `fn` and returns what it printed to stderr.
template <typename Fn>
std::string Stderr(Fn fn) {
  ::testing::internal::CaptureStderr();
  fn();
  return ::testing::internal::GetCapturedStderr();
}


TEST(ExternalDelegateOptionsTest, DefaultAndInsert) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault("libx.so");
  EXPECT_STREQ(o.lib_path, "libx.so");
  EXPECT_EQ(o.count, 0);
  EXPECT_EQ(o.insert, &TfLiteExternalDelegateOptionsInsert);
  EXPECT_EQ(o.insert(&o, "k", "v"), kTfLiteOk);
  EXPECT_EQ(o.count, 1);
  EXPECT_STREQ(o.keys[0], "k");
  EXPECT_STREQ(o.values[0], "v");
}

TEST(ExternalDelegateOptionsTest, InsertRejectsBadArguments) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault("libx.so");
  std::string err = Stderr([&] { EXPECT_EQ(o.insert(&o, nullptr, "v"), kTfLiteError); });
  EXPECT_TRUE(Contains(err, "key is NULL"));
  err = Stderr([&] { EXPECT_EQ(o.insert(&o, "k", nullptr), kTfLiteError); });
  EXPECT_TRUE(Contains(err, "value of 'k' is NULL"));
  err = Stderr([&] { EXPECT_EQ(TfLiteExternalDelegateOptionsInsert(nullptr, "k", "v"), kTfLiteError); });
  EXPECT_TRUE(Contains(err, "options is NULL"));
  EXPECT_EQ(o.count, 0);

  for (int i = 0; i < kExternalDelegateMaxOptions; ++i) {
    ASSERT_EQ(o.insert(&o, "k", "v"), kTfLiteOk) << i;
  }
  err = Stderr([&] { EXPECT_EQ(o.insert(&o, "one_too_many", "v"), kTfLiteError); });
  EXPECT_TRUE(Contains(err, "one_too_many"));
  EXPECT_TRUE(Contains(err, "at most 256"));
  EXPECT_EQ(o.count, kExternalDelegateMaxOptions);
}

TEST(ExternalDelegateTest, LoadsTheDummyDelegate) {
  const std::vector<uint8_t> bytes = ChainModel();
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  ASSERT_EQ(o.insert(&o, "max_delegated_partitions", "1"), kTfLiteOk);
  TfLiteDelegate* d = TfLiteExternalDelegateCreate(&o);
  ASSERT_NE(d, nullptr);
  // The dummy delegate is a SimpleDelegate: buffer-handle callbacks are
  // forwarded (and its default CopyFromBufferHandle refuses).
  ASSERT_NE(d->CopyFromBufferHandle, nullptr);
  EXPECT_EQ(d->CopyFromBufferHandle(nullptr, d, 1, nullptr), kTfLiteError);
  {
    Session s;
    s.Create(bytes, {d});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(s.DelegateNodes(), 1);
    EXPECT_EQ(s.plan().size(), 1u);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
    ASSERT_TRUE(s.SetInput(0, {1, 2, 3, 4}));
    ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
    EXPECT_EQ(s.Output(0), (std::vector<float>{11, 22, 33, 44}));
  }
  TfLiteExternalDelegateDelete(d);
  TfLiteExternalDelegateDelete(nullptr);  // no-op
}

// Options reach the plugin: error_during_invoke makes its kernel fail, and
// fallback reruns on the CPU.
TEST(ExternalDelegateTest, OptionsReachThePlugin) {
  const std::vector<uint8_t> bytes = ChainModel();
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  ASSERT_EQ(o.insert(&o, "error_during_invoke", "true"), kTfLiteOk);
  TfLiteDelegate* d = TfLiteExternalDelegateCreate(&o);
  ASSERT_NE(d, nullptr);
  {
    Session s;
    s.Create(bytes, {d}, /*fallback=*/true);
    ASSERT_TRUE(s.ok()) << s.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
    ASSERT_TRUE(s.SetInput(0, {1, 2, 3, 4}));
    EXPECT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteDelegateError);
    EXPECT_TRUE(Contains(s.errors, "failing Eval"));
    EXPECT_EQ(s.Output(0), (std::vector<float>{11, 22, 33, 44}));
  }
  TfLiteExternalDelegateDelete(d);
}

TEST(ExternalDelegateTest, MissingFileNamesPathAndDlerror) {
  const char* path = "/nonexistent/dir/libno_such_delegate.so";
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(path);
  TfLiteDelegate* d = nullptr;
  const std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "cannot load delegate library"));
  EXPECT_TRUE(Contains(err, path));
  EXPECT_TRUE(Contains(err, "No such file or directory"));  // dlerror()
}

TEST(ExternalDelegateTest, LibraryWithoutSymbols) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(PLUGIN_NO_SYMBOLS_PATH);
  TfLiteDelegate* d = nullptr;
  const std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, PLUGIN_NO_SYMBOLS_PATH));
  EXPECT_TRUE(Contains(err, "does not export tflite_plugin_create_delegate"));
  EXPECT_TRUE(Contains(err, "undefined symbol"));  // dlerror()
}

TEST(ExternalDelegateTest, LibraryWithoutDestroySymbol) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(PLUGIN_CREATE_ONLY_PATH);
  TfLiteDelegate* d = nullptr;
  const std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, PLUGIN_CREATE_ONLY_PATH));
  EXPECT_TRUE(Contains(err, "does not export tflite_plugin_destroy_delegate"));
}

TEST(ExternalDelegateTest, PluginReturningNull) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(PLUGIN_RETURNS_NULL_PATH);
  ASSERT_EQ(o.insert(&o, "color", "blue"), kTfLiteOk);
  TfLiteDelegate* d = nullptr;
  const std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, std::string(PLUGIN_RETURNS_NULL_PATH) +
                             ": tflite_plugin_create_delegate returned NULL (1 option)"));
  // The plugin's own explanation, through report_error, with the options
  // it received.
  EXPECT_TRUE(Contains(err, std::string("External delegate ") + PLUGIN_RETURNS_NULL_PATH +
                             ": test plugin refuses to create a delegate (1 options, first "
                             "color=blue)"));
}

TEST(ExternalDelegateTest, PluginRejectingAnOption) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  ASSERT_EQ(o.insert(&o, "bogus", "1"), kTfLiteOk);
  TfLiteDelegate* d = nullptr;
  std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "unknown option 'bogus'"));
  EXPECT_TRUE(Contains(err, "returned NULL"));

  o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  ASSERT_EQ(o.insert(&o, "error_during_invoke", "maybe"), kTfLiteOk);
  err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "invalid value 'maybe' for option 'error_during_invoke'"));
}

TEST(ExternalDelegateTest, BadOptionsStruct) {
  TfLiteDelegate* d = nullptr;
  std::string err = Stderr([&] { d = TfLiteExternalDelegateCreate(nullptr); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "options is NULL"));

  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(nullptr);
  err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "lib_path is NULL"));

  o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  o.count = kExternalDelegateMaxOptions + 1;
  err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "count is 257, must be in [0, 256]"));

  o = TfLiteExternalDelegateOptionsDefault(DUMMY_EXTERNAL_DELEGATE_PATH);
  o.count = 1;
  o.keys[0] = nullptr;
  o.values[0] = "v";
  err = Stderr([&] { d = TfLiteExternalDelegateCreate(&o); });
  EXPECT_EQ(d, nullptr);
  EXPECT_TRUE(Contains(err, "option 0 has a NULL key"));
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c
