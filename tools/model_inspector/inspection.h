// model_inspector's findings about one model, and the steps that collect and
// print them:
//   model_reader.cc       structure, signatures and operator coverage, read
//                         from the flatbuffer and the library's resolver
//   partition_preview.cc  the chosen delegate's partition of each subgraph
//   print_report.cc       the text and JSON reports
//   model_inspector.cc    the command line and main
#ifndef TFLITE_C_TOOLS_MODEL_INSPECTOR_INSPECTION_H_
#define TFLITE_C_TOOLS_MODEL_INSPECTOR_INSPECTION_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/delegate_registry.h"
#include "tensorflow/lite/c/c_api.h"

namespace tflite {
struct Model;
}  // namespace tflite

namespace tflite_c_inspector {

struct TensorInfo {
  int index = -1;
  std::string name;
  std::string type;
  std::vector<int64_t> shape;
  std::vector<int64_t> shape_signature;
  std::vector<double> scale;
  std::vector<int64_t> zero_point;
  int quantized_dimension = 0;
  bool is_variable = false;
};

struct SubgraphInfo {
  int index = 0;
  std::string name;
  int num_tensors = 0;
  int num_operators = 0;
  std::vector<TensorInfo> inputs, outputs;
};

struct SignatureInfo {
  std::string key;
  int subgraph = 0;
  std::vector<std::pair<std::string, int>> inputs, outputs;
};

struct OpKey {
  std::string name;  // builtin name or custom op name
  bool custom = false;
  int code = 0;
  int version = 1;
  bool operator<(const OpKey& o) const {
    return std::tie(name, custom, version) < std::tie(o.name, o.custom, o.version);
  }
};

struct OpStat {
  int count = 0;
  bool supported = true;
  std::string reason;
};

struct DelegateKernel {
  int node = 0;
  std::string name;
  std::vector<int64_t> nodes;
};

struct CpuNode {
  int node = 0;
  std::string op;
};

struct SubgraphPlan {
  std::vector<DelegateKernel> kernels;
  std::vector<CpuNode> cpu_nodes;
};

struct Preview {
  bool requested = false;
  std::string delegate;
  bool applied = false;
  std::vector<SubgraphPlan> subgraphs;  // in the order the runtime offered them
  std::vector<std::string> messages;
};

struct Report {
  std::string path;
  size_t size = 0;
  uint32_t version = 0;
  std::string description;
  std::vector<SubgraphInfo> subgraphs;
  std::vector<SignatureInfo> signatures;
  std::map<OpKey, OpStat> ops;
  Preview preview;
};

// Fills the report's version, description, subgraphs, signatures and
// operators (with whether this build has their kernels) from a verified model.
void DescribeModel(const tflite::Model* model, Report* report);

// Creates an interpreter with `chosen` and a probe delegate after it, and
// records the resulting partition and the messages in `preview`.
bool RunPreview(TfLiteModel* model, const tflite_c_tools::ProvidedDelegate& chosen,
                const tflite_c_tools::ToolParams& params, Preview* preview);

void PrintText(const Report& r);
void PrintJson(const Report& r);

}  // namespace tflite_c_inspector

#endif  // TFLITE_C_TOOLS_MODEL_INSPECTOR_INSPECTION_H_
