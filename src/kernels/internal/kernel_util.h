// Helpers every builtin kernel uses. Kernels see nothing but the public C ABI
// (TfLiteContext / TfLiteNode / TfLiteTensor), so these helpers work on those
// structs only and never reach into the runtime.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_KERNEL_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_KERNEL_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// ---- owning TfLiteIntArray --------------------------------------------------

struct IntArrayDeleter {
  void operator()(TfLiteIntArray* a) const { TfLiteIntArrayFree(a); }
};
using IntArrayPtr = std::unique_ptr<TfLiteIntArray, IntArrayDeleter>;

IntArrayPtr MakeIntArray(std::initializer_list<int> values);
IntArrayPtr MakeIntArray(const int* values, int size);

// ---- node inputs and outputs ------------------------------------------------

inline int NumInputs(const TfLiteNode* node) { return node->inputs->size; }
inline int NumOutputs(const TfLiteNode* node) { return node->outputs->size; }

// Checks that the node has between `min_inputs` and `max_inputs` inputs and
// exactly `outputs` outputs, reporting the counts otherwise. Then checks the
// quantization parameters of every input and output (CheckNodeQuantization,
// quant_validate.h), so that every kernel starting its Prepare here refuses
// NaN, negative or zero scales and out-of-range zero points alike.
TfLiteStatus CheckArity(TfLiteContext* context, const TfLiteNode* node, const char* op,
                        int min_inputs, int max_inputs, int outputs);

// Tensor behind input `i`, or nullptr when `i` is past the end or the slot is
// an omitted optional input (tensor index kTfLiteOptionalTensor).
const TfLiteTensor* GetOptionalInput(const TfLiteContext* context, const TfLiteNode* node, int i);

// Like GetOptionalInput, but a missing tensor is an error reported through
// `context` (naming the op), so Prepare can simply propagate the status.
TfLiteStatus GetInput(TfLiteContext* context, const TfLiteNode* node, int i, const char* op,
                      const TfLiteTensor** tensor);
TfLiteStatus GetOutput(TfLiteContext* context, const TfLiteNode* node, int i, const char* op,
                       TfLiteTensor** tensor);

// GetInput for inputs 0..num_inputs-1 into inputs[], then GetOutput(0).
TfLiteStatus GetInputsAndOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                                int num_inputs, const TfLiteTensor** inputs,
                                TfLiteTensor** output);

// The start of Prepare for a node with exactly one input and one output:
// CheckArity, then GetInput(0) and GetOutput(0).
TfLiteStatus GetOnlyInputOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                                const TfLiteTensor** input, TfLiteTensor** output);

// Eval-time accessors: Prepare has already validated the indices.
inline const TfLiteTensor* InputAt(const TfLiteContext* context, const TfLiteNode* node, int i) {
  return GetOptionalInput(context, node, i);
}
inline TfLiteTensor* OutputAt(TfLiteContext* context, const TfLiteNode* node, int i) {
  return &context->tensors[node->outputs->data[i]];
}

// ---- builtin parameters -------------------------------------------------------

// Checks that the node carries its builtin parameter struct (builtin_data).
// Loading a model gives every operator that has options its struct: the
// parser fills upstream's defaults when the options table is absent, or fails
// the load for the few operators that require options (src/core/builtin_data.h).
// So this only fails for a node built by hand; Prepare calls it before reading
// the struct, and Eval may then dereference builtin_data freely.
TfLiteStatus RequireParams(TfLiteContext* context, const TfLiteNode* node, const char* op);

// ---- shapes -------------------------------------------------------------------

inline int NumDims(const TfLiteTensor* t) { return t->dims->size; }
inline int Dim(const TfLiteTensor* t, int i) { return t->dims->data[i]; }

// Product of the dimensions; 1 for a scalar (rank 0).
int64_t NumElements(const TfLiteIntArray* dims);
inline int64_t NumElements(const TfLiteTensor* t) { return NumElements(t->dims); }

