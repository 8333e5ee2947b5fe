// Unit tests for ParseBuiltinData: operators are built in memory with the
// generated flatbuffers API, parsed, and the resulting C structs checked.
#include "src/core/builtin_data.h"
#include "tests/util/test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace tflite_c {
namespace {

class CapturingReporter : public ErrorReporter {
 public:
  void Report(const char* format, va_list args) override {
    char buf[1024];
    vsnprintf(buf, sizeof(buf), format, args);
    messages += buf;
    messages += '\n';
  }
  std::string messages;
};

using ParamsPtr = std::unique_ptr<void, decltype(&std::free)>;

// Owns a finished buffer whose root is one Operator.
class OpFixture {
 public:
  flatbuffers::FlatBufferBuilder fbb;

  template <typename T>
  const tflite::Operator* Finish(tflite::BuiltinOptions type, flatbuffers::Offset<T> options) {
    fbb.Finish(tflite::CreateOperator(fbb, 0, 0, 0, type, options.Union()));
    return Root();
  }
  template <typename T>
  const tflite::Operator* Finish2(tflite::BuiltinOptions2 type, flatbuffers::Offset<T> options) {
    fbb.Finish(tflite::CreateOperator(fbb, 0, 0, 0, tflite::BuiltinOptions_NONE, 0, 0,
                                      tflite::CustomOptionsFormat_FLEXBUFFERS, 0, 0, 0, 0, type,
                                      options.Union()));
    return Root();
  }
  const tflite::Operator* FinishEmpty() {
    fbb.Finish(tflite::CreateOperator(fbb));
    return Root();
  }

 private:
  const tflite::Operator* Root() {
    return flatbuffers::GetRoot<tflite::Operator>(fbb.GetBufferPointer());
  }
};

class BuiltinDataTest : public ::testing::Test {
 protected:
  // Parses and expects success; returns the (possibly null) struct.
  template <typename P>
  P* ParseOk(const tflite::Operator* op, tflite::BuiltinOperator code) {
    void* data = reinterpret_cast<void*>(0x1);
    EXPECT_EQ(ParseBuiltinData(op, code, &reporter_, &data), kTfLiteOk) << reporter_.messages;
    owned_.emplace_back(data, &std::free);
    return static_cast<P*>(data);
  }
  void ParseFails(const tflite::Operator* op, tflite::BuiltinOperator code) {
    void* data = reinterpret_cast<void*>(0x1);
    EXPECT_EQ(ParseBuiltinData(op, code, &reporter_, &data), kTfLiteError);
    EXPECT_EQ(data, nullptr);
    EXPECT_FALSE(reporter_.messages.empty());
  }

  CapturingReporter reporter_;
  OpFixture f_;
  std::vector<ParamsPtr> owned_;
};

TEST_F(BuiltinDataTest, Conv2DOptionsAreCopied) {
  const auto* op = f_.Finish(
      tflite::BuiltinOptions_Conv2DOptions,
      tflite::CreateConv2DOptions(f_.fbb, tflite::Padding_VALID, 2, 3,
                                  tflite::ActivationFunctionType_RELU6, 4, 5,
                                  tflite::TensorType_INT64));
  auto* p = ParseOk<TfLiteConvParams>(op, tflite::BuiltinOperator_CONV_2D);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->padding, kTfLitePaddingValid);
  EXPECT_EQ(p->stride_width, 2);
  EXPECT_EQ(p->stride_height, 3);
  EXPECT_EQ(p->activation, kTfLiteActRelu6);
  EXPECT_EQ(p->dilation_width_factor, 4);
  EXPECT_EQ(p->dilation_height_factor, 5);
  EXPECT_EQ(p->quantized_bias_type, kTfLiteInt64);
}

TEST_F(BuiltinDataTest, SchemaDefaultsApplyToOmittedFields) {
  // A present but empty table: every field takes its schema default.
  const auto* op = f_.Finish(tflite::BuiltinOptions_Conv2DOptions,
                             tflite::Conv2DOptionsBuilder(f_.fbb).Finish());
  auto* p = ParseOk<TfLiteConvParams>(op, tflite::BuiltinOperator_CONV_2D);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->padding, kTfLitePaddingSame);
  EXPECT_EQ(p->dilation_width_factor, 1);
  EXPECT_EQ(p->dilation_height_factor, 1);
  EXPECT_EQ(p->activation, kTfLiteActNone);
  EXPECT_EQ(p->quantized_bias_type, kTfLiteFloat32);
}

