// The XNNPACK delegate's file-backed weight cache (see weight_cache.h).
#include "src/delegates/xnnpack/weight_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "src/delegates/xnnpack/report.h"

namespace tflite_c {
namespace xnnpack {
namespace {

constexpr char kMagic[8] = {'T', 'F', 'L', 'C', 'X', 'N', 'N', 'W'};
constexpr uint32_t kVersion = 2;  // 2: four-lane fingerprints
constexpr size_t kDataAlignment = 4096;  // start of the packed data in the file
constexpr size_t kEntryAlignment = 64;   // of each packed buffer

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  uint8_t build_id[32];     // XNNPACK's build identifier (or its fingerprint)
  uint64_t build_id_size;
  uint64_t entry_count;
  uint64_t table_offset;
  uint64_t data_offset;
  uint64_t data_size;
  uint64_t file_size;
  uint64_t table_checksum;
  uint64_t data_checksum;
  uint64_t reserved;
  uint64_t header_checksum;  // of every byte before it
};
static_assert(sizeof(FileHeader) == 128, "file header layout");

struct FileEntry {
  uint32_t seed;
  uint32_t reserved0;
  uint64_t kernel;
  uint64_t bias;
  uint64_t offset;  // from the start of the packed data
  uint64_t size;
  uint64_t reserved[3];
};
static_assert(sizeof(FileEntry) == 64, "file entry layout");

size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// A streaming 64-bit fingerprint (not cryptographic): 32-byte blocks mixed
// into four independent lanes (so the CPU overlaps them), the lanes, the
// tail and the length folded together at the end.
class Hasher {
 public:
  Hasher() {
    for (int i = 0; i < 4; ++i) lane_[i] = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(i + 1);
  }
  void Update(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    total_ += n;
    if (fill_ > 0) {
      const size_t take = std::min(n, sizeof(buf_) - fill_);
      std::memcpy(buf_ + fill_, p, take);
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ < sizeof(buf_)) return;
      Block(buf_);
      fill_ = 0;
    }
    for (; n >= sizeof(buf_); n -= sizeof(buf_), p += sizeof(buf_)) Block(p);
    if (n > 0) {  // fewer than 32 bytes left, and buf_ is empty here
      std::memcpy(buf_, p, n);
      fill_ = n;
    }
  }
  uint64_t Final() const {
    uint64_t h = total_ * 0xC2B2AE3D27D4EB4Full;
    for (int i = 0; i < 4; ++i) h = Rotl(h ^ Mix(lane_[i]), 27) * 5 + 0x52DCE729;
    uint8_t tail[sizeof(buf_)] = {};
    std::memcpy(tail, buf_, fill_);
    for (size_t off = 0; off < fill_; off += 8) {
      uint64_t w;
      std::memcpy(&w, tail + off, 8);
      h = Rotl(h ^ Mix(w), 27) * 5 + 0x52DCE729;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
  }

 private:
  static uint64_t Mix(uint64_t w) {
    w *= 0x87C37B91114253D5ull;
    w = Rotl(w, 31);
    return w * 0x4CF5AD432745937Full;
  }
  void Block(const uint8_t* p) {
    for (int i = 0; i < 4; ++i) {
      uint64_t w;
      std::memcpy(&w, p + 8 * i, 8);
      lane_[i] = Rotl(lane_[i] ^ Mix(w), 27) * 5 + 0x52DCE729;
    }
  }

  uint64_t lane_[4];
  uint64_t total_ = 0;
  uint8_t buf_[32] = {};
  size_t fill_ = 0;
};

uint64_t Checksum(const void* data, size_t n) {
  Hasher h;
  h.Update(data, n);
  return h.Final();
}

// XNNPACK's build identifier as stored in the header.
void BuildId(uint8_t out[32], uint64_t* size) {
  const void* id = xnn_experimental_get_build_identifier_data();
  const size_t n = xnn_experimental_get_build_identifier_size();
  std::memset(out, 0, 32);
  *size = n;
  if (n <= 32) {
    if (id != nullptr) std::memcpy(out, id, n);
  } else {
    const uint64_t f = Checksum(id, n);
    std::memcpy(out, &f, sizeof(f));
  }
}

bool WriteAll(int fd, const void* data, size_t n, off_t offset) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = pwrite(fd, p, n, offset);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
    offset += w;
  }
  return true;
}

