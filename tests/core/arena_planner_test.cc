#include "src/core/arena_planner.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace tflite_c {
namespace {

using Key = ArenaPlanner::Key;

TEST(ArenaPlannerTest, DisjointLifetimesShareMemory) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 1000, 0, 1}, {{0, 1}, 1000, 2, 3}});
  bool moved = false;
  ASSERT_TRUE(p.Commit(&moved));
  EXPECT_TRUE(moved);
  EXPECT_EQ(p.Pointer({0, 0}), p.Pointer({0, 1}));
  EXPECT_EQ(p.required_bytes(), 1024u);
}

TEST(ArenaPlannerTest, OverlappingLifetimesNeverShare) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 100, 0, 2}, {{0, 1}, 200, 1, 3}, {{0, 2}, 50, 2, 2}});
  bool moved = false;
  ASSERT_TRUE(p.Commit(&moved));
  const auto& pl = p.placements();
  for (const auto& a : pl) {
    for (const auto& b : pl) {
      if (a.first == b.first) continue;
      const auto& ra = a.second.second;
      const auto& rb = b.second.second;
      const bool live_together = ra.first_node <= rb.last_node && rb.first_node <= ra.last_node;
      if (!live_together) continue;
      const size_t a0 = a.second.first, a1 = a0 + ra.size;
      const size_t b0 = b.second.first, b1 = b0 + rb.size;
      EXPECT_TRUE(a1 <= b0 || b1 <= a0) << "buffers overlap";
    }
  }
}

TEST(ArenaPlannerTest, PointersAreAligned) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 3, 0, 5}, {{0, 1}, 7, 0, 5}, {{1, 0}, 1, 0, 5}});
  bool moved = false;
  ASSERT_TRUE(p.Commit(&moved));
  for (const auto& kv : p.placements()) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.Pointer(kv.first)) % ArenaPlanner::kAlignment, 0u);
  }
}

TEST(ArenaPlannerTest, GrowingKeepsLiveData) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 64, 0, 10}});
  bool moved = false;
  ASSERT_TRUE(p.Commit(&moved));
  p.Pointer({0, 0})[5] = 42;
  p.Place({{{0, 1}, 1 << 20, 5, 10}});
  ASSERT_TRUE(p.Commit(&moved));
  EXPECT_TRUE(moved);
  EXPECT_EQ(p.Pointer({0, 0})[5], 42);
}

TEST(ArenaPlannerTest, ResetFromDropsLaterBuffersOnly) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 64, 0, 9}, {{0, 1}, 64, 4, 9}, {{0, 2}, 64, 6, 9}});
  p.ResetFrom(4);
  EXPECT_TRUE(p.IsPlaced({0, 0}));
  EXPECT_FALSE(p.IsPlaced({0, 1}));
  EXPECT_FALSE(p.IsPlaced({0, 2}));
}

TEST(ArenaPlannerTest, UncommittedHasNoPointer) {
  ArenaPlanner p;
  p.Place({{{0, 0}, 64, 0, 1}});
  EXPECT_EQ(p.Pointer({0, 0}), nullptr);
  EXPECT_EQ(p.Pointer({0, 9}), nullptr);
}

}  // namespace
}  // namespace tflite_c
