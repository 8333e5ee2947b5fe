// End-to-end mutation test: models of the shared set are mutated with a fixed
// seed, then loaded, built, allocated, fed and run through the public C API,
// with and without XNNPACK. Every step must either succeed or fail with at
// least one message through the error reporter; the process must not crash,
// hang or leak (this file matches "[Ff]uzz", so CI reruns it under
// ASan+UBSan).
//
// Mutations favour the fields kernels act on: the flatbuffer tables of
// tensors, quantization parameters, operators, their builtin options and
// operator codes, plus the payloads of shape / index / scale vectors, custom
// options and small constant buffers. Aligned 4-byte words there are set to
// hostile values (0, -1, 1 << 30, INT_MIN, small numbers, neighbours of the
// old value); single bytes are flipped too, and now and then a byte anywhere.
//
// Environment:
//   TFLITE_C_FUZZ_ITERATIONS  mutations per model (default kDefaultIterations)
//   TFLITE_C_FUZZ_SEED        base seed (default 1); case seed = base + iteration
//   TFLITE_C_FUZZ_MODEL       run only this model
//   TFLITE_C_FUZZ_VERBOSE     print each case and its mutations before it runs
//   TFLITE_C_FUZZ_DUMP        folder to write each mutated model to
//
// The exact mutations it found are replayed in hostile_model_regression_test.cc.
#include <sys/stat.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema_generated.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/shared_models.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ReadSharedModel;

constexpr int kDefaultIterations = 80;
// Ceiling on WHILE iterations, so that a mutated loop condition cannot hang.
constexpr int64_t kMaxWhileIterations = 2000;
// Ceiling on each tensor / arena, so that a mutated shape cannot make the
// runtime allocate and zero gigabytes (the library refuses with a message).
constexpr int64_t kMaxAllocationBytes = 64 << 20;

// A spread of small models: float, int8/uint8 quantized, strings, LSTM/RNN,
// control flow, resource variables, dynamic shapes, SVDF, MediaPipe custom
// ops.
const char* const kModels[] = {
    "java_add",                        // float ADD
    "java_quantized",                  // uint8 SPACE_TO_DEPTH
    "tflite_add_quantized_int8",       // int8 ADD
    "quant_fc",                        // int8 FULLY_CONNECTED + RESHAPE
    "quant_split",                     // SPLIT + ADD
    "litert_gather_string",            // string GATHER
    "java_string",                     // string RESHAPE
    "tflite_lstm",                     // float LSTM
    "quant_unidirectional_sequence_lstm_calibrated",
    "tflite_multi_subgraphs_while",    // WHILE
    "tflite_nested_while",             // nested WHILE
    "tflite_call_once_mul",            // CALL_ONCE + resource variables
    "tflite_dynamic_shapes",           // SHAPE / TILE / STRIDED_SLICE / BATCH_MATMUL ...
    "litert_simple_topk_op_runtime_k", // TOPK_V2 with a runtime k
    "litert_rope",                     // CAST / CONCATENATION / SLICE / SIN / COS
    "tflm_keyword_scrambled",          // SVDF, int8
    "litert_simple_scatter_nd_op",     // SCATTER_ND
    "quant_gather_nd",                 // GATHER_ND
    "mp_selfie_segmentation",          // MediaPipe custom Convolution2DTransposeBias
};

// Cases whose XNNPACK pass still crashes inside XNNPACK; the delegate
// (src/delegates/xnnpack) must refuse these graphs. Their builtin pass runs.
// Empty: the seeds once listed here (dead operators left after an input or
// graph output was redirected, an unpacked fp16 weight whose shape outgrew its
// data) run with XNNPACK again.
struct KnownCrash {
  const char* model;
  long seed;
};
const std::vector<KnownCrash> kXnnpackKnownCrashes = {};

bool KnownXnnpackCrash(const std::string& model, long seed) {
  for (const KnownCrash& k : kXnnpackKnownCrashes) {
    if (model == k.model && seed == k.seed) return true;
  }
  return false;
}

long EnvLong(const char* name, long fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (end != nullptr && *end == '\0') ? n : fallback;
}

// ---- where to mutate ------------------------------------------------------------

