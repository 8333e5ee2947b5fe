// Graph cycles in hand-built models: an operator reading its own output
// (a cycle of one) and two operators reading each other's output are refused
// when the model is created; the one in-place form upstream accepts (an
// operator updating a subgraph input, as upstream's add_shared_tensors test
// model does) still loads and runs, but only while the operator keeps the
// tensor's shape. This executable is in the ASan+UBSan pass (label
// malformed): none of these models may read outside a buffer.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using testing::CaptureError;
using testing::ModelBuilder;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

// Loads `bytes`, creates an interpreter, allocates, fills every float input
// with 1 and invokes; returns "" or the failing step's messages.
// `outputs` receives output 0's values when everything succeeded.
std::string RunModel(const std::vector<uint8_t>& bytes, std::vector<float>* outputs = nullptr) {
  std::string rep;
  TfLiteModel* model =
      TfLiteModelCreateWithErrorReporter(bytes.data(), bytes.size(), CaptureError, &rep);
  if (model == nullptr) return "model: " + rep;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  if (interpreter == nullptr) return "interpreter: " + rep;
  std::string result;
  if (TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) {
    result = "allocate: " + rep;
  } else {
    for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, i);
      std::vector<float> ones(TfLiteTensorByteSize(t) / sizeof(float), 1.0f);
      TfLiteTensorCopyFromBuffer(t, ones.data(), ones.size() * sizeof(float));
    }
    if (TfLiteInterpreterInvoke(interpreter) != kTfLiteOk) {
      result = "invoke: " + rep;
    } else if (outputs != nullptr) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, 0);
      outputs->resize(TfLiteTensorByteSize(t) / sizeof(float));
      TfLiteTensorCopyToBuffer(t, outputs->data(), outputs->size() * sizeof(float));
    }
  }
  TfLiteInterpreterDelete(interpreter);
  return result;
}

Pool2DOptionsT PoolOptions() {
  Pool2DOptionsT o;
  o.padding = Padding_VALID;
  o.stride_h = o.stride_w = 2;
  o.filter_height = o.filter_width = 2;
  return o;
}

// The case: an AVERAGE_POOL_2D whose input is its own output (the
// graph output, which nothing else writes).
TEST(GraphCycle, OperatorReadingItsOwnOutputIsRejected) {
  ModelBuilder b;
  b.AddInput(TensorType_FLOAT32, {1, 8, 8, 4});
  const int out = b.AddOutput(TensorType_FLOAT32, {1, 4, 4, 4});
  b.AddOperator(BuiltinOperator_AVERAGE_POOL_2D, {out}, {out}, PoolOptions());
  const std::string r = RunModel(b.Finish());
  EXPECT_NE(r.find("model: Subgraph 0 operator 0: input 0 reads tensor 1, which is the "
                   "operator's own output (a graph cycle)."),
            std::string::npos)
      << r;
}

// A self-loop on one of several inputs (ADD's second), on a tensor in the
// middle of the graph.
TEST(GraphCycle, SelfLoopOnIntermediateTensorIsRejected) {
  ModelBuilder b;
  const int in = b.AddInput(TensorType_FLOAT32, {2});
  const int mid = b.AddTensor(TensorType_FLOAT32, {2});
  const int out = b.AddOutput(TensorType_FLOAT32, {2});
  b.AddOperator(BuiltinOperator_ADD, {in, mid}, {mid}, AddOptionsT());
  b.AddOperator(BuiltinOperator_ADD, {mid, in}, {out}, AddOptionsT());
  const std::string r = RunModel(b.Finish());
  EXPECT_NE(r.find("operator 0: input 1 reads tensor 1, which is the operator's own output"),
            std::string::npos)
      << r;
}

// Two operators each reading the other's output: whatever order they are
// stored in, one reads a tensor written later.
TEST(GraphCycle, TwoOperatorCycleIsRejected) {
  for (bool swap : {false, true}) {
    ModelBuilder b;
    const int in = b.AddInput(TensorType_FLOAT32, {2});
    const int a = b.AddTensor(TensorType_FLOAT32, {2});
    const int out = b.AddOutput(TensorType_FLOAT32, {2});
    if (!swap) {
      b.AddOperator(BuiltinOperator_ADD, {in, out}, {a}, AddOptionsT());
      b.AddOperator(BuiltinOperator_MUL, {a, in}, {out}, MulOptionsT());
    } else {
      b.AddOperator(BuiltinOperator_MUL, {a, in}, {out}, MulOptionsT());
      b.AddOperator(BuiltinOperator_ADD, {in, out}, {a}, AddOptionsT());
    }
    const std::string r = RunModel(b.Finish());
    EXPECT_NE(r.find("the operators are not in execution order"), std::string::npos) << r;
  }
}

