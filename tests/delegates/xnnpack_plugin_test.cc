// The XNNPACK delegate as an external delegate library
// (libtflite_c_xnnpack_delegate.so): created through
// TfLiteExternalDelegateCreate with string options it gives the same outputs
// as TfLiteXNNPackDelegateCreate; bad options fail creation with a message
// naming the option; the weight cache path option works through it; and
// benchmark_model runs a model with --external_delegate_path. Skipped when
// the plugin is not built (builds without XNNPACK).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

#ifdef XNNPACK_PLUGIN_PATH

struct ExternalDeleter {
  void operator()(TfLiteDelegate* d) const { TfLiteExternalDelegateDelete(d); }
};
using ExternalPtr = std::unique_ptr<TfLiteDelegate, ExternalDeleter>;

// x[1,6,6,3] -> CONV_2D 3x3 (bias, RELU6) -> FULLY_CONNECTED(8) -> y
std::vector<uint8_t> Net() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 6, 6, 3}, "x");
  const int w = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 31));
  const int bias = b.AddConstant<float>({4}, Random(4, 32));
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, {1, 6, 6, 4});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w, bias}, {c}, conv);
  const int fw = b.AddConstant<float>({8, 144}, Random(8 * 144, 33));
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 8}, "y");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {c, fw, -1}, {y},
                tflite::FullyConnectedOptionsT());
  return b.Finish();
}

ExternalPtr Create(const std::vector<std::pair<std::string, std::string>>& kv,
                   std::string* err = nullptr) {
  TfLiteExternalDelegateOptions o = TfLiteExternalDelegateOptionsDefault(XNNPACK_PLUGIN_PATH);
  for (const auto& p : kv) o.insert(&o, p.first.c_str(), p.second.c_str());
  ::testing::internal::CaptureStderr();
  ExternalPtr d(TfLiteExternalDelegateCreate(&o));
  const std::string text = ::testing::internal::GetCapturedStderr();
  if (err) *err = text;
  return d;
}

using Result = FloatRun;

Result RunModel(const std::vector<uint8_t>& bytes, TfLiteDelegate* d) {
  return RunFloatModel(bytes, d, Random(108, 34));
}

TEST(XnnpackPlugin, MatchesTheDirectDelegate) {
  const std::vector<uint8_t> bytes = Net();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 2;
  XnnPtr direct(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(direct, nullptr);
  const Result want = RunModel(bytes, direct.get());
  ASSERT_EQ(want.out.size(), 8u) << want.errors;
  const Result builtin = RunModel(bytes, nullptr);
  for (const auto& options : std::vector<std::vector<std::pair<std::string, std::string>>>{
           {},
           {{"num_threads", "2"}},
           {{"xnnpack_num_threads", "1"}, {"qs8", "false"}, {"qu8", "0"}},
           {{"flags", "0x3"}, {"runtime_flags", "0"}, {"transient_indirection_buffer", "true"}},
       }) {
    std::string err;
    ExternalPtr d = Create(options, &err);
    ASSERT_NE(d, nullptr) << err;
    const Result got = RunModel(bytes, d.get());
    EXPECT_EQ(got.delegate_nodes, 1) << got.errors;
    ASSERT_EQ(got.out.size(), want.out.size()) << got.errors;
    for (size_t i = 0; i < got.out.size(); ++i) {
      EXPECT_NEAR(got.out[i], want.out[i], 1e-5f) << i;
      EXPECT_NEAR(got.out[i], builtin.out[i], 1e-4f) << i;
    }
  }
}

TEST(XnnpackPlugin, ForceFp16OptionReachesTheDelegate) {
  const std::vector<uint8_t> bytes = Net();
  const Result builtin = RunModel(bytes, nullptr);
  ExternalPtr d = Create({{"force_fp16", "true"}});
  ASSERT_NE(d, nullptr);
  const Result got = RunModel(bytes, d.get());
  if (got.delegate_nodes == 0) {
    // The CPU cannot run fp16: said so, and the builtin kernels ran.
    EXPECT_NE(got.errors.find("FORCE_FP16 is not supported"), std::string::npos) << got.errors;
    GTEST_SKIP() << "no fp16 arithmetic on this CPU";
  }
  ASSERT_EQ(got.out.size(), builtin.out.size()) << got.errors;
  bool differs = false;
  for (size_t i = 0; i < got.out.size(); ++i) {
    EXPECT_NEAR(got.out[i], builtin.out[i], 0.05f + 0.01f * std::fabs(builtin.out[i])) << i;
    differs |= got.out[i] != builtin.out[i];
  }
  EXPECT_TRUE(differs) << "force_fp16 gave exactly the fp32 result";
}

TEST(XnnpackPlugin, BadOptionsFailWithAMessage) {
  const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>>
      cases = {
          {{{"num_threads", "-1"}}, "invalid value '-1' for option 'num_threads'"},
          {{{"num_threads", "two"}}, "invalid value 'two' for option 'num_threads'"},
          {{{"num_threads", "99999999999"}}, "for option 'num_threads'"},
          {{{"num_threads", ""}}, "for option 'num_threads'"},
          {{{"force_fp16", "maybe"}}, "invalid value 'maybe' for option 'force_fp16'"},
          {{{"flags", "0x1ffffffff"}}, "for option 'flags'"},
          {{{"weight_cache_file_path", ""}}, "for option 'weight_cache_file_path'"},
          {{{"num_threads", "1"}, {"no_such_option", "1"}}, "unknown option 'no_such_option'"},
      };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.second);
    std::string err;
    ExternalPtr d = Create(c.first, &err);
    EXPECT_EQ(d, nullptr);
    EXPECT_NE(err.find(c.second), std::string::npos) << err;
    EXPECT_NE(err.find("XNNPACK delegate"), std::string::npos) << err;
  }
}