TEST_F(BuiltinDataTest, AbsentOptionsGiveZeroedStruct) {
  const auto* op = f_.FinishEmpty();
  auto* conv = ParseOk<TfLiteConvParams>(op, tflite::BuiltinOperator_CONV_2D);
  ASSERT_NE(conv, nullptr);
  TfLiteConvParams zero;
  std::memset(&zero, 0, sizeof(zero));
  EXPECT_EQ(std::memcmp(conv, &zero, sizeof(zero)), 0);

  auto* add = ParseOk<TfLiteAddParams>(op, tflite::BuiltinOperator_ADD);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->activation, kTfLiteActNone);
  EXPECT_FALSE(add->pot_scale_int16);

  auto* reshape = ParseOk<TfLiteReshapeParams>(op, tflite::BuiltinOperator_RESHAPE);
  ASSERT_NE(reshape, nullptr);
  EXPECT_EQ(reshape->num_dimensions, 0);
}

TEST_F(BuiltinDataTest, AddAndSubKeepPotScaleDefault) {
  const auto* op = f_.Finish(
      tflite::BuiltinOptions_AddOptions,
      tflite::CreateAddOptions(f_.fbb, tflite::ActivationFunctionType_RELU));
  auto* p = ParseOk<TfLiteAddParams>(op, tflite::BuiltinOperator_ADD);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->activation, kTfLiteActRelu);
  EXPECT_TRUE(p->pot_scale_int16);  // schema default is true
}

TEST_F(BuiltinDataTest, ParamlessOperatorsYieldNull) {
  const auto* op = f_.FinishEmpty();
  for (auto code : {tflite::BuiltinOperator_ABS, tflite::BuiltinOperator_TRANSPOSE,
                    tflite::BuiltinOperator_PAD, tflite::BuiltinOperator_CUSTOM,
                    tflite::BuiltinOperator_STABLEHLO_ADD, tflite::BuiltinOperator_WHERE}) {
    EXPECT_EQ(ParseOk<void>(op, code), nullptr) << tflite::EnumNameBuiltinOperator(code);
  }
}

TEST_F(BuiltinDataTest, WrongUnionTypeIsAnError) {
  const auto* op = f_.Finish(tflite::BuiltinOptions_AddOptions,
                             tflite::CreateAddOptions(f_.fbb));
  ParseFails(op, tflite::BuiltinOperator_CONV_2D);
  EXPECT_NE(reporter_.messages.find("Conv2DOptions"), std::string::npos) << reporter_.messages;
  EXPECT_NE(reporter_.messages.find("AddOptions"), std::string::npos) << reporter_.messages;
}

TEST_F(BuiltinDataTest, WrongSecondUnionTypeIsAnError) {
  const auto* op = f_.Finish2(tflite::BuiltinOptions2_StablehloSortOptions,
                              tflite::CreateStablehloSortOptions(f_.fbb));
  ParseFails(op, tflite::BuiltinOperator_STABLEHLO_GATHER);
}

TEST_F(BuiltinDataTest, OutOfRangeEnumsAreErrors) {
  {
    OpFixture f;
    const auto* op = f.Finish(
        tflite::BuiltinOptions_Conv2DOptions,
        tflite::CreateConv2DOptions(f.fbb, tflite::Padding_SAME, 1, 1,
                                    static_cast<tflite::ActivationFunctionType>(42)));
    ParseFails(op, tflite::BuiltinOperator_CONV_2D);
  }
  {
    OpFixture f;
    const auto* op = f.Finish(
        tflite::BuiltinOptions_Pool2DOptions,
        tflite::CreatePool2DOptions(f.fbb, static_cast<tflite::Padding>(7)));
    ParseFails(op, tflite::BuiltinOperator_MAX_POOL_2D);
  }
  {
    OpFixture f;
    const auto* op = f.Finish(
        tflite::BuiltinOptions_MirrorPadOptions,
        tflite::CreateMirrorPadOptions(f.fbb, static_cast<tflite::MirrorPadMode>(5)));
    ParseFails(op, tflite::BuiltinOperator_MIRROR_PAD);
  }
  {
    // A tensor type the 2.19 C API has no TfLiteType for.
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_CastOptions,
                              tflite::CreateCastOptions(f.fbb, tflite::TensorType_FLOAT32,
                                                        tflite::TensorType_INT2));
    ParseFails(op, tflite::BuiltinOperator_CAST);
  }
}

