// label_image: classify a .bmp image with a .tflite model through the C++ API,
// in the manner of TensorFlow Lite's examples/label_image (written anew).
//
//   label_image -m model.tflite -i image.bmp [-l labels.txt] [-r 5] [-t 2]
//               [-c 1] [-w 0] [-b 127.5] [-s 127.5] [-x 0|1] [-v 0|1]
//
// The image (uncompressed 24- or 32-bit BMP) is resized (bilinear) to the
// model's input, which may be NHWC or NCHW with 1 or 3 channels, and
// normalized to (pixel - input_mean) / input_std. FLOAT32 inputs take that
// value; INT8 / UINT8 inputs take it quantized with the tensor's scale and
// zero point (without quantization parameters: the raw pixel for UINT8 and
// pixel - 128 for INT8, as upstream). The first output's top results are
// printed one per line as "<score>: <index> <label>", the score being the
// (dequantized) output value. Exit status 1 on any error.
#include <getopt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/optional_debug_tools.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace {

struct Settings {
  std::string model;
  std::string image;
  std::string labels;
  int num_results = 5;
  int threads = 1;
  int count = 1;
  int warmup_runs = 0;
  float input_mean = 127.5f;
  float input_std = 127.5f;
  bool xnnpack = false;
  bool verbose = false;
};

// An 8-bit RGB image, rows top to bottom.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // width * height * 3
};

uint32_t Le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
uint16_t Le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

// Reads an uncompressed (BI_RGB) 24- or 32-bit BMP; false with a message in
// *error otherwise.
bool ReadBmp(const std::string& path, Image* image, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot open " + path;
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  if (bytes.size() < 54 || bytes[0] != 'B' || bytes[1] != 'M') {
    *error = path + " is not a BMP file";
    return false;
  }
  const uint32_t data_offset = Le32(&bytes[10]);
  const uint32_t header_size = Le32(&bytes[14]);
  const int32_t width = static_cast<int32_t>(Le32(&bytes[18]));
  const int32_t signed_height = static_cast<int32_t>(Le32(&bytes[22]));
  const uint16_t bits = Le16(&bytes[28]);
  const uint32_t compression = Le32(&bytes[30]);
  if (header_size < 40 || (bits != 24 && bits != 32) || (compression != 0 && compression != 3)) {
    *error = path + ": only uncompressed 24- and 32-bit BMP images are supported";
    return false;
  }
  if (width <= 0 || signed_height == 0 || signed_height == INT32_MIN || width > 1 << 15 ||
      std::abs(signed_height) > 1 << 15) {
    *error = path + ": invalid image size";
    return false;
  }
  const int height = std::abs(signed_height);
  const bool bottom_up = signed_height > 0;
  const size_t channels = bits / 8;
  const size_t row_bytes = (static_cast<size_t>(width) * channels + 3) / 4 * 4;
  if (data_offset > bytes.size() || (bytes.size() - data_offset) / row_bytes < size_t(height)) {
    *error = path + ": file is truncated";
    return false;
  }
  image->width = width;
  image->height = height;
  image->rgb.resize(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    const uint8_t* row = &bytes[data_offset + row_bytes * (bottom_up ? height - 1 - y : y)];
    for (int x = 0; x < width; ++x) {
      const uint8_t* bgr = row + x * channels;
      uint8_t* out = &image->rgb[(static_cast<size_t>(y) * width + x) * 3];
      out[0] = bgr[2];
      out[1] = bgr[1];
      out[2] = bgr[0];
    }
  }
  return true;
}

// Bilinear sample of channel c at (fx, fy) in pixel coordinates.
float Sample(const Image& img, float fx, float fy, int c) {
  fx = std::min(std::max(fx, 0.f), static_cast<float>(img.width - 1));
  fy = std::min(std::max(fy, 0.f), static_cast<float>(img.height - 1));
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const float ax = fx - x0, ay = fy - y0;
  auto at = [&](int x, int y) {
    return static_cast<float>(img.rgb[(static_cast<size_t>(y) * img.width + x) * 3 + c]);
  };
  const float top = at(x0, y0) * (1 - ax) + at(x1, y0) * ax;
  const float bottom = at(x0, y1) * (1 - ax) + at(x1, y1) * ax;
  return top * (1 - ay) + bottom * ay;
}

// The model's input geometry.
struct InputLayout {
  int height = 0, width = 0, channels = 0;
  bool nchw = false;
};

bool GetLayout(const TfLiteTensor* t, InputLayout* layout, std::string* error) {
  if (t->dims == nullptr || t->dims->size != 4 || t->dims->data[0] != 1) {
    *error = "the model's input must have shape [1, H, W, C] or [1, C, H, W]";
    return false;
  }
  const int* d = t->dims->data;
  auto is_channels = [](int n) { return n == 1 || n == 3; };
  layout->nchw = is_channels(d[1]) && !is_channels(d[3]);
  layout->channels = layout->nchw ? d[1] : d[3];
  layout->height = layout->nchw ? d[2] : d[1];
  layout->width = layout->nchw ? d[3] : d[2];
  if (!is_channels(layout->channels) || layout->height <= 0 || layout->width <= 0) {
    *error = "the model's input must have 1 or 3 channels";
    return false;
  }
  return true;
}

