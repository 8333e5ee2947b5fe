// LiteRT's LiteRtMaxUnpooling2D custom op, on model-builder graphs (expected
// values placed by hand) and on the shared LiteRT model.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"
#include "tests/kernels/mediapipe_op_test_util.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;
using tflite_c::testing::OpRun;
using tflite_c::testing::Raw;
using tflite_c::testing::SharedFile;

// ---- LiteRtMaxUnpooling2D -----------------------------------------------------------------

std::vector<uint8_t> PoolOptions(TfLitePadding padding, int stride_h, int stride_w, int filter) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.stride_height = stride_h;
  p.stride_width = stride_w;
  p.filter_height = p.filter_width = filter;
  std::vector<uint8_t> b(sizeof(p));
  std::memcpy(b.data(), &p, sizeof(p));
  return b;
}

std::vector<uint8_t> UnpoolModel(std::vector<int> shape, std::vector<uint8_t> options,
                                 tflite::TensorType index_type = tflite::TensorType_INT32,
                                 std::vector<int> index_shape = {}) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int idx = mb.AddInput(index_type, index_shape.empty() ? shape : index_shape, "i");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, shape, "y");
  mb.AddCustomOperator("LiteRtMaxUnpooling2D", {in, idx}, {out}, std::move(options));
  return mb.Finish();
}

TEST(LiteRtMaxUnpoolingTest, FlatIndicesPlaceValuesPerBatch) {
  // [2, 1, 2, 2] -> VALID, stride 2x3, filter 2: output [2, 2, 5, 2]. An
  // index names (oy * 5 + ox) * 2 + c inside its own batch.
  OpRun run(UnpoolModel({2, 1, 2, 2}, PoolOptions(kTfLitePaddingValid, 2, 3, 2)));
  struct Place {
    int oy, ox, c;
  };
  const Place places[8] = {{0, 0, 0}, {1, 4, 1}, {0, 2, 1}, {1, 1, 0},
                           {1, 0, 0}, {0, 4, 0}, {1, 3, 1}, {0, 1, 1}};
  std::vector<int32_t> indices;
  for (const Place& p : places) indices.push_back((p.oy * 5 + p.ox) * 2 + p.c);
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(run.Invoke({Raw(values), Raw(indices)}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(), (std::vector<int>{2, 2, 5, 2}));
  const std::vector<float> y = run.Output();
  std::vector<float> expected(40, 0.0f);
  for (int i = 0; i < 8; ++i) {
    const int batch = i / 4;
    expected[batch * 20 + places[i].oy * 10 + places[i].ox * 2 + places[i].c] = values[i];
  }
  EXPECT_EQ(y, expected);
}

TEST(LiteRtMaxUnpoolingTest, SamePaddingDropsOutOfRangeIndices) {
  // [1, 2, 2, 1] SAME stride 2 -> [1, 4, 4, 1]; indices -1 and 16 are outside.
  OpRun run(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2)));
  ASSERT_EQ(run.Invoke({Raw(std::vector<float>{1, 2, 3, 4}), Raw(std::vector<int32_t>{5, -1, 16, 15})}),
            kTfLiteOk)
      << run.log;
  EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, 4, 4, 1}));
  std::vector<float> expected(16, 0.0f);
  expected[5] = 1;
  expected[15] = 4;
  EXPECT_EQ(run.Output(), expected);
}

TEST(LiteRtMaxUnpoolingTest, RejectsBadGraphs) {
  OpRun no_options(UnpoolModel({1, 2, 2, 1}, {}));
  no_options.ExpectPrepareError("neither SAME nor VALID");
  OpRun float_indices(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2),
                                  tflite::TensorType_FLOAT32));
  float_indices.ExpectPrepareError("int32 only");
  OpRun shapes(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2),
                           tflite::TensorType_INT32, {1, 2, 1, 1}));
  shapes.ExpectPrepareError("shapes differ");
  OpRun rank(UnpoolModel({2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2)));
  rank.ExpectPrepareError("must be 4-D");
  OpRun huge(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 1 << 30, 2, 2)));
  huge.ExpectPrepareError("too large");
}
TEST(LiteRtMaxUnpoolingTest, LiteRtModel) {
  const std::string path = SharedFile("files/litert_max_unpooling_2d.tflite");
  TfLiteModel* model = TfLiteModelCreateFromFile(path.c_str());
  if (model == nullptr) GTEST_SKIP() << path << " not found";
  std::string log;
  TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, o);
  TfLiteInterpreterOptionsDelete(o);
  ASSERT_NE(interpreter, nullptr) << log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << log;
  // SAME, stride 2: [1, 8, 8, 128] -> [1, 16, 16, 128] (the converter's
  // declared [1, 8, 8, 128] is replaced, as upstream's kernel does).
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  ASSERT_EQ(TfLiteTensorNumDims(out), 4);
  EXPECT_EQ(TfLiteTensorDim(out, 1), 16);
  EXPECT_EQ(TfLiteTensorDim(out, 2), 16);
  EXPECT_EQ(TfLiteTensorDim(out, 3), 128);
  // Element i goes to 4 * i + 1 (in range: 4 * 8191 + 1 < 16 * 16 * 128).
  std::vector<float> x(8192);
  std::vector<int32_t> idx(8192);
  for (int i = 0; i < 8192; ++i) {
    x[i] = static_cast<float>(i + 1);
    idx[i] = 4 * i + 1;
  }
  TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x.data(), x.size() * 4);
  TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 1), idx.data(), idx.size() * 4);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk) << log;
  std::vector<float> y(16 * 16 * 128);
  ASSERT_EQ(TfLiteTensorCopyToBuffer(out, y.data(), y.size() * 4), kTfLiteOk);
  for (size_t k = 0; k < y.size(); ++k) {
    const float expected = k % 4 == 1 ? static_cast<float>(k / 4 + 1) : 0.0f;
    ASSERT_EQ(y[k], expected) << k;
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
}

}  // namespace