// A three-operator cycle through a pooling operator.
TEST(GraphCycle, ThreeOperatorCycleIsRejected) {
  ModelBuilder b;
  const int in = b.AddInput(TensorType_FLOAT32, {1, 4, 4, 1});
  const int t1 = b.AddTensor(TensorType_FLOAT32, {1, 4, 4, 1});
  const int t2 = b.AddTensor(TensorType_FLOAT32, {1, 4, 4, 1});
  const int out = b.AddOutput(TensorType_FLOAT32, {1, 4, 4, 1});
  b.AddOperator(BuiltinOperator_ADD, {in, out}, {t1}, AddOptionsT());
  b.AddOperator(BuiltinOperator_RELU, {t1}, {t2});
  b.AddOperator(BuiltinOperator_TANH, {t2}, {out});
  const std::string r = RunModel(b.Finish());
  EXPECT_NE(r.find("operator 0: input 1 reads tensor 3, which operator 2 writes later"),
            std::string::npos)
      << r;
}

// Upstream's add_shared_tensors shape: ADD(x, x) written back into the
// subgraph input x, which is also read by a second ADD. It still runs.
TEST(GraphCycle, InPlaceUpdateOfSubgraphInputRuns) {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 2, 2, 3});
  const int c = b.AddConstant<float>({1}, {0.5f});
  const int out = b.AddOutput(TensorType_FLOAT32, {1, 2, 2, 3});
  b.AddOperator(BuiltinOperator_ADD, {x, x}, {x}, AddOptionsT());
  b.AddOperator(BuiltinOperator_ADD, {c, x}, {out}, AddOptionsT());
  std::vector<float> got;
  const std::string r = RunModel(b.Finish(), &got);
  ASSERT_EQ(r, "");
  EXPECT_EQ(got, std::vector<float>(12, 2.5f));  // 1 + 1, then + 0.5
}

// The same in-place form with an operator that shrinks its output: the
// tensor would be read with the input's shape from the output's smaller
// buffer, so AllocateTensors refuses it.
TEST(GraphCycle, InPlaceUpdateThatResizesIsRejected) {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 8, 8, 4});
  const int out = b.AddOutput(TensorType_FLOAT32, {1, 4, 4, 4});
  b.AddOperator(BuiltinOperator_AVERAGE_POOL_2D, {x}, {x}, PoolOptions());
  b.AddOperator(BuiltinOperator_RELU, {x}, {out});
  const std::string r = RunModel(b.Finish());
  EXPECT_NE(r.find("Node number 0 (AVERAGE_POOL_2D) reads and writes tensor 0 in "
                   "place, and its Prepare resized it"),
            std::string::npos)
      << r;
}

// structured_fuzzer (ASan heap-buffer-overflow in ResizeSplitOutputs):
// UNPACK writing its own input x [3, 2] as its first of three outputs.
// Resizing output 0 gave x the one-dimensional shape [2], and sizing the
// next outputs read x's second dimension past the new array. The resize of
// an in-place tensor to another shape is now refused when the kernel asks
// for it, before it can read the changed input.
TEST(GraphCycle, MalformedInPlaceUnpackCannotShrinkItsInputMidPrepare) {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {3, 2});
  const int y1 = b.AddOutput(TensorType_FLOAT32, {2});
  const int y2 = b.AddOutput(TensorType_FLOAT32, {2});
  UnpackOptionsT o;
  o.num = 3;
  o.axis = 0;
  b.AddOperator(BuiltinOperator_UNPACK, {x}, {x, y1, y2}, o);
  const std::string r = RunModel(b.Finish());
  EXPECT_NE(r.find("Node number 0 (UNPACK) reads and writes tensor 0 in place, and its "
                   "Prepare resized it"),
            std::string::npos)
      << r;
}

// A variable tensor updated in place keeps loading (it holds a value before
// the operator runs), under the same shape rule.
TEST(GraphCycle, InPlaceUpdateOfVariable) {
  for (bool shrink : {false, true}) {
    ModelBuilder b;
    const int in = b.AddInput(TensorType_FLOAT32, {1, 4, 4, 1});
    const int v = b.AddTensor(TensorType_FLOAT32, {1, 4, 4, 1});
    b.SetVariable(v);
    const int out = b.AddOutput(TensorType_FLOAT32, {1, 4, 4, 1});
    if (shrink) {
      b.AddOperator(BuiltinOperator_MAX_POOL_2D, {v}, {v}, PoolOptions());
    } else {
      b.AddOperator(BuiltinOperator_RELU, {v}, {v});
    }
    b.AddOperator(BuiltinOperator_ADD, {in, v}, {out}, AddOptionsT());
    std::vector<float> got;
    const std::string r = RunModel(b.Finish(), &got);
    if (shrink) {
      EXPECT_NE(r.find("reads and writes tensor 1 in place"), std::string::npos) << r;
    } else {
      ASSERT_EQ(r, "");
      EXPECT_EQ(got, std::vector<float>(16, 1.0f));  // variables start at 0
    }
  }
}

}  // namespace
}  // namespace tflite_c