// Writes the resized, normalized image into the input tensor.
bool FillInput(const Image& img, const Settings& s, TfLiteTensor* t, std::string* error) {
  InputLayout l;
  if (!GetLayout(t, &l, error)) return false;
  const float scale = t->params.scale;
  const int zero_point = t->params.zero_point;
  const float sx = static_cast<float>(img.width) / l.width;
  const float sy = static_cast<float>(img.height) / l.height;
  for (int y = 0; y < l.height; ++y) {
    for (int x = 0; x < l.width; ++x) {
      // Pixel centers map to pixel centers.
      const float fx = (x + 0.5f) * sx - 0.5f, fy = (y + 0.5f) * sy - 0.5f;
      for (int c = 0; c < l.channels; ++c) {
        float pixel;
        if (l.channels == 3) {
          pixel = Sample(img, fx, fy, c);
        } else {
          pixel = (Sample(img, fx, fy, 0) + Sample(img, fx, fy, 1) + Sample(img, fx, fy, 2)) / 3;
        }
        const size_t i = l.nchw ? (static_cast<size_t>(c) * l.height + y) * l.width + x
                                : (static_cast<size_t>(y) * l.width + x) * l.channels + c;
        const float value = (pixel - s.input_mean) / s.input_std;
        switch (t->type) {
          case kTfLiteFloat32:
            t->data.f[i] = value;
            break;
          case kTfLiteUInt8: {
            const float q = scale > 0 ? std::round(value / scale) + zero_point : std::round(pixel);
            t->data.uint8[i] = static_cast<uint8_t>(std::min(std::max(q, 0.f), 255.f));
            break;
          }
          case kTfLiteInt8: {
            const float q =
                scale > 0 ? std::round(value / scale) + zero_point : std::round(pixel) - 128;
            t->data.int8[i] = static_cast<int8_t>(std::min(std::max(q, -128.f), 127.f));
            break;
          }
          default:
            *error = std::string("input type ") + TfLiteTypeGetName(t->type) + " is not supported";
            return false;
        }
      }
    }
  }
  return true;
}

// The first output as scores: dequantized when quantized, otherwise
// upstream's normalization of 8-bit values.
bool Scores(const TfLiteTensor* t, std::vector<float>* scores, std::string* error) {
  size_t n = 1;
  for (int i = 0; t->dims != nullptr && i < t->dims->size; ++i) n *= t->dims->data[i];
  scores->resize(n);
  const float scale = t->params.scale;
  const int zero_point = t->params.zero_point;
  for (size_t i = 0; i < n; ++i) {
    switch (t->type) {
      case kTfLiteFloat32:
        (*scores)[i] = t->data.f[i];
        break;
      case kTfLiteUInt8:
        (*scores)[i] = scale > 0 ? (t->data.uint8[i] - zero_point) * scale : t->data.uint8[i] / 255.f;
        break;
      case kTfLiteInt8:
        (*scores)[i] =
            scale > 0 ? (t->data.int8[i] - zero_point) * scale : (t->data.int8[i] + 128) / 256.f;
        break;
      default:
        *error = std::string("output type ") + TfLiteTypeGetName(t->type) + " is not supported";
        return false;
    }
  }
  return true;
}

std::vector<std::string> ReadLabels(const std::string& path, std::string* error) {
  std::vector<std::string> labels;
  if (path.empty()) return labels;
  std::ifstream file(path);
  if (!file) {
    *error = "cannot open " + path;
    return labels;
  }
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    labels.push_back(line);
  }
  return labels;
}

void Usage() {
  std::fprintf(stderr,
               "usage: label_image -m model.tflite -i image.bmp [options]\n"
               "  --tflite_model, -m: model_name.tflite\n"
               "  --image, -i: image_name.bmp (uncompressed 24/32-bit)\n"
               "  --labels, -l: labels for the model, one per line\n"
               "  --num_results, -r: number of results to show (5)\n"
               "  --threads, -t: number of threads (1)\n"
               "  --count, -c: loop interpreter->Invoke() for certain times (1)\n"
               "  --warmup_runs, -w: number of warmup runs (0)\n"
               "  --input_mean, -b: input mean (127.5)\n"
               "  --input_std, -s: input standard deviation (127.5)\n"
               "  --xnnpack_delegate, -x: [0|1] apply the XNNPACK delegate (0)\n"
               "  --verbose, -v: [0|1] print the interpreter state (0)\n"
               "  --help, -h: print this help\n");
}

