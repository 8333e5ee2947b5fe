// XNNPACK delegate file-backed weight cache: weight_cache_file_path,
// weight_cache_file_descriptor and the in-memory path. The first delegate
// packs the weights and writes the file; a later one maps it and packs
// nothing (counted through the cache's statistics), with identical outputs.
// Unwritable paths, corrupt / truncated / foreign files and another model's
// cache are reported and handled (packed in memory or rebuilt), never a
// crash. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"

#ifdef TFLITE_C_WITH_XNNPACK
#include "src/delegates/xnnpack/weight_cache.h"
#include "tests/util/test_paths.h"
#endif

namespace tflite_c {
namespace testing {
namespace {

#ifdef TFLITE_C_WITH_XNNPACK

using xnnpack::WeightCacheStats;

// x[1,8,8,3] -> CONV_2D (bias) -> DEPTHWISE (bias) -> FULLY_CONNECTED with
// fp16 weights (DEQUANTIZE) and no bias -> y. `seed` picks the weights.
std::vector<uint8_t> Net(uint32_t seed) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 8, 8, 3}, "x");
  const int w1 = b.AddConstant<float>({4, 3, 3, 3}, Random(108, seed + 1));
  const int b1 = b.AddConstant<float>({4}, Random(4, seed + 2));
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 4});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, b1}, {c1}, conv);
  const int w2 = b.AddConstant<float>({1, 3, 3, 4}, Random(36, seed + 3));
  const int b2 = b.AddConstant<float>({4}, Random(4, seed + 4));
  const int c2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 4});
  tflite::DepthwiseConv2DOptionsT dw;
  dw.padding = tflite::Padding_SAME;
  dw.stride_w = dw.stride_h = 2;
  dw.depth_multiplier = 1;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {c1, w2, b2}, {c2}, dw);
  // fp16 weights [10, 64]: small integers are exact in half precision.
  std::vector<uint8_t> half(10 * 64 * 2);
  for (size_t i = 0; i < 640; ++i) {
    const int v = static_cast<int>((i * 7 + seed) % 9) - 4;  // -4..4
    // IEEE half of small integers: sign, exponent, mantissa.
    uint16_t h = 0;
    if (v != 0) {
      const int a = v < 0 ? -v : v;
      int e = 0;
      while ((1 << (e + 1)) <= a) ++e;
      const uint16_t mant = static_cast<uint16_t>((a - (1 << e)) << (10 - e));
      h = static_cast<uint16_t>(((v < 0) ? 0x8000 : 0) | ((e + 15) << 10) | mant);
    }
    std::memcpy(&half[i * 2], &h, 2);
  }
  const int hw = b.AddConstantBytes(tflite::TensorType_FLOAT16, {10, 64}, half);
  const int fw = b.AddTensor(tflite::TensorType_FLOAT32, {10, 64});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {hw}, {fw});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 10}, "y");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {c2, fw, -1}, {y},
                tflite::FullyConnectedOptionsT());
  return b.Finish();
}

std::string TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string t = std::string(base && base[0] ? base : "/tmp") + "/xnn_wcache_XXXXXX";
  if (mkdtemp(&t[0]) == nullptr) return "";
  return t;
}

