// Writes a model with one ATAN custom op, x [2, 3] float32 -> y, built with
// the project's model builder, for the custom_op_atan example test:
//
//   atan_model_writer OUT.tflite
#include <cstdio>
#include <vector>

#include "tests/util/model_builder.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.tflite\n", argv[0]);
    return 2;
  }
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 3}, "y");
  b.AddCustomOperator("ATAN", {x}, {y});
  const std::vector<uint8_t> bytes = b.Finish();
  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) return 1;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return (std::fclose(f) == 0 && ok) ? 0 : 1;
}
