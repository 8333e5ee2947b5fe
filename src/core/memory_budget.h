// How many bytes one interpreter may allocate, and the running count of what
// it has allocated.
//
// The default limit is the process's real budget at the time an interpreter
// is created: the smallest of physical memory plus swap, what RLIMIT_AS and
// RLIMIT_DATA still allow this process, and what the cgroup (v2 memory.max,
// v1 memory.limit_in_bytes, on every level up to the root) still allows.
// The readers take file contents or paths so tests can feed fake ones.
//
// A MemoryAccount counts the bytes an interpreter holds: its arenas and the
// scratch/packing buffers kernels keep in ScratchVector
// (src/kernels/internal/scratch_vector.h). While the interpreter calls into a
// kernel (init, prepare, invoke, free) its account is "current" on that
// thread, and ScratchAllocator charges whatever account is current.
#ifndef TFLITE_C_SRC_CORE_MEMORY_BUDGET_H_
#define TFLITE_C_SRC_CORE_MEMORY_BUDGET_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tflite_c {

// ---- the default limit ----------------------------------------------------------

// Bytes a limit of `limit` still leaves when `used` are taken, minus one
// eighth of the rest as headroom for everything else the process does
// (0 when nothing is left).
uint64_t LimitHeadroom(uint64_t limit, uint64_t used);

// Parses a cgroup limit file ("max\n" or a decimal byte count). Returns false
// when the text is neither; *bytes = UINT64_MAX for "max".
bool ParseCgroupBytes(const std::string& text, uint64_t* bytes);

// From the text of /proc/self/cgroup: the cgroup v2 path (line "0::<path>")
// and the v1 memory controller's path (line "<n>:...memory...:<path>"); each
// empty when absent.
void ParseProcSelfCgroup(const std::string& text, std::string* v2_path, std::string* v1_path);

// From the text of /proc/self/statm and the page size: the process's virtual
// size (what RLIMIT_AS limits) and data size (what RLIMIT_DATA limits) in
// bytes. Returns false when the text does not parse.
bool ParseStatm(const std::string& text, uint64_t page_size, uint64_t* vm_bytes,
                uint64_t* data_bytes);

// What the cgroup hierarchy under `cgroup_root` (normally /sys/fs/cgroup)
// still allows the process whose /proc/self/cgroup reads `proc_self_cgroup`:
// the smallest LimitHeadroom(limit, usage) over its cgroup and every
// ancestor. UINT64_MAX when no level sets a limit (or nothing can be read).
uint64_t CgroupBudget(const std::string& cgroup_root, const std::string& proc_self_cgroup);

// The sources DefaultMaxAllocationBytes() reads; tests substitute fakes.
struct BudgetSources {
  uint64_t physical_and_swap = UINT64_MAX;  // sysinfo
  uint64_t rlimit_as = UINT64_MAX;          // getrlimit soft limits; UINT64_MAX = none
  uint64_t rlimit_data = UINT64_MAX;
  uint64_t vm_bytes = 0;                    // from /proc/self/statm
  uint64_t data_bytes = 0;
  uint64_t cgroup = UINT64_MAX;             // CgroupBudget
};
BudgetSources ReadBudgetSources();
// The smallest of the sources' limits, as a size_t.
size_t BudgetFromSources(const BudgetSources& sources);

// BudgetFromSources(ReadBudgetSources()), read afresh on every call (the
// interpreter reads it once, when it is created).
size_t DefaultMaxAllocationBytes();

// ---- counting ---------------------------------------------------------------------