bool Exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::vector<uint8_t> ReadFile(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void WriteFile(const std::string& p, const std::vector<uint8_t>& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

XnnPtr CacheDelegate(const char* path, int fd = -1, int threads = 1) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = threads;
  o.weight_cache_file_path = path;
  o.weight_cache_file_descriptor = fd;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

using Result = FloatRun;

Result RunModel(const std::vector<uint8_t>& bytes, TfLiteDelegate* d) {
  return RunFloatModel(bytes, d, Random(8 * 8 * 3, 99));
}

WeightCacheStats Stats(TfLiteDelegate* d) {
  WeightCacheStats st;
  EXPECT_TRUE(xnnpack::GetWeightCacheStats(d, &st));
  if (std::getenv("WC_DEBUG"))
    std::fprintf(stderr, "stats: loaded %d entries %zu lookups %zu hits %zu packed %zu unnamed %zu reused %zu writes %zu\n",
                 st.loaded, st.loaded_entries, st.lookups, st.hits, st.packed, st.unnamed, st.reused, st.writes);
  return st;
}

class XnnpackWeightCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kWithXnnpack) GTEST_SKIP() << "built without XNNPACK";
    dir_ = TempDir();
    ASSERT_FALSE(dir_.empty());
    path_ = dir_ + "/model.xnn_cache";
    bytes_ = Net(0);
    XnnPtr plain = CacheDelegate(nullptr);
    reference_ = RunModel(bytes_, plain.get()).out;
    ASSERT_EQ(reference_.size(), 10u);
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }

  // Builds the cache file with a first delegate; checks it packed and wrote.
  void BuildCache() {
    XnnPtr d = CacheDelegate(path_.c_str());
    ASSERT_NE(d, nullptr);
    const Result r = RunModel(bytes_, d.get());
    EXPECT_EQ(r.out, reference_) << r.errors;
    const WeightCacheStats st = Stats(d.get());
    EXPECT_FALSE(st.loaded);
    EXPECT_GE(st.packed, 2u);  // at least conv and fully connected
    EXPECT_EQ(st.unnamed, 0u);
    EXPECT_EQ(st.hits, 0u);
    EXPECT_EQ(st.writes, 1u);
    ASSERT_TRUE(Exists(path_));
  }

  // A delegate on the existing file: maps it and packs nothing.
  void ExpectLoadsWithoutPacking(const std::vector<uint8_t>& bytes,
                                 const std::vector<float>& expected) {
    XnnPtr d = CacheDelegate(path_.c_str());
    ASSERT_NE(d, nullptr);
    const Result r = RunModel(bytes, d.get());
    EXPECT_EQ(r.delegate_nodes, 1) << r.errors;
    EXPECT_EQ(r.out, expected) << r.errors;
    const WeightCacheStats st = Stats(d.get());
    EXPECT_TRUE(st.loaded);
    EXPECT_GE(st.hits, 2u);
    EXPECT_EQ(st.hits, st.lookups);
    EXPECT_EQ(st.packed, 0u);
    EXPECT_EQ(st.writes, 0u);
  }

  // After damaging the file: the next delegate rejects it, packs, rewrites
  // it; the one after loads the rewritten file.
  void ExpectRebuilt() {
    {
      XnnPtr d = CacheDelegate(path_.c_str());
      ASSERT_NE(d, nullptr);
      const Result r = RunModel(bytes_, d.get());
      EXPECT_EQ(r.out, reference_) << r.errors;
      const WeightCacheStats st = Stats(d.get());
      EXPECT_FALSE(st.loaded);
      EXPECT_GE(st.packed, 2u);
      EXPECT_EQ(st.writes, 1u);
    }
    ExpectLoadsWithoutPacking(bytes_, reference_);
  }

  std::string dir_, path_;
  std::vector<uint8_t> bytes_;
  std::vector<float> reference_;
};

TEST_F(XnnpackWeightCache, SecondDelegateMapsFileAndSkipsPacking) {
  BuildCache();
  const std::vector<uint8_t> file = ReadFile(path_);
  ASSERT_GE(file.size(), 4096u);
  EXPECT_EQ(std::string(file.begin(), file.begin() + 8), "TFLCXNNW");
  ExpectLoadsWithoutPacking(bytes_, reference_);
  ExpectLoadsWithoutPacking(bytes_, reference_);
  EXPECT_EQ(ReadFile(path_), file);  // loading does not rewrite it
  // No temporary files left next to it.
  int entries = 0;
  FILE* ls = popen(("ls -A '" + dir_ + "'").c_str(), "r");
  ASSERT_NE(ls, nullptr);
  char line[512];
  while (fgets(line, sizeof(line), ls)) ++entries;
  pclose(ls);
  EXPECT_EQ(entries, 1);
}

