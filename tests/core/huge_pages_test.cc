// Large counted blocks on transparent huge pages (memory_budget.h): when the
// system offers them, which sizes are used, and what the kernel is told.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "src/core/memory_budget.h"

namespace tflite_c {
namespace internal {
namespace {

constexpr size_t k2MiB = size_t{2} << 20;

TEST(HugePages, ModeAndSizeComeFromTheSysfsTexts) {
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", "2097152\n"), k2MiB);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "[always] madvise never\n", "2097152\n"), k2MiB);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always madvise [never]\n", "2097152\n"), 0u);
  // A kernel without transparent huge pages has neither file.
  EXPECT_EQ(HugePageBytesFrom(nullptr, "", ""), 0u);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", ""), 0u);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", "two megabytes"), 0u);
  // 64 KiB-page arm64 kernels: 512 MiB pages, never worth aligning a block to.
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", "536870912\n"), 0u);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", "3000000\n"), 0u);
  EXPECT_EQ(HugePageBytesFrom(nullptr, "always [madvise] never\n", "-2097152\n"), 0u);
  // 16 KiB-page kernels have 32 MiB ones.
  EXPECT_EQ(HugePageBytesFrom(nullptr, "[always] madvise never\n", "33554432\n"),
            size_t{32} << 20);
}

TEST(HugePages, TheEnvironmentVariableTurnsThemOff) {
  const std::string on = "always [madvise] never\n", size = "2097152\n";
  EXPECT_EQ(HugePageBytesFrom("1", on, size), 0u);
  EXPECT_EQ(HugePageBytesFrom("yes", on, size), 0u);
  EXPECT_EQ(HugePageBytesFrom("0", on, size), k2MiB);
  EXPECT_EQ(HugePageBytesFrom("", on, size), k2MiB);
}

// The VmFlags line of the mapping of /proc/self/smaps that holds `p`; empty
// when it cannot be read.
std::string VmFlagsAt(const void* p) {
  FILE* f = std::fopen("/proc/self/smaps", "re");
  if (f == nullptr) return "";
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  char line[512];
  bool inside = false;
  std::string flags;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line, "%llx-%llx ", &lo, &hi) == 2 && std::strchr(line, ':') != nullptr &&
        std::strncmp(line, "VmFlags", 7) != 0) {
      inside = a >= lo && a < hi;
      continue;
    }
    if (inside && std::strncmp(line, "VmFlags:", 8) == 0) {
      flags = line + 8;
      break;
    }
  }
  std::fclose(f);
  return flags;
}

bool AdvisedHuge(const void* p) { return VmFlagsAt(p).find(" hg") != std::string::npos; }

// Whether this system shows MADV_HUGEPAGE advice in /proc/self/smaps at all
// (qemu-user, which CI's ARM passes run under, takes the advice and drops it).
bool AdviceShows(size_t huge) {
  void* m = mmap(nullptr, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return false;
  char* aligned = reinterpret_cast<char*>(
      (reinterpret_cast<uintptr_t>(m) + huge - 1) / huge * huge);
  const bool shows = madvise(aligned, huge, MADV_HUGEPAGE) == 0 && AdvisedHuge(aligned);
  munmap(m, 2 * huge);
  return shows;
}

TEST(HugePages, LargeBlocksStartOnAHugePageAndAreAdvised) {
  const size_t huge = HugePageBytes();
  if (huge == 0) GTEST_SKIP() << "no transparent huge pages here (or TFLITE_C_DISABLE_HUGE_PAGES)";
  if (VmFlagsAt(&huge).empty()) GTEST_SKIP() << "/proc/self/smaps has no VmFlags here";
  const bool shows = AdviceShows(huge);
  for (size_t align : {size_t{16}, size_t{64}, size_t{4096}}) {
    SCOPED_TRACE(align);
    const size_t bytes = 2 * huge + huge / 2;
    auto* p = static_cast<unsigned char*>(CountedAllocate(bytes, align));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
    EXPECT_EQ(CountedSize(p), bytes);
    // The block (header first) starts on a huge-page boundary: the payload
    // lies within the first small page after one.
    EXPECT_LT(reinterpret_cast<uintptr_t>(p) % huge, 4096u + align);
    std::memset(p, 0x5a, bytes);  // all of it is ours (ASan would say otherwise)
    if (shows) {
      EXPECT_TRUE(AdvisedHuge(p + 1));
      EXPECT_TRUE(AdvisedHuge(p + huge));
    }
    // The last, partial huge page stays on small pages: no resident growth
    // beyond what the block asked for.
    EXPECT_FALSE(AdvisedHuge(p + bytes - 1));
    CountedFree(p);
  }
}

TEST(HugePages, BlocksBelowOneHugePageAreLeftAlone) {
  const size_t huge = HugePageBytes();
  if (huge == 0) GTEST_SKIP() << "no transparent huge pages here (or TFLITE_C_DISABLE_HUGE_PAGES)";
  if (VmFlagsAt(&huge).empty()) GTEST_SKIP() << "/proc/self/smaps has no VmFlags here";
  // Whatever the malloc placed it in, nothing advised it.
  auto* p = static_cast<unsigned char*>(CountedAllocate(huge - 4096, 64));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_FALSE(AdvisedHuge(p));
  EXPECT_FALSE(AdvisedHuge(p + huge - 4097));
  CountedFree(p);
}

TEST(HugePages, LargeBlocksAreChargedAsBefore) {
  if (HugePageBytes() == 0) GTEST_SKIP() << "no transparent huge pages here";
  MemoryAccountHandle account(size_t{64} << 20);
  ScopedMemoryAccount scope(account.get());
  const size_t bytes = 3 * HugePageBytes();
  void* p = CountedAllocate(bytes, 64);
  ASSERT_NE(p, nullptr);
  // The charge is the block's header room plus the payload, not the
  // alignment slack (virtual only).
  EXPECT_GE(account->used(), bytes);
  EXPECT_LT(account->used(), bytes + 4096);
  CountedFree(p);
  EXPECT_EQ(account->used(), 0u);
  EXPECT_EQ(CountedAllocate(size_t{80} << 20, 64), nullptr);  // over the limit still refused
  EXPECT_EQ(account->used(), 0u);
}

}  // namespace
}  // namespace internal
}  // namespace tflite_c