// Why the mapped cache file `bytes` (`size` bytes, at least a header) cannot
// be used, or nullptr if it can; its header goes to `*header`.
const char* FileProblem(const uint8_t* bytes, size_t size, FileHeader* header) {
  FileHeader& h = *header;
  std::memcpy(&h, bytes, sizeof(h));
  uint8_t id[32];
  uint64_t id_size;
  BuildId(id, &id_size);
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0) return "not a weight cache file";
  if (h.version != kVersion || h.header_size != sizeof(FileHeader)) return "unsupported version";
  if (h.header_checksum != Checksum(&h, offsetof(FileHeader, header_checksum)))
    return "header checksum mismatch";
  if (h.build_id_size != id_size || std::memcmp(h.build_id, id, 32) != 0)
    return "written by another XNNPACK build";
  if (h.file_size != size) return "truncated or extended";
  if (h.table_offset != sizeof(FileHeader) ||
      h.entry_count > (size - sizeof(FileHeader)) / sizeof(FileEntry) ||
      h.data_offset % kDataAlignment != 0 ||
      h.data_offset < h.table_offset + h.entry_count * sizeof(FileEntry) || h.data_offset > size ||
      h.data_size != size - h.data_offset)
    return "inconsistent layout";
  if (h.table_checksum != Checksum(bytes + h.table_offset, h.entry_count * sizeof(FileEntry)))
    return "table checksum mismatch";
  if (h.data_checksum != Checksum(bytes + h.data_offset, h.data_size))
    return "data checksum mismatch";
  const auto* table = reinterpret_cast<const FileEntry*>(bytes + h.table_offset);
  for (uint64_t i = 0; i < h.entry_count; ++i) {
    const FileEntry& e = table[i];
    if (e.offset % kEntryAlignment != 0 || e.offset > h.data_size ||
        e.size > h.data_size - e.offset)
      return "an entry lies outside the data";
  }
  return nullptr;
}

}  // namespace

size_t FileWeightCache::KeyHash::operator()(const Key& k) const {
  return static_cast<size_t>(k.kernel * 31 + k.bias * 0x9E3779B97F4A7C15ull + k.seed);
}

void FileWeightCache::Aligned::operator()(uint8_t* p) const { std::free(p); }

std::unique_ptr<FileWeightCache> FileWeightCache::Open(const char* path, int fd,
                                                       bool lock_memory) {
  std::unique_ptr<FileWeightCache> cache(new FileWeightCache);
  FileWeightCache* c = cache.get();
  c->provider_.context = c;
  c->provider_.look_up = LookUp;
  c->provider_.reserve_space = ReserveSpace;
  c->provider_.look_up_or_insert = LookUpOrInsert;
  c->provider_.is_finalized = IsFinalized;
  c->provider_.offset_to_addr = OffsetToAddr;
  c->provider_.delete_cache = Delete;
  c->lock_memory_ = lock_memory;
  if (fd > 0) {
    c->fd_ = fd;
    c->path_ = (path && path[0]) ? path : "file descriptor " + std::to_string(fd);
  } else {
    if (path == nullptr || path[0] == '\0') return nullptr;
    c->path_ = path;
    if (c->path_ == kInMemoryCachePath) {
      c->in_memory_ = true;
      return cache;
    }
  }
  if (c->Load()) return cache;

  // Building: make sure the result can be written.
  if (c->fd_ > 0) {
    const int mode = fcntl(c->fd_, F_GETFL);
    if (mode < 0 || (mode & O_ACCMODE) == O_RDONLY) {
      Report(nullptr, "weight cache: %s is not open for writing", c->path_.c_str());
      return nullptr;
    }
    return cache;
  }
  std::string probe = c->path_ + ".XXXXXX";
  const int probe_fd = mkstemp(&probe[0]);
  if (probe_fd < 0) {
    Report(nullptr, "weight cache: cannot create a file next to '%s': %s", c->path_.c_str(),
           std::strerror(errno));
    return nullptr;
  }
  close(probe_fd);
  unlink(probe.c_str());
  return cache;
}

FileWeightCache::~FileWeightCache() {
  Unmap();
  if (fd_ > 0) close(fd_);
}