std::string TempDir() {
  std::string t = "/tmp/xnn_plugin_XXXXXX";
  return mkdtemp(&t[0]) ? t : "";
}

TEST(XnnpackPlugin, WeightCachePathOption) {
  const std::string dir = TempDir();
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/cache.bin";
  const std::vector<uint8_t> bytes = Net();
  std::vector<float> first;
  {
    ExternalPtr d = Create({{"weight_cache_file_path", path}});
    ASSERT_NE(d, nullptr);
    first = RunModel(bytes, d.get()).out;
    ASSERT_EQ(first.size(), 8u);
  }
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_GE(st.st_size, 4096);
  const auto mtime = st.st_mtim;
  {
    ExternalPtr d = Create({{"xnnpack_weight_cache_file_path", path}});
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(RunModel(bytes, d.get()).out, first);
  }
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mtim.tv_sec, mtime.tv_sec);  // loaded, not rewritten
  EXPECT_EQ(st.st_mtim.tv_nsec, mtime.tv_nsec);
  std::system(("rm -rf '" + dir + "'").c_str());
}

#ifdef BENCHMARK_MODEL_PATH
// Runs `cmd`, returning its exit status and output.
int Shell(const std::string& cmd, std::string* out) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(XnnpackPlugin, BenchmarkModelLoadsIt) {
  const std::string dir = TempDir();
  ASSERT_FALSE(dir.empty());
  const std::string model = dir + "/net.tflite";
  const std::vector<uint8_t> bytes = Net();
  std::ofstream(model, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const std::string base = std::string(BENCHMARK_MODEL_PATH) + " --graph=" + model +
                           " --num_runs=2 --warmup_runs=1 --use_xnnpack=false" +
                           " --external_delegate_path=" +
                           XNNPACK_PLUGIN_PATH;
  std::string out;
  EXPECT_EQ(Shell(base + " --external_delegate_options='num_threads:2;weight_cache_file_path:" +
                      dir + "/c.bin'",
                  &out),
            0)
      << out;
  EXPECT_NE(out.find("Explicitly applied EXTERNAL delegate, and the model graph will be "
                     "completely executed by the delegate."),
            std::string::npos)
      << out;
  // (--use_xnnpack=false: otherwise the library's default XNNPACK delegate,
  // applied when the interpreter is created, takes the graph first.)
  struct stat st;
  EXPECT_EQ(stat((dir + "/c.bin").c_str(), &st), 0) << out;
  out.clear();
  EXPECT_NE(Shell(base + " --external_delegate_options='num_threads:lots'", &out), 0) << out;
  EXPECT_NE(out.find("invalid value 'lots' for option 'num_threads'"), std::string::npos) << out;
  std::system(("rm -rf '" + dir + "'").c_str());
}
#endif  // BENCHMARK_MODEL_PATH

#else

TEST(XnnpackPlugin, NotBuilt) { GTEST_SKIP() << "built without XNNPACK: no plugin library"; }

#endif  // XNNPACK_PLUGIN_PATH

}  // namespace
}  // namespace testing
}  // namespace tflite_c
