// Internal to the XNNPACK delegate: resource variables
// (TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS). Which VAR_HANDLE /
// READ_VARIABLE / ASSIGN_VARIABLE nodes the delegate takes, and how a
// partition defines them. The variables' state is kept by the Delegate
// (delegate_internal.h); Kernel binds it at Invoke.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_VARIABLES_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_VARIABLES_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <xnnpack.h>

#include "src/delegates/xnnpack/delegate_internal.h"
#include "src/delegates/xnnpack/op_builder.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// VAR_HANDLE, READ_VARIABLE or ASSIGN_VARIABLE.
bool IsVariableOp(int builtin_code);

// Defines a claimed VAR_HANDLE (nothing), READ_VARIABLE (a copy from the
// variable's latest value in this partition, else from its buffer) or
// ASSIGN_VARIABLE (a copy into a new value that becomes the latest).
// `next_external` is the next free external value id; `current` maps each
// variable to its latest value in this partition.
TfLiteStatus DefineVariableOp(TfLiteContext* context, const ResourceMap& resources, Kernel* kernel,
                              xnn_subgraph_t subgraph, int builtin_code, const TfLiteNode* node,
                              const std::vector<uint32_t>& ids, uint32_t* next_external,
                              std::unordered_map<const Delegate::Variable*, uint32_t>* current);

// With FLAG_VARIABLE_OPERATORS: the VAR_HANDLE / READ_VARIABLE /
// ASSIGN_VARIABLE nodes the delegate takes. A handle is taken with all its
// reads and assigns or not at all: its resource tensor must be read by
// those nodes only, and they must agree on one static type and shape (the
// one this delegate already holds for the variable, if any). The decision is
// per variable (container, shared_name) for the whole model: the other
// subgraphs' uses are looked at too (through AcquireSubgraphContext), and a
// variable any of them cannot delegate stays on the builtin kernels in all
// of them. Fills `claimed` and `resources` (resource tensor -> the
// delegate's variable).
TfLiteStatus ClaimVariables(TfLiteContext* context, Delegate* delegate,
                            const std::vector<Entry>& entries, const OpBuilder& checker,
                            const StaticMap& statics, std::vector<int>* claimed,
                            ResourceMap* resources);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_VARIABLES_H_