// FULLY_CONNECTED layers with INT4 and INT8 weights (both dynamically
// quantized, qd8 x qc4w and qd8 x qc8w, the packers of patches 0022 and 0021
// on x86): the cache keeps their packed weights, and a second delegate's
// outputs equal the first's without packing.
TEST_F(XnnpackWeightCache, HybridInt4AndInt8WeightsLoadWithoutPacking) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {3, 64}, "x");
  std::vector<uint8_t> nibbles(24 * 64 / 2);
  for (size_t i = 0; i < nibbles.size(); ++i) nibbles[i] = static_cast<uint8_t>(i * 97 + 13);
  const int w4 = b.AddConstantBytes(tflite::TensorType_INT4, {24, 64}, nibbles);
  Quantization q4;
  for (int c = 0; c < 24; ++c) q4.scale.push_back(0.05f + 0.01f * c);
  q4.zero_point.assign(24, 0);
  b.SetQuantization(w4, q4);
  const int h = b.AddTensor(tflite::TensorType_FLOAT32, {3, 24});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, w4, -1}, {h},
                tflite::FullyConnectedOptionsT());
  std::vector<int8_t> w8v(10 * 24);
  for (size_t i = 0; i < w8v.size(); ++i) w8v[i] = static_cast<int8_t>((i * 31) % 255 - 127);
  const int w8 = b.AddConstant<int8_t>(tflite::TensorType_INT8, {10, 24}, w8v);
  Quantization q8;
  q8.scale.assign(10, 0.02f);
  q8.zero_point.assign(10, 0);
  b.SetQuantization(w8, q8);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {3, 10}, "y");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {h, w8, -1}, {y},
                tflite::FullyConnectedOptionsT());
  const std::vector<uint8_t> model = b.Finish();
  XnnPtr plain = CacheDelegate(nullptr);
  const Result expected = RunModel(model, plain.get());
  ASSERT_EQ(expected.out.size(), 30u) << expected.errors;
  EXPECT_EQ(expected.delegate_nodes, 1) << expected.errors;
  {
    XnnPtr d = CacheDelegate(path_.c_str());
    const Result r = RunModel(model, d.get());
    EXPECT_EQ(r.out, expected.out) << r.errors;
    const WeightCacheStats st = Stats(d.get());
    EXPECT_EQ(st.packed, 2u);
    EXPECT_EQ(st.unnamed, 0u);
    EXPECT_EQ(st.writes, 1u);
  }
  ExpectLoadsWithoutPacking(model, expected.out);
}

// Another process maps the file written by this one and packs nothing.
TEST_F(XnnpackWeightCache, SecondProcessLoadsTheFile) {
  BuildCache();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    XnnPtr d = CacheDelegate(path_.c_str());
    if (d == nullptr) _exit(2);
    if (RunModel(bytes_, d.get()).out != reference_) _exit(3);
    WeightCacheStats st;
    if (!xnnpack::GetWeightCacheStats(d.get(), &st) || !st.loaded) _exit(4);
    if (st.packed != 0 || st.hits < 2 || st.writes != 0) _exit(5);
    d.reset();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: no delegate, 3: outputs differ, 4: not loaded, "
                                       "5: packed or wrote";
}

