// Minimal data parallelism for kernels: split a range across a few threads.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace tflite_c {
namespace kernels {
namespace internal {

// Below this many multiply-adds per extra thread (60-100 us of a float or
// depthwise kernel), handing work to a pool worker costs more than it saves:
// a sleeping worker takes 40-60 us to wake on a 2-vCPU VM.
constexpr int64_t kMinWorkPerThread = int64_t{1} << 20;

// Threads worth using for `work` multiply-adds with at most `max_threads`.
int ThreadsForWork(int max_threads, int64_t work);

// A non-owning reference to a callable taking (A, B): all ParallelFor and
// ParallelTasks need, since the callable outlives the call. Unlike
// std::function it adds no copy and no type-erased manager per lambda type
// (ParallelFor runs about a hundred lambda types; std::function's handlers
// were 21 KB of a MobileNet-only library).
template <typename A, typename B>
class FnRef {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FnRef>>>
  FnRef(F&& f)  // NOLINT(google-explicit-constructor): lambdas convert
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, A a, B b) { (*static_cast<std::remove_reference_t<F>*>(o))(a, b); }) {}
  void operator()(A a, B b) const { call_(object_, a, b); }

 private:
  void* object_;
  void (*call_)(void*, A, B);
};

// fn(begin, end) of ParallelFor.
using RangeFn = FnRef<int64_t, int64_t>;
// fn(slot, task) of ParallelTasks.
using SlotTaskFn = FnRef<int, int64_t>;

// Tasks worth cutting `n` units of work into for `threads` threads:
// kTasksPerThread per thread (so a worker that wakes late can still take
// about half), one alone for one thread, never more tasks than units.
constexpr int kTasksPerThread = 4;
inline int64_t TasksFor(int threads, int64_t n) {
  return threads <= 1 ? 1 : std::min<int64_t>(n, int64_t{threads} * kTasksPerThread);
}

// Calls fn(begin, end) on k = TasksFor(num_threads, n) disjoint contiguous
// chunks covering [0, n), chunk c being [n * c / k, n * (c + 1) / k), on at
// most num_threads threads: up to kTasksPerThread chunks per thread, claimed
// in order as threads become free, so a worker that wakes late still takes
// a share. The chunks run on the current interpreter's worker pool
// (src/core/worker_pool.h), the caller's thread taking chunk 0; without a
// current pool (on a worker, or outside an interpreter's invoke) they run
// here, in order. Boundaries do not depend on scheduling, nor do results.
void ParallelFor(int num_threads, int64_t n, RangeFn fn);

// Calls fn(slot, task) once for every task in [0, tasks) on at most
// num_threads threads, each thread claiming the next unclaimed task when it
// is free, so a worker that wakes late still takes a share. `slot`, in
// [0, min(num_threads, tasks)), names the thread for the whole call (per-thread
// scratch indexed by it is never shared). Which slot runs a task depends on
// scheduling, so a task's result must not depend on its slot. Without a
// current pool the tasks run here, in order, as slot 0.
void ParallelTasks(int num_threads, int64_t tasks, SlotTaskFn fn);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
