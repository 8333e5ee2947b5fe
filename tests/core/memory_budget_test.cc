// The allocation limit: its default from the process's real budget
// (RLIMIT_AS, RLIMIT_DATA, cgroup memory.max, read from fake files here),
// the per-interpreter account, and hostile models that ask for more.
#include "src/core/memory_budget.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/kernels/internal/scratch_vector.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/one_op_model.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::RefusedAsTooBig;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr uint64_t kMax = UINT64_MAX;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// What BudgetFromSources can return for `bytes`: size_t caps it (4 GiB on
// 32-bit targets).
uint64_t AsSize(uint64_t bytes) { return std::min<uint64_t>(bytes, SIZE_MAX); }

// ---- readers ---------------------------------------------------------------------

TEST(MemoryBudget, HeadroomKeepsAnEighthOfWhatIsLeft) {
  EXPECT_EQ(LimitHeadroom(1000, 200), 700u);  // 800 left, keep 100
  EXPECT_EQ(LimitHeadroom(1000, 1000), 0u);
  EXPECT_EQ(LimitHeadroom(1000, 5000), 0u);
  EXPECT_EQ(LimitHeadroom(8 * kGiB, 0), 7 * kGiB);
}

TEST(MemoryBudget, ParsesCgroupByteFiles) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseCgroupBytes("max\n", &v));
  EXPECT_EQ(v, kMax);
  EXPECT_TRUE(ParseCgroupBytes("536870912\n", &v));
  EXPECT_EQ(v, 536870912u);
  EXPECT_TRUE(ParseCgroupBytes("9223372036854771712", &v));  // v1's "unlimited"
  EXPECT_EQ(v, 9223372036854771712u);
  EXPECT_FALSE(ParseCgroupBytes("", &v));
  EXPECT_FALSE(ParseCgroupBytes("-1\n", &v));
  EXPECT_FALSE(ParseCgroupBytes("12k", &v));
  EXPECT_FALSE(ParseCgroupBytes("99999999999999999999999", &v));
}

TEST(MemoryBudget, ParsesProcSelfCgroup) {
  std::string v2, v1;
  ParseProcSelfCgroup("0::/user.slice/app.scope\n", &v2, &v1);
  EXPECT_EQ(v2, "/user.slice/app.scope");
  EXPECT_EQ(v1, "");
  ParseProcSelfCgroup(
      "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/x\n", &v2, &v1);
  EXPECT_EQ(v2, "");
  EXPECT_EQ(v1, "/docker/abc");
  ParseProcSelfCgroup("3:blkio,memory:/a:b\n0::/\n", &v2, &v1);  // ':' inside the path
  EXPECT_EQ(v1, "/a:b");
  EXPECT_EQ(v2, "/");
  ParseProcSelfCgroup("garbage\n\n5:memoryless:/q\n", &v2, &v1);
  EXPECT_EQ(v2, "");
  EXPECT_EQ(v1, "");
}

TEST(MemoryBudget, ParsesStatm) {
  uint64_t vm = 0, data = 0;
  ASSERT_TRUE(ParseStatm("2000 300 100 50 0 700 0\n", 4096, &vm, &data));
  EXPECT_EQ(vm, 2000u * 4096);
  EXPECT_EQ(data, 700u * 4096);
  EXPECT_FALSE(ParseStatm("12 34\n", 4096, &vm, &data));
  EXPECT_FALSE(ParseStatm("", 4096, &vm, &data));
  EXPECT_FALSE(ParseStatm("18446744073709551615 1 1 1 0 1 0", 4096, &vm, &data));
}

