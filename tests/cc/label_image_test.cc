// Runs examples/label_image on a shared classifier (MobileNet v2, int8,
// NCHW 1x3x224x224, 1000 classes). The test writes a BMP whose pixels,
// through label_image's normalization and the input's quantization, give back
// exactly the golden input, so the printed top results must be the golden
// output's. Skipped when ../shared is absent.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/test_paths.h"

namespace {

const std::string kModelDir = std::string(TFLITE_C_SHARED_DIR) + "/models/";
const std::string kModel = kModelDir + "files/tflm_mobilenet_v2_quantized_1x3x224x224.tflite";
const std::string kGolden = kModelDir + "golden/tflm_mobilenet_v2_quantized_1x3x224x224/";

std::vector<int8_t> ReadInt8(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return std::vector<int8_t>(bytes.begin(), bytes.end());
}

void Put32(std::string* s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s->push_back(static_cast<char>(v >> (8 * i)));
}
void Put16(std::string* s, uint16_t v) {
  s->push_back(static_cast<char>(v));
  s->push_back(static_cast<char>(v >> 8));
}

// A bottom-up 24-bit BMP of `width` x `height` from rgb(x, y, c).
template <typename F>
std::string MakeBmp(int width, int height, F rgb) {
  const uint32_t row = (width * 3 + 3) / 4 * 4;
  std::string s = "BM";
  Put32(&s, 54 + row * height);
  Put32(&s, 0);
  Put32(&s, 54);
  Put32(&s, 40);
  Put32(&s, width);
  Put32(&s, height);
  Put16(&s, 1);
  Put16(&s, 24);
  for (int i = 0; i < 6; ++i) Put32(&s, 0);
  for (int y = height - 1; y >= 0; --y) {
    std::string line;
    for (int x = 0; x < width; ++x) {
      for (int c = 2; c >= 0; --c) line.push_back(static_cast<char>(rgb(x, y, c)));
    }
    line.resize(row, '\0');
    s += line;
  }
  return s;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

// Runs a command; returns its exit status and its stdout in *out.
int RunCommand(const std::string& command, std::string* out) {
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  out->clear();
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct QuantParams {
  float scale;
  int zero_point;
};

// The model's input and output quantization, read through the C API.
bool ModelParams(QuantParams* in, QuantParams* out) {
  TfLiteModel* model = TfLiteModelCreateFromFile(kModel.c_str());
  if (model == nullptr) return false;
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, nullptr);
  const bool ok = interpreter != nullptr;
  if (ok) {
    const TfLiteQuantizationParams i =
        TfLiteTensorQuantizationParams(TfLiteInterpreterGetInputTensor(interpreter, 0));
    const TfLiteQuantizationParams o =
        TfLiteTensorQuantizationParams(TfLiteInterpreterGetOutputTensor(interpreter, 0));
    *in = {i.scale, i.zero_point};
    *out = {o.scale, o.zero_point};
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
  return ok;
}

class LabelImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::ifstream(kModel).good()) GTEST_SKIP() << kModel << " not found";
    dir_ = ::testing::TempDir() + "label_image_test_" + std::to_string(getpid());
    ASSERT_EQ(std::system(("mkdir -p '" + dir_ + "'").c_str()), 0);
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string dir_;
};

TEST_F(LabelImageTest, ClassifiesTheGoldenInput) {
  QuantParams in, out;
  ASSERT_TRUE(ModelParams(&in, &out));
  const std::vector<int8_t> input = ReadInt8(kGolden + "input_0.bin");
  const std::vector<int8_t> golden = ReadInt8(kGolden + "output_0.bin");
  ASSERT_EQ(input.size(), 3u * 224 * 224);
  ASSERT_EQ(golden.size(), 1000u);

  // pixel = q + 128; with mean = zero_point + 128 and std = 1 / scale,
  // label_image's round(((pixel - mean) / std) / scale) + zero_point is q.
  const int hw = 224 * 224;
  WriteFile(dir_ + "/image.bmp", MakeBmp(224, 224, [&](int x, int y, int c) {
              return input[c * hw + y * 224 + x] + 128;
            }));
  std::string labels;
  for (int i = 0; i < 1000; ++i) labels += "class_" + std::to_string(i) + "\n";
  WriteFile(dir_ + "/labels.txt", labels);

  char mean[32], stddev[32];
  std::snprintf(mean, sizeof mean, "%d", in.zero_point + 128);
  std::snprintf(stddev, sizeof stddev, "%.9g", 1.0 / in.scale);
  const std::string command = std::string(TFLITE_C_LABEL_IMAGE) + " -m '" + kModel + "' -i '" +
                              dir_ + "/image.bmp' -l '" + dir_ + "/labels.txt' -r 5 -b " +
                              mean + " -s " + stddev;
  std::string text;
  ASSERT_EQ(RunCommand(command, &text), 0) << command << "\n" << text;

  // "<score>: <index> class_<index>", highest first.
  std::istringstream lines(text);
  std::vector<int> indices;
  std::vector<float> scores;
  for (std::string line; std::getline(lines, line);) {
    float score;
    int index;
    char label[64];
    ASSERT_EQ(std::sscanf(line.c_str(), "%f: %d %63s", &score, &index, label), 3) << line;
    EXPECT_EQ(std::string(label), "class_" + std::to_string(index));
    indices.push_back(index);
    scores.push_back(score);
  }
  ASSERT_EQ(indices.size(), 5u) << text;
  // Golden scores, ordered like label_image orders them.
  std::vector<int> order(1000);
  for (int i = 0; i < 1000; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return golden[a] > golden[b]; });
  EXPECT_EQ(indices[0], order[0]) << text;  // a margin of 11 units over the next
  for (size_t i = 0; i < indices.size(); ++i) {
    const float expected = (golden[indices[i]] - out.zero_point) * out.scale;
    // The manifest's tolerance for this model: 10 quantization steps.
    EXPECT_NEAR(scores[i], expected, 10 * out.scale + 1e-4) << "result " << i << "\n" << text;
    const float expected_rank = (golden[order[i]] - out.zero_point) * out.scale;
    EXPECT_NEAR(scores[i], expected_rank, 10 * out.scale + 1e-4) << "result " << i << "\n" << text;
    if (i > 0) EXPECT_GE(scores[i - 1], scores[i]);
  }
}