void FileWeightCache::Unmap() {
  if (map_ != nullptr) munmap(map_, map_size_);
  map_ = nullptr;
  map_size_ = 0;
  map_data_ = nullptr;
  map_data_size_ = 0;
}

bool FileWeightCache::Load() {
  int fd = fd_;
  if (fd_ <= 0) {
    fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno != ENOENT)
        Report(nullptr, "weight cache: cannot open '%s': %s", path_.c_str(), std::strerror(errno));
      return false;
    }
  }
  struct stat st;
  const bool stat_ok = fstat(fd, &st) == 0;
  const size_t size = stat_ok ? static_cast<size_t>(st.st_size) : 0;
  void* map = MAP_FAILED;
  if (stat_ok && size >= sizeof(FileHeader)) map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (fd != fd_) close(fd);
  if (stat_ok && size == 0) return false;  // an empty file: build it
  const char* problem = nullptr;
  if (!stat_ok) {
    problem = "cannot stat it";
  } else if (size < sizeof(FileHeader)) {
    problem = "shorter than its header";
  } else if (map == MAP_FAILED) {
    problem = "cannot map it";
  }
  const auto* bytes = static_cast<const uint8_t*>(map == MAP_FAILED ? nullptr : map);
  FileHeader h;
  if (problem == nullptr) problem = FileProblem(bytes, size, &h);
  if (problem != nullptr) {
    Report(nullptr, "weight cache file '%s' is not usable (%s); rebuilding it", path_.c_str(),
           problem);
    if (map != MAP_FAILED) munmap(map, size);
    return false;
  }

  map_ = static_cast<uint8_t*>(map);
  map_size_ = size;
  map_data_ = map_ + h.data_offset;
  map_data_size_ = static_cast<size_t>(h.data_size);
  const auto* table = reinterpret_cast<const FileEntry*>(bytes + h.table_offset);
  for (uint64_t i = 0; i < h.entry_count; ++i) {
    const FileEntry& fe = table[i];
    Entry e;
    e.key = Key{fe.seed, fe.kernel, fe.bias};
    e.named = true;
    e.from_file = true;
    e.offset = static_cast<size_t>(fe.offset);
    e.size = static_cast<size_t>(fe.size);
    e.data = map_data_ + fe.offset;
    if (by_key_.count(e.key)) continue;
    by_key_[e.key] = entries_.size();
    by_offset_[e.offset] = entries_.size();
    entries_.push_back(e);
  }
  next_offset_ = RoundUp(map_data_size_, kEntryAlignment);
  stats_.loaded = true;
  stats_.loaded_entries = entries_.size();
  if (lock_memory_ && mlock(map_, map_size_) != 0) {
    Report(nullptr, "weight cache: could not lock '%s' in memory: %s", path_.c_str(),
           std::strerror(errno));
  }
  return true;
}

bool FileWeightCache::Name(const void* p, uint64_t* out) {
  if (p == nullptr) {
    *out = 0;
    return true;
  }
  auto n = names_.find(p);
  if (n != names_.end()) {
    *out = n->second;
    return true;
  }
  auto k = known_.find(p);
  if (k == known_.end()) return false;
  uint64_t f = Checksum(p, k->second);
  if (f == 0) f = 1;  // 0 means "no bias"
  names_.emplace(p, f);
  *out = f;
  return true;
}

size_t FileWeightCache::LookUp(void* context, const xnn_weights_cache_look_up_key* key) {
  auto* c = static_cast<FileWeightCache*>(context);
  std::lock_guard<std::mutex> lock(c->mutex_);
  uint64_t kernel, bias;
  if (key == nullptr || !c->Name(key->kernel, &kernel) || !c->Name(key->bias, &bias))
    return SIZE_MAX;
  ++c->stats_.lookups;
  auto it = c->by_key_.find(Key{key->seed, kernel, bias});
  if (it == c->by_key_.end()) return SIZE_MAX;
  ++c->stats_.hits;
  return c->entries_[it->second].offset;
}

void* FileWeightCache::ReserveSpace(void* context, size_t n) {
  auto* c = static_cast<FileWeightCache*>(context);
  std::lock_guard<std::mutex> lock(c->mutex_);
  const size_t bytes = RoundUp(std::max<size_t>(n, 1), kEntryAlignment);
  c->pending_.reset(static_cast<uint8_t*>(std::aligned_alloc(kEntryAlignment, bytes)));
  c->pending_size_ = c->pending_ ? bytes : 0;
  return c->pending_.get();
}