// A scratch directory standing in for /sys/fs/cgroup.
class FakeCgroupRoot {
 public:
  FakeCgroupRoot() {
    char pattern[] = "/tmp/tflite_c_cgroup_XXXXXX";
    root_ = mkdtemp(pattern);
  }
  ~FakeCgroupRoot() { std::system(("rm -rf '" + root_ + "'").c_str()); }
  void Write(const std::string& rel, const std::string& text) {
    std::string dir = root_;
    size_t pos = 0;
    while ((pos = rel.find('/', pos + 1)) != std::string::npos) {
      mkdir((root_ + rel.substr(0, pos)).c_str(), 0700);
    }
    FILE* f = std::fopen((root_ + rel).c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

TEST(MemoryBudget, CgroupV2TakesTheTightestLevel) {
  FakeCgroupRoot fake;
  fake.Write("/a/memory.max", "1000000\n");
  fake.Write("/a/memory.current", "200000\n");
  fake.Write("/a/b/memory.max", "max\n");
  fake.Write("/a/b/memory.current", "100000\n");
  // Own level unlimited; the parent leaves 800000, minus an eighth.
  EXPECT_EQ(CgroupBudget(fake.root(), "0::/a/b\n"), 700000u);
  fake.Write("/a/b/memory.max", "300000\n");  // now the own level is tighter
  EXPECT_EQ(CgroupBudget(fake.root(), "0::/a/b\n"), LimitHeadroom(300000, 100000));
  // No limit anywhere, or no cgroup line, or files missing: no limit.
  EXPECT_EQ(CgroupBudget(fake.root(), "0::/elsewhere\n"), kMax);
  EXPECT_EQ(CgroupBudget(fake.root(), ""), kMax);
  // A container without its own cgroup namespace: the path in
  // /proc/self/cgroup is not under the mount, whose root holds the limit.
  fake.Write("/memory.max", "4096000\n");
  fake.Write("/memory.current", "96000\n");
  EXPECT_EQ(CgroupBudget(fake.root(), "0::/docker/123\n"), 3500000u);
}

TEST(MemoryBudget, CgroupV1ReadsTheMemoryController) {
  FakeCgroupRoot fake;
  fake.Write("/memory/job/memory.limit_in_bytes", "8000000\n");
  fake.Write("/memory/job/memory.usage_in_bytes", "0\n");
  fake.Write("/memory/memory.limit_in_bytes", "9223372036854771712\n");
  fake.Write("/memory/memory.usage_in_bytes", "123456789\n");
  EXPECT_EQ(CgroupBudget(fake.root(), "7:memory:/job\n"), 7000000u);
}

TEST(MemoryBudget, DefaultIsTheSmallestSource) {
  BudgetSources s;
  EXPECT_EQ(BudgetFromSources(s), SIZE_MAX);
  s.physical_and_swap = 16 * kGiB;
  EXPECT_EQ(BudgetFromSources(s), AsSize(16 * kGiB));
  s.rlimit_as = 8 * kGiB;
  s.vm_bytes = 0;
  EXPECT_EQ(BudgetFromSources(s), AsSize(7 * kGiB));
  s.rlimit_data = 4 * kGiB;
  s.data_bytes = 0;
  EXPECT_EQ(BudgetFromSources(s), AsSize(7 * kGiB / 2));
  s.cgroup = kGiB;
  EXPECT_EQ(BudgetFromSources(s), kGiB);
  s.vm_bytes = 9 * kGiB;  // already past RLIMIT_AS
  EXPECT_EQ(BudgetFromSources(s), 0u);
}

TEST(MemoryBudget, DefaultFollowsThisProcessRlimit) {
  // What this process really has; below the address space it has now plus
  // what RLIMIT_AS still allows.
  const BudgetSources s = ReadBudgetSources();
  EXPECT_GT(s.vm_bytes, 0u);
  EXPECT_LE(DefaultMaxAllocationBytes(), s.physical_and_swap);
  if (s.rlimit_as != kMax) {
    EXPECT_LE(DefaultMaxAllocationBytes(), s.rlimit_as - std::min(s.rlimit_as, s.vm_bytes));
  }
}

TEST(MemoryBudget, AccountChargesUpToTheLimit) {
  MemoryAccount a(100);
  EXPECT_TRUE(a.TryCharge(60));
  EXPECT_FALSE(a.TryCharge(41));
  EXPECT_EQ(a.used(), 60u);
  EXPECT_TRUE(a.TryCharge(40));
  EXPECT_FALSE(a.Fits(1));
  a.Credit(100);
  EXPECT_TRUE(a.Fits(100));
  EXPECT_EQ(CurrentMemoryAccount(), nullptr);
  {
    ScopedMemoryAccount outer(&a);
    MemoryAccount b;
    {
      ScopedMemoryAccount inner(&b);
      EXPECT_EQ(CurrentMemoryAccount(), &b);
    }
    EXPECT_EQ(CurrentMemoryAccount(), &a);
  }
  EXPECT_EQ(CurrentMemoryAccount(), nullptr);
}

// ---- ScratchVector ---------------------------------------------------------------

using internal::ScratchVector;

TEST(MemoryBudget, ScratchVectorChargesTheAccountCurrentWhenItAllocates) {
  MemoryAccount a, b;
  ScratchVector<int> v;
  {
    ScopedMemoryAccount scope(&a);
    v.assign(1000, 7);
  }
  const size_t charged = a.used();
  EXPECT_GE(charged, 1000 * sizeof(int));
  EXPECT_LT(charged, 1000 * sizeof(int) + 256);  // one header
  {
    // Freed while another account is current: the first one is credited.
    ScopedMemoryAccount scope(&b);
    ScratchVector<int>().swap(v);
  }
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(b.used(), 0u);
  // Nothing current: nothing counted.
  v.assign(1000, 1);
  EXPECT_EQ(a.used(), 0u);
}

TEST(MemoryBudget, ScratchVectorCopiesAndMovesKeepTheCount) {
  MemoryAccount a;
  ScopedMemoryAccount scope(&a);
  ScratchVector<double> v(500, 1.0);
  const size_t one = a.used();
  ScratchVector<double> copy = v;  // a second block
  EXPECT_EQ(a.used(), 2 * one);
  ScratchVector<double> moved = std::move(v);  // takes the block over
  EXPECT_EQ(a.used(), 2 * one);
  copy = moved;  // same size: reuses copy's block
  EXPECT_EQ(a.used(), 2 * one);
  moved.swap(copy);
  copy.clear();
  copy.shrink_to_fit();
  EXPECT_EQ(a.used(), one);
  ScratchVector<ScratchVector<int>> nested(3, ScratchVector<int>(10));
  EXPECT_GT(a.used(), one + 3 * 10 * sizeof(int));
  ScratchVector<ScratchVector<int>>().swap(nested);
  ScratchVector<double>().swap(moved);
  EXPECT_EQ(a.used(), 0u);
}

TEST(MemoryBudget, ScratchVectorPastTheLimitThrowsAndChargesNothing) {
  MemoryAccount a(4096);
  ScopedMemoryAccount scope(&a);
  ScratchVector<char> v(1000);
  const size_t used = a.used();
  EXPECT_THROW(v.resize(8000), std::bad_alloc);
  EXPECT_EQ(v.size(), 1000u);
  EXPECT_EQ(a.used(), used);
  EXPECT_THROW(ScratchVector<int64_t>(SIZE_MAX / 4), std::length_error);
  struct alignas(64) Wide {
    char bytes[64];
  };
  ScratchVector<Wide> w(3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(w.data()) % 64, 0u);
  ScratchVector<Wide>().swap(w);
  EXPECT_EQ(a.used(), used);
}

// A kernel's packing buffer counts: BATCH_MATMUL keeps a transposed copy of
// a constant 2 MiB rhs. A 1 MiB limit holds the arena (a few KiB) but not
// that copy; 4 MiB holds both.
void MatMulWithConstantRhs(OneOpModel& m, int64_t limit) {
  const int depth = 512, cols = 1024;
  m.Input(F32, {1, 1, depth});
  m.Const<float>({1, depth, cols}, std::vector<float>(depth * cols, 0.5f));
  m.Output(F32, {1, 1, cols});
  m.Op(tflite::BuiltinOperator_BATCH_MATMUL,
       testing::Opts(tflite::BatchMatMulOptionsT{}));
  m.configure_options = [limit](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetMaxAllocationBytes(o, limit);
  };
}

TEST(MemoryBudgetMalformed, KernelScratchCountsAgainstTheLimit) {
  {
    OneOpModel m;
    MatMulWithConstantRhs(m, 1 << 20);
    EXPECT_FALSE(m.Allocate());
    EXPECT_NE(m.log().find("(BATCH_MATMUL): out of memory ("), std::string::npos) << m.log();
    EXPECT_NE(m.log().find("allocation limit of 1048576 bytes"), std::string::npos) << m.log();
  }
  OneOpModel m;
  MatMulWithConstantRhs(m, 4 << 20);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, std::vector<float>(512, 1.0f));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), std::vector<float>(1024, 256.0f));
}

