// Where the shared golden model set lives (TFLITE_C_SHARED_DIR, set by
// tests/CMakeLists.txt) and a skip for tests that need it, so a clone
// without ../shared skips them with a clear message.
#ifndef TFLITE_C_TESTS_UTIL_SHARED_MODELS_H_
#define TFLITE_C_TESTS_UTIL_SHARED_MODELS_H_

#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace testing {

inline std::string SharedModelsDir() { return std::string(TFLITE_C_SHARED_DIR) + "/models"; }

inline bool DirExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// models/files/<name>.tflite of the shared set.
inline std::string SharedModelPath(const std::string& name) {
  return SharedModelsDir() + "/files/" + name + ".tflite";
}

// The bytes of SharedModelPath(name); empty when it cannot be read.
inline std::vector<uint8_t> ReadSharedModel(const std::string& name) {
  std::ifstream in(SharedModelPath(name), std::ios::binary);
  if (!in) return {};
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace testing
}  // namespace tflite_c

#define SKIP_WITHOUT_SHARED_MODELS()                                                       \
  do {                                                                                     \
    if (!::tflite_c::testing::DirExists(::tflite_c::testing::SharedModelsDir()))           \
      GTEST_SKIP() << "shared models not found at "                                        \
                   << ::tflite_c::testing::SharedModelsDir()                               \
                   << " (set TFLITE_C_SHARED_DIR when configuring to run this test)";      \
  } while (0)

#endif  // TFLITE_C_TESTS_UTIL_SHARED_MODELS_H_
