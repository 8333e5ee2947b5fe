// Turns a verified Model plus an OpResolver into a ready-to-allocate
// Interpreter: every subgraph's tensors and nodes, signatures, metadata.
#ifndef TFLITE_C_SRC_CORE_INTERPRETER_BUILDER_H_
#define TFLITE_C_SRC_CORE_INTERPRETER_BUILDER_H_

#include <memory>

#include "src/core/error_reporter.h"
#include "src/core/interpreter.h"
#include "src/core/model.h"
#include "src/core/op_resolver.h"

namespace tflite_c {

// Returns kTfLiteUnresolvedOps when a builtin op (code, version) has no
// kernel in `resolver`; unresolved custom ops get a placeholder kernel that
// fails at AllocateTensors (so a delegate may still claim them), as upstream.
// On any failure *out stays empty and the reason went to `reporter`.
TfLiteStatus BuildInterpreter(std::shared_ptr<const Model> model, const OpResolver& resolver,
                              ErrorReporter* reporter, std::unique_ptr<Interpreter>* out);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_INTERPRETER_BUILDER_H_