bool ParseArgs(int argc, char** argv, Settings* s) {
  static const option long_options[] = {{"tflite_model", required_argument, nullptr, 'm'},
                                        {"image", required_argument, nullptr, 'i'},
                                        {"labels", required_argument, nullptr, 'l'},
                                        {"num_results", required_argument, nullptr, 'r'},
                                        {"threads", required_argument, nullptr, 't'},
                                        {"count", required_argument, nullptr, 'c'},
                                        {"warmup_runs", required_argument, nullptr, 'w'},
                                        {"input_mean", required_argument, nullptr, 'b'},
                                        {"input_std", required_argument, nullptr, 's'},
                                        {"xnnpack_delegate", required_argument, nullptr, 'x'},
                                        {"verbose", required_argument, nullptr, 'v'},
                                        {"help", no_argument, nullptr, 'h'},
                                        {nullptr, 0, nullptr, 0}};
  for (;;) {
    const int c = getopt_long(argc, argv, "m:i:l:r:t:c:w:b:s:x:v:h", long_options, nullptr);
    if (c == -1) break;
    switch (c) {
      case 'm': s->model = optarg; break;
      case 'i': s->image = optarg; break;
      case 'l': s->labels = optarg; break;
      case 'r': s->num_results = std::atoi(optarg); break;
      case 't': s->threads = std::atoi(optarg); break;
      case 'c': s->count = std::atoi(optarg); break;
      case 'w': s->warmup_runs = std::atoi(optarg); break;
      case 'b': s->input_mean = std::strtof(optarg, nullptr); break;
      case 's': s->input_std = std::strtof(optarg, nullptr); break;
      case 'x': s->xnnpack = std::atoi(optarg) != 0; break;
      case 'v': s->verbose = std::atoi(optarg) != 0; break;
      default: return false;
    }
  }
  return !s->model.empty() && !s->image.empty() && s->num_results > 0 && s->count > 0 &&
         s->warmup_runs >= 0 && s->input_std != 0;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "label_image: %s\n", message.c_str());
  return EXIT_FAILURE;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  if (!ParseArgs(argc, argv, &s)) {
    Usage();
    return EXIT_FAILURE;
  }
  std::string error;
  Image image;
  if (!ReadBmp(s.image, &image, &error)) return Fail(error);
  const std::vector<std::string> labels = ReadLabels(s.labels, &error);
  if (!error.empty()) return Fail(error);

  std::unique_ptr<tflite::FlatBufferModel> model =
      tflite::FlatBufferModel::BuildFromFile(s.model.c_str());
  if (!model) return Fail("cannot load " + s.model);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*model, resolver)(&interpreter, s.threads) != kTfLiteOk ||
      !interpreter) {
    return Fail("cannot build an interpreter");
  }
  // The delegate must outlive the interpreter: declared first, reset last.
  std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)> xnnpack(nullptr,
                                                                      TfLiteXNNPackDelegateDelete);
  if (s.xnnpack) {
    TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
    options.num_threads = s.threads;
    xnnpack.reset(TfLiteXNNPackDelegateCreate(&options));
    if (!xnnpack || interpreter->ModifyGraphWithDelegate(xnnpack.get()) != kTfLiteOk) {
      std::fprintf(stderr, "label_image: XNNPACK delegate not applied, running on CPU kernels\n");
    } else {
      std::fprintf(stderr, "label_image: applied the XNNPACK delegate\n");
    }
  }
  if (interpreter->inputs().empty() || interpreter->outputs().empty()) {
    return Fail("the model needs an input and an output");
  }
  if (interpreter->AllocateTensors() != kTfLiteOk) return Fail("AllocateTensors failed");
  if (s.verbose) {
    tflite::PrintInterpreterState(interpreter.get());
    for (int index = 0; index < static_cast<int>(interpreter->nodes_size()); ++index) {
      const auto* node = interpreter->node_and_registration(index);
      if (node == nullptr) continue;
      const auto op = static_cast<tflite::BuiltinOperator>(node->second.builtin_code);
      std::fprintf(stderr, "node %d: %s\n", index,
                   op == tflite::BuiltinOperator_CUSTOM && node->second.custom_name != nullptr
                       ? node->second.custom_name
                       : tflite::EnumNameBuiltinOperator(op));
    }
  }
  if (!FillInput(image, s, interpreter->input_tensor(0), &error)) return Fail(error);

  for (int i = 0; i < s.warmup_runs; ++i) {
    if (interpreter->Invoke() != kTfLiteOk) return Fail("Invoke failed");
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < s.count; ++i) {
    if (interpreter->Invoke() != kTfLiteOk) return Fail("Invoke failed");
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "label_image: average time %.3f ms over %d run(s)\n", ms / s.count,
               s.count);

  std::vector<float> scores;
  if (!Scores(interpreter->output_tensor(0), &scores, &error)) return Fail(error);
  std::vector<int> order(scores.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  const size_t k = std::min(order.size(), static_cast<size_t>(s.num_results));
  // Highest score first; equal scores by index.
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  });
  for (size_t i = 0; i < k; ++i) {
    const int index = order[i];
    const char* label =
        static_cast<size_t>(index) < labels.size() ? labels[index].c_str() : "";
    std::printf("%.6f: %d %s\n", scores[index], index, label);
  }
  // The interpreter goes before the delegate it uses.
  interpreter.reset();
  return EXIT_SUCCESS;
}
