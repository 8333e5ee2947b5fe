#include "src/core/arena_planner.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tflite_c {
namespace {

size_t RoundUp(size_t n) {
  const size_t a = ArenaPlanner::kAlignment;
  if (n > std::numeric_limits<size_t>::max() - a) return std::numeric_limits<size_t>::max();
  return (n + a - 1) / a * a;
}

bool Overlaps(const ArenaPlanner::Request& a, const ArenaPlanner::Request& b) {
  return a.first_node <= b.last_node && b.first_node <= a.last_node;
}

}  // namespace

ArenaPlanner::~ArenaPlanner() { std::free(block_); }

void ArenaPlanner::Place(std::vector<Request> requests) {
  for (const Request& r : requests) placed_.erase(r.key);
  // Largest first; ties by earlier first use, then key, for a deterministic plan.
  std::sort(requests.begin(), requests.end(), [](const Request& a, const Request& b) {
    if (a.size != b.size) return a.size > b.size;
    if (a.first_node != b.first_node) return a.first_node < b.first_node;
    return a.key < b.key;
  });
  std::vector<std::pair<size_t, size_t>> busy;  // [offset, end) of conflicting buffers
  for (const Request& r : requests) {
    const size_t size = RoundUp(r.size);
    busy.clear();
    for (const auto& kv : placed_) {
      const Request& other = kv.second.second;
      if (Overlaps(r, other)) {
        busy.emplace_back(kv.second.first, kv.second.first + RoundUp(other.size));
      }
    }
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (const auto& span : busy) {
      if (span.first >= offset && span.first - offset >= size) break;  // gap fits
      offset = std::max(offset, span.second);
    }
    placed_[r.key] = {offset, r};
  }
}

size_t ArenaPlanner::required_bytes() const {
  size_t end = 0;
  for (const auto& kv : placed_) {
    end = std::max(end, kv.second.first + RoundUp(kv.second.second.size));
  }
  return end;
}

bool ArenaPlanner::Commit(bool* moved, size_t max_capacity) {
  *moved = false;
  const size_t need = required_bytes();
  if (need <= capacity_) return true;
  // Grow with headroom so a sequence of small dynamic growths stays cheap.
  size_t grow = capacity_ == 0 ? need : need + need / 8;
  grow = RoundUp(std::max(std::min(grow, max_capacity), need));
  // calloc rather than an aligned malloc + memset: a large block comes from
  // fresh zero pages the system maps on first touch, so a big arena costs
  // nothing until it is used.
  if (grow > SIZE_MAX - kAlignment) return false;
  void* block = std::calloc(1, grow + kAlignment);
  if (block == nullptr) return false;
  const uintptr_t base = reinterpret_cast<uintptr_t>(block);
  uint8_t* fresh = static_cast<uint8_t*>(block) + (kAlignment - base % kAlignment) % kAlignment;
  if (buffer_ != nullptr && capacity_ > 0) std::memcpy(fresh, buffer_, capacity_);
  std::free(block_);
  block_ = block;
  buffer_ = fresh;
  capacity_ = grow;
  *moved = true;
  return true;
}

void ArenaPlanner::ResetFrom(int node) {
  for (auto it = placed_.begin(); it != placed_.end();) {
    if (it->second.second.first_node >= node) {
      it = placed_.erase(it);
    } else {
      ++it;
    }
  }
}

uint8_t* ArenaPlanner::Pointer(const Key& key) const {
  auto it = placed_.find(key);
  if (it == placed_.end() || buffer_ == nullptr) return nullptr;
  if (it->second.first + it->second.second.size > capacity_) return nullptr;
  return buffer_ + it->second.first;
}

}  // namespace tflite_c
