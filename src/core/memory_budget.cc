// The default allocation limit and the per-interpreter memory account; see
// memory_budget.h.
#include "src/core/memory_budget.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>

namespace tflite_c {
namespace {

// The whole of a small file (at most 4 KiB, enough for every file read
// here); false when it cannot be opened.
bool ReadSmallFile(const std::string& path, std::string* text) {
  FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return false;
  char buffer[4096];
  const size_t n = std::fread(buffer, 1, sizeof(buffer), f);
  std::fclose(f);
  text->assign(buffer, n);
  return true;
}

// Reads a cgroup byte count from `path`; UINT64_MAX when the file is
// missing or says "max".
uint64_t ReadCgroupBytes(const std::string& path) {
  std::string text;
  uint64_t bytes = UINT64_MAX;
  if (!ReadSmallFile(path, &text) || !ParseCgroupBytes(text, &bytes)) return UINT64_MAX;
  return bytes;
}

// The smallest headroom over `dir` and each of its ancestors up to (and
// including) `root`; `limit_file` and `usage_file` name the files in each.
uint64_t HierarchyBudget(const std::string& root, std::string path, const char* limit_file,
                         const char* usage_file) {
  uint64_t budget = UINT64_MAX;
  while (true) {
    while (!path.empty() && path.back() == '/') path.pop_back();
    const std::string dir = root + path + "/";
    const uint64_t limit = ReadCgroupBytes(dir + limit_file);
    if (limit != UINT64_MAX) {
      uint64_t usage = ReadCgroupBytes(dir + usage_file);
      if (usage == UINT64_MAX) usage = 0;
      budget = std::min(budget, LimitHeadroom(limit, usage));
    }
    if (path.empty()) break;
    const size_t slash = path.rfind('/');
    path.resize(slash == std::string::npos ? 0 : slash);
  }
  return budget;
}

thread_local MemoryAccount* current_account = nullptr;

}  // namespace

uint64_t LimitHeadroom(uint64_t limit, uint64_t used) {
  if (limit <= used) return 0;
  const uint64_t left = limit - used;
  return left - left / 8;
}

bool ParseCgroupBytes(const std::string& text, uint64_t* bytes) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return false;
  const std::string word = text.substr(0, end + 1);
  if (word == "max") {
    *bytes = UINT64_MAX;
    return true;
  }
  if (word.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  const unsigned long long value = std::strtoull(word.c_str(), nullptr, 10);
  if (errno == ERANGE) return false;
  *bytes = static_cast<uint64_t>(value);
  return true;
}

void ParseProcSelfCgroup(const std::string& text, std::string* v2_path, std::string* v1_path) {
  v2_path->clear();
  v1_path->clear();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    // "<hierarchy id>:<controllers>:<path>"; the path may itself hold ':'.
    const size_t c1 = line.find(':');
    if (c1 == std::string::npos) continue;
    const size_t c2 = line.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    const std::string id = line.substr(0, c1);
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    const std::string path = line.substr(c2 + 1);
    if (id == "0" && controllers.empty()) {
      *v2_path = path;
      continue;
    }
    size_t pos = 0;
    while (pos <= controllers.size()) {
      size_t comma = controllers.find(',', pos);
      if (comma == std::string::npos) comma = controllers.size();
      if (controllers.compare(pos, comma - pos, "memory") == 0) *v1_path = path;
      pos = comma + 1;
    }
  }
}

bool ParseStatm(const std::string& text, uint64_t page_size, uint64_t* vm_bytes,
                uint64_t* data_bytes) {
  // size resident shared text lib data dt, in pages.
  unsigned long long fields[6];
  if (std::sscanf(text.c_str(), "%llu %llu %llu %llu %llu %llu", &fields[0], &fields[1],
                  &fields[2], &fields[3], &fields[4], &fields[5]) != 6) {
    return false;
  }
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  if (page_size == 0 || fields[0] > max / page_size || fields[5] > max / page_size) return false;
  *vm_bytes = fields[0] * page_size;
  *data_bytes = fields[5] * page_size;
  return true;
}