bool SameShape(const TfLiteIntArray* a, const TfLiteIntArray* b);

// Writes "[d0,d1,...]" into `buffer` (always NUL-terminated); returns buffer.
const char* ShapeToString(const TfLiteIntArray* dims, char* buffer, int buffer_size);

// Resizes `output` to a copy of `dims`.
TfLiteStatus ResizeOutputLike(TfLiteContext* context, TfLiteTensor* output,
                              const TfLiteIntArray* dims);
// Resizes `output` to the given dimensions.
TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output,
                          std::initializer_list<int> dims);

// ---- tensor properties --------------------------------------------------------

// Data known before Invoke and never changed by it (weights, folded constants).
inline bool IsConstantOrPersistent(const TfLiteTensor* t) {
  return t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo;
}
inline bool IsDynamic(const TfLiteTensor* t) { return t->allocation_type == kTfLiteDynamic; }

// Switches `t` to runtime-allocated memory whose size is decided in Eval.
void SetTensorToDynamic(TfLiteTensor* t);

// ---- errors ---------------------------------------------------------------------

// Reports "<op>: <what> type <TYPE> is not supported" and returns kTfLiteError.
TfLiteStatus UnsupportedType(TfLiteContext* context, const char* op, const char* what,
                             TfLiteType type);

// Unless `t` is null or of type `expected`, reports "<op>: <what> type <TYPE>
// is not supported" and returns kTfLiteError.
TfLiteStatus ExpectType(TfLiteContext* context, const char* op, const char* what,
                        const TfLiteTensor* t, TfLiteType expected);

// Reports a type mismatch between two tensors of one op and returns kTfLiteError.
TfLiteStatus TypeMismatch(TfLiteContext* context, const char* op, const char* what_a, TfLiteType a,
                          const char* what_b, TfLiteType b);

// ---- registration ---------------------------------------------------------------

TfLiteRegistration MakeRegistration(void* (*init)(TfLiteContext*, const char*, size_t),
                                    void (*free)(TfLiteContext*, void*),
                                    TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
                                    TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*));

// init/free for kernels whose per-node state is a default-constructible
// struct `OpData`.
template <typename OpData>
void* InitOpData(TfLiteContext* /*context*/, const char* /*buffer*/, size_t /*length*/) {
  return new OpData();
}
template <typename OpData>
void FreeOpData(TfLiteContext* /*context*/, void* data) {
  delete static_cast<OpData*>(data);
}

// The registration (made once) of a kernel whose per-node state is an OpData.
template <typename OpData, TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
          TfLiteStatus (*eval)(TfLiteContext*, TfLiteNode*)>
const TfLiteRegistration* OpDataRegistration() {
  static const TfLiteRegistration r =
      MakeRegistration(InitOpData<OpData>, FreeOpData<OpData>, prepare, eval);
  return &r;
}

// BOOL tensors are read as bytes, any non-zero byte true: a caller or a
// hostile model may store bytes other than 0 and 1, which read as C++ bool
// would be undefined behaviour. Kernels write 0 and 1.
inline const uint8_t* BoolBytes(const TfLiteTensor* t) {
  return reinterpret_cast<const uint8_t*>(t->data.raw_const);
}
inline bool BoolAt(const TfLiteTensor* t, int64_t i) { return BoolBytes(t)[i] != 0; }
// p[i], except that a bool element is read as a byte (non-zero is true), as
// BoolAt does: for kernels templated on the element type.
template <typename T>
inline T LoadElement(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return reinterpret_cast<const uint8_t*>(p)[i] != 0;
  } else {
    return p[i];
  }
}

// Threads a kernel may use: the runtime's recommendation, with "let the kernel
// decide" (-1 or 0) meaning one, as in upstream.
inline int KernelThreads(const TfLiteContext* context) {
  return context->recommended_num_threads > 1 ? context->recommended_num_threads : 1;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_KERNEL_UTIL_H_
