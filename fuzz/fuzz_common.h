// Shared by the fuzz/ targets: the per-input cost caps, running one model
// through the public C API, and the seed models of the shared set.
#ifndef TFLITE_C_FUZZ_FUZZ_COMMON_H_
#define TFLITE_C_FUZZ_FUZZ_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"

namespace tflite_c {
namespace fuzz {

// Caps on what one input may make the runtime do, so a legitimately big
// model (or a mutated shape) is refused with a message instead of timing the
// fuzzer out: bytes per tensor/arena, WHILE iterations, threads.
constexpr int64_t kMaxAllocationBytes = 64 << 20;
constexpr int64_t kMaxWhileIterations = 1000;

// Reads the bytes of consecutive choices; past the end it returns zeros.
class Choices {
 public:
  Choices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(Byte()) << (8 * i);
    return v;
  }
  // A value in [0, n) (n > 0).
  uint32_t Below(uint32_t n) { return n <= 256 ? Byte() % n : U32() % n; }
  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return pos_ < size_ ? size_ - pos_ : 0; }
  const uint8_t* rest() const { return data_ + (pos_ < size_ ? pos_ : size_); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Fills one tensor from the next bytes of `c` (cycled over what remains;
// zeros when nothing does). Strings and unallocated tensors are left alone.
void FillTensor(TfLiteTensor* t, Choices& c);
// Reads every byte of a tensor (ASan checks the data is really there).
void TouchTensor(const TfLiteTensor* t);
// A shape of rank 0..5 read from `c`: mostly small dimensions, sometimes 0,
// -1 or large ones.
std::vector<int> ChooseShape(Choices& c);

// Interpreter options with the caps above, one thread, a reporter that
// swallows messages, and XNNPACK on or off. Caller deletes.
TfLiteInterpreterOptions* NewOptions(bool xnnpack);

// Fills every input tensor from `bytes` (cycled; zeros when empty). String
// inputs are left as the runtime holds them.
void FillInputs(TfLiteInterpreter* interpreter, const uint8_t* bytes, size_t size);

// Loads `model` (TfLiteModelCreate), builds an interpreter, allocates,
// fills the inputs from `input_bytes` and invokes twice; every failure is
// fine, crashes / sanitizer reports / leaks are the findings.
void RunModel(const uint8_t* model, size_t model_size, bool xnnpack, const uint8_t* input_bytes,
              size_t input_size);

// The shared set's folder of models (TFLITE_C_FUZZ_MODELS, else
// <shared>/models/files).
std::string ModelsDir();
// The bytes of <ModelsDir>/<name>.tflite; empty when missing.
std::vector<uint8_t> ReadModel(const std::string& name);

// Small real models the signature / resize fuzzers run (present ones only,
// loaded once).
struct NamedModel {
  std::string name;
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
};
// Every model of ModelsDir() up to `max_bytes`, sorted by name, for which
// `keep` (given the bytes) is true; the same list on every call.
std::vector<NamedModel>& SmallModels(size_t max_bytes, bool (*keep)(const std::vector<uint8_t>&));

}  // namespace fuzz
}  // namespace tflite_c

#endif  // TFLITE_C_FUZZ_FUZZ_COMMON_H_
