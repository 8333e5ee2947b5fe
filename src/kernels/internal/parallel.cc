#include "src/kernels/internal/parallel.h"

#include <algorithm>

#include "src/core/worker_pool.h"

namespace tflite_c {
namespace kernels {
namespace internal {

int ThreadsForWork(int max_threads, int64_t work) {
  if (max_threads <= 1) return 1;
  const int64_t useful = std::max<int64_t>(1, work / kMinWorkPerThread);
  return static_cast<int>(std::min<int64_t>(max_threads, useful));
}

namespace {

struct Chunks {
  RangeFn fn;
  int64_t n;
  int64_t count;
};

void RunChunk(void* arg, int64_t c, int /*slot*/) {
  const Chunks& ch = *static_cast<const Chunks*>(arg);
  ch.fn(ch.n * c / ch.count, ch.n * (c + 1) / ch.count);
}

}  // namespace

void ParallelFor(int num_threads, int64_t n, RangeFn fn) {
  if (n <= 0) return;
  Chunks ch{fn, n, TasksFor(num_threads, n)};
  WorkerPool* pool = WorkerPool::Current();
  if (ch.count == 1 || pool == nullptr) {
    // No pool here (a worker, or outside an interpreter's invoke): the same
    // chunks, in order, on this thread.
    for (int64_t c = 0; c < ch.count; ++c) RunChunk(&ch, c, 0);
    return;
  }
  pool->Run(ch.count, RunChunk, &ch, num_threads);
}

void ParallelTasks(int num_threads, int64_t tasks, SlotTaskFn fn) {
  if (tasks <= 0) return;
  WorkerPool* pool = WorkerPool::Current();
  if (num_threads <= 1 || tasks == 1 || pool == nullptr) {
    for (int64_t t = 0; t < tasks; ++t) fn(0, t);
    return;
  }
  pool->Run(
      tasks, [](void* arg, int64_t task, int slot) { (*static_cast<SlotTaskFn*>(arg))(slot, task); },
      &fn, num_threads);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c