// Blocks from context->AllocatePersistentBuffer count too: a custom op
// asking for 2 MiB of them in Prepare fails under a 1 MiB limit.
TfLiteStatus PersistentPrepare(TfLiteContext* context, TfLiteNode*) {
  return context->AllocatePersistentBuffer(context, 2 << 20) != nullptr ? kTfLiteOk
                                                                        : kTfLiteError;
}

TfLiteStatus PassInvoke(TfLiteContext*, TfLiteNode*) { return kTfLiteOk; }

TEST(MemoryBudgetMalformed, PersistentBuffersCountAgainstTheLimit) {
  static TfLiteRegistration reg{};
  reg.prepare = PersistentPrepare;
  reg.invoke = PassInvoke;
  for (const int64_t limit : {int64_t{1} << 20, int64_t{4} << 20}) {
    OneOpModel m;
    m.Input(F32, {1});
    m.Output(F32, {1});
    m.CustomOp("PERSISTENT_2MIB");
    m.configure_options = [limit](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetMaxAllocationBytes(o, limit);
      TfLiteInterpreterOptionsAddCustomOp(o, "PERSISTENT_2MIB", &reg, 1, 1);
    };
    EXPECT_EQ(m.Allocate(), limit > (2 << 20)) << m.log();
    if (limit < (2 << 20)) {
      EXPECT_NE(m.log().find("AllocatePersistentBuffer: cannot allocate 2097152 bytes "
                             "(allocation limit 1048576 bytes"),
                std::string::npos)
          << m.log();
    }
  }
}

