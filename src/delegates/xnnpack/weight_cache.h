// Internal to the XNNPACK delegate: the file-backed weight cache behind
// TfLiteXNNPackDelegateOptions.weight_cache_file_path / _file_descriptor.
//
// It is an xnn_weights_cache_provider. XNNPACK asks it, for each constant
// weight it is about to pack, whether packed weights for the key {packing
// seed, kernel pointer, bias pointer} exist; on a hit it packs nothing and
// uses the cache's bytes. Pointers differ between processes, so the cache
// names a kernel/bias by a 64-bit fingerprint of its bytes (and size): the
// delegate registers the constant tensors of the subgraph it is delegating
// (BeginPrepare) and the fingerprint is computed on first use. Weights the
// cache cannot name (e.g. buffers XNNPACK converted itself) are packed into
// process memory and never written.
//
// First run (no valid file): packed weights are kept in memory and, at the
// end of each DelegatePrepare that added some (EndPrepare), written as a new
// file (to a temporary file next to it, then renamed, so a reader never sees
// a half-written file). Later runs mmap the file and skip packing.
//
// File layout (little-endian host layout, native alignment):
//   FileHeader (128 bytes; magic, version, XNNPACK build identifier, counts,
//               offsets and checksums of the table and the data)
//   FileEntry[entry_count] (seed, kernel and bias fingerprints, offset, size)
//   padding to a 4096-byte boundary
//   packed data (each entry 64-byte aligned)
// A file that fails any check (magic, version, XNNPACK build, sizes, offsets,
// checksums) is reported and rebuilt. A valid file in which the model finds
// none of its weights (another model's cache) is reported and rebuilt too;
// one that has only some of them is extended.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_WEIGHT_CACHE_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_WEIGHT_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <xnnpack.h>

#include "src/delegates/xnnpack/op_builder.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// The weight_cache_file_path that selects a cache kept in memory only (it
// still shares packed weights between the subgraphs of one delegate).
inline constexpr char kInMemoryCachePath[] = ":memory";

// What the cache did (for tests and diagnostics).
struct WeightCacheStats {
  bool loaded = false;         // a valid file was mapped at Open
  bool rebuilt = false;        // the loaded file was for another model
  size_t loaded_entries = 0;   // entries of the mapped file
  size_t lookups = 0;          // look_up calls for weights it can name
  size_t hits = 0;             // ... answered from the cache (not packed)
  size_t packed = 0;           // packed weights added (look_up_or_insert)
  size_t unnamed = 0;          // ... of which the cache could not name
  size_t reused = 0;           // look_up_or_insert calls answered by an
                               // existing entry (XNNPACK's depthwise path
                               // packs before asking; its copy is dropped)
  size_t writes = 0;           // times the file was written
};

class FileWeightCache {
 public:
  // Opens the cache for `path` (kInMemoryCachePath: memory only) or, when
  // fd > 0, for that file descriptor (owned from now on; `path` then only
  // names it in messages and may be null). Loads a valid file, else prepares
  // to build one. Returns null after logging why when the file can be
  // neither loaded nor written.
  static std::unique_ptr<FileWeightCache> Open(const char* path, int fd, bool lock_memory);
  ~FileWeightCache();
  FileWeightCache(const FileWeightCache&) = delete;
  FileWeightCache& operator=(const FileWeightCache&) = delete;

  xnn_weights_cache_t provider() { return &provider_; }
  const std::string& path() const { return path_; }
  WeightCacheStats stats() const;

  // Around the runtime creation of one DelegatePrepare: the constant tensors
  // of `context` (read-only model data) and `statics` (unpacked fp16
  // weights) become nameable while XNNPACK packs.
  void BeginPrepare(const TfLiteContext* context, const StaticMap& statics);
  // Forgets those pointers and writes new packed weights to the file (if
  // any and if it is a file). Returns false (after logging) if writing failed;
  // the packed weights in memory stay usable either way.
  bool EndPrepare();

 private:
  struct Key {
    uint32_t seed;
    uint64_t kernel;
    uint64_t bias;
    bool operator==(const Key& o) const {
      return seed == o.seed && kernel == o.kernel && bias == o.bias;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Entry {
    Key key;
    bool named;          // has a key (may be written)
    bool from_file;      // lives in the mapped file
    size_t offset;       // XNNPACK's offset
    size_t size;
    const uint8_t* data;
  };
  struct Aligned {
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t, Aligned>;

  FileWeightCache() = default;
  bool Load();
  void Unmap();
  bool Write();
  bool WriteTo(int fd) const;
  // Fingerprint of the bytes at `p` (0 for null; false if `p` is unknown).
  bool Name(const void* p, uint64_t* out);

  // xnn_weights_cache_provider callbacks (context = this).
  static size_t LookUp(void* context, const xnn_weights_cache_look_up_key* key);
  static void* ReserveSpace(void* context, size_t n);
  static size_t LookUpOrInsert(void* context, const xnn_weights_cache_look_up_key* key,
                               void* ptr, size_t size);
  static bool IsFinalized(void* context);
  static void* OffsetToAddr(void* context, size_t offset);
  static xnn_status Delete(void* context);

  xnn_weights_cache_provider provider_{};
  std::string path_;
  int fd_ = -1;              // owned (descriptor mode)
  bool in_memory_ = false;
  bool lock_memory_ = false;

  // The mapped file.
  uint8_t* map_ = nullptr;
  size_t map_size_ = 0;
  const uint8_t* map_data_ = nullptr;
  size_t map_data_size_ = 0;

  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  std::unordered_map<Key, size_t, KeyHash> by_key_;   // -> entries_ index
  std::map<size_t, size_t> by_offset_;                // offset -> entries_ index
  std::vector<Buffer> buffers_;                       // packed in this process
  Buffer pending_;                                    // from ReserveSpace
  size_t pending_size_ = 0;
  size_t next_offset_ = 0;
  size_t unwritten_ = 0;                              // named entries not on disk

  // Nameable pointers during one DelegatePrepare: pointer -> bytes, and
  // their fingerprints once computed.
  std::unordered_map<const void*, size_t> known_;
  std::unordered_map<const void*, uint64_t> names_;

  WeightCacheStats stats_;
  bool mismatch_checked_ = false;
};

// The delegate's file-backed cache statistics (white-box, for tests); false
// if `delegate` has no file-backed cache.
bool GetWeightCacheStats(TfLiteDelegate* delegate, WeightCacheStats* out);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_WEIGHT_CACHE_H_