struct Region {
  size_t begin;
  size_t size;
  std::string what;  // e.g. "sg0.t3.shape", for the mutation log
};

class RegionFinder {
 public:
  explicit RegionFinder(const std::vector<uint8_t>& bytes) : base_(bytes.data()), size_(bytes.size()) {}

  std::vector<Region> Find() {
    flatbuffers::Verifier verifier(base_, size_);
    if (!tflite::VerifyModelBuffer(verifier)) return regions_;
    const tflite::Model* model = tflite::GetModel(base_);
    if (model->operator_codes()) {
      for (const auto* code : *model->operator_codes()) {
        what_ = "opcode" + std::to_string(n_code++);
        AddField(code, tflite::OperatorCode::VT_DEPRECATED_BUILTIN_CODE, 1, ".deprecated_code");
        AddField(code, tflite::OperatorCode::VT_BUILTIN_CODE, 4, ".builtin_code");
        AddField(code, tflite::OperatorCode::VT_VERSION, 4, ".version");
      }
    }
    if (model->subgraphs()) {
      int n_sg = 0;
      for (const auto* sg : *model->subgraphs()) {
        const std::string sg_name = "sg" + std::to_string(n_sg++);
        what_ = sg_name;
        AddVector(sg->inputs(), ".inputs");
        AddVector(sg->outputs(), ".outputs");
        if (sg->tensors()) {
          int n_t = 0;
          for (const auto* t : *sg->tensors()) {
            what_ = sg_name + ".t" + std::to_string(n_t++);
            AddField(t, tflite::Tensor::VT_TYPE, 1, ".type");
            AddField(t, tflite::Tensor::VT_BUFFER, 4, ".buffer");
            AddField(t, tflite::Tensor::VT_IS_VARIABLE, 1, ".is_variable");
            AddVector(t->shape(), ".shape");
            AddVector(t->shape_signature(), ".shape_signature");
            if (const auto* q = t->quantization()) {
              AddField(q, tflite::QuantizationParameters::VT_QUANTIZED_DIMENSION, 4,
                       ".quantized_dimension");
              AddVector(q->scale(), ".scale");
              AddVector(q->zero_point(), ".zero_point");
            }
            if (const auto* s = t->sparsity()) {
              AddVector(s->traversal_order(), ".traversal_order");
              AddVector(s->block_map(), ".block_map");
            }
            // Small constants are shapes, axes, paddings, indices, k ...
            if (model->buffers() && t->buffer() < model->buffers()->size()) {
              const auto* b = model->buffers()->Get(t->buffer());
              if (b && b->data() && b->data()->size() <= 256) AddVector(b->data(), ".data");
            }
          }
        }
        if (sg->operators()) {
          int n_op = 0;
          for (const auto* op : *sg->operators()) {
            what_ = sg_name + ".op" + std::to_string(n_op++);
            AddField(op, tflite::Operator::VT_OPCODE_INDEX, 4, ".opcode_index");
            AddField(op, tflite::Operator::VT_BUILTIN_OPTIONS_TYPE, 1, ".options_type");
            AddVector(op->inputs(), ".inputs");
            AddVector(op->outputs(), ".outputs");
            AddVector(op->intermediates(), ".intermediates");
            if (op->builtin_options()) {
              AddTable(static_cast<const flatbuffers::Table*>(op->builtin_options()), ".options");
            }
            if (op->builtin_options_2()) {
              AddTable(static_cast<const flatbuffers::Table*>(op->builtin_options_2()), ".options2");
            }
            AddVector(op->custom_options(), ".custom_options");
          }
        }
      }
    }
    return regions_;
  }

