// Target 5: the readers of custom operators' options. Input: a selector
// byte, a flags byte, then the custom_options bytes.
//   selector % (kOps + 1) == 0: the bytes go straight to FlexMap (Parse and
//     every getter, for each key the built-in custom operators read);
//   otherwise: a one-operator model (built with the object API) runs that
//     custom operator with the bytes as its custom_options: detection
//     postprocess, audio spectrogram, MFCC, numeric verify and the MediaPipe
//     operators (flexbuffer maps, or raw TfLitePoolParams for the pooling
//     ones). Flags: bit 0 picks version 2 where there is one, bit 1 turns
//     XNNPACK on.
//
// TFLITE_C_FUZZ_WRITE_SEEDS=<dir>: write seed inputs (a valid options map per
// operator, and the custom_options of the shared models' custom operators)
// to <dir> and exit; fuzz/run.sh does this to build the corpus.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "fuzz/fuzz_common.h"
#include "schema_generated.h"
#include "src/kernels/internal/flex_map.h"

namespace {

using tflite::TensorType;

struct TensorSpec {
  TensorType type;
  std::vector<int> shape;
  std::vector<uint8_t> data;  // constant when not empty
};

struct OpSpec {
  const char* name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  bool has_v2;
};

template <typename T>
std::vector<uint8_t> Bytes(std::vector<T> values) {
  std::vector<uint8_t> b(values.size() * sizeof(T));
  std::memcpy(b.data(), values.data(), b.size());
  return b;
}

const std::vector<OpSpec>& Ops() {
  const auto F = tflite::TensorType_FLOAT32;
  static const auto* ops = new std::vector<OpSpec>{
      {"TFLite_Detection_PostProcess",
       {{F, {1, 4, 4}, {}},
        {F, {1, 4, 3}, {}},
        {F, {4, 4}, Bytes<float>({.5f, .5f, 1, 1, .2f, .2f, .5f, .5f, .8f, .8f, .3f, .3f, .1f, .9f, .2f, .2f})}},
       {{F, {1, 3, 4}, {}}, {F, {1, 3}, {}}, {F, {1, 3}, {}}, {F, {1}, {}}},
       false},
      {"AudioSpectrogram", {{F, {16, 1}, {}}}, {{F, {1, 1, 1}, {}}}, false},
      {"Mfcc",
       {{F, {1, 2, 9}, {}}, {tflite::TensorType_INT32, {1}, Bytes<int32_t>({8000})}},
       {{F, {1, 2, 4}, {}}},
       false},
      {"NumericVerify", {{tflite::TensorType_INT8, {4}, {}}, {F, {4}, {}}}, {{F, {4}, {}}}, false},
      {"Landmarks2TransformMatrix", {{F, {1, 10, 3}, {}}}, {{F, {1, 4, 4}, {}}}, true},
      {"TransformLandmarks", {{F, {1, 1, 10, 3}, {}}, {F, {1, 4, 4}, {}}}, {{F, {1, 1, 10, 3}, {}}},
       true},
      {"TransformTensorBilinear", {{F, {1, 4, 4, 2}, {}}, {F, {1, 4, 4}, {}}},
       {{F, {1, 2, 2, 2}, {}}}, true},
      {"MaxPoolingWithArgmax2D", {{F, {1, 4, 4, 1}, {}}},
       {{F, {1, 2, 2, 1}, {}}, {F, {1, 2, 2, 1}, {}}}, false},
      {"MaxUnpooling2D", {{F, {1, 2, 2, 1}, {}}, {F, {1, 2, 2, 1}, {}}}, {{F, {1, 4, 4, 1}, {}}},
       false},
      {"LiteRtMaxUnpooling2D", {{F, {1, 2, 2, 1}, {}}, {F, {1, 2, 2, 1}, {}}},
       {{F, {1, 4, 4, 1}, {}}}, false},
      {"Convolution2DTransposeBias",
       {{F, {1, 2, 2, 1}, {}}, {F, {1, 3, 3, 1}, Bytes<float>({1, 0, 1, 0, 1, 0, 1, 0, 1})},
        {F, {1}, Bytes<float>({0.5f})}},
       {{F, {1, 4, 4, 1}, {}}},
       false},
  };
  return *ops;
}

// Every key the built-in custom operators read.
const char* const kKeys[] = {
    "max_detections", "max_classes_per_detection", "detections_per_class", "use_regular_nms",
    "nms_score_threshold", "nms_iou_threshold", "num_classes", "y_scale", "x_scale", "h_scale",
    "w_scale", "window_size", "stride", "magnitude_squared", "upper_frequency_limit",
    "lower_frequency_limit", "filterbank_channel_count", "dct_coefficient_count", "tolerance",
    "log_if_failed", "left_rotation_idx", "right_rotation_idx", "output_height", "output_width",
    "scale_x", "scale_y", "target_rotation_radians", "subset_idxs", "input_hw", "output_hw",
    "dimensions", "landmarks_range", "bbox_size_multiplier", "subset", "scale", "mode",
    "output_size", "", "a"};

void FuzzFlexMap(const uint8_t* data, size_t size) {
  tflite_c::kernels::internal::FlexMap map;
  if (!map.Parse(data, size)) return;
  for (const char* key : kKeys) {
    int64_t i;
    double d;
    std::vector<int64_t> v;
    std::string s;
    int i32 = 0;
    float f = 0;
    std::string error;
    map.Has(key);
    map.GetInt(key, &i);
    map.GetDouble(key, &d);
    map.GetIntVector(key, &v);
    map.GetString(key, &s);
    tflite_c::kernels::internal::FlexInt(map, key, true, &i32, &error);
    tflite_c::kernels::internal::FlexFloat(map, key, false, &f, &error);
  }
}

std::vector<uint8_t> OneOpModel(const OpSpec& spec, int version, const uint8_t* options,
                                size_t options_size) {
  tflite::ModelT m;
  m.version = 3;
  m.buffers.push_back(std::make_unique<tflite::BufferT>());  // buffer 0: empty
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = tflite::BuiltinOperator_CUSTOM;
  code->deprecated_builtin_code = tflite::BuiltinOperator_CUSTOM;
  code->custom_code = spec.name;
  code->version = version;
  m.operator_codes.push_back(std::move(code));
  auto sg = std::make_unique<tflite::SubGraphT>();
  auto op = std::make_unique<tflite::OperatorT>();
  auto add = [&](const TensorSpec& t, bool is_output) {
    auto tensor = std::make_unique<tflite::TensorT>();
    tensor->type = t.type;
    tensor->shape = t.shape;
    tensor->name = "t" + std::to_string(sg->tensors.size());
    if (t.type == tflite::TensorType_INT8) {
      tensor->quantization = std::make_unique<tflite::QuantizationParametersT>();
      tensor->quantization->scale = {0.5f};
      tensor->quantization->zero_point = {0};
    }
    if (!t.data.empty()) {
      auto buffer = std::make_unique<tflite::BufferT>();
      buffer->data = t.data;
      tensor->buffer = static_cast<uint32_t>(m.buffers.size());
      m.buffers.push_back(std::move(buffer));
    }
    const int index = static_cast<int>(sg->tensors.size());
    sg->tensors.push_back(std::move(tensor));
    (is_output ? op->outputs : op->inputs).push_back(index);
    if (is_output) {
      sg->outputs.push_back(index);
    } else if (t.data.empty()) {
      sg->inputs.push_back(index);
    }
  };
  for (const TensorSpec& t : spec.inputs) add(t, false);
  for (const TensorSpec& t : spec.outputs) add(t, true);
  op->custom_options.assign(options, options + options_size);
  sg->operators.push_back(std::move(op));
  m.subgraphs.push_back(std::move(sg));
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, &m));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// ---- seeds -------------------------------------------------------------------------------
void WriteSeed(const std::string& dir, const std::string& name, uint8_t selector, uint8_t flags,
               const std::vector<uint8_t>& options) {
  std::vector<uint8_t> bytes = {selector, flags};
  bytes.insert(bytes.end(), options.begin(), options.end());
  const std::string path = dir + "/" + name;
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
}