uint64_t CgroupBudget(const std::string& cgroup_root, const std::string& proc_self_cgroup) {
  std::string v2_path, v1_path;
  ParseProcSelfCgroup(proc_self_cgroup, &v2_path, &v1_path);
  uint64_t budget = UINT64_MAX;
  if (!v2_path.empty()) {
    budget = std::min(budget,
                      HierarchyBudget(cgroup_root, v2_path, "memory.max", "memory.current"));
  }
  if (!v1_path.empty()) {
    budget = std::min(budget, HierarchyBudget(cgroup_root + "/memory", v1_path,
                                              "memory.limit_in_bytes", "memory.usage_in_bytes"));
  }
  return budget;
}

BudgetSources ReadBudgetSources() {
  BudgetSources s;
  struct sysinfo info;
  if (sysinfo(&info) == 0 && info.mem_unit != 0) {
    const uint64_t units = static_cast<uint64_t>(info.totalram) + info.totalswap;
    if (units <= UINT64_MAX / info.mem_unit) s.physical_and_swap = units * info.mem_unit;
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) s.rlimit_as = rl.rlim_cur;
  if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    s.rlimit_data = rl.rlim_cur;
  }
  std::string text;
  const long page = sysconf(_SC_PAGESIZE);
  if (ReadSmallFile("/proc/self/statm", &text) && page > 0) {
    ParseStatm(text, static_cast<uint64_t>(page), &s.vm_bytes, &s.data_bytes);
  }
  if (ReadSmallFile("/proc/self/cgroup", &text)) s.cgroup = CgroupBudget("/sys/fs/cgroup", text);
  return s;
}

size_t BudgetFromSources(const BudgetSources& s) {
  uint64_t budget = s.physical_and_swap;
  if (s.rlimit_as != UINT64_MAX) budget = std::min(budget, LimitHeadroom(s.rlimit_as, s.vm_bytes));
  if (s.rlimit_data != UINT64_MAX) {
    budget = std::min(budget, LimitHeadroom(s.rlimit_data, s.data_bytes));
  }
  budget = std::min(budget, s.cgroup);
  return budget > std::numeric_limits<size_t>::max() ? std::numeric_limits<size_t>::max()
                                                      : static_cast<size_t>(budget);
}

size_t DefaultMaxAllocationBytes() { return BudgetFromSources(ReadBudgetSources()); }

bool MemoryAccount::Fits(size_t bytes) const {
  const size_t used_now = used();
  const size_t cap = limit();
  return used_now <= cap && bytes <= cap - used_now;
}

bool MemoryAccount::TryCharge(size_t bytes) {
  size_t used_now = used_.load(std::memory_order_relaxed);
  do {
    const size_t cap = limit();
    if (used_now > cap || bytes > cap - used_now) return false;
  } while (!used_.compare_exchange_weak(used_now, used_now + bytes, std::memory_order_relaxed));
  return true;
}

MemoryAccount* CurrentMemoryAccount() { return current_account; }

ScopedMemoryAccount::ScopedMemoryAccount(MemoryAccount* account) : previous_(current_account) {
  current_account = account;
}

ScopedMemoryAccount::~ScopedMemoryAccount() { current_account = previous_; }