TEST_F(BuiltinDataTest, UnknownAndInvalidCodes) {
  const auto* op = f_.FinishEmpty();
  ParseFails(op, static_cast<tflite::BuiltinOperator>(100000));
  ParseFails(op, static_cast<tflite::BuiltinOperator>(-1));
  ParseFails(op, tflite::BuiltinOperator_DELEGATE);
  ParseFails(op, tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES);
}

TEST_F(BuiltinDataTest, ReshapeNewShape) {
  const std::vector<int32_t> shape{2, -1, 4};
  const auto* op = f_.Finish(tflite::BuiltinOptions_ReshapeOptions,
                             tflite::CreateReshapeOptionsDirect(f_.fbb, &shape));
  auto* p = ParseOk<TfLiteReshapeParams>(op, tflite::BuiltinOperator_RESHAPE);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->num_dimensions, 3);
  EXPECT_EQ(p->shape[0], 2);
  EXPECT_EQ(p->shape[1], -1);
  EXPECT_EQ(p->shape[2], 4);
}

TEST_F(BuiltinDataTest, OversizedArraysAreErrors) {
  const std::vector<int32_t> nine(9, 1);
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_ReshapeOptions,
                              tflite::CreateReshapeOptionsDirect(f.fbb, &nine));
    ParseFails(op, tflite::BuiltinOperator_RESHAPE);
  }
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_SqueezeOptions,
                              tflite::CreateSqueezeOptionsDirect(f.fbb, &nine));
    ParseFails(op, tflite::BuiltinOperator_SQUEEZE);
  }
  {
    const std::vector<int64_t> nine64(9, 0);
    OpFixture f;
    const auto* op = f.Finish2(
        tflite::BuiltinOptions2_StablehloGatherOptions,
        tflite::CreateStablehloGatherOptionsDirect(f.fbb, &nine64));
    ParseFails(op, tflite::BuiltinOperator_STABLEHLO_GATHER);
  }
}

TEST_F(BuiltinDataTest, FullyConnected) {
  const auto* op = f_.Finish(
      tflite::BuiltinOptions_FullyConnectedOptions,
      tflite::CreateFullyConnectedOptions(
          f_.fbb, tflite::ActivationFunctionType_RELU,
          tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8, /*keep_num_dims=*/true,
          /*asymmetric_quantize_inputs=*/true, tflite::TensorType_INT32));
  auto* p = ParseOk<TfLiteFullyConnectedParams>(op, tflite::BuiltinOperator_FULLY_CONNECTED);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->activation, kTfLiteActRelu);
  EXPECT_EQ(p->weights_format, kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8);
  EXPECT_TRUE(p->keep_num_dims);
  EXPECT_TRUE(p->asymmetric_quantize_inputs);
  EXPECT_EQ(p->quantized_bias_type, kTfLiteInt32);
}

TEST_F(BuiltinDataTest, SharedOptionTables) {
  // Reducers share ReducerOptions, pools Pool2DOptions, random ops RandomOptions.
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_ReducerOptions,
                              tflite::CreateReducerOptions(f.fbb, true));
    for (auto code : {tflite::BuiltinOperator_MEAN, tflite::BuiltinOperator_SUM,
                      tflite::BuiltinOperator_REDUCE_MAX, tflite::BuiltinOperator_REDUCE_ANY}) {
      auto* p = ParseOk<TfLiteReducerParams>(op, code);
      ASSERT_NE(p, nullptr);
      EXPECT_TRUE(p->keep_dims);
    }
  }
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_RandomOptions,
                              tflite::CreateRandomOptions(f.fbb, 7, 9));
    auto* p = ParseOk<TfLiteRandomParams>(op, tflite::BuiltinOperator_RANDOM_UNIFORM);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->seed, 7);
    EXPECT_EQ(p->seed2, 9);
  }
}

