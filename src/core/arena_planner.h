// Memory planning for one subgraph's arena.
//
// Every buffer that lives in the arena (a non-constant tensor, or a scratch
// buffer a kernel asked for) is a request with a byte size and a lifetime
// [first_node, last_node] in execution-plan positions. Requests whose
// lifetimes overlap never share bytes; others may. Placement is greedy,
// largest first, into the lowest gap that fits, which is what keeps the arena
// small without any global search.
//
// Planning is incremental so that dynamic shapes work: requests first used
// at or after node N can be dropped and re-placed (after N's producer ran and
// shapes became known) without moving any buffer that is already live.
#ifndef TFLITE_C_SRC_CORE_ARENA_PLANNER_H_
#define TFLITE_C_SRC_CORE_ARENA_PLANNER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace tflite_c {

class ArenaPlanner {
 public:
  static constexpr size_t kAlignment = 64;

  // Identifies a request: kind 0 = tensor index, kind 1 = scratch buffer.
  using Key = std::pair<int, int>;
  struct Request {
    Key key;
    size_t size;
    int first_node;
    int last_node;
  };

  ArenaPlanner() = default;
  ~ArenaPlanner();
  ArenaPlanner(const ArenaPlanner&) = delete;
  ArenaPlanner& operator=(const ArenaPlanner&) = delete;

  // Places requests not yet placed; a request whose key is already placed
  // replaces the old placement. Offsets become valid; pointers only after
  // Commit().
  void Place(std::vector<Request> requests);

  // Makes the buffer at least as large as the plan needs. When it has to
  // grow, the old contents are copied so live data survives. Returns false
  // if memory cannot be had. Sets *moved when the base address changed.
  // The headroom it adds for later growth stays within `max_capacity`.
  bool Commit(bool* moved, size_t max_capacity = SIZE_MAX);

  // Forgets every placement whose first use is at or after `node`.
  void ResetFrom(int node);
  // Forgets everything (keeps the buffer for reuse).
  void Clear() { placed_.clear(); }
  void Remove(const Key& key) { placed_.erase(key); }

  bool IsPlaced(const Key& key) const { return placed_.count(key) != 0; }
  // nullptr when the key is not placed or the arena is not committed.
  uint8_t* Pointer(const Key& key) const;

  size_t required_bytes() const;
  size_t committed_bytes() const { return capacity_; }
  const std::map<Key, std::pair<size_t, Request>>& placements() const { return placed_; }

 private:
  // key -> (offset, request)
  std::map<Key, std::pair<size_t, Request>> placed_;
  void* block_ = nullptr;     // what calloc returned
  uint8_t* buffer_ = nullptr;  // block_ aligned to kAlignment
  size_t capacity_ = 0;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_ARENA_PLANNER_H_
