// The threads behind the builtin kernels' ParallelFor
// (src/kernels/internal/parallel.h): one pool per interpreter, its threads
// started on first use and kept until the interpreter (or a lower thread
// count) ends them, so a kernel's hand-off costs a wake-up, not a thread.
//
// Kernels find the pool the way they find the memory account
// (src/core/memory_budget.h): while the interpreter calls a kernel's invoke,
// its pool is current on that thread. A worker has no current pool, and the
// caller has none while it runs its own share, so a ParallelFor nested in
// another runs inline. Two interpreters on two threads never see each
// other's pool.
#ifndef TFLITE_C_SRC_CORE_WORKER_POOL_H_
#define TFLITE_C_SRC_CORE_WORKER_POOL_H_

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace tflite_c {

class WorkerPool {
 public:
  // One unit of a job: task(arg, index, slot). `slot` names the thread
  // running it within the job: 0 the caller, 1, 2, ... the workers in the
  // order they joined, so it stays below the job's thread limit.
  using Task = void (*)(void* arg, int64_t index, int slot);
  // How long the caller polls for the workers' end of a job before it
  // sleeps (idle workers sleep at once).
  static constexpr int kCallerSpinMicros = 50;
  // Workers at most, whatever the thread count (jobs split into more chunks
  // still run them all).
  static constexpr int kMaxWorkers = 31;

  WorkerPool() = default;
  ~WorkerPool() { SetThreads(0); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Threads a job may use, the caller's included (<= 1: the caller alone).
  // Workers beyond the new count are stopped (joined); none start until a
  // job needs them. Call it while no job runs.
  void SetThreads(int threads) noexcept;

  // Runs task(arg, i, slot) for every i in [0, count) on at most
  // `max_threads` threads (the caller's included): i = 0 on the calling
  // thread, the others on whichever thread claims them first (the caller
  // included, so a job completes even when no worker wakes or starts).
  // Returns once every index has run. Tasks must not throw.
  void Run(int64_t count, Task task, void* arg, int max_threads) noexcept;

  // Worker threads running now (tests).
  int workers() const { return started_; }

  // The pool current on this thread (nullptr: none).
  static WorkerPool* Current();

 private:
  static void* WorkerMain(void* self);
  // Claims and runs the current job's indices until none are left.
  void Drain(Task task, void* arg, int64_t count, int slot) noexcept;
  // A worker between jobs: sleeps until one is posted or the pool stops.
  // Called and returns with mu_ held.
  void AwaitJob(std::unique_lock<std::mutex>& lock, uint64_t seen) noexcept;

  int max_workers_ = 0;
  int started_ = 0;
  pthread_t threads_[kMaxWorkers];
  std::mutex mu_;
  std::condition_variable wake_;  // workers: a job was posted, or stop
  std::condition_variable idle_;  // caller: the last worker left the job
  // The job, written under mu_ by the caller, read under mu_ by workers.
  Task task_ = nullptr;
  void* arg_ = nullptr;
  int64_t count_ = 0;
  int limit_ = 0;      // threads the current job may use, the caller's included
  int joined_ = 0;     // threads in the current job so far (the next slot)
  bool open_ = false;  // workers may still join the current job
  bool stop_ = false;
  uint64_t generation_ = 0;  // jobs posted
  // Changed under mu_, also read without it while the caller spins.
  std::atomic<uint64_t> busy_{0};  // workers inside the current job
  std::atomic<int64_t> next_{0};         // next unclaimed index
};

// Makes `pool` current on this thread for the scope; restores the previous
// one (a WHILE body invokes nested subgraphs of the same interpreter).
class ScopedWorkerPool {
 public:
  explicit ScopedWorkerPool(WorkerPool* pool);
  ~ScopedWorkerPool();
  ScopedWorkerPool(const ScopedWorkerPool&) = delete;
  ScopedWorkerPool& operator=(const ScopedWorkerPool&) = delete;

 private:
  WorkerPool* previous_;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_WORKER_POOL_H_
