// PrintInterpreterState: a human-readable dump of every subgraph.
#include "tensorflow/lite/optional_debug_tools.h"

#include <cstdio>
#include <string>
#include <vector>

#include "src/cc/cc_internal.h"
#include "src/core/interpreter.h"
#include "src/core/op_resolver.h"
#include "src/core/subgraph.h"

namespace tflite {
namespace {

const char* AllocationTypeName(TfLiteAllocationType type) {
  switch (type) {
    case kTfLiteMemNone: return "kTfLiteMemNone";
    case kTfLiteMmapRo: return "kTfLiteMmapRo";
    case kTfLiteArenaRw: return "kTfLiteArenaRw";
    case kTfLiteArenaRwPersistent: return "kTfLiteArenaRwPersistent";
    case kTfLiteDynamic: return "kTfLiteDynamic";
    case kTfLitePersistentRo: return "kTfLitePersistentRo";
    case kTfLiteCustom: return "kTfLiteCustom";
    case kTfLiteVariantObject: return "kTfLiteVariantObject";
    case kTfLiteNonCpu: return "kTfLiteNonCpu";
  }
  return "(unknown)";
}

// `text` cut to `width` characters ("..." marks a cut), or "(null)".
std::string Fit(const char* text, int width) {
  std::string s = text != nullptr ? text : "(null)";
  if (width > 3 && static_cast<int>(s.size()) > width) s = s.substr(0, width - 3) + "...";
  return s;
}

std::string IntList(const int* data, int size) {
  std::string s = "[";
  for (int i = 0; i < size; ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(data[i]);
  }
  return s + "]";
}

std::string IntList(const std::vector<int>& v) {
  return IntList(v.data(), static_cast<int>(v.size()));
}

std::string IntList(const TfLiteIntArray* a) {
  return a == nullptr ? std::string("(null)") : IntList(a->data, a->size);
}

void PrintSubgraph(const tflite_c::Subgraph& sg, int name_width, int type_width,
                   int alloc_width) {
  std::printf("-----------Subgraph-%d has %zu tensors and %zu nodes------------\n", sg.index(),
              sg.tensors_size(), sg.nodes_size());
  std::printf("%zu Input Tensors: %s\n", sg.inputs().size(), IntList(sg.inputs()).c_str());
  std::printf("%zu Output Tensors: %s\n", sg.outputs().size(), IntList(sg.outputs()).c_str());
  std::printf("\nTensor  %-*s %-*s %-*s %-12s Shape\n", name_width, "Name", type_width, "Type",
              alloc_width, "AllocType", "Bytes");
  for (size_t i = 0; i < sg.tensors_size(); ++i) {
    const TfLiteTensor* t = sg.tensor(static_cast<int>(i));
    std::printf("Tensor %3zu %-*s %-*s %-*s %-12zu %s\n", i, name_width,
                Fit(t->name, name_width).c_str(), type_width,
                Fit(TfLiteTypeGetName(t->type), type_width).c_str(), alloc_width,
                Fit(AllocationTypeName(t->allocation_type), alloc_width).c_str(), t->bytes,
                IntList(t->dims).c_str());
  }
  std::printf("\n%zu nodes in the execution plan:\n", sg.execution_plan().size());
  for (int node_index : sg.execution_plan()) {
    const auto* nr = sg.node_and_registration(node_index);
    if (nr == nullptr) continue;
    const TfLiteNode& node = nr->first;
    const TfLiteRegistration& reg = nr->second;
    const char* op = reg.custom_name != nullptr ? reg.custom_name
                                                : tflite_c::BuiltinOperatorName(reg.builtin_code);
    std::printf("Node %3d Operator %s (builtin code %d, version %d)%s\n", node_index, op,
                reg.builtin_code, reg.version, node.delegate != nullptr ? " [delegated]" : "");
    std::printf("  %d Input Tensors: %s\n", node.inputs ? node.inputs->size : 0,
                IntList(node.inputs).c_str());
    std::printf("  %d Output Tensors: %s\n", node.outputs ? node.outputs->size : 0,
                IntList(node.outputs).c_str());
  }
  std::printf("\n");
}

}  // namespace

void PrintInterpreterState(const Interpreter* interpreter, int32_t tensor_name_display_length,
                           int32_t tensor_type_display_length,
                           int32_t alloc_type_display_length) {
  tflite_c::Interpreter* impl =
      interpreter != nullptr ? tflite_c::CcAccess::Core(*interpreter) : nullptr;
  if (impl == nullptr) {
    std::printf("Interpreter: (null)\n");
    return;
  }
  std::printf("Interpreter has %zu subgraphs.\n\n", impl->subgraphs_size());
  for (size_t i = 0; i < impl->subgraphs_size(); ++i) {
    PrintSubgraph(*impl->subgraph(static_cast<int>(i)), tensor_name_display_length,
                  tensor_type_display_length, alloc_type_display_length);
  }
  std::fflush(stdout);
}

}  // namespace tflite
