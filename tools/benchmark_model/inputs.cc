#include "benchmark_model/inputs.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>

#include "benchmark_model/bench_util.h"

namespace tflite_c_bench {

std::vector<std::string> Split(const std::string& s, char delim) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(delim, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

bool ParseIntStrict(const std::string& s, int* out) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

int FindLayer(std::vector<InputLayerInfo>& info, const std::string& name) {
  for (size_t i = 0; i < info.size(); ++i)
    if (info[i].name == name) return static_cast<int>(i);
  LOG_ERROR << "Cannot find the corresponding input_layer name(" << name << ") in --input_layer";
  return -1;
}

namespace {

// --input_layer and --input_layer_shape: one entry per named input.
bool ReadLayerShapes(const Flags& f, std::vector<InputLayerInfo>* info) {
  const std::vector<std::string> names = Split(f.Str("input_layer"), ',');
  const std::vector<std::string> shapes = Split(f.Str("input_layer_shape"), ':');
  if (names.size() != shapes.size()) {
    LOG_ERROR << "The number of items in --input_layer_shape (" << f.Str("input_layer_shape")
              << ", with " << shapes.size()
              << " items) must match the number of items in --input_layer ("
              << f.Str("input_layer") << ", with " << names.size()
              << " items). For example --input_layer=input1,input2 "
                 "--input_layer_shape=1,224,224,4:1,20";
    return false;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    InputLayerInfo in;
    in.name = names[i];
    for (const std::string& d : Split(shapes[i], ',')) {
      int dim;
      if (!ParseIntStrict(d, &dim)) {
        LOG_ERROR << "Incorrect size string specified: " << shapes[i];
        return false;
      }
      if (dim == -1) {
        LOG_ERROR << "Any unknown sizes in the shapes (-1's) must be replaced with the size you "
                     "want to benchmark with.";
        return false;
      }
      in.shape.push_back(dim);
    }
    info->push_back(in);
  }
  return true;
}

// --input_layer_value_range: name,low,high items separated by ':'.
bool ReadValueRanges(const Flags& f, std::vector<InputLayerInfo>* info) {
  for (const std::string& item : Split(f.Str("input_layer_value_range"), ':')) {
    std::vector<std::string> p = Split(item, ',');
    if (p.size() != 3) {
      LOG_ERROR << "Wrong input value range item specified: " << item;
      return false;
    }
    int idx = FindLayer(*info, p[0]);
    if (idx < 0) return false;
    int low, high;
    if (!ParseIntStrict(p[1], &low) || !ParseIntStrict(p[2], &high) || low > high) {
      LOG_ERROR << "Wrong low and high value of the input value range specified: " << item;
      return false;
    }
    (*info)[idx].has_range = true;
    (*info)[idx].low = low;
    (*info)[idx].high = high;
  }
  return true;
}

// --input_layer_value_files: name:path items separated by ','.
bool ReadValueFiles(const Flags& f, std::vector<InputLayerInfo>* info) {
  for (const std::string& item : Split(f.Str("input_layer_value_files"), ',')) {
    // name:path, where "::" stands for a literal ':' on either side.
    int delim = -1;
    for (size_t i = 0; i + 1 < item.size(); ++i) {
      if (item[i] != ':') continue;
      if (item[i + 1] == ':') {
        ++i;
        continue;
      }
      if (delim != -1) {
        LOG_ERROR << item << " contains more than one delimiter.";
        return false;
      }
      delim = static_cast<int>(i);
    }
    if (delim == -1) {
      LOG_ERROR << "Wrong input value file item specified: " << item;
      return false;
    }
    auto unescape = [](std::string s) {
      for (size_t p = s.find("::"); p != std::string::npos; p = s.find("::", p + 1))
        s.erase(p, 1);
      return s;
    };
    int idx = FindLayer(*info, unescape(item.substr(0, delim)));
    if (idx < 0) return false;
    if ((*info)[idx].has_range) {
      LOG_WARN << "The input_name:" << (*info)[idx].name
               << " appears both in input_layer_value_files and input_layer_value_range. The "
                  "input_layer_value_range of the input_name will be ignored.";
    }
    (*info)[idx].file = unescape(item.substr(delim + 1));
  }
  return true;
}

}  // namespace

bool PopulateInputLayerInfo(const Flags& f, std::vector<InputLayerInfo>* info) {
  return ReadLayerShapes(f, info) && ReadValueRanges(f, info) && ReadValueFiles(f, info);
}

size_t NumElements(const TfLiteTensor* t) {
  size_t n = 1;
  for (int i = 0; i < TfLiteTensorNumDims(t); ++i) n *= static_cast<size_t>(TfLiteTensorDim(t, i));
  return n;
}

// String tensor payload: count, count+1 offsets, then the bytes.
std::vector<char> PackStrings(const std::vector<std::string>& strings) {
  const int32_t n = static_cast<int32_t>(strings.size());
  size_t header = sizeof(int32_t) * (n + 2);
  size_t total = header;
  for (const auto& s : strings) total += s.size();
  std::vector<char> buf(total);
  std::memcpy(buf.data(), &n, sizeof(n));
  int32_t offset = static_cast<int32_t>(header);
  for (int32_t i = 0; i <= n; ++i) {
    std::memcpy(buf.data() + sizeof(int32_t) * (i + 1), &offset, sizeof(offset));
    if (i < n) {
      std::memcpy(buf.data() + offset, strings[i].data(), strings[i].size());
      offset += static_cast<int32_t>(strings[i].size());
    }
  }
  return buf;
}

template <typename T, typename Dist>
void FillRandom(std::vector<char>& out, size_t n, Dist dist, std::mt19937& rng) {
  out.resize(n * sizeof(T));
  T* p = reinterpret_cast<T*>(out.data());
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<T>(dist(rng));
}

bool MakeRandomData(const TfLiteTensor* t, const InputLayerInfo* info, std::mt19937& rng,
                    std::vector<char>* out) {
  const size_t n = NumElements(t);
  float low = 0, high = 0;
  const TfLiteType type = TfLiteTensorType(t);
  switch (type) {
    case kTfLiteFloat32: case kTfLiteFloat64: case kTfLiteComplex64:
      low = -0.5f; high = 0.5f; break;
    case kTfLiteInt64: case kTfLiteUInt64: case kTfLiteInt32: case kTfLiteUInt32:
      low = 0; high = 99; break;
    case kTfLiteUInt8: low = 0; high = 254; break;
    case kTfLiteInt8: low = -127; high = 127; break;
    default: break;
  }
  if (info && info->has_range) {
    low = static_cast<float>(info->low);
    high = static_cast<float>(info->high);
  }
  std::uniform_int_distribution<int64_t> ints(static_cast<int64_t>(low), static_cast<int64_t>(high));
  switch (type) {
    case kTfLiteFloat32: FillRandom<float>(*out, n, std::uniform_real_distribution<float>(low, high), rng); break;
    case kTfLiteFloat64: FillRandom<double>(*out, n, std::uniform_real_distribution<double>(low, high), rng); break;
    case kTfLiteComplex64: FillRandom<float>(*out, 2 * n, std::uniform_real_distribution<float>(low, high), rng); break;
    case kTfLiteFloat16: {
      // Random halves in [-0.5, 0.5]: sign, exponent 0..13 (< 1.0), random mantissa.
      out->resize(n * 2);
      uint16_t* p = reinterpret_cast<uint16_t*>(out->data());
      std::uniform_int_distribution<int> e(0, 13), m(0, 1023), s(0, 1);
      for (size_t i = 0; i < n; ++i)
        p[i] = static_cast<uint16_t>((s(rng) << 15) | (e(rng) << 10) | m(rng));
      break;
    }
    case kTfLiteInt64: FillRandom<int64_t>(*out, n, ints, rng); break;
    case kTfLiteUInt64: FillRandom<uint64_t>(*out, n, ints, rng); break;
    case kTfLiteInt32: FillRandom<int32_t>(*out, n, ints, rng); break;
    case kTfLiteUInt32: FillRandom<uint32_t>(*out, n, ints, rng); break;
    case kTfLiteInt16: FillRandom<int16_t>(*out, n, ints, rng); break;
    case kTfLiteUInt16: FillRandom<uint16_t>(*out, n, ints, rng); break;
    case kTfLiteUInt8: FillRandom<uint8_t>(*out, n, ints, rng); break;
    case kTfLiteInt8: FillRandom<int8_t>(*out, n, ints, rng); break;
    case kTfLiteBool:
      FillRandom<uint8_t>(*out, n, std::uniform_int_distribution<int>(0, 1), rng);
      break;
    case kTfLiteString:
      *out = PackStrings(std::vector<std::string>(
          n, "we're have some friends over saturday to hang out in the yard"));
      break;
    default:
      LOG_ERROR << "Don't know how to populate tensor " << TfLiteTensorName(t) << " of type "
                << TfLiteTypeGetName(type);
      return false;
  }
  return true;
}

bool LoadInputFile(const TfLiteTensor* t, const std::string& path, std::vector<char>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) {
    LOG_ERROR << "Failed to read the input_layer_value_file:" << path;
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (TfLiteTensorType(t) == kTfLiteString) {
    std::vector<std::string> strings;
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0) {
      strings.push_back(bytes);
    } else {
      std::string cur;
      std::istringstream ss(bytes);
      while (std::getline(ss, cur, '\0')) strings.push_back(cur);
      if (strings.size() != NumElements(t)) {
        LOG_ERROR << "The number of string in the input_layer_value_file(" << path << ") is "
                  << strings.size() << ". It should be " << NumElements(t) << ".";
        return false;
      }
    }
    *out = PackStrings(strings);
    return true;
  }
  if (bytes.size() != TfLiteTensorByteSize(t)) {
    LOG_ERROR << "The size of " << path << " is " << bytes.size() << " bytes. It should be "
              << TfLiteTensorByteSize(t) << " bytes.";
    return false;
  }
  out->assign(bytes.begin(), bytes.end());
  return true;
}

}  // namespace tflite_c_bench