// XNNPACK's allocations (packed weights, runtime, workspace) are charged to
// the interpreter that prepares the delegate: FULLY_CONNECTED packs its
// constant 2 MiB of weights, which a 1 MiB limit does not hold. The
// delegate then fails with a message and the interpreter runs the node on
// the builtin kernel, which reads the weights in place and fits.
void FullyConnected(OneOpModel& m, int64_t limit, bool xnnpack) {
  const int depth = 512, units = 1024;
  m.Input(F32, {1, depth});
  m.Const<float>({units, depth}, std::vector<float>(units * depth, 0.25f));
  m.Output(F32, {1, units});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       testing::Opts(tflite::FullyConnectedOptionsT{}));
  m.configure_options = [limit, xnnpack](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetMaxAllocationBytes(o, limit);
    TfLiteInterpreterOptionsSetUseXNNPACK(o, xnnpack);
  };
}

TEST(MemoryBudgetMalformed, XnnpackPackedWeightsCountAgainstTheLimit) {
  for (const bool xnnpack : {false, true}) {
    for (const int64_t limit : {int64_t{1} << 20, int64_t{16} << 20}) {
      SCOPED_TRACE(std::string(xnnpack ? "xnnpack" : "builtin") + " limit " +
                   std::to_string(limit));
      OneOpModel m;
      FullyConnected(m, limit, xnnpack);
      ASSERT_TRUE(m.Allocate()) << m.log();
      const bool refused = m.log().find("xnn_create_runtime ran out of memory (packed weights "
                                        "past the allocation limit") != std::string::npos;
#ifdef TFLITE_C_WITH_XNNPACK
      EXPECT_EQ(refused, xnnpack && limit == (1 << 20)) << m.log();
#else
      EXPECT_FALSE(refused) << m.log();
#endif
      m.Set<float>(0, std::vector<float>(512, 1.0f));
      ASSERT_TRUE(m.Invoke()) << m.log();
      EXPECT_EQ(m.Get<float>(), std::vector<float>(1024, 128.0f));
    }
  }
}

// ---- hostile models ---------------------------------------------------------------

// BROADCAST_TO to a constant shape of 2^31 - 2^16 elements of float (8 GiB).
// Run under `ulimit -v 8000000` (ctest label malformed-ulimit) the default
// limit follows RLIMIT_AS and refuses it at AllocateTensors; it used to
// abort on an uncaught std::bad_alloc.
void HugeBroadcast(OneOpModel& m, tflite::TensorType type) {
  m.Input(type, {1});
  m.Const<int32_t>({2}, {32767, 65536});
  m.Output(type, {1, 1});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
}

int64_t MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