TEST_F(LabelImageTest, RejectsBadImagesAndArguments) {
  std::string text;
  // Not a BMP.
  WriteFile(dir_ + "/bad.bmp", "GIF89a........................................................");
  EXPECT_EQ(RunCommand(std::string(TFLITE_C_LABEL_IMAGE) + " -m '" + kModel + "' -i '" + dir_ +
                    "/bad.bmp' 2>&1",
                &text),
            1);
  EXPECT_NE(text.find("is not a BMP file"), std::string::npos) << text;
  // A BMP whose pixel rows are cut off.
  std::string bmp = MakeBmp(8, 8, [](int, int, int) { return 0; });
  bmp.resize(bmp.size() - 40);
  WriteFile(dir_ + "/short.bmp", bmp);
  EXPECT_EQ(RunCommand(std::string(TFLITE_C_LABEL_IMAGE) + " -m '" + kModel + "' -i '" + dir_ +
                    "/short.bmp' 2>&1",
                &text),
            1);
  EXPECT_NE(text.find("truncated"), std::string::npos) << text;
  // A small image of another size is resized, and runs.
  WriteFile(dir_ + "/small.bmp", MakeBmp(17, 9, [](int x, int y, int c) { return x * 7 + y * c; }));
  EXPECT_EQ(RunCommand(std::string(TFLITE_C_LABEL_IMAGE) + " -m '" + kModel + "' -i '" + dir_ +
                    "/small.bmp' -r 3",
                &text),
            0);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
  // Verbose: the interpreter state and the operators by name.
  EXPECT_EQ(RunCommand(std::string(TFLITE_C_LABEL_IMAGE) + " -m '" + kModel + "' -i '" + dir_ +
                    "/small.bmp' -r 1 -v 1 2>&1",
                &text),
            0);
  EXPECT_NE(text.find(": CONV_2D"), std::string::npos) << text;
  EXPECT_NE(text.find(": FULLY_CONNECTED"), std::string::npos) << text;
  // No model.
  EXPECT_EQ(RunCommand(std::string(TFLITE_C_LABEL_IMAGE) + " -i x.bmp 2>&1", &text), 1);
  EXPECT_NE(text.find("usage: label_image"), std::string::npos) << text;
}

}  // namespace