// Blocks charged to an account keep it alive (a reference each), so a block
// that outlives its interpreter (a delegate's cache, say) still credits a
// valid account. The creator holds the first reference: a MemoryAccount on
// the stack is fine while it outlives its blocks; one on the heap is released
// with Unref() (see MemoryAccountHandle).
class MemoryAccount {
 public:
  explicit MemoryAccount(size_t limit = SIZE_MAX) : limit_(limit) {}
  MemoryAccount(const MemoryAccount&) = delete;
  MemoryAccount& operator=(const MemoryAccount&) = delete;

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Deletes the account when this was the last reference.
  void Unref() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Adds `bytes` unless that would pass the limit; false (and nothing
  // charged) then.
  bool TryCharge(size_t bytes);
  // Adds `bytes` whatever the limit (memory already obtained).
  void Charge(size_t bytes) { used_.fetch_add(bytes, std::memory_order_relaxed); }
  void Credit(size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  // True when `bytes` more would still fit.
  bool Fits(size_t bytes) const;

  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_.load(std::memory_order_relaxed); }
  void set_limit(size_t limit) { limit_.store(limit, std::memory_order_relaxed); }

 private:
  std::atomic<size_t> used_{0};
  std::atomic<size_t> limit_;
  std::atomic<size_t> refs_{1};
};

// Owns a heap MemoryAccount's first reference (InterpreterShared::memory).
class MemoryAccountHandle {
 public:
  explicit MemoryAccountHandle(size_t limit) : account_(new MemoryAccount(limit)) {}
  ~MemoryAccountHandle() { account_->Unref(); }
  MemoryAccountHandle(const MemoryAccountHandle&) = delete;
  MemoryAccountHandle& operator=(const MemoryAccountHandle&) = delete;
  MemoryAccount* get() const { return account_; }
  MemoryAccount* operator->() const { return account_; }

 private:
  MemoryAccount* account_;
};

// The account charged by ScratchAllocator on this thread (nullptr: none).
MemoryAccount* CurrentMemoryAccount();

// Makes `account` current on this thread for the scope; restores the
// previous one (nesting: a WHILE body calls into the same interpreter).
class ScopedMemoryAccount {
 public:
  explicit ScopedMemoryAccount(MemoryAccount* account);
  ~ScopedMemoryAccount();
  ScopedMemoryAccount(const ScopedMemoryAccount&) = delete;
  ScopedMemoryAccount& operator=(const ScopedMemoryAccount&) = delete;

 private:
  MemoryAccount* previous_;
};

// ---- kernels' scratch ----------------------------------------------------------------

namespace internal {

// `bytes` aligned to `align` (a power of two), charged to the current
// account (if any); nullptr when that would pass its limit or memory cannot
// be had. The block remembers the account it was charged to (and holds a
// reference to it), and CountedFree credits that one, whatever is current
// then (a vector filled under one interpreter may be freed under none).
void* CountedAllocate(size_t bytes, size_t align) noexcept;
void CountedFree(void* p) noexcept;
// The payload size CountedAllocate was asked for (`p` not null).
size_t CountedSize(const void* p) noexcept;

// As CountedAllocate, but throws std::bad_alloc instead of returning nullptr
// (for ScratchAllocator).
void* ScratchAllocate(size_t bytes, size_t align);

// ---- large blocks on transparent huge pages ----
//
// A counted block of at least one huge page (XNNPACK's workspace and
// indirection buffers, large kernel scratch) starts on a huge-page boundary
// and its whole huge pages are advised MADV_HUGEPAGE, so that the kernel may
// back them with 2 MiB pages where transparent huge pages are "always" or
// "madvise": fewer TLB misses when a convolution walks them. The block's
// partial last page stays on small pages, so resident memory does not grow.

// The huge-page size to use, from the value of TFLITE_C_DISABLE_HUGE_PAGES
// (nullptr: unset) and the texts of /sys/kernel/mm/transparent_hugepage/
// enabled and .../hpage_pmd_size. 0 (do not use) when the variable is set to
// anything but "" or "0", the mode is "never" or unreadable, or the size is
// unreadable, not a power of two or larger than 32 MiB (64 KiB-page kernels:
// a 512 MiB page would never fit a block).
size_t HugePageBytesFrom(const char* disable, const std::string& enabled,
                         const std::string& pmd_size);
// HugePageBytesFrom this process's environment and system files, read once.
size_t HugePageBytes();

}  // namespace internal
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_MEMORY_BUDGET_H_