TEST_F(BuiltinDataTest, ControlFlowSubgraphIndices) {
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_WhileOptions,
                              tflite::CreateWhileOptions(f.fbb, 1, 2));
    auto* p = ParseOk<TfLiteWhileParams>(op, tflite::BuiltinOperator_WHILE);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->cond_subgraph_index, 1);
    EXPECT_EQ(p->body_subgraph_index, 2);
  }
  {
    OpFixture f;
    const auto* op = f.Finish(tflite::BuiltinOptions_IfOptions,
                              tflite::CreateIfOptions(f.fbb, 3, 4));
    auto* p = ParseOk<TfLiteIfParams>(op, tflite::BuiltinOperator_IF);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->then_subgraph_index, 3);
    EXPECT_EQ(p->else_subgraph_index, 4);
  }
}

TEST_F(BuiltinDataTest, VarHandleStringsPointIntoTheModel) {
  const auto* op = f_.Finish(tflite::BuiltinOptions_VarHandleOptions,
                             tflite::CreateVarHandleOptionsDirect(f_.fbb, "box", "weights"));
  auto* p = ParseOk<TfLiteVarHandleParams>(op, tflite::BuiltinOperator_VAR_HANDLE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(p->container, "box");
  EXPECT_STREQ(p->shared_name, "weights");
  const auto* begin = reinterpret_cast<const char*>(f_.fbb.GetBufferPointer());
  EXPECT_GE(p->shared_name, begin);
  EXPECT_LT(p->shared_name, begin + f_.fbb.GetSize());
}

TEST_F(BuiltinDataTest, LstmRequiresOptions) {
  ParseFails(f_.FinishEmpty(), tflite::BuiltinOperator_LSTM);
}

TEST_F(BuiltinDataTest, StablehloPad) {
  const std::vector<int64_t> lo{1, 2}, hi{3, 4}, in{0, 1};
  const auto* op = f_.Finish2(tflite::BuiltinOptions2_StablehloPadOptions,
                              tflite::CreateStablehloPadOptionsDirect(f_.fbb, &lo, &hi, &in));
  auto* p = ParseOk<TfLiteStablehloPadParams>(op, tflite::BuiltinOperator_STABLEHLO_PAD);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->edge_padding_low[1], 2);
  EXPECT_EQ(p->edge_padding_high[0], 3);
  EXPECT_EQ(p->interior_padding[1], 1);
}

TEST_F(BuiltinDataTest, StablehloPadMismatchedLengths) {
  const std::vector<int64_t> lo{1, 2}, hi{3}, in{0, 1};
  const auto* op = f_.Finish2(tflite::BuiltinOptions2_StablehloPadOptions,
                              tflite::CreateStablehloPadOptionsDirect(f_.fbb, &lo, &hi, &in));
  ParseFails(op, tflite::BuiltinOperator_STABLEHLO_PAD);
}

TEST_F(BuiltinDataTest, StablehloReduceWindowFillsOmittedAttributes) {
  const std::vector<int64_t> dims{2, 3}, strides{1, 2};
  const auto* op = f_.Finish2(
      tflite::BuiltinOptions2_StablehloReduceWindowOptions,
      tflite::CreateStablehloReduceWindowOptionsDirect(f_.fbb, &dims, &strides, nullptr, nullptr,
                                                       nullptr, /*body_subgraph_index=*/5));
  auto* p = ParseOk<TfLiteStablehloReduceWindowParams>(
      op, tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->window_dimensions[0], 2);
  EXPECT_EQ(p->window_dimensions[1], 3);
  EXPECT_EQ(p->window_strides[1], 2);
  EXPECT_EQ(p->base_dilations[0], 1);
  EXPECT_EQ(p->window_dilations[1], 1);
  EXPECT_EQ(p->padding[3], 0);
  EXPECT_EQ(p->body_subgraph_index, 5);
}

TEST_F(BuiltinDataTest, StablehloReduceWindowRejectsWrongLength) {
  const std::vector<int64_t> dims{2, 3}, strides{1, 2, 3};
  const auto* op = f_.Finish2(
      tflite::BuiltinOptions2_StablehloReduceWindowOptions,
      tflite::CreateStablehloReduceWindowOptionsDirect(f_.fbb, &dims, &strides));
  ParseFails(op, tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW);
}