std::vector<uint8_t> Map(const std::function<void(flexbuffers::Builder&)>& fill) {
  flexbuffers::Builder b;
  b.Map([&]() { fill(b); });
  b.Finish();
  return b.GetBuffer();
}

void WriteSeeds(const std::string& dir) {
  mkdir(dir.c_str(), 0755);
  const auto& ops = Ops();
  const auto selector = [&](const char* name) -> uint8_t {
    for (size_t i = 0; i < ops.size(); ++i) {
      if (std::string(ops[i].name) == name) return static_cast<uint8_t>(i + 1);
    }
    return 0;
  };
  const std::vector<uint8_t> detection = Map([](flexbuffers::Builder& b) {
    b.Int("max_detections", 3);
    b.Int("max_classes_per_detection", 1);
    b.Int("detections_per_class", 2);
    b.Int("use_regular_nms", 0);
    b.Float("nms_score_threshold", 0.1f);
    b.Float("nms_iou_threshold", 0.5f);
    b.Int("num_classes", 2);
    b.Float("y_scale", 10);
    b.Float("x_scale", 10);
    b.Float("h_scale", 5);
    b.Float("w_scale", 5);
  });
  WriteSeed(dir, "detection", selector("TFLite_Detection_PostProcess"), 0, detection);
  WriteSeed(dir, "flexmap_detection", 0, 0, detection);
  WriteSeed(dir, "spectrogram", selector("AudioSpectrogram"), 0, Map([](flexbuffers::Builder& b) {
              b.Int("window_size", 8);
              b.Int("stride", 4);
              b.Bool("magnitude_squared", true);
            }));
  WriteSeed(dir, "mfcc", selector("Mfcc"), 0, Map([](flexbuffers::Builder& b) {
              b.Float("upper_frequency_limit", 4000);
              b.Float("lower_frequency_limit", 20);
              b.Int("filterbank_channel_count", 8);
              b.Int("dct_coefficient_count", 4);
            }));
  WriteSeed(dir, "numeric_verify", selector("NumericVerify"), 0, Map([](flexbuffers::Builder& b) {
              b.Float("tolerance", 0.1f);
              b.Int("log_if_failed", 0);
            }));
  const std::vector<uint8_t> landmarks = Map([](flexbuffers::Builder& b) {
    b.Int("dimensions", 3);
    b.Int("landmarks_range", 10);
    b.Float("bbox_size_multiplier", 1.5f);
    b.Int("left_rotation_idx", 0);
    b.Int("right_rotation_idx", 1);
    b.Vector("subset", [&]() {
      b.Int(0);
      b.Int(1);
    });
    b.Vector("input_hw", [&]() {
      b.Int(4);
      b.Int(4);
    });
    b.Vector("output_hw", [&]() {
      b.Int(4);
      b.Int(4);
    });
  });
  WriteSeed(dir, "landmarks_v1", selector("Landmarks2TransformMatrix"), 0, landmarks);
  WriteSeed(dir, "flexmap_landmarks", 0, 0, landmarks);
  // Whatever custom options the shared models carry for these operators.
  int n = 0;
  for (const auto& nm : tflite_c::fuzz::SmallModels(64 << 20, nullptr)) {
    flatbuffers::Verifier verifier(nm.bytes.data(), nm.bytes.size());
    if (!tflite::VerifyModelBuffer(verifier)) continue;
    const tflite::Model* model = tflite::GetModel(nm.bytes.data());
    if (!model->operator_codes() || !model->subgraphs()) continue;
    for (const auto* sg : *model->subgraphs()) {
      if (!sg->operators()) continue;
      for (const auto* op : *sg->operators()) {
        if (op->opcode_index() >= model->operator_codes()->size() || !op->custom_options()) continue;
        const auto* code = model->operator_codes()->Get(op->opcode_index());
        if (!code->custom_code()) continue;
        const uint8_t s = selector(code->custom_code()->c_str());
        if (s == 0 || n > 200) continue;
        const uint8_t flags = code->version() >= 2 ? 1 : 0;
        std::vector<uint8_t> options(op->custom_options()->begin(), op->custom_options()->end());
        WriteSeed(dir, nm.name + "_" + std::to_string(n++), s, flags, options);
      }
    }
  }
  std::fprintf(stderr, "custom_options_fuzzer: wrote seeds to %s\n", dir.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("TFLITE_C_FUZZ_WRITE_SEEDS");
  if (dir != nullptr && *dir != '\0') {
    WriteSeeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto& ops = Ops();
  const size_t which = data[0] % (ops.size() + 1);
  const uint8_t flags = data[1];
  // An exact-size heap copy, so that ASan sees reads past the options.
  const std::vector<uint8_t> options(data + 2, data + size);
  if (which == 0) {
    FuzzFlexMap(options.data(), options.size());
    return 0;
  }
  const OpSpec& spec = ops[which - 1];
  const int version = spec.has_v2 && (flags & 1) ? 2 : 1;
  const std::vector<uint8_t> model = OneOpModel(spec, version, options.data(), options.size());
  // Inputs: 1.0, 2.0, 0.5, -1.0 as floats; small integers otherwise.
  static const uint8_t kFill[] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0, 0x3f, 0, 0, 0x80, 0xbf};
  tflite_c::fuzz::RunModel(model.data(), model.size(), (flags & 2) != 0, kFill, sizeof(kFill));
  return 0;
}
