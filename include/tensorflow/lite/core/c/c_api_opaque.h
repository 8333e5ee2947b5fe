/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Accessors for the opaque types handed to custom-op kernels and delegates
 * (TfLiteOpaqueContext, TfLiteOpaqueNode, TfLiteOpaqueTensor,
 * TfLiteOpaqueDelegate). Code written against these functions never touches
 * the struct layouts of common.h and so keeps working across runtime
 * versions. Part of the TensorFlow Lite Extension APIs, versioned by
 * TfLiteExtensionApisVersion().
 *
 * Applications should include "tensorflow/lite/c/c_api_opaque.h".
 *
 * Pointer lifetimes: tensors, index arrays and names returned here are owned
 * by the runtime. Unless stated otherwise they stay valid while the graph is
 * unchanged; adding tensors, resizing, or (un)applying delegates may
 * invalidate them.
 */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_OPAQUE_H_
#define TENSORFLOW_LITE_CORE_C_C_API_OPAQUE_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* common.h first: see the note in c_api_experimental.h. */
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/core/c/operator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===== TfLiteOpaqueTensor ================================================= */

/** Element type. */
TFL_CAPI_EXPORT extern TfLiteType TfLiteOpaqueTensorType(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Rank, or -1 if the tensor has no shape set. */
TFL_CAPI_EXPORT extern int32_t TfLiteOpaqueTensorNumDims(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Extent of dimension `dim_index` (0 <= dim_index < rank). */
TFL_CAPI_EXPORT extern int32_t TfLiteOpaqueTensorDim(
    const TfLiteOpaqueTensor* opaque_tensor, int32_t dim_index);

/** Stores in `*num_dims` the rank of the tensor's shape signature (the model
 * shape where unknown extents are -1), or -1 if it has no signature.
 * Returns kTfLiteOk when `*num_dims` was written, an error otherwise. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueTensorGetNumDimsSignature(
    const TfLiteOpaqueTensor* opaque_tensor, int32_t* num_dims);

/** Stores in `*dim_length` the signature extent of dimension `dim_index`
 * (-1 if unknown). Returns kTfLiteOk when written, an error otherwise. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueTensorGetDimSignature(
    const TfLiteOpaqueTensor* opaque_tensor, int32_t dim_index,
    int32_t* dim_length);

/** Non-zero if the tensor is a variable (state) tensor, zero otherwise. */
TFL_CAPI_EXPORT extern int TfLiteOpaqueTensorIsVariable(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Size of the tensor's data in bytes. */
TFL_CAPI_EXPORT extern size_t TfLiteOpaqueTensorByteSize(
    const TfLiteOpaqueTensor* opaque_tensor);

/** The tensor's data buffer (NULL if unallocated, or if `opaque_tensor` is
 * NULL). */
TFL_CAPI_EXPORT extern void* TfLiteOpaqueTensorData(
    const TfLiteOpaqueTensor* opaque_tensor);

/** How the tensor's memory is managed (arena, mmapped, dynamic, ...). */
TFL_CAPI_EXPORT extern TfLiteAllocationType TfLiteOpaqueTensorGetAllocationType(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Which allocator provides the tensor's data. */
TFL_CAPI_EXPORT extern TfLiteAllocationStrategy
TfLiteOpaqueTensorGetAllocationStrategy(const TfLiteOpaqueTensor* t);

/** How stable the data buffer address is across runs. */
TFL_CAPI_EXPORT extern TfLiteRunStability
TfLiteOpaqueTensorGetBufferAddressStability(const TfLiteOpaqueTensor* t);

/** How stable the data values are across runs. */
TFL_CAPI_EXPORT extern TfLiteRunStability TfLiteOpaqueTensorGetDataStability(
    const TfLiteOpaqueTensor* t);

/** The step at which the tensor's data becomes known. */
TFL_CAPI_EXPORT extern TfLiteRunStep TfLiteOpaqueTensorGetDataKnownStep(
    const TfLiteOpaqueTensor* t);

/** The step at which the tensor's shape becomes known. */
TFL_CAPI_EXPORT extern TfLiteRunStep TfLiteOpaqueTensorGetShapeKnownStep(
    const TfLiteOpaqueTensor* t);

/** NUL-terminated tensor name (may be NULL for unnamed tensors). */
TFL_CAPI_EXPORT extern const char* TfLiteOpaqueTensorName(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Full quantization description, returned by value; any pointed-to
 * parameter arrays remain owned by the tensor. */
TFL_CAPI_EXPORT extern TfLiteQuantization TfLiteOpaqueTensorGetQuantization(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Per-tensor affine quantization parameters (scale, zero_point). */
TFL_CAPI_EXPORT extern TfLiteQuantizationParams
TfLiteOpaqueTensorGetQuantizationParams(
    const TfLiteOpaqueTensor* opaque_tensor);

/** Copies `input_data_size` bytes into the tensor; fails (kTfLiteError)
 * unless the size equals TfLiteOpaqueTensorByteSize(). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueTensorCopyFromBuffer(
    TfLiteOpaqueTensor* opaque_tensor, const void* input_data,
    size_t input_data_size);

/** Copies the tensor's bytes out; fails (kTfLiteError) unless
 * `output_data_size` equals TfLiteOpaqueTensorByteSize(). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueTensorCopyToBuffer(
    const TfLiteOpaqueTensor* opaque_tensor, void* output_data,
    size_t output_data_size);

/** Number of strings in a kTfLiteString tensor, or -1 on failure. */
TFL_CAPI_EXPORT int TfLiteOpaqueTensorGetStringCount(
    const TfLiteOpaqueTensor* tensor);

/** Points `*str` at string number `index` (0 <= index < string count) and
 * stores its length in `*len`. The bytes are not copied, are owned by the
 * tensor and are NOT NUL-terminated. On any status other than kTfLiteOk the
 * outputs are unspecified. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueTensorGetString(
    const TfLiteOpaqueTensor* tensor, int index, const char** str, int* len);

/** Replaces the tensor's contents (previous data is freed) with copies of
 * the `str_array_len` strings in `str_array`, the i-th being exactly
 * `str_n_len[i]` bytes long (embedded NULs allowed; no terminator needed).
 * The tensor is reshaped to a 1-D tensor of str_array_len strings. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueTensorWriteStrings(
    TfLiteOpaqueTensor* tensor, const char* const* str_array, int str_array_len,
    const int* str_n_len);

/** Replaces the tensor's contents with a copy of the single `len`-byte
 * string `str` (same as WriteStrings with one element). */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueTensorWriteString(
    TfLiteOpaqueTensor* tensor, const char* str, int len);

/* ----- Tensor builder (for TfLiteOpaqueContextAddTensor) ----------------- */

/** Collects the properties of a tensor to be added to a graph. */
typedef struct TfLiteOpaqueTensorBuilder TfLiteOpaqueTensorBuilder;

/** New builder; the caller owns it (TfLiteOpaqueTensorBuilderDelete()). */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderCreate(
    void);

/** Releases a builder. */
TFL_CAPI_EXPORT void TfLiteOpaqueTensorBuilderDelete(
    TfLiteOpaqueTensorBuilder* builder);

/** Sets the element type. Returns `builder` (for chaining). */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetType(
    TfLiteOpaqueTensorBuilder* builder, TfLiteType type);

/** Sets the raw data pointer (not copied). Returns `builder`. */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetData(
    TfLiteOpaqueTensorBuilder* builder, void* data);

/** Sets the allocation type; only kTfLiteDynamic, kTfLiteArenaRw and
 * kTfLiteArenaRwPersistent are accepted by TfLiteOpaqueContextAddTensor()
 * (anything else makes it fail). Returns `builder`. */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder*
TfLiteOpaqueTensorBuilderSetAllocationType(TfLiteOpaqueTensorBuilder* builder,
                                           TfLiteAllocationType allocation_type);

/** Sets per-tensor quantization parameters. Returns `builder`. */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder*
TfLiteOpaqueTensorBuilderSetQuantizationParams(
    TfLiteOpaqueTensorBuilder* builder, TfLiteQuantizationParams params);

/** Sets the full quantization description. Returns `builder`. */
TFL_CAPI_EXPORT TfLiteOpaqueTensorBuilder*
TfLiteOpaqueTensorBuilderSetQuantization(TfLiteOpaqueTensorBuilder* builder,
                                         TfLiteQuantization quantization);

/** Switches a (non-NULL) tensor to kTfLiteDynamic allocation; no effect if it
 * already is dynamic. */
TFL_CAPI_EXPORT void TfLiteOpaqueTensorSetAllocationTypeToDynamic(
    TfLiteOpaqueTensor* tensor);

/** Marks a (non-NULL) tensor's allocation as kTfLiteNonCpu, i.e. its data
 * lives in a non-CPU hardware buffer. Experimental. */
TFL_CAPI_EXPORT void TfLiteOpaqueTensorSetNonCpuAllocation(
    TfLiteOpaqueTensor* tensor);

/* ===== TfLiteOpaqueNode =================================================== */

/** The node's `index`-th input tensor (NULL if that input is optional and
 * absent, or the index is out of range). */
TFL_CAPI_EXPORT extern const TfLiteOpaqueTensor* TfLiteOpaqueNodeGetInput(
    const TfLiteOpaqueContext* opaque_context,
    const TfLiteOpaqueNode* opaque_node, int index);

/** The node's `index`-th output tensor (NULL if absent or out of range). */
TFL_CAPI_EXPORT extern TfLiteOpaqueTensor* TfLiteOpaqueNodeGetOutput(
    TfLiteOpaqueContext* opaque_context, const TfLiteOpaqueNode* opaque_node,
    int index);

/** Number of inputs of the node. */
TFL_CAPI_EXPORT int TfLiteOpaqueNodeNumberOfInputs(
    const TfLiteOpaqueNode* opaque_node);

/** Number of outputs of the node. */
TFL_CAPI_EXPORT int TfLiteOpaqueNodeNumberOfOutputs(
    const TfLiteOpaqueNode* opaque_node);

/** The node's user data: whatever the operator's init callback returned. */
TFL_CAPI_EXPORT extern void* TfLiteOpaqueNodeGetUserData(
    const TfLiteOpaqueNode* opaque_node);

/** The node's parsed builtin parameters (a struct from builtin_op_data.h),
 * or NULL. Valid for the node's lifetime. */
TFL_CAPI_EXPORT extern void* TfLiteOpaqueNodeGetBuiltinData(
    const TfLiteOpaqueNode* opaque_node);

/** Points `*init_data` at the node's custom options bytes and stores their
 * size in `*size`. Valid for the node's lifetime. Outputs are unspecified
 * unless kTfLiteOk is returned. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueNodeGetCustomInitialData(
    const TfLiteOpaqueNode* opaque_node, const void** init_data, int* size);

/** Points `*inputs` at the node's input tensor indices and stores their
 * count in `*num_inputs` (-1 entries mark absent optional inputs). Outputs
 * are unspecified unless kTfLiteOk is returned. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueNodeInputs(
    const TfLiteOpaqueNode* opaque_node, const int** inputs, int* num_inputs);

/** Like TfLiteOpaqueNodeInputs(), for the node's outputs. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueNodeOutputs(
    const TfLiteOpaqueNode* opaque_node, const int** outputs, int* num_outputs);

/** Replaces the node's list of temporary (scratch) tensor indices with a
 * copy of `temporaries[0..num_temporaries)`. The tensors themselves must
 * have been added to the graph beforehand. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueNodeSetTemporaries(
    TfLiteOpaqueNode* opaque_node, const int* temporaries, int num_temporaries);

/** Like TfLiteOpaqueNodeInputs(), for the node's temporary tensors. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueNodeTemporaries(const TfLiteOpaqueNode* opaque_node,
                                         const int** temporaries,
                                         int* num_temporaries);

/** Global tensor index of the node's `index_of_input`-th input, or -1 if
 * `index_of_input` is outside [0, number of inputs). */
TFL_CAPI_EXPORT
int TfLiteOpaqueNodeGetInputTensorIndex(const TfLiteOpaqueNode* opaque_node,
                                        int index_of_input);

/** Global tensor index of the node's `index_of_output`-th output, or -1 if
 * `index_of_output` is outside [0, number of outputs). */
TFL_CAPI_EXPORT
int TfLiteOpaqueNodeGetOutputTensorIndex(const TfLiteOpaqueNode* opaque_node,
                                         int index_of_output);

/* ===== TfLiteOpaqueContext ================================================ */

/** Points `*execution_plan` at the node indices of the subgraph in execution
 * order (runtime-owned). Unspecified unless kTfLiteOk is returned. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueContextGetExecutionPlan(
    TfLiteOpaqueContext* opaque_context, TfLiteIntArray** execution_plan);

/** Stores in `*external_context` the external context of kind `type` (e.g.
 * a shared CPU backend), or NULL if none is set. Unspecified unless kTfLiteOk
 * is returned. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOpaqueContextGetExternalContext(
    TfLiteOpaqueContext* opaque_context, void** external_context,
    TfLiteExternalContextType type);

/** Loads the node with index `node_index` (e.g. from the execution plan) and
 * its operator into `*node` / `*registration_external`. Meant to be called
 * from delegate callbacks. The pointers stay valid until delegates are
 * (un)applied or inputs are resized. Unspecified unless kTfLiteOk is
 * returned. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteOpaqueContextGetNodeAndRegistration(
    struct TfLiteOpaqueContext* opaque_context, int node_index,
    TfLiteOpaqueNode** node, TfLiteOperator** registration_external);

/** Replaces the nodes listed in `nodes_to_replace` with delegate kernels:
 * each maximal connected subset becomes one node run by
 * `registration_external` on behalf of `opaque_delegate`. The runtime takes
 * ownership of `registration_external` (freed with the context); the caller
 * keeps ownership of `nodes_to_replace` and `opaque_delegate`. */
TFL_CAPI_EXPORT TfLiteStatus
TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(
    struct TfLiteOpaqueContext* opaque_context,
    TfLiteOperator* registration_external,
    const TfLiteIntArray* nodes_to_replace,
    TfLiteOpaqueDelegate* opaque_delegate);

/** Mutable tensor with global index `index` (0 <= index < tensor count).
 * Runtime-owned; invalidated when tensors are added. */
TFL_CAPI_EXPORT
TfLiteOpaqueTensor* TfLiteOpaqueContextGetOpaqueTensor(
    const TfLiteOpaqueContext* opaque_context, int index);

/** Points `*inputs` at the subgraph's input tensor indices and stores their
 * count in `*num_inputs`. Invalidated if the subgraph's inputs change. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetInputs(
    const struct TfLiteOpaqueContext* opaque_context, const int** inputs,
    int* num_inputs);

/** Like TfLiteOpaqueContextGetInputs(), for the subgraph's outputs. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetOutputs(
    const struct TfLiteOpaqueContext* opaque_context, const int** outputs,
    int* num_outputs);

/** Like TfLiteOpaqueContextGetInputs(), for the subgraph's variables. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetVariables(
    const struct TfLiteOpaqueContext* opaque_context, const int** variables,
    int* num_variables);

/** Number of nodes in the subgraph. */
TFL_CAPI_EXPORT
size_t TfLiteOpaqueContextGetNumNodes(
    const struct TfLiteOpaqueContext* opaque_context);

/** Number of tensors in the subgraph. */
TFL_CAPI_EXPORT
size_t TfLiteOpaqueContextGetNumTensors(
    const struct TfLiteOpaqueContext* opaque_context);

/** Name of the subgraph (runtime-owned). */
TFL_CAPI_EXPORT
const char* TfLiteOpaqueContextGetName(
    const struct TfLiteOpaqueContext* opaque_context);

/** Reshapes `tensor` to `new_size`. The runtime takes ownership of
 * `new_size` whether or not the call succeeds. On failure the tensor is in
 * an unspecified state. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextResizeTensor(TfLiteOpaqueContext* context,
                                             TfLiteOpaqueTensor* tensor,
                                             TfLiteIntArray* new_size);

/** Stores in `*acquired_opaque_context` the context of subgraph
 * `subgraph_index`, switched to its delegate view. Returns kTfLiteError for
 * an invalid index. Pair every call with
 * TfLiteOpaqueContextReleaseSubgraphContext(). */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextAcquireSubgraphContext(
    struct TfLiteOpaqueContext* opaque_context, int subgraph_index,
    TfLiteOpaqueContext** acquired_opaque_context);

/** Undoes TfLiteOpaqueContextAcquireSubgraphContext() for `subgraph_index`,
 * switching that subgraph back to its kernel context. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextReleaseSubgraphContext(
    struct TfLiteOpaqueContext* opaque_context, int subgraph_index);

/** Marks subgraph `subgraph_index` as handled by the calling delegate (e.g.
 * the body/condition of a delegated WHILE), so the runtime does not offer it
 * to delegates itself. The delegate is responsible for the correctness of
 * that decision. Returns an error for an invalid index. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(
    TfLiteOpaqueContext* opaque_context, int subgraph_index);

/** Describes where `node`'s custom options lie in the model file:
 * `*fd` gets the model file's descriptor, `*custom_initial_data_offset_in_file`
 * and `*custom_initial_data_size` the byte range (both -1 if the node has no
 * custom options). Returns kTfLiteOk iff a file descriptor is available
 * (not the case, e.g., for models built from a memory buffer); kTfLiteOk
 * does not imply the node has custom options. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetNodeInitDataMmapInfo(
    const TfLiteOpaqueContext* context, const TfLiteOpaqueNode* node, int* fd,
    int64_t* custom_initial_data_offset_in_file,
    int64_t* custom_initial_data_size);

/** Adds a tensor configured by `builder` to the subgraph (existing tensors
 * are kept). If `new_tensor_index` is non-NULL the new index is stored
 * there. Returns kTfLiteError on failure. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextAddTensor(TfLiteOpaqueContext* context,
                                          TfLiteOpaqueTensorBuilder* builder,
                                          int* new_tensor_index);

/** Stores in `*bytes` the size of one element of `type`; kTfLiteError for
 * types without a fixed size. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetSizeOfType(TfLiteOpaqueContext* context,
                                              TfLiteType type, size_t* bytes);

/** Looks up the model metadata entry called `name`; on success points `*ptr`
 * at its buffer and stores its size in `*bytes` (valid for the
 * interpreter's lifetime). Returns an error if there is no such entry. */
TFL_CAPI_EXPORT
TfLiteStatus TfLiteOpaqueContextGetMetadata(TfLiteOpaqueContext* context,
                                            const char* name, const char** ptr,
                                            size_t* bytes);

/** Reports a printf-style error message through the context's error
 * reporter. Prefer the TF_LITE_OPAQUE_* macros below. */
TFL_CAPI_EXPORT
void TfLiteOpaqueContextReportError(struct TfLiteOpaqueContext* opaque_context,
                                    const char* format, ...);

/** TfLiteOpaqueContextReportError() taking a va_list, for forwarding from
 * the caller's own variadic functions. */
TFL_CAPI_EXPORT
void TfLiteOpaqueContextReportErrorVa(
    struct TfLiteOpaqueContext* opaque_context, const char* format,
    va_list vlist);

/* ----- Error-checking macros for kernels --------------------------------
 * Kernels should log through these so that message strings disappear when
 * TF_LITE_STRIP_ERROR_STRINGS is defined. The ENSURE macros return
 * kTfLiteError from the calling function when the check fails; they may
 * evaluate their arguments more than once. Each can be pre-defined by the
 * user to override it. */

#ifndef TF_LITE_STRIP_ERROR_STRINGS

#ifndef TF_LITE_OPAQUE_KERNEL_LOG
#define TF_LITE_OPAQUE_KERNEL_LOG(opaque_context, ...)           \
  do {                                                           \
    TfLiteOpaqueContextReportError((opaque_context), __VA_ARGS__); \
  } while (0)
#endif

#ifndef TF_LITE_OPAQUE_MAYBE_KERNEL_LOG
#define TF_LITE_OPAQUE_MAYBE_KERNEL_LOG(opaque_context, ...)         \
  do {                                                               \
    if ((opaque_context) != NULL) {                                  \
      TfLiteOpaqueContextReportError((opaque_context), __VA_ARGS__); \
    }                                                                \
  } while (0)
#endif

#else /* TF_LITE_STRIP_ERROR_STRINGS */

#ifndef ARGS_UNUSED
#define ARGS_UNUSED(...) (void)sizeof(#__VA_ARGS__)
#endif
#ifndef TF_LITE_OPAQUE_KERNEL_LOG
#define TF_LITE_OPAQUE_KERNEL_LOG(opaque_context, ...) ARGS_UNUSED(__VA_ARGS__)
#endif
#ifndef TF_LITE_OPAQUE_MAYBE_KERNEL_LOG
#define TF_LITE_OPAQUE_MAYBE_KERNEL_LOG(opaque_context, ...) \
  ARGS_UNUSED(__VA_ARGS__)
#endif

#endif /* TF_LITE_STRIP_ERROR_STRINGS */

/** Fails with message `msg` (a string literal) unless `value` holds. */
#ifndef TF_LITE_OPAQUE_ENSURE_MSG
#define TF_LITE_OPAQUE_ENSURE_MSG(opaque_context, value, msg)        \
  do {                                                               \
    if (!(value)) {                                                  \
      TF_LITE_OPAQUE_KERNEL_LOG((opaque_context), __FILE__ " " msg); \
      return kTfLiteError;                                           \
    }                                                                \
  } while (0)
#endif

/** Fails, reporting file, line and the expression text, unless `a` holds. */
#ifndef TF_LITE_OPAQUE_ENSURE
#define TF_LITE_OPAQUE_ENSURE(opaque_context, a)                           \
  do {                                                                     \
    if (!(a)) {                                                            \
      TF_LITE_OPAQUE_KERNEL_LOG((opaque_context), "%s:%d: %s was not true.", \
                                __FILE__, __LINE__, #a);                   \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)
#endif

/** Fails unless a == b; both are printed with %d. Use
 * TF_LITE_OPAQUE_ENSURE_TYPES_EQ for TfLiteType values. */
#ifndef TF_LITE_OPAQUE_ENSURE_EQ
#define TF_LITE_OPAQUE_ENSURE_EQ(opaque_context, a, b)                  \
  do {                                                                  \
    if ((a) != (b)) {                                                   \
      TF_LITE_OPAQUE_KERNEL_LOG((opaque_context),                       \
                                "%s:%d: %s != %s (%d != %d)", __FILE__, \
                                __LINE__, #a, #b, (a), (b));            \
      return kTfLiteError;                                              \
    }                                                                   \
  } while (0)
#endif

/** Fails unless the TfLiteType values a and b are equal; prints type names. */
#ifndef TF_LITE_OPAQUE_ENSURE_TYPES_EQ
#define TF_LITE_OPAQUE_ENSURE_TYPES_EQ(opaque_context, a, b)                  \
  do {                                                                        \
    if ((a) != (b)) {                                                         \
      TF_LITE_OPAQUE_KERNEL_LOG((opaque_context), "%s:%d: %s != %s (%s != %s)", \
                                __FILE__, __LINE__, #a, #b,                   \
                                TfLiteTypeGetName(a), TfLiteTypeGetName(b));  \
      return kTfLiteError;                                                    \
    }                                                                         \
  } while (0)
#endif

/** Fails unless |a - b| <= epsilon (compared as double). */
#ifndef TF_LITE_OPAQUE_ENSURE_NEAR
#define TF_LITE_OPAQUE_ENSURE_NEAR(opaque_context, a, b, epsilon)          \
  do {                                                                     \
    double tflite_opaque_delta_ = ((a) > (b)) ? ((a) - (b)) : ((b) - (a)); \
    if (tflite_opaque_delta_ > (epsilon)) {                                \
      TF_LITE_OPAQUE_KERNEL_LOG((opaque_context),                          \
                                "%s:%d: %s not near %s (%f != %f)",        \
                                __FILE__, __LINE__, #a, #b, (double)(a),   \
                                (double)(b));                              \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)
#endif

/* ===== TfLiteOpaqueDelegate =============================================== */

#ifndef TF_LITE_STATIC_MEMORY
/** Creates a delegate whose behaviour is given by the callbacks and data in
 * `opaque_delegate_builder` (the struct is copied; what its fields point to
 * is not and must outlive the delegate and every interpreter/options it is
 * added to). Returns NULL if `opaque_delegate_builder` is NULL. Release with
 * TfLiteOpaqueDelegateDelete(). */
TFL_CAPI_EXPORT TfLiteOpaqueDelegate* TfLiteOpaqueDelegateCreate(
    const TfLiteOpaqueDelegateBuilder* opaque_delegate_builder);

/** Releases a delegate made by TfLiteOpaqueDelegateCreate(). NULL is a
 * no-op. */
TFL_CAPI_EXPORT void TfLiteOpaqueDelegateDelete(TfLiteOpaqueDelegate* delegate);
#endif /* TF_LITE_STATIC_MEMORY */

/** The `data` pointer of the builder the delegate was created from; for a
 * delegate not made from a builder, its own data_ field. NULL if `delegate`
 * is NULL or no data was set. */
TFL_CAPI_EXPORT void* TfLiteOpaqueDelegateGetData(
    const TfLiteOpaqueDelegate* delegate);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_OPAQUE_H_ */