 private:
  template <typename T>
  void AddTable(const T* table, const char* what) {
    if (table == nullptr) return;
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(table);
    const uint8_t* vtable = t->GetVTable();
    const uint16_t object_size = flatbuffers::ReadScalar<uint16_t>(vtable + 2);
    // Past the table's offset to its vtable: the fields only.
    if (object_size > 4) Add(reinterpret_cast<const uint8_t*>(t) + 4, object_size - 4u, what);
  }
  // A scalar field of a table, when it is present.
  template <typename T>
  void AddField(const T* table, flatbuffers::voffset_t field, size_t size, const char* what) {
    if (table == nullptr) return;
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(table);
    const flatbuffers::voffset_t off = t->GetOptionalFieldOffset(field);
    if (off != 0) Add(reinterpret_cast<const uint8_t*>(t) + off, size, what);
  }
  template <typename V>
  void AddVector(const V* v, const char* what) {
    if (v == nullptr || v->size() == 0) return;
    Add(reinterpret_cast<const uint8_t*>(v->data()), v->size() * sizeof(*v->data()), what);
  }
  void Add(const uint8_t* p, size_t n, const char* what) {
    if (p < base_ || n == 0) return;
    const size_t begin = static_cast<size_t>(p - base_);
    if (begin >= size_ || n > size_ - begin) return;
    regions_.push_back({begin, n, what_ + what});
  }

  const uint8_t* base_;
  size_t size_;
  std::vector<Region> regions_;
  std::string what_;
  int n_code = 0;
};

// ---- how to mutate -------------------------------------------------------------

int32_t HostileWord(std::mt19937& rng, int32_t old) {
  switch (rng() % 14) {
    case 0: return 0;
    case 1: return -1;
    case 2: return 1;
    case 3: return 1 << 30;
    case 4: return INT_MIN;
    case 5: return INT_MAX;
    case 6: return static_cast<int32_t>(rng() % 20) - 4;
    case 7: return static_cast<int32_t>(static_cast<uint32_t>(old) + 1);
    case 8: return static_cast<int32_t>(static_cast<uint32_t>(old) - 1);
    case 9: return static_cast<int32_t>(static_cast<uint32_t>(old) * 2);
    case 10: return 0x7f7fffff;  // FLT_MAX
    case 11: return 0x7fc00000;  // NaN
    case 12: return 65536 + static_cast<int32_t>(rng() % 7);
    default: return static_cast<int32_t>(rng());
  }
}

// Appends "offset:old->new" per changed byte range to *log.
void Mutate(std::vector<uint8_t>& bytes, const std::vector<Region>& regions, std::mt19937& rng,
            std::string* log) {
  auto note = [&](size_t pos, long long old_value, long long new_value, const Region* r) {
    *log += " @" + std::to_string(pos) + (r ? "(" + r->what + ")" : std::string()) + ":" +
            std::to_string(old_value) + "->" + std::to_string(new_value);
  };
  const int count = 1 + static_cast<int>(rng() % 3);
  for (int m = 0; m < count; ++m) {
    const unsigned kind = rng() % 20;
    if (kind < 2 || regions.empty()) {  // any byte
      const size_t pos = rng() % bytes.size();
      const uint8_t old = bytes[pos];
      bytes[pos] ^= static_cast<uint8_t>(1u << (rng() % 8));
      note(pos, old, bytes[pos], nullptr);
      continue;
    }
    const Region& r = regions[rng() % regions.size()];
    if (kind < 12 && r.size >= 4) {  // an aligned word of the region
      size_t first = (r.begin + 3) & ~size_t{3};
      const size_t end = r.begin + r.size;
      if (first + 4 > end) first = r.begin;  // too short to hold an aligned word
      const size_t slots = (end - first) / 4;
      const size_t pos = first + 4 * (slots ? rng() % slots : 0);
      if (pos + 4 > bytes.size()) continue;
      int32_t old;
      std::memcpy(&old, &bytes[pos], 4);
      const int32_t v = HostileWord(rng, old);
      std::memcpy(&bytes[pos], &v, 4);
      note(pos, old, v, &r);
    } else if (kind < 16) {  // a byte of the region: small enum-like values
      const size_t pos = r.begin + rng() % r.size;
      static const uint8_t kBytes[] = {0, 1, 2, 3, 4, 7, 9, 10, 16, 17, 0x7f, 0x80, 0xff};
      const uint8_t old = bytes[pos];
      bytes[pos] = kBytes[rng() % sizeof(kBytes)];
      note(pos, old, bytes[pos], &r);
    } else {  // a bit of the region
      const size_t pos = r.begin + rng() % r.size;
      const uint8_t old = bytes[pos];
      bytes[pos] ^= static_cast<uint8_t>(1u << (rng() % 8));
      note(pos, old, bytes[pos], &r);
    }
  }
}

// ---- running one case ----------------------------------------------------------

