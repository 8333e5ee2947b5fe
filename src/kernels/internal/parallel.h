// Minimal data parallelism for kernels: split a range across a few threads.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_

#include <cstdint>
#include <functional>

namespace tflite_c {
namespace kernels {
namespace internal {

// Below this many multiply-adds per extra thread, spawning a thread costs
// more than it saves.
constexpr int64_t kMinWorkPerThread = int64_t{1} << 18;

// Threads worth using for `work` multiply-adds with at most `max_threads`.
int ThreadsForWork(int max_threads, int64_t work);

// Calls fn(begin, end) on disjoint contiguous chunks covering [0, n), using
// up to `num_threads` threads (the caller's thread included). Chunk
// boundaries are deterministic, so results do not depend on scheduling.
void ParallelFor(int num_threads, int64_t n, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