size_t FileWeightCache::LookUpOrInsert(void* context, const xnn_weights_cache_look_up_key* key,
                                       void* ptr, size_t size) {
  auto* c = static_cast<FileWeightCache*>(context);
  std::lock_guard<std::mutex> lock(c->mutex_);
  uint64_t kernel = 0, bias = 0;
  const bool named =
      key != nullptr && c->Name(key->kernel, &kernel) && c->Name(key->bias, &bias);
  const Key k{key ? key->seed : 0u, kernel, bias};
  if (named) {
    auto it = c->by_key_.find(k);
    if (it != c->by_key_.end()) {
      ++c->stats_.reused;
      c->pending_.reset();
      c->pending_size_ = 0;
      return c->entries_[it->second].offset;
    }
  }
  if (ptr == nullptr) return SIZE_MAX;  // nothing was packed
  ++c->stats_.packed;
  if (!named) ++c->stats_.unnamed;
  Buffer owned;
  if (ptr != nullptr && ptr == c->pending_.get() && size <= c->pending_size_) {
    owned = std::move(c->pending_);
  } else {
    // Not from ReserveSpace: keep a copy.
    owned.reset(static_cast<uint8_t*>(
        std::aligned_alloc(kEntryAlignment, RoundUp(std::max<size_t>(size, 1), kEntryAlignment))));
    if (!owned) return SIZE_MAX;
    if (size > 0) std::memcpy(owned.get(), ptr, size);
  }
  c->pending_.reset();
  c->pending_size_ = 0;
  Entry e;
  e.key = k;
  e.named = named;
  e.from_file = false;
  e.offset = c->next_offset_;
  e.size = size;
  e.data = owned.get();
  c->next_offset_ += RoundUp(std::max<size_t>(size, 1), kEntryAlignment);
  c->buffers_.push_back(std::move(owned));
  if (named) {
    c->by_key_[k] = c->entries_.size();
    ++c->unwritten_;
  }
  c->by_offset_[e.offset] = c->entries_.size();
  c->entries_.push_back(e);
  return e.offset;
}

bool FileWeightCache::IsFinalized(void*) { return true; }

void* FileWeightCache::OffsetToAddr(void* context, size_t offset) {
  auto* c = static_cast<FileWeightCache*>(context);
  std::lock_guard<std::mutex> lock(c->mutex_);
  if (c->map_data_ != nullptr && offset < c->map_data_size_)
    return const_cast<uint8_t*>(c->map_data_ + offset);
  auto it = c->by_offset_.upper_bound(offset);
  if (it == c->by_offset_.begin()) return nullptr;
  --it;
  const Entry& e = c->entries_[it->second];
  if (offset - e.offset > e.size) return nullptr;
  return const_cast<uint8_t*>(e.data + (offset - e.offset));
}

xnn_status FileWeightCache::Delete(void*) { return xnn_status_success; }

void FileWeightCache::BeginPrepare(const TfLiteContext* context, const StaticMap& statics) {
  std::lock_guard<std::mutex> lock(mutex_);
  known_.clear();
  names_.clear();
  for (size_t t = 0; t < context->tensors_size; ++t) {
    const TfLiteTensor& tensor = context->tensors[t];
    if (tensor.allocation_type != kTfLiteMmapRo || tensor.data.raw == nullptr || tensor.bytes == 0)
      continue;
    size_t& bytes = known_[tensor.data.raw];
    bytes = std::max(bytes, tensor.bytes);
  }
  for (const auto& kv : statics) {
    if (kv.second && !kv.second->empty())
      known_[kv.second->data()] = kv.second->size() * sizeof(float);
  }
}

bool FileWeightCache::EndPrepare() {
  std::lock_guard<std::mutex> lock(mutex_);
  known_.clear();
  names_.clear();
  if (in_memory_) return true;
  if (!mismatch_checked_ && stats_.loaded && stats_.loaded_entries > 0 && stats_.lookups > 0) {
    mismatch_checked_ = true;
    if (stats_.hits == 0) {
      stats_.rebuilt = true;
      Report(nullptr,
             "weight cache file '%s' holds none of this model's packed weights (built for "
             "another model?); rebuilding it",
             path_.c_str());
    }
  }
  if (unwritten_ == 0) return true;
  return Write();
}