// A real model (shared/models): the second delegate packs nothing and gives
// the same outputs; the time to create the interpreter with the delegate
// (packing included) is printed for both.
TEST_F(XnnpackWeightCache, RealModelLoadsWithoutPacking) {
  const std::string model = std::string(TFLITE_C_SHARED_DIR) +
                            "/models/files/mp_pose_landmark_lite.tflite";
  std::ifstream f(model, std::ios::binary);
  if (!f) GTEST_SKIP() << "no " << model;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), {});
  auto run = [&](const char* path, WeightCacheStats* st, double* ms) {
    XnnPtr d = CacheDelegate(path);
    Session s;
    const auto t0 = std::chrono::steady_clock::now();
    s.Create(bytes, {d.get()});
    *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(s.ok()) << s.errors;
    std::vector<float> out;
    if (!s.ok() || TfLiteInterpreterAllocateTensors(s.interpreter.get()) != kTfLiteOk) return out;
    TfLiteTensor* in = TfLiteInterpreterGetInputTensor(s.interpreter.get(), 0);
    std::vector<float> x(in->bytes / sizeof(float));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 255) / 255.0f;
    if (!s.SetInput(0, x) || TfLiteInterpreterInvoke(s.interpreter.get()) != kTfLiteOk) return out;
    out = s.Output(0);
    if (path) EXPECT_TRUE(xnnpack::GetWeightCacheStats(d.get(), st));
    return out;
  };
  WeightCacheStats none, first, second;
  double t_none = 0, t_first = 0, t_second = 0;
  const std::vector<float> ref = run(nullptr, &none, &t_none);
  ASSERT_FALSE(ref.empty());
  EXPECT_EQ(run(path_.c_str(), &first, &t_first), ref);
  EXPECT_EQ(run(path_.c_str(), &second, &t_second), ref);
  EXPECT_FALSE(first.loaded);
  EXPECT_GT(first.packed, 10u);
  EXPECT_TRUE(second.loaded);
  EXPECT_EQ(second.packed, 0u);
  EXPECT_EQ(second.hits, second.lookups);
  // Timings on warm caches: best of a few more runs of each.
  for (int i = 0; i < 3; ++i) {
    double t = 0;
    WeightCacheStats st;
    run(nullptr, &st, &t);
    t_none = std::min(t_none, t);
    run(path_.c_str(), &st, &t);
    t_second = std::min(t_second, t);
  }
  std::printf("pose landmark lite: create %.1f ms without cache, %.1f ms building it (%zu "
              "packed), %.1f ms loading it (%zu hits, %zu packed)\n",
              t_none, t_first, first.packed, t_second, second.hits, second.packed);
}

TEST_F(XnnpackWeightCache, MultiThreadedDelegateSharesTheFile) {
  BuildCache();
  XnnPtr d = CacheDelegate(path_.c_str(), -1, 2);
  ASSERT_NE(d, nullptr);
  const Result r = RunModel(bytes_, d.get());
  EXPECT_EQ(r.out, reference_) << r.errors;
  EXPECT_EQ(Stats(d.get()).packed, 0u);
}

TEST_F(XnnpackWeightCache, OptionsKeepTheirOwnCopyOfThePath) {
  std::string path = path_;
  XnnPtr d = CacheDelegate(path.c_str());
  ASSERT_NE(d, nullptr);
  const TfLiteXNNPackDelegateOptions* o = TfLiteXNNPackDelegateGetOptions(d.get());
  ASSERT_NE(o->weight_cache_file_path, nullptr);
  EXPECT_NE(o->weight_cache_file_path, path.c_str());
  path.assign(path.size(), 'x');
  EXPECT_EQ(std::string(o->weight_cache_file_path), path_);
}

TEST_F(XnnpackWeightCache, UnwritablePathPacksInMemory) {
  const std::string bad = dir_ + "/no/such/dir/model.xnn_cache";
  XnnPtr d = CacheDelegate(bad.c_str());
  ASSERT_NE(d, nullptr);  // as upstream: reported, then no cache
  WeightCacheStats st;
  EXPECT_FALSE(xnnpack::GetWeightCacheStats(d.get(), &st));
  EXPECT_EQ(TfLiteXNNPackDelegateGetOptions(d.get())->weight_cache_file_path, nullptr);
  const Result r = RunModel(bytes_, d.get());
  EXPECT_EQ(r.out, reference_) << r.errors;
  EXPECT_FALSE(Exists(bad));
}

TEST_F(XnnpackWeightCache, ReadOnlyDescriptorWithoutValidFileIsRejected) {
  WriteFile(path_, {});
  const int fd = open(path_.c_str(), O_RDONLY);
  ASSERT_GT(fd, 0);
  XnnPtr d = CacheDelegate(nullptr, fd);
  ASSERT_NE(d, nullptr);
  WeightCacheStats st;
  EXPECT_FALSE(xnnpack::GetWeightCacheStats(d.get(), &st));
  EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
}

TEST_F(XnnpackWeightCache, CorruptDataIsDetectedAndRebuilt) {
  BuildCache();
  std::vector<uint8_t> file = ReadFile(path_);
  file[file.size() - 100] ^= 0x5A;  // inside the packed data
  WriteFile(path_, file);
  ExpectRebuilt();
}