// Deterministic, mostly tame input values with a few hostile ones.
void FillInput(TfLiteTensor* t, std::mt19937& rng) {
  if (t == nullptr) return;
  void* data = TfLiteTensorData(t);
  const size_t bytes = TfLiteTensorByteSize(t);
  if (data == nullptr || bytes == 0) return;
  auto* p = static_cast<uint8_t*>(data);
  switch (TfLiteTensorType(t)) {
    case kTfLiteString:
      return;  // keep whatever valid encoding the runtime holds
    case kTfLiteFloat32:
      for (size_t i = 0; i + 4 <= bytes; i += 4) {
        float v = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 250.0f;
        const unsigned pick = rng() % 200;
        if (pick == 0) v = NAN;
        if (pick == 1) v = INFINITY;
        if (pick == 2) v = -3e38f;
        std::memcpy(p + i, &v, 4);
      }
      return;
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteInt16: {
      const size_t es = TfLiteTensorType(t) == kTfLiteInt64 ? 8 : TfLiteTensorType(t) == kTfLiteInt32 ? 4 : 2;
      for (size_t i = 0; i + es <= bytes; i += es) {
        int64_t v = static_cast<int64_t>(rng() % 12) - 2;  // indices, k, sizes
        const unsigned pick = rng() % 100;
        if (pick == 0) v = INT_MAX;
        if (pick == 1) v = INT_MIN;
        if (pick == 2) v = 1 << 20;
        std::memcpy(p + i, &v, es);  // little endian: low bytes first
      }
      return;
    }
    case kTfLiteBool:
      for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(rng() & 1);
      return;
    default:
      for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(rng());
      return;
  }
}

// Reads every byte of a tensor, so that ASan sees a bad data pointer.
unsigned Touch(const TfLiteTensor* t) {
  if (t == nullptr) return 0;
  const auto* p = static_cast<const uint8_t*>(TfLiteTensorData(t));
  const size_t n = TfLiteTensorByteSize(t);
  unsigned sum = 0;
  if (p != nullptr) {
    for (size_t i = 0; i < n; ++i) sum += p[i];
  }
  return sum;
}

struct Outcome {
  bool created_model = false;
  bool created_interpreter = false;
  bool allocated = false;
  bool invoked = false;
  std::string problem;  // a step failed without a message
};

// One mutated model through the whole C API. `bytes` must outlive the model.
Outcome RunCase(const std::vector<uint8_t>& bytes, bool xnnpack, int threads, std::mt19937& rng) {
  Outcome out;
  std::string rep;  // what the library reported
  auto fail_quietly = [&](const char* step, size_t before) {
    if (rep.size() <= before) out.problem = std::string(step) + " failed without a message";
  };
  size_t before = rep.size();
  TfLiteModel* model = TfLiteModelCreateWithErrorReporter(bytes.data(), bytes.size(), CaptureError, &rep);
  if (model == nullptr) {
    fail_quietly("TfLiteModelCreate", before);
    return out;
  }
  out.created_model = true;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, xnnpack);
  TfLiteInterpreterOptionsSetNumThreads(options, threads);
  TfLiteInterpreterOptionsSetMaxWhileIterations(options, kMaxWhileIterations);
  TfLiteInterpreterOptionsSetMaxAllocationBytes(options, kMaxAllocationBytes);
  before = rep.size();
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);  // the interpreter keeps what it needs
  if (interpreter == nullptr) {
    fail_quietly("TfLiteInterpreterCreate", before);
    return out;
  }
  out.created_interpreter = true;
  before = rep.size();
  if (TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) {
    fail_quietly("TfLiteInterpreterAllocateTensors", before);
  } else {
    out.allocated = true;
    for (int run = 0; run < 2 && out.problem.empty(); ++run) {
      const int32_t inputs = TfLiteInterpreterGetInputTensorCount(interpreter);
      for (int32_t i = 0; i < inputs; ++i) FillInput(TfLiteInterpreterGetInputTensor(interpreter, i), rng);
      before = rep.size();
      if (TfLiteInterpreterInvoke(interpreter) != kTfLiteOk) {
        fail_quietly("TfLiteInterpreterInvoke", before);
        break;
      }
      out.invoked = true;
      const int32_t outputs = TfLiteInterpreterGetOutputTensorCount(interpreter);
      unsigned sum = 0;
      for (int32_t i = 0; i < outputs; ++i) sum += Touch(TfLiteInterpreterGetOutputTensor(interpreter, i));
      (void)sum;
    }
  }
  TfLiteInterpreterDelete(interpreter);
  if (!out.problem.empty()) out.problem += "; messages:\n" + rep;
  return out;
}

