#include "src/core/worker_pool.h"

#include <algorithm>
#include <chrono>

namespace tflite_c {
namespace {

thread_local WorkerPool* current_pool = nullptr;

// A hint to the core that this thread is polling.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls until value == 0, for at most kCallerSpinMicros: the caller, done
// with its chunks, waits for a worker's last one, which usually ends within
// microseconds; a futex wake-up costs 40-60 us on a 2-vCPU VM. Workers do
// not spin: with another process busy on the second vCPU, a polling worker
// made 2 threads 3-10% slower than one (hand landmark lite, BlazeFace), a
// sleeping one did not.
void SpinUntilZero(const std::atomic<uint64_t>& value) noexcept {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(WorkerPool::kCallerSpinMicros);
  do {
    for (int i = 0; i < 32; ++i) {
      if (value.load(std::memory_order_relaxed) == 0) return;
      CpuRelax();
    }
  } while (std::chrono::steady_clock::now() < until);
}

}  // namespace

WorkerPool* WorkerPool::Current() { return current_pool; }

ScopedWorkerPool::ScopedWorkerPool(WorkerPool* pool) : previous_(current_pool) {
  current_pool = pool;
}

ScopedWorkerPool::~ScopedWorkerPool() { current_pool = previous_; }

void WorkerPool::SetThreads(int threads) noexcept {
  const int workers = threads > 1 ? threads - 1 : 0;
  max_workers_ = workers < kMaxWorkers ? workers : kMaxWorkers;
  if (started_ <= max_workers_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (int i = 0; i < started_; ++i) pthread_join(threads_[i], nullptr);
  started_ = 0;
  stop_ = false;
}

void* WorkerPool::WorkerMain(void* self) {
  WorkerPool& pool = *static_cast<WorkerPool*>(self);
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(pool.mu_);
  for (;;) {
    pool.AwaitJob(lock, seen);
    if (pool.stop_) return nullptr;
    seen = pool.generation_;
    // A job capped below the pool's size leaves the late workers out.
    if (pool.joined_ >= pool.limit_) continue;
    const int slot = pool.joined_++;
    ++pool.busy_;
    const Task task = pool.task_;
    void* const arg = pool.arg_;
    const int64_t count = pool.count_;
    lock.unlock();
    pool.Drain(task, arg, count, slot);
    lock.lock();
    if (--pool.busy_ == 0 && !pool.open_) pool.idle_.notify_one();
  }
}

void WorkerPool::AwaitJob(std::unique_lock<std::mutex>& lock, uint64_t seen) noexcept {
  wake_.wait(lock, [&] {
    return stop_ || (open_ && generation_ != seen);
  });
}

void WorkerPool::Drain(Task task, void* arg, int64_t count, int slot) noexcept {
  for (int64_t i = next_.fetch_add(1, std::memory_order_relaxed); i < count;
       i = next_.fetch_add(1, std::memory_order_relaxed)) {
    task(arg, i, slot);
  }
}

void WorkerPool::Run(int64_t count, Task task, void* arg, int max_threads) noexcept {
  // While this thread runs its share, a nested ParallelFor runs inline.
  ScopedWorkerPool inline_here(nullptr);
  int64_t threads = std::min<int64_t>(count, std::min(max_threads, max_workers_ + 1));
  // Workers start on first use. When one cannot (pthread_create fails), the
  // job runs on those there are, or here alone; a later job tries again.
  while (started_ < threads - 1 &&
         pthread_create(&threads_[started_], nullptr, WorkerMain, this) == 0) {
    ++started_;
  }
  threads = std::min<int64_t>(threads, started_ + 1);
  if (threads <= 1) {
    for (int64_t i = 0; i < count; ++i) task(arg, i, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = task;
    arg_ = arg;
    count_ = count;
    limit_ = static_cast<int>(threads);
    joined_ = 1;
    next_.store(1, std::memory_order_relaxed);
    ++generation_;
    open_ = true;
  }
  if (threads - 1 < started_) {
    for (int64_t k = 1; k < threads; ++k) wake_.notify_one();
  } else {
    wake_.notify_all();
  }
  task(arg, 0, 0);
  Drain(task, arg, count, 0);
  // Every index is claimed; wait for the workers still running theirs.
  std::unique_lock<std::mutex> lock(mu_);
  open_ = false;
  if (busy_ != 0) {
    lock.unlock();
    SpinUntilZero(busy_);
    lock.lock();
  }
  idle_.wait(lock, [this] { return busy_ == 0; });
}

}  // namespace tflite_c