TEST_F(BuiltinDataTest, StablehloCompositeRequiresName) {
  const std::vector<uint8_t> attrs{1, 2, 3};
  {
    OpFixture f;
    const auto* op = f.Finish2(
        tflite::BuiltinOptions2_StableHLOCompositeOptions,
        tflite::CreateStableHLOCompositeOptionsDirect(f.fbb, nullptr, 1, &attrs));
    ParseFails(op, tflite::BuiltinOperator_STABLEHLO_COMPOSITE);
  }
  {
    OpFixture f;
    const auto* op = f.Finish2(
        tflite::BuiltinOptions2_StableHLOCompositeOptions,
        tflite::CreateStableHLOCompositeOptionsDirect(f.fbb, "odml.rms_norm", 2, &attrs,
                                                      tflite::CustomOptionsFormat_FLEXBUFFERS, 7));
    auto* p = ParseOk<TfLiteStablehloCompositeParams>(
        op, tflite::BuiltinOperator_STABLEHLO_COMPOSITE);
    ASSERT_NE(p, nullptr);
    EXPECT_STREQ(p->name, "odml.rms_norm");
    EXPECT_EQ(p->subgraph_index, 2);
    EXPECT_EQ(p->version, 7);
    ASSERT_EQ(p->attributes_size, 3u);
    EXPECT_EQ(p->attributes[2], 3);
  }
}

TEST_F(BuiltinDataTest, ReduceWindowUnsupportedFunction) {
  const auto* op = f_.Finish2(
      tflite::BuiltinOptions2_ReduceWindowOptions,
      tflite::CreateReduceWindowOptions(f_.fbb, tflite::ReduceWindowFunction_UNSUPPORTED));
  ParseFails(op, tflite::BuiltinOperator_REDUCE_WINDOW);
}

TEST_F(BuiltinDataTest, BucketizeBoundariesPointIntoTheModel) {
  const std::vector<float> b{0.5f, 1.5f};
  const auto* op = f_.Finish(tflite::BuiltinOptions_BucketizeOptions,
                             tflite::CreateBucketizeOptionsDirect(f_.fbb, &b));
  auto* p = ParseOk<TfLiteBucketizeParams>(op, tflite::BuiltinOperator_BUCKETIZE);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->num_boundaries, 2);
  EXPECT_FLOAT_EQ(p->boundaries[1], 1.5f);
}

TEST_F(BuiltinDataTest, NullArguments) {
  void* data = nullptr;
  EXPECT_EQ(ParseBuiltinData(nullptr, tflite::BuiltinOperator_ADD, &reporter_, &data),
            kTfLiteError);
  EXPECT_EQ(ParseBuiltinData(f_.FinishEmpty(), tflite::BuiltinOperator_ADD, &reporter_, nullptr),
            kTfLiteError);
}

// Every builtin operator of every model in the shared corpus parses.
TEST(BuiltinDataModels, SharedCorpusParses) {
  const std::string dir = std::string(TFLITE_C_SHARED_DIR) + "/models/files";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) GTEST_SKIP() << "no model corpus at " << dir;
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 7 && n.compare(n.size() - 7, 7, ".tflite") == 0) files.push_back(n);
  }
  closedir(d);

  size_t parsed = 0;
  for (const auto& name : files) {
    std::ifstream in(dir + "/" + name, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (bytes.empty() || !tflite::VerifyModelBuffer(verifier)) continue;  // deliberately broken
    const tflite::Model* model = tflite::GetModel(bytes.data());
    const auto* codes = model->operator_codes();
    if (model->subgraphs() == nullptr || codes == nullptr) continue;
    for (const auto* sg : *model->subgraphs()) {
      if (sg->operators() == nullptr) continue;
      for (const auto* op : *sg->operators()) {
        if (op->opcode_index() >= codes->size()) continue;
        const auto* oc = codes->Get(op->opcode_index());
        const int code = std::max<int>(oc->builtin_code(), oc->deprecated_builtin_code());
        if (code == tflite::BuiltinOperator_CUSTOM) continue;
        CapturingReporter reporter;
        void* data = nullptr;
        EXPECT_EQ(ParseBuiltinData(op, static_cast<tflite::BuiltinOperator>(code), &reporter,
                                   &data),
                  kTfLiteOk)
            << name << ": " << reporter.messages;
        std::free(data);
        ++parsed;
      }
    }
  }
  RecordProperty("operators_parsed", static_cast<int>(parsed));
  EXPECT_GT(parsed, 0u);
}

}  // namespace
}  // namespace tflite_c