TEST_F(XnnpackWeightCache, CorruptTableIsDetectedAndRebuilt) {
  BuildCache();
  std::vector<uint8_t> file = ReadFile(path_);
  file[128 + 8] ^= 0x01;  // first entry's kernel fingerprint
  WriteFile(path_, file);
  ExpectRebuilt();
}

TEST_F(XnnpackWeightCache, CorruptHeaderIsDetectedAndRebuilt) {
  BuildCache();
  std::vector<uint8_t> file = ReadFile(path_);
  file[60] ^= 0xFF;  // entry count
  WriteFile(path_, file);
  ExpectRebuilt();
}

TEST_F(XnnpackWeightCache, TruncatedFileIsDetectedAndRebuilt) {
  BuildCache();
  const std::vector<uint8_t> file = ReadFile(path_);
  for (size_t keep : {file.size() - 1, file.size() / 2, size_t{100}, size_t{7}}) {
    SCOPED_TRACE(keep);
    WriteFile(path_, std::vector<uint8_t>(file.begin(), file.begin() + keep));
    ExpectRebuilt();
  }
}

TEST_F(XnnpackWeightCache, EmptyAndGarbageFilesAreRebuilt) {
  WriteFile(path_, {});
  ExpectRebuilt();
  std::vector<uint8_t> garbage(10000);
  uint32_t x = 12345;
  for (uint8_t& b : garbage) b = static_cast<uint8_t>((x = x * 1103515245u + 12345u) >> 24);
  WriteFile(path_, garbage);
  ExpectRebuilt();
  // A foreign file with a plausible size: another format's header.
  std::vector<uint8_t> foreign(8192, 0);
  std::memcpy(foreign.data(), "TFL3\0\0\0\0", 8);
  WriteFile(path_, foreign);
  ExpectRebuilt();
}

TEST_F(XnnpackWeightCache, OtherVersionOrXnnpackBuildIsRebuilt) {
  BuildCache();
  const std::vector<uint8_t> good = ReadFile(path_);
  std::vector<uint8_t> file = good;
  file[8] = 99;  // version
  WriteFile(path_, file);
  ExpectRebuilt();
  file = ReadFile(path_);
  file[16] ^= 0xFF;  // XNNPACK build identifier
  WriteFile(path_, file);
  ExpectRebuilt();
}

// Every header byte, a spread of table/padding/data bytes: each flip is
// either harmless (padding) or detected; outputs never change, nothing crashes.
TEST_F(XnnpackWeightCache, ByteFlipsAreDetectedOrHarmless) {
  BuildCache();
  const std::vector<uint8_t> good = ReadFile(path_);
  std::vector<size_t> positions;
  for (size_t i = 0; i < 128; ++i) positions.push_back(i);
  for (size_t i = 128; i < good.size(); i += 61) positions.push_back(i);
  positions.push_back(good.size() - 1);
  int rejected = 0;
  for (size_t pos : positions) {
    SCOPED_TRACE(pos);
    std::vector<uint8_t> file = good;
    file[pos] ^= 0x20;
    WriteFile(path_, file);
    ::testing::internal::CaptureStderr();
    XnnPtr d = CacheDelegate(path_.c_str());
    ASSERT_NE(d, nullptr);
    const Result r = RunModel(bytes_, d.get());
    const std::string log = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(r.out, reference_) << r.errors << log;
    const WeightCacheStats st = Stats(d.get());
    if (!st.loaded) {
      ++rejected;
      EXPECT_NE(log.find("is not usable"), std::string::npos) << log;
    } else {
      EXPECT_EQ(st.packed, 0u);
    }
  }
  EXPECT_GE(rejected, 128);  // every header byte is covered by its checksum
}

TEST_F(XnnpackWeightCache, LockMemoryOption) {
  BuildCache();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.weight_cache_file_path = path_.c_str();
  o.weight_cache_lock_memory = true;
  XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
  EXPECT_TRUE(Stats(d.get()).loaded);  // mlock failing (RLIMIT_MEMLOCK) is only reported
}

