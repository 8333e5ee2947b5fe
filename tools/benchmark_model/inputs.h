// benchmark_model's input data: --input_layer* flags, random data in
// upstream's ranges, raw input files.
#ifndef TFLITE_C_TOOLS_BENCHMARK_MODEL_INPUTS_H_
#define TFLITE_C_TOOLS_BENCHMARK_MODEL_INPUTS_H_

#include <random>
#include <string>
#include <vector>

#include "benchmark_model/flags.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/common.h"

namespace tflite_c_bench {

struct InputLayerInfo {
  std::string name;
  std::vector<int> shape;
  bool has_range = false;
  int low = 0, high = 0;
  std::string file;
};

std::vector<std::string> Split(const std::string& s, char delim);
// The per-input settings of --input_layer, --input_layer_shape,
// --input_layer_value_range and --input_layer_value_files.
bool PopulateInputLayerInfo(const Flags& f, std::vector<InputLayerInfo>* info);
// Random data in upstream's default ranges, or in the user's range.
bool MakeRandomData(const TfLiteTensor* t, const InputLayerInfo* info, std::mt19937& rng,
                    std::vector<char>* out);
bool LoadInputFile(const TfLiteTensor* t, const std::string& path, std::vector<char>* out);

}  // namespace tflite_c_bench

#endif  // TFLITE_C_TOOLS_BENCHMARK_MODEL_INPUTS_H_