namespace internal {
namespace {

// Sits right before each counted block's payload; the block starts
// HeaderRoom(align) bytes before the payload.
struct CountedHeader {
  MemoryAccount* account;  // charged (holds a reference), or nullptr
  size_t charged;          // room + payload
  void* block;             // what malloc / posix_memalign returned
  size_t size;             // payload
};

size_t HeaderRoom(size_t align) { return std::max(sizeof(CountedHeader), align); }

CountedHeader* HeaderOf(const void* p) {
  return reinterpret_cast<CountedHeader*>(const_cast<char*>(static_cast<const char*>(p)) -
                                          sizeof(CountedHeader));
}

}  // namespace

size_t HugePageBytesFrom(const char* disable, const std::string& enabled,
                         const std::string& pmd_size) {
  if (disable != nullptr && disable[0] != '\0' && std::string(disable) != "0") return 0;
  // The mode in force is the bracketed word: "always [madvise] never".
  if (enabled.find("[always]") == std::string::npos &&
      enabled.find("[madvise]") == std::string::npos) {
    return 0;
  }
  char* end = nullptr;
  errno = 0;
  const unsigned long long size = std::strtoull(pmd_size.c_str(), &end, 10);
  if (errno != 0 || end == pmd_size.c_str()) return 0;
  if (size < 4096 || size > (size_t{32} << 20) || (size & (size - 1)) != 0) return 0;
  return static_cast<size_t>(size);
}

size_t HugePageBytes() {
  static const size_t bytes = [] {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    std::string enabled, pmd_size;
    ReadSmallFile("/sys/kernel/mm/transparent_hugepage/enabled", &enabled);
    ReadSmallFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", &pmd_size);
    return HugePageBytesFrom(std::getenv("TFLITE_C_DISABLE_HUGE_PAGES"), enabled, pmd_size);
#else
    return size_t{0};
#endif
  }();
  return bytes;
}

void* CountedAllocate(size_t bytes, size_t align) noexcept {
  static_assert(sizeof(CountedHeader) % alignof(std::max_align_t) == 0, "header keeps alignment");
  if (align == 0 || (align & (align - 1)) != 0) return nullptr;
  const size_t room = HeaderRoom(align);
  if (bytes > SIZE_MAX - room) return nullptr;
  const size_t total = room + bytes;
  MemoryAccount* account = CurrentMemoryAccount();
  if (account != nullptr && !account->TryCharge(total)) return nullptr;
  void* block = nullptr;
  const size_t huge = HugePageBytes();
  if (huge != 0 && total >= huge && align <= huge) {
    if (posix_memalign(&block, huge, total) != 0) block = nullptr;
#ifdef MADV_HUGEPAGE
    // Advice only: a kernel without it (or out of huge pages) keeps small pages.
    if (block != nullptr) (void)madvise(block, total / huge * huge, MADV_HUGEPAGE);
#endif
  } else if (align <= alignof(std::max_align_t)) {
    block = std::malloc(total);
  } else if (posix_memalign(&block, std::max(align, sizeof(void*)), total) != 0) {
    block = nullptr;
  }
  if (block == nullptr) {
    if (account != nullptr) account->Credit(total);
    return nullptr;
  }
  if (account != nullptr) account->Ref();
  char* payload = static_cast<char*>(block) + room;
  *HeaderOf(payload) = CountedHeader{account, total, block, bytes};
  return payload;
}

void CountedFree(void* p) noexcept {
  if (p == nullptr) return;
  const CountedHeader h = *HeaderOf(p);
  std::free(h.block);
  if (h.account != nullptr) {
    h.account->Credit(h.charged);
    h.account->Unref();
  }
}

size_t CountedSize(const void* p) noexcept { return HeaderOf(p)->size; }

namespace {
// std::bad_alloc that says which limit was in the way; GuardC reports it as
// "out of memory (<what>)".
class LimitExceeded : public std::bad_alloc {
 public:
  LimitExceeded(size_t bytes, const MemoryAccount* account) noexcept {
    if (account != nullptr) {
      std::snprintf(text_, sizeof(text_),
                    "%zu more bytes; allocation limit of %zu bytes, %zu in use", bytes,
                    account->limit(), account->used());
    } else {
      std::snprintf(text_, sizeof(text_), "%zu more bytes", bytes);
    }
  }
  const char* what() const noexcept override { return text_; }

 private:
  char text_[120];
};
}  // namespace

void* ScratchAllocate(size_t bytes, size_t align) {
  void* p = CountedAllocate(bytes, align);
  if (p == nullptr) throw LimitExceeded(bytes, CurrentMemoryAccount());
  return p;
}

}  // namespace internal

}  // namespace tflite_c