TEST(MemoryBudgetMalformed, HugeBroadcastFailsFastUnderTheProcessBudget) {
  OneOpModel m;
  HugeBroadcast(m, F32);
  const uint64_t bytes = uint64_t{32767} * 65536 * 4;
  if (DefaultMaxAllocationBytes() >= bytes) {
    GTEST_SKIP() << "this process may allocate " << DefaultMaxAllocationBytes()
                 << " bytes; run under `ulimit -v 8000000` (ctest -L malformed-ulimit)";
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(m.Allocate());
  EXPECT_TRUE(RefusedAsTooBig(m.log(), "would need 8589672448 bytes, more than the allocation limit"))
      << m.log();
  EXPECT_LT(MillisecondsSince(start), 1000);
}

// The same shape of COMPLEX128 asks for 32 GiB, more than the machine has
// (physical memory + swap) on any test machine up to 32 GiB: refused without
// any ulimit, at once.
TEST(MemoryBudgetMalformed, HugeBroadcastFailsFastOnPhysicalMemory) {
  OneOpModel m;
  HugeBroadcast(m, tflite::TensorType_COMPLEX128);
  const uint64_t bytes = uint64_t{32767} * 65536 * 16;
  if (DefaultMaxAllocationBytes() >= bytes) {
    GTEST_SKIP() << "this machine has " << DefaultMaxAllocationBytes() << " bytes";
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(m.Allocate());
  EXPECT_TRUE(RefusedAsTooBig(m.log(), "more than the allocation limit")) << m.log();
  EXPECT_LT(MillisecondsSince(start), 1000);
}

// A big arena that fits the budget costs nothing until it is touched: no
// zero-filling gigabytes at AllocateTensors (it took 13 s for 8 GiB).
TEST(MemoryBudget, BigArenaWithinTheBudgetAllocatesQuickly) {
  OneOpModel m;
  m.Input(F32, {1});
  m.Const<int32_t>({2}, {8192, 65536});  // 2 GiB of float
  m.Output(F32, {1, 1});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
  if (DefaultMaxAllocationBytes() < 4 * kGiB) GTEST_SKIP() << "budget below 4 GiB";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(m.Allocate()) << m.log();
  EXPECT_LT(MillisecondsSince(start), 1000);
}

// The limit counts the whole interpreter: with a limit of 1 MiB, two
// tensors of 600 KiB that are both live (graph input and output) do not fit
// together, though each fits alone.
TEST(MemoryBudgetMalformed, LimitCountsTheWholeArena) {
  OneOpModel m;
  m.Input(F32, {150 * 1024});
  m.Output(F32, {150 * 1024});
  m.Op(tflite::BuiltinOperator_RELU);
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetMaxAllocationBytes(o, 1 << 20);
  };
  EXPECT_FALSE(m.Allocate());
  EXPECT_NE(m.log().find("more than the allocation limit of 1048576 bytes allows"),
            std::string::npos)
      << m.log();
}

// Other ops whose output size comes from constant data go through the same
// checks when the shape is known at AllocateTensors (TILE, FILL,
// SPARSE_TO_DENSE), and at Invoke when it is only known then (FILL of a
// runtime shape: a dynamic output, checked as it is resized).
void ExpectRefusedQuickly(OneOpModel& m) {
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetMaxAllocationBytes(o, 64 << 20);
  };
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(m.Allocate());
  EXPECT_TRUE(RefusedAsTooBig(m.log(), "more than the allocation limit of 67108864 bytes"))
      << m.log();
  EXPECT_LT(MillisecondsSince(start), 1000);
}

TEST(MemoryBudgetMalformed, HugeConstantShapesOfOtherOpsAreRefused) {
  {
    OneOpModel m;
    m.Input(F32, {1, 1});
    m.Const<int32_t>({2}, {32767, 65536});
    m.Output(F32, {1, 1});
    m.Op(tflite::BuiltinOperator_TILE);
    ExpectRefusedQuickly(m);
  }
  {
    OneOpModel m;
    m.Const<int32_t>({2}, {32767, 65536});
    m.Input(F32, {});
    m.Output(F32, {1, 1});
    m.Op(tflite::BuiltinOperator_FILL);
    ExpectRefusedQuickly(m);
  }
  {
    OneOpModel m;
    m.Const<int32_t>({1, 2}, {0, 0});
    m.Const<int32_t>({2}, {32767, 65536});
    m.Input(F32, {1});
    m.Input(F32, {});
    m.Output(F32, {1, 1});
    m.Op(tflite::BuiltinOperator_SPARSE_TO_DENSE,
         testing::Opts(tflite::SparseToDenseOptionsT{}));
    ExpectRefusedQuickly(m);
  }
}

TEST(MemoryBudgetMalformed, HugeRuntimeFillShapeFailsAtInvoke) {
  OneOpModel m;
  m.Input(tflite::TensorType_INT32, {2});
  m.Input(F32, {});
  m.Output(F32, {1, 1});
  m.Op(tflite::BuiltinOperator_FILL);
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetMaxAllocationBytes(o, 64 << 20);
  };
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {32767, 65536});
  m.Set<float>(1, {1.0f});
  EXPECT_FALSE(m.Invoke());
  EXPECT_TRUE(RefusedAsTooBig(m.log(), "more than the allocation limit of 67108864 bytes"))
      << m.log();
}

}  // namespace
}  // namespace tflite_c