bool FileWeightCache::Write() {
  if (fd_ > 0 && map_ != nullptr) {
    // Rewriting the descriptor would pull the file from under our mapping.
    Report(nullptr, "weight cache: %s was loaded; new packed weights are kept in memory only",
           path_.c_str());
    unwritten_ = 0;
    return true;
  }
  if (fd_ > 0) {
    if (ftruncate(fd_, 0) != 0 || !WriteTo(fd_)) {
      Report(nullptr, "weight cache: cannot write %s: %s", path_.c_str(), std::strerror(errno));
      return false;
    }
  } else {
    std::string tmp = path_ + ".XXXXXX";
    const int fd = mkstemp(&tmp[0]);
    if (fd < 0) {
      Report(nullptr, "weight cache: cannot create a file next to '%s': %s", path_.c_str(),
             std::strerror(errno));
      return false;
    }
    fchmod(fd, 0644);
    const bool ok = WriteTo(fd);
    const int saved = errno;
    close(fd);
    if (!ok || rename(tmp.c_str(), path_.c_str()) != 0) {
      Report(nullptr, "weight cache: cannot write '%s': %s", path_.c_str(),
             std::strerror(ok ? errno : saved));
      unlink(tmp.c_str());
      return false;
    }
  }
  unwritten_ = 0;
  ++stats_.writes;
  return true;
}

bool FileWeightCache::WriteTo(int fd) const {
  std::vector<const Entry*> chosen;
  for (const Entry& e : entries_) {
    if (!e.named) continue;
    if (e.from_file && stats_.rebuilt) continue;
    chosen.push_back(&e);
  }
  FileHeader h;
  std::memset(&h, 0, sizeof(h));
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.version = kVersion;
  h.header_size = sizeof(FileHeader);
  BuildId(h.build_id, &h.build_id_size);
  h.entry_count = chosen.size();
  h.table_offset = sizeof(FileHeader);
  h.data_offset = RoundUp(h.table_offset + chosen.size() * sizeof(FileEntry), kDataAlignment);

  std::vector<FileEntry> table(chosen.size());
  Hasher data_hash;
  static const uint8_t kZeros[kEntryAlignment] = {};
  uint64_t offset = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const Entry& e = *chosen[i];
    FileEntry& fe = table[i];
    std::memset(&fe, 0, sizeof(fe));
    fe.seed = e.key.seed;
    fe.kernel = e.key.kernel;
    fe.bias = e.key.bias;
    fe.offset = offset;
    fe.size = e.size;
    const size_t padded = RoundUp(std::max<size_t>(e.size, 1), kEntryAlignment);
    if (!WriteAll(fd, e.data, e.size, static_cast<off_t>(h.data_offset + offset))) return false;
    data_hash.Update(e.data, e.size);
    if (padded > e.size) {
      if (!WriteAll(fd, kZeros, padded - e.size,
                    static_cast<off_t>(h.data_offset + offset + e.size)))
        return false;
      data_hash.Update(kZeros, padded - e.size);
    }
    offset += padded;
  }
  h.data_size = offset;
  h.file_size = h.data_offset + h.data_size;
  h.table_checksum = Checksum(table.data(), table.size() * sizeof(FileEntry));
  h.data_checksum = data_hash.Final();
  h.header_checksum = Checksum(&h, offsetof(FileHeader, header_checksum));
  // Table and the gap before the data, then the header last.
  std::vector<uint8_t> head(h.data_offset, 0);
  std::memcpy(head.data(), &h, sizeof(h));
  if (!table.empty())
    std::memcpy(head.data() + h.table_offset, table.data(), table.size() * sizeof(FileEntry));
  if (ftruncate(fd, static_cast<off_t>(h.file_size)) != 0) return false;
  return WriteAll(fd, head.data() + sizeof(h), head.size() - sizeof(h), sizeof(h)) &&
         WriteAll(fd, head.data(), sizeof(h), 0);
}

WeightCacheStats FileWeightCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace xnnpack
}  // namespace tflite_c