TEST_F(XnnpackWeightCache, AnotherModelsCacheIsRebuilt) {
  BuildCache();
  const std::vector<uint8_t> other = Net(1000);  // same shapes, other weights
  XnnPtr plain = CacheDelegate(nullptr);
  const std::vector<float> other_ref = RunModel(other, plain.get()).out;
  ASSERT_EQ(other_ref.size(), 10u);
  ASSERT_NE(other_ref, reference_);
  {
    XnnPtr d = CacheDelegate(path_.c_str());
    const Result r = RunModel(other, d.get());
    EXPECT_EQ(r.out, other_ref) << r.errors;  // never the first model's weights
    const WeightCacheStats st = Stats(d.get());
    EXPECT_TRUE(st.loaded);
    EXPECT_EQ(st.hits, 0u);
    EXPECT_TRUE(st.rebuilt);
    EXPECT_GE(st.packed, 2u);
    EXPECT_EQ(st.writes, 1u);
  }
  ExpectLoadsWithoutPacking(other, other_ref);
}

TEST_F(XnnpackWeightCache, FileDescriptorIsUsedAndOwned) {
  int fd = open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GT(fd, 0);
  {
    XnnPtr d = CacheDelegate(nullptr, fd);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
    const WeightCacheStats st = Stats(d.get());
    EXPECT_FALSE(st.loaded);
    EXPECT_EQ(st.writes, 1u);
  }
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);  // closed with the delegate
  fd = open(path_.c_str(), O_RDWR);
  ASSERT_GT(fd, 0);
  XnnPtr d = CacheDelegate("named.cache", fd);  // the descriptor wins over the path
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
  const WeightCacheStats st = Stats(d.get());
  EXPECT_TRUE(st.loaded);
  EXPECT_EQ(st.packed, 0u);
  EXPECT_FALSE(Exists("named.cache"));
  // The path-based delegate reads what the descriptor wrote.
  ExpectLoadsWithoutPacking(bytes_, reference_);
}

TEST_F(XnnpackWeightCache, InMemoryPathWritesNothing) {
  EXPECT_TRUE(TfLiteXNNPackDelegateCanUseInMemoryWeightCacheProvider());
  ASSERT_STREQ(TfLiteXNNPackDelegateInMemoryFilePath(), ":memory");
  XnnPtr d = CacheDelegate(TfLiteXNNPackDelegateInMemoryFilePath());
  ASSERT_NE(d, nullptr);
  // Two interpreters on one delegate: the second reuses the packed weights.
  EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
  const size_t packed = Stats(d.get()).packed;
  EXPECT_GE(packed, 2u);
  EXPECT_EQ(RunModel(bytes_, d.get()).out, reference_);
  const WeightCacheStats st = Stats(d.get());
  EXPECT_EQ(st.packed, packed);
  EXPECT_GE(st.hits, 2u);
  EXPECT_EQ(st.writes, 0u);
  EXPECT_FALSE(Exists(":memory"));
}

TEST_F(XnnpackWeightCache, ExplicitWeightsCacheTakesPrecedence) {
  TfLiteXNNPackDelegateWeightsCache* shared = TfLiteXNNPackDelegateWeightsCacheCreate();
  ASSERT_NE(shared, nullptr);
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.weights_cache = shared;
  o.weight_cache_file_path = path_.c_str();
  XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(d, nullptr);
  WeightCacheStats st;
  EXPECT_FALSE(xnnpack::GetWeightCacheStats(d.get(), &st));
  Session s;
  s.Create(bytes_, {d.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeHard(shared));
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  ASSERT_TRUE(s.SetInput(0, Random(8 * 8 * 3, 99)));
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.Output(0), reference_);
  EXPECT_FALSE(Exists(path_));
  s.interpreter.reset();
  d.reset();
  TfLiteXNNPackDelegateWeightsCacheDelete(shared);
}

#else

TEST(XnnpackWeightCache, NotBuilt) { GTEST_SKIP() << "built without XNNPACK"; }

#endif  // TFLITE_C_WITH_XNNPACK

}  // namespace
}  // namespace testing
}  // namespace tflite_c
