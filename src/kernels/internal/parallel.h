// Minimal data parallelism for kernels: split a range across a few threads.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_

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

// A non-owning reference to a callable taking (begin, end): all ParallelFor
// needs, since the callable outlives the call. Unlike std::function it adds
// no copy and no type-erased manager per lambda type (ParallelFor runs about
// a hundred lambda types; std::function's handlers were 21 KB of a
// MobileNet-only library).
class RangeFn {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeFn>>>
  RangeFn(F&& f)  // NOLINT(google-explicit-constructor): lambdas convert
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, int64_t begin, int64_t end) {
          (*static_cast<std::remove_reference_t<F>*>(o))(begin, end);
        }) {}
  void operator()(int64_t begin, int64_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, int64_t, int64_t);
};

// Calls fn(begin, end) on min(num_threads, n) disjoint contiguous chunks
// covering [0, n), chunk c being [n * c / chunks, n * (c + 1) / chunks).
// The chunks run on the current interpreter's worker pool
// (src/core/worker_pool.h), the caller's thread taking chunk 0; without a
// current pool (on a worker, or outside an interpreter's invoke) they run
// here, in order. Boundaries do not depend on scheduling, nor do results.
void ParallelFor(int num_threads, int64_t n, RangeFn fn);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_PARALLEL_H_