struct Tally {
  int cases = 0, models = 0, interpreters = 0, allocated = 0, invoked = 0;
};

void FuzzModel(const std::string& name, Tally* tally) {
  const std::vector<uint8_t> original = ReadSharedModel(name);
  if (original.empty()) {
    std::printf("[ fuzz ] %s: not in the shared set, skipped\n", name.c_str());
    return;
  }
  const std::vector<Region> regions = RegionFinder(original).Find();
  ASSERT_FALSE(regions.empty()) << name << ": the unmutated model does not verify";
  const long iterations = EnvLong("TFLITE_C_FUZZ_ITERATIONS", kDefaultIterations);
  const long base_seed = EnvLong("TFLITE_C_FUZZ_SEED", 1);
  const bool verbose = EnvLong("TFLITE_C_FUZZ_VERBOSE", 0) != 0;
  for (long i = 0; i < iterations; ++i) {
    const long seed = base_seed + i;
    std::mt19937 rng(static_cast<uint32_t>(seed) * 2654435761u ^ static_cast<uint32_t>(std::hash<std::string>()(name)));
    std::vector<uint8_t> bytes = original;
    std::string mutations;
    Mutate(bytes, regions, rng, &mutations);
    if (const char* dir = std::getenv("TFLITE_C_FUZZ_DUMP")) {
      std::ofstream dump(std::string(dir) + "/" + name + "_" + std::to_string(seed) + ".tflite",
                         std::ios::binary);
      dump.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    // Every case runs once without and once with XNNPACK (1 or 2 threads).
    for (int pass = 0; pass < 2; ++pass) {
      const bool xnnpack = pass == 1;
      if (xnnpack && KnownXnnpackCrash(name, seed)) continue;
      const int threads = xnnpack ? 1 + static_cast<int>(seed % 2) : 1;
      if (verbose) {
        std::fprintf(stderr, "[ fuzz ] model=%s seed=%ld xnnpack=%d threads=%d mutations:%s\n",
                     name.c_str(), seed, xnnpack ? 1 : 0, threads, mutations.c_str());
      }
      std::mt19937 input_rng(static_cast<uint32_t>(seed));
      const auto start = std::chrono::steady_clock::now();
      const Outcome o = RunCase(bytes, xnnpack, threads, input_rng);
      if (verbose) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "[ fuzz ]   %lld ms, stage %d\n", static_cast<long long>(ms),
                     o.created_model + o.created_interpreter + o.allocated + o.invoked);
      }
      ++tally->cases;
      tally->models += o.created_model;
      tally->interpreters += o.created_interpreter;
      tally->allocated += o.allocated;
      tally->invoked += o.invoked;
      EXPECT_EQ(o.problem, "") << "model=" << name << " seed=" << seed << " xnnpack=" << xnnpack;
    }
  }
}

// Also a regression list: every model, many seeds, both paths.
TEST(HostileModelFuzz, MutatedModelsFailCleanlyOrRun) {
  SKIP_WITHOUT_SHARED_MODELS();
  const char* only = std::getenv("TFLITE_C_FUZZ_MODEL");
  Tally tally;
  for (const char* name : kModels) {
    if (only != nullptr && *only != '\0' && name != std::string(only)) continue;
    SCOPED_TRACE(name);
    FuzzModel(name, &tally);
  }
  std::printf("[ fuzz ] %d cases: %d models created, %d interpreters, %d allocated, %d invoked\n",
              tally.cases, tally.models, tally.interpreters, tally.allocated, tally.invoked);
  if (only == nullptr || *only == '\0') {
    // The mutations must reach the kernels, not only the loader.
    EXPECT_GT(tally.invoked, tally.cases / 10);
    EXPECT_LT(tally.invoked, tally.cases);
  }
}

}  // namespace
