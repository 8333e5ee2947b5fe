// minimal: load a .tflite model with the C++ API, run it once, print the
// interpreter's state and the first values of each output.
//
//   minimal <model.tflite>
//
// It uses only what a program written for TensorFlow Lite's C++ API uses,
// so it builds unchanged against either library.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/optional_debug_tools.h"

#define MINIMAL_CHECK(x)                                           \
  if (!(x)) {                                                      \
    std::fprintf(stderr, "minimal: %s failed (%s:%d)\n", #x, __FILE__, __LINE__); \
    return EXIT_FAILURE;                                           \
  }

int main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: minimal <model.tflite>\n");
    return EXIT_FAILURE;
  }

  std::unique_ptr<tflite::FlatBufferModel> model =
      tflite::FlatBufferModel::BuildFromFile(argv[1]);
  MINIMAL_CHECK(model != nullptr);

  tflite::ops::builtin::BuiltinOpResolver resolver;
  tflite::InterpreterBuilder builder(*model, resolver);
  std::unique_ptr<tflite::Interpreter> interpreter;
  MINIMAL_CHECK(builder(&interpreter) == kTfLiteOk);
  MINIMAL_CHECK(interpreter != nullptr);

  MINIMAL_CHECK(interpreter->AllocateTensors() == kTfLiteOk);
  std::printf("=== state after AllocateTensors ===\n");
  tflite::PrintInterpreterState(interpreter.get());

  // Inputs: 1, 2, 3, ... for float tensors, zeros for the rest.
  for (size_t i = 0; i < interpreter->inputs().size(); ++i) {
    TfLiteTensor* input = interpreter->input_tensor(i);
    if (float* data = interpreter->typed_input_tensor<float>(static_cast<int>(i))) {
      const size_t n = input->bytes / sizeof(float);
      for (size_t k = 0; k < n; ++k) data[k] = static_cast<float>(k + 1);
    } else if (input->data.raw != nullptr) {
      for (size_t k = 0; k < input->bytes; ++k) input->data.raw[k] = 0;
    }
  }

  MINIMAL_CHECK(interpreter->Invoke() == kTfLiteOk);
  std::printf("=== state after Invoke ===\n");
  tflite::PrintInterpreterState(interpreter.get());

  for (size_t i = 0; i < interpreter->outputs().size(); ++i) {
    const TfLiteTensor* output = interpreter->output_tensor(i);
    std::printf("output %zu (%s):", i, interpreter->GetOutputName(static_cast<int>(i)));
    if (const float* data = interpreter->typed_output_tensor<float>(static_cast<int>(i))) {
      const size_t n = output->bytes / sizeof(float);
      for (size_t k = 0; k < n && k < 8; ++k) std::printf(" %g", data[k]);
      if (n > 8) std::printf(" ...");
    } else {
      std::printf(" %zu bytes of %s", output->bytes, TfLiteTypeGetName(output->type));
    }
    std::printf("\n");
  }
  return EXIT_SUCCESS;
}
