#include "src/core/worker_pool.h"

#include <algorithm>
#include <chrono>

namespace tflite_c {
namespace {

thread_local WorkerPool* current_pool = nullptr;

// Polls done() for up to kSpinMicros. Kernels follow each other within
// microseconds during an Invoke: a thread that keeps its core that long
// sees the next job (or the end of this one) without a futex wake-up, which
// on a VM also waits for the host to wake an idle vCPU (40-60 us measured).
// Between invocations the workers sleep.
template <typename Done>
void SpinUntil(Done done) {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::microseconds(WorkerPool::kSpinMicros);
  do {
    for (int i = 0; i < 32; ++i) {
      if (done()) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  } while (std::chrono::steady_clock::now() < until);
}

}  // namespace

WorkerPool* WorkerPool::Current() { return current_pool; }

ScopedWorkerPool::ScopedWorkerPool(WorkerPool* pool) : previous_(current_pool) {
  current_pool = pool;
}

ScopedWorkerPool::~ScopedWorkerPool() { current_pool = previous_; }

void WorkerPool::SetThreads(int threads) {
  max_workers_ = threads > 1 ? static_cast<size_t>(threads - 1) : 0;
  if (threads_.size() > max_workers_) StopWorkers();
}

void WorkerPool::StartWorkers(size_t wanted) {
  wanted = std::min(wanted, max_workers_);
  while (threads_.size() < wanted) {
    try {
      threads_.emplace_back([this] { WorkerLoop(); });
    } catch (...) {
      // No thread now (system_error, bad_alloc): the job runs on fewer;
      // a later job tries again.
      return;
    }
  }
}

void WorkerPool::StopWorkers() {
  if (threads_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  stop_ = false;
}

void WorkerPool::Drain(Task task, void* arg, int64_t count) {
  for (int64_t i = next_.fetch_add(1, std::memory_order_relaxed); i < count;
       i = next_.fetch_add(1, std::memory_order_relaxed)) {
    task(arg, i);
  }
}

void WorkerPool::WorkerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (generation_.load(std::memory_order_relaxed) == seen) {
      lock.unlock();
      SpinUntil([&] { return generation_.load(std::memory_order_relaxed) != seen; });
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || (open_ && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    ++busy_;
    const Task task = task_;
    void* const arg = arg_;
    const int64_t count = count_;
    lock.unlock();
    Drain(task, arg, count);
    lock.lock();
    if (--busy_ == 0 && !open_) idle_.notify_one();
  }
}

void WorkerPool::Run(int64_t count, Task task, void* arg) {
  if (count <= 0) return;
  // While this thread runs its share, a nested ParallelFor runs inline.
  ScopedWorkerPool inline_here(nullptr);
  if (count > 1) StartWorkers(static_cast<size_t>(count - 1));
  if (count == 1 || threads_.empty()) {
    for (int64_t i = 0; i < count; ++i) task(arg, i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = task;
    arg_ = arg;
    count_ = count;
    next_.store(1, std::memory_order_relaxed);
    ++generation_;
    open_ = true;
  }
  wake_.notify_all();
  // Closes the job and waits for the workers still in it, also when a task
  // throws on this thread (they hold pointers into the caller's frame).
  struct Closer {
    WorkerPool* pool;
    ~Closer() {
      std::unique_lock<std::mutex> lock(pool->mu_);
      pool->open_ = false;
      if (pool->busy_.load(std::memory_order_relaxed) != 0) {
        lock.unlock();
        SpinUntil([this] { return pool->busy_.load(std::memory_order_relaxed) == 0; });
        lock.lock();
      }
      pool->idle_.wait(lock, [this] { return pool->busy_ == 0; });
    }
  } closer{this};
  task(arg, 0);
  Drain(task, arg, count);
}

}  // namespace tflite_c
