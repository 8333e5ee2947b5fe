#include "src/kernels/internal/parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace tflite_c {
namespace kernels {
namespace internal {

int ThreadsForWork(int max_threads, int64_t work) {
  if (max_threads <= 1) return 1;
  const int64_t useful = std::max<int64_t>(1, work / kMinWorkPerThread);
  return static_cast<int>(std::min<int64_t>(max_threads, useful));
}

void ParallelFor(int num_threads, int64_t n, RangeFn fn) {
  if (n <= 0) return;
  const int64_t chunks = std::min<int64_t>(std::max(num_threads, 1), n);
  if (chunks == 1) {
    fn(0, n);
    return;
  }
  auto bound = [n, chunks](int64_t c) { return n * c / chunks; };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(chunks - 1));
  for (int64_t c = 1; c < chunks; ++c) {
    try {
      workers.emplace_back([&fn, &bound, c] { fn(bound(c), bound(c + 1)); });
    } catch (...) {
      // No thread available: do this chunk here rather than fail the op.
      fn(bound(c), bound(c + 1));
    }
  }
  fn(0, bound(1));
  for (auto& w : workers) w.join();
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
