/*
 * tflite-c: the data structures shared by the interpreter, kernels and
 * delegates (tensors, nodes, the kernel context, registrations, delegates)
 * plus a few small helpers to create and free them.
 *
 * Applications normally include "tensorflow/lite/c/common.h", which simply
 * forwards here.
 *
 * The structs below are read and written directly by kernels and delegates
 * that were compiled against TensorFlow Lite 2.19, so the order, types and
 * names of their fields are fixed. Only append-at-the-end evolution that
 * upstream itself did is allowed.
 */
#ifndef TENSORFLOW_LITE_CORE_C_COMMON_H_
#define TENSORFLOW_LITE_CORE_C_COMMON_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/core/c/c_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * External contexts: per-interpreter resources (thread pools, ...) that
 * kernels can share.
 * ---------------------------------------------------------------------- */
typedef enum TfLiteExternalContextType {
  kTfLiteEigenContext = 0,
  kTfLiteGemmLowpContext = 1,
  kTfLiteEdgeTpuContext = 2,
  kTfLiteCpuBackendContext = 3,
  kTfLiteLiteRtBufferContext = 4,
  kTfLiteMaxExternalContexts = 5
} TfLiteExternalContextType;

struct TfLiteContext;
struct TfLiteDelegate;
struct TfLiteRegistration;
struct TfLiteOpaqueDelegateBuilder;
struct TfLiteAsyncKernel;

/* Base "class" of an external context; concrete contexts embed this as
 * their first member. Refresh is called when interpreter settings (e.g. the
 * thread count) change. */
typedef struct TfLiteExternalContext {
  TfLiteExternalContextType type;
  TfLiteStatus (*Refresh)(struct TfLiteContext* context);
} TfLiteExternalContext;

/* Tensor index meaning "this optional input is absent". */
#define kTfLiteOptionalTensor (-1)

/* ------------------------------------------------------------------------
 * Variable-length arrays. They are allocated as one block: a header int
 * followed by `size` elements.
 * ---------------------------------------------------------------------- */
#if defined(__GNUC__) && defined(__cplusplus)
/* Flexible array members are a C99 feature that C++ compilers accept as an
 * extension; keep -pedantic builds of C++ users quiet. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif

typedef struct TfLiteIntArray {
  int size;
#if defined(_MSC_VER)
  int data[1];
#else
  int data[];
#endif
} TfLiteIntArray;

typedef struct TfLiteFloatArray {
  int size;
#if defined(_MSC_VER)
  float data[1];
#else
  float data[];
#endif
} TfLiteFloatArray;

#if defined(__GNUC__) && defined(__cplusplus)
#pragma GCC diagnostic pop
#endif

/* Bytes needed for a TfLiteIntArray holding `size` ints. */
TFL_CAPI_EXPORT size_t TfLiteIntArrayGetSizeInBytes(int size);

#ifndef TF_LITE_STATIC_MEMORY
/* malloc()s an int array of `size` elements (contents uninitialized).
 * Returns NULL on a negative/oversized request or allocation failure.
 * Release with TfLiteIntArrayFree. */
TFL_CAPI_EXPORT TfLiteIntArray* TfLiteIntArrayCreate(int size);
#endif

/* 1 if both arrays hold the same values (two NULLs are equal), else 0. */
TFL_CAPI_EXPORT int TfLiteIntArrayEqual(const TfLiteIntArray* a,
                                        const TfLiteIntArray* b);

/* 1 if `a` holds exactly the `b_size` values of `b_data`. A NULL `a` equals
 * an empty list. */
TFL_CAPI_EXPORT int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a,
                                              int b_size, const int b_data[]);

#ifndef TF_LITE_STATIC_MEMORY
/* Deep copy; NULL in gives NULL out. */
TFL_CAPI_EXPORT TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src);

/* Frees an array from TfLiteIntArrayCreate/Copy. NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteIntArrayFree(TfLiteIntArray* a);
#endif

/* Bytes needed for a TfLiteFloatArray holding `size` floats. */
TFL_CAPI_EXPORT int TfLiteFloatArrayGetSizeInBytes(int size);

#ifndef TF_LITE_STATIC_MEMORY
/* Same contracts as the int array functions above. */
TFL_CAPI_EXPORT TfLiteFloatArray* TfLiteFloatArrayCreate(int size);
TFL_CAPI_EXPORT TfLiteFloatArray* TfLiteFloatArrayCopy(
    const TfLiteFloatArray* src);
TFL_CAPI_EXPORT void TfLiteFloatArrayFree(TfLiteFloatArray* a);
#endif

/* ------------------------------------------------------------------------
 * Error reporting and checking macros for kernels. Each ENSURE macro returns
 * from the enclosing function (which must return TfLiteStatus) on failure.
 * ---------------------------------------------------------------------- */
#ifndef TF_LITE_STRIP_ERROR_STRINGS
#define TF_LITE_KERNEL_LOG(context, ...)            \
  do {                                              \
    (context)->ReportError((context), __VA_ARGS__); \
  } while (0)

#define TF_LITE_MAYBE_KERNEL_LOG(context, ...)        \
  do {                                                \
    if ((context) != NULL) {                          \
      (context)->ReportError((context), __VA_ARGS__); \
    }                                                 \
  } while (0)
#else
#define ARGS_UNUSED(...) (void)sizeof(#__VA_ARGS__)
#define TF_LITE_KERNEL_LOG(context, ...) ARGS_UNUSED(__VA_ARGS__)
#define TF_LITE_MAYBE_KERNEL_LOG(context, ...) ARGS_UNUSED(__VA_ARGS__)
#endif

/* Fail with a custom printf-style message (first variadic arg must be a
 * string literal). */
#define TF_LITE_ENSURE_MSG(context, value, ...)                \
  do {                                                         \
    if (!(value)) {                                            \
      TF_LITE_KERNEL_LOG((context), __FILE__ " " __VA_ARGS__); \
      return kTfLiteError;                                     \
    }                                                          \
  } while (0)

/* Fail (reporting file, line and the expression) unless `a` is true. */
#define TF_LITE_ENSURE(context, a)                                      \
  do {                                                                  \
    if (!(a)) {                                                         \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s was not true.", __FILE__, \
                         __LINE__, #a);                                 \
      return kTfLiteError;                                              \
    }                                                                   \
  } while (0)

/* Propagate a non-OK status. */
#define TF_LITE_ENSURE_STATUS(a)             \
  do {                                       \
    const TfLiteStatus tfl_ensure_st_ = (a); \
    if (tfl_ensure_st_ != kTfLiteOk) {       \
      return tfl_ensure_st_;                 \
    }                                        \
  } while (0)

/* Fail unless a == b. Both are printed with %d, so use it for int-like
 * values only. */
#define TF_LITE_ENSURE_EQ(context, a, b)                                   \
  do {                                                                     \
    if ((a) != (b)) {                                                      \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%d != %d)", __FILE__, \
                         __LINE__, #a, #b, (a), (b));                      \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)

/* Fail unless two TfLiteType values match (printed by name). */
#define TF_LITE_ENSURE_TYPES_EQ(context, a, b)                             \
  do {                                                                     \
    if ((a) != (b)) {                                                      \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%s != %s)", __FILE__, \
                         __LINE__, #a, #b, TfLiteTypeGetName(a),           \
                         TfLiteTypeGetName(b));                            \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)

/* Fail unless |a - b| <= epsilon. Works in both C and C++ (the comparison is
 * done in double precision). */
#define TF_LITE_ENSURE_NEAR(context, a, b, epsilon)                      \
  do {                                                                   \
    const double tfl_near_a_ = (double)(a);                              \
    const double tfl_near_b_ = (double)(b);                              \
    const double tfl_near_d_ = (tfl_near_a_ > tfl_near_b_)               \
                                   ? (tfl_near_a_ - tfl_near_b_)         \
                                   : (tfl_near_b_ - tfl_near_a_);        \
    if (tfl_near_d_ > (double)(epsilon)) {                               \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s not near %s (%f != %f)",   \
                         __FILE__, __LINE__, #a, #b, tfl_near_a_,        \
                         tfl_near_b_);                                   \
      return kTfLiteError;                                               \
    }                                                                    \
  } while (0)

/* Propagate a non-OK status (context is accepted for symmetry only). */
#define TF_LITE_ENSURE_OK(context, status)        \
  do {                                            \
    const TfLiteStatus tfl_ensure_st_ = (status); \
    if (tfl_ensure_st_ != kTfLiteOk) {            \
      return tfl_ensure_st_;                      \
    }                                             \
  } while (0)

/* Marks code the compiler may assume is never reached. */
#if defined(__GNUC__)
#define TFL_UNREACHABLE() (__builtin_unreachable())
#elif defined(_MSC_VER)
#define TFL_UNREACHABLE() (__assume(false))
#endif

/* ------------------------------------------------------------------------
 * Scalar element types without a native C equivalent.
 * ---------------------------------------------------------------------- */
typedef struct TfLiteComplex64 {
  float re, im;
} TfLiteComplex64;

typedef struct TfLiteComplex128 {
  double re, im;
} TfLiteComplex128;

/* IEEE half precision, stored as raw bits. */
typedef struct TfLiteFloat16 {
  uint16_t data;
} TfLiteFloat16;

/* bfloat16 (upper half of a float32), stored as raw bits. */
typedef struct TfLiteBFloat16 {
  uint16_t data;
} TfLiteBFloat16;

/* Upper-case name of a type, e.g. "FLOAT32"; "Unknown type" otherwise. The
 * string is static. */
TFL_CAPI_EXPORT const char* TfLiteTypeGetName(TfLiteType type);

/* ------------------------------------------------------------------------
 * Quantization.
 * ---------------------------------------------------------------------- */
#ifdef __cplusplus
typedef enum TfLiteQuantizationType : int {
#else
typedef enum TfLiteQuantizationType {
#endif
  kTfLiteNoQuantization = 0,
  /* params points to a TfLiteAffineQuantization. */
  kTfLiteAffineQuantization = 1
} TfLiteQuantizationType;

/* Quantization attached to a tensor; `params` depends on `type`. */
typedef struct TfLiteQuantization {
  TfLiteQuantizationType type;
  void* params;
} TfLiteQuantization;

/* Per-tensor or per-channel affine quantization. With one scale/zero point
 * it is per-tensor; otherwise entry i applies to index i along
 * `quantized_dimension`. */
typedef struct TfLiteAffineQuantization {
  TfLiteFloatArray* scale;
  TfLiteIntArray* zero_point;
  int32_t quantized_dimension;
} TfLiteAffineQuantization;

/* The tensor's buffer, viewable as any element type. Prefer the accessors
 * in kernel_util / c_api over touching the members directly. */
typedef union TfLitePtrUnion {
  int32_t* i32;
  uint32_t* u32;
  int64_t* i64;
  uint64_t* u64;
  float* f;
  TfLiteFloat16* f16;
  TfLiteBFloat16* bf16;
  double* f64;
  char* raw;
  const char* raw_const;
  uint8_t* uint8;
  bool* b;
  int16_t* i16;
  uint16_t* ui16;
  TfLiteComplex64* c64;
  TfLiteComplex128* c128;
  int8_t* int8;
  void* data; /* generic view, used by delegates */
} TfLitePtrUnion;

/* Who owns a tensor's memory and how long it lives:
 *  - MmapRo:            read-only, points into the (memory-mapped) model.
 *  - ArenaRw:           arena memory, valid during one Invoke.
 *  - ArenaRwPersistent: arena memory that survives across Invoke calls.
 *  - Dynamic:           malloc()ed on demand (shape known at Eval only).
 *  - PersistentRo:      malloc()ed, computed during Prepare, then constant.
 *  - Custom:            user-supplied buffer (TfLiteCustomAllocation).
 *  - VariantObject:     data points to a C++ VariantData (new/delete).
 *  - NonCpu:            lives on a device; not CPU accessible. */
typedef enum TfLiteAllocationType {
  kTfLiteMemNone = 0,
  kTfLiteMmapRo,
  kTfLiteArenaRw,
  kTfLiteArenaRwPersistent,
  kTfLiteDynamic,
  kTfLitePersistentRo,
  kTfLiteCustom,
  kTfLiteVariantObject,
  kTfLiteNonCpu
} TfLiteAllocationType;

/* How a tensor's data was obtained (see TfLiteTensorGetAllocationStrategy). */
typedef enum TfLiteAllocationStrategy {
  kTfLiteAllocationStrategyUnknown,
  kTfLiteAllocationStrategyNone,
  kTfLiteAllocationStrategyMMap,
  kTfLiteAllocationStrategyArena,
  kTfLiteAllocationStrategyMalloc,
  kTfLiteAllocationStrategyNew
} TfLiteAllocationStrategy;

/* For how long a property (address, contents) of a tensor stays fixed. */
typedef enum TfLiteRunStability {
  kTfLiteRunStabilityUnknown,
  kTfLiteRunStabilityUnstable,
  kTfLiteRunStabilitySingleRun,
  kTfLiteRunStabilityAcrossRuns
} TfLiteRunStability;

/* Phases of running a graph. */
typedef enum TfLiteRunStep {
  kTfLiteRunStepUnknown,
  kTfLiteRunStepInit,
  kTfLiteRunStepPrepare,
  kTfLiteRunStepEval
} TfLiteRunStep;

/* Delegate-owned buffer id; kTfLiteNullBufferHandle means none. */
typedef int TfLiteBufferHandle;
enum {
  kTfLiteNullBufferHandle = -1
};

/* One dimension of a sparse tensor. Dense dimensions use dense_size only;
 * CSR dimensions use the segment and index arrays. */
typedef struct TfLiteDimensionMetadata {
  TfLiteDimensionType format;
  int dense_size;
  TfLiteIntArray* array_segments;
  TfLiteIntArray* array_indices;
} TfLiteDimensionMetadata;

/* Sparsity description of a tensor (TACO-style encoding). */
typedef struct TfLiteSparsity {
  TfLiteIntArray* traversal_order;
  TfLiteIntArray* block_map;
  TfLiteDimensionMetadata* dim_metadata;
  int dim_metadata_size;
} TfLiteSparsity;

/* User-provided buffer for a tensor (see the SetCustomAllocation APIs). */
typedef struct TfLiteCustomAllocation {
  void* data;
  size_t bytes;
} TfLiteCustomAllocation;

typedef enum TfLiteCustomAllocationFlags {
  kTfLiteCustomAllocationFlagsNone = 0,
  /* Do not require the buffer to meet the default alignment. */
  kTfLiteCustomAllocationFlagsSkipAlignCheck = 1
} TfLiteCustomAllocationFlags;

/* Enumerators wider than int are a (universally supported) extension in C,
 * and standard in C++11. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
/* "No buffer identifier" marker used by the buffer-handle APIs. */
enum { kTfLiteNoBufferIdentifier = SIZE_MAX };
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#if !defined(TFLITE_C_TYPEDEF_TFLITE_TENSOR)
#define TFLITE_C_TYPEDEF_TFLITE_TENSOR 1
typedef struct TfLiteTensor TfLiteTensor;
#endif

#ifndef TF_LITE_STATIC_MEMORY
/* A tensor as seen by kernels and delegates (112 bytes on LP64). */
struct TfLiteTensor {
  TfLiteType type;
  TfLitePtrUnion data;
  /* Current shape; owned by the tensor. */
  TfLiteIntArray* dims;
  /* Legacy per-tensor quantization (see `quantization` for the full info). */
  TfLiteQuantizationParams params;
  TfLiteAllocationType allocation_type;
  /* Size of the buffer in bytes. */
  size_t bytes;
  /* Opaque owner of mmapped data (e.g. the model allocation). */
  const void* allocation;
  /* Tensor name from the model, or NULL. */
  const char* name;
  /* Delegate that owns `buffer_handle`, or NULL. */
  struct TfLiteDelegate* delegate;
  TfLiteBufferHandle buffer_handle;
  /* True when the delegate buffer is newer than `data`. */
  bool data_is_stale;
  /* True for variable (stateful) tensors. */
  bool is_variable;
  TfLiteQuantization quantization;
  /* Sparsity description or NULL for dense tensors. */
  TfLiteSparsity* sparsity;
  /* Shape from the model with -1 for unknown dims, or NULL. */
  const TfLiteIntArray* dims_signature;
};

/* One operation instance in the graph (80 bytes on LP64). */
typedef struct TfLiteNode {
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;
  /* Scratch tensors the kernel asked for; owned by the node. */
  TfLiteIntArray* temporaries;
  /* Whatever the registration's init() returned. */
  void* user_data;
  /* Parsed builtin options (a TfLite*Params struct), or NULL. */
  void* builtin_data;
  /* Raw custom options from the model (custom ops only). */
  const void* custom_initial_data;
  int custom_initial_data_size;
  /* Delegate that owns this node, or NULL. */
  struct TfLiteDelegate* delegate;
  /* True if the op has effects beyond its outputs (must not be removed). */
  bool might_have_side_effect;
} TfLiteNode;
#else  /* TF_LITE_STATIC_MEMORY: compact layouts used by micro builds */
struct TfLiteTensor {
  TfLiteQuantization quantization;
  TfLiteQuantizationParams params;
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  size_t bytes;
  TfLiteType type;
  TfLiteAllocationType allocation_type;
  bool is_variable;
};

typedef struct TfLiteNode {
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;
  void* user_data;
  void* builtin_data;
  const void* custom_initial_data;
  int custom_initial_data_size;
} TfLiteNode;
#endif /* TF_LITE_STATIC_MEMORY */

/* Minimal tensor view used at evaluation time by memory-light runtimes. */
typedef struct TfLiteEvalTensor {
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteType type;
} TfLiteEvalTensor;

#ifndef TF_LITE_STATIC_MEMORY
/* Frees the tensor's buffer when the tensor owns it (Dynamic,
 * PersistentRo, VariantObject) and sets data to NULL. NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteTensorDataFree(TfLiteTensor* t);

/* Frees quantization params and resets to kTfLiteNoQuantization. */
TFL_CAPI_EXPORT void TfLiteQuantizationFree(TfLiteQuantization* quantization);

/* Frees a sparsity struct and everything it owns. NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteSparsityFree(TfLiteSparsity* sparsity);

/* Frees everything the tensor owns (data if owned, dims, dims_signature,
 * quantization, sparsity). The struct itself is not freed. */
TFL_CAPI_EXPORT void TfLiteTensorFree(TfLiteTensor* t);

/* Frees `tensor`'s owned resources and then re-initializes its fields from
 * the arguments. Ownership of `dims` moves to the tensor. */
TFL_CAPI_EXPORT void TfLiteTensorReset(TfLiteType type, const char* name,
                                       TfLiteIntArray* dims,
                                       TfLiteQuantizationParams quantization,
                                       char* buffer, size_t size,
                                       TfLiteAllocationType allocation_type,
                                       const void* allocation, bool is_variable,
                                       TfLiteTensor* tensor);

/* Copies type, shape and data of `src` into `dst` (the byte sizes must
 * match). Quantization and sparsity are not copied. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteTensorCopy(const TfLiteTensor* src,
                                              TfLiteTensor* dst);

/* Resizes the buffer of a Dynamic or PersistentRo tensor to `num_bytes`
 * (other allocation types are left alone and kTfLiteOk is returned). When
 * `preserve_data` is true the old contents are kept up to the smaller size.
 * The buffer gets a little slack at the end for vectorized readers. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteTensorResizeMaybeCopy(size_t num_bytes,
                                                         TfLiteTensor* tensor,
                                                         bool preserve_data);

/* TfLiteTensorResizeMaybeCopy with preserve_data = true. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteTensorRealloc(size_t num_bytes,
                                                 TfLiteTensor* tensor);
#endif /* TF_LITE_STATIC_MEMORY */

/* What a delegate's Prepare gets for each partition it claimed. */
typedef struct TfLiteDelegateParams {
  struct TfLiteDelegate* delegate;
  TfLiteIntArray* nodes_to_replace;
  TfLiteIntArray* input_tensors;
  TfLiteIntArray* output_tensors;
} TfLiteDelegateParams;

/* Opaque-API variant of TfLiteDelegateParams. */
typedef struct TfLiteOpaqueDelegateParams {
  TfLiteOpaqueDelegate* delegate;
  void* delegate_data;
  TfLiteIntArray* nodes_to_replace;
  TfLiteIntArray* input_tensors;
  TfLiteIntArray* output_tensors;
} TfLiteOpaqueDelegateParams;

/* The interface the runtime hands to kernels and delegates (200 bytes on
 * LP64). Function pointers that a runtime does not support may be NULL. */
typedef struct TfLiteContext {
  /* Number of entries in `tensors`. */
  size_t tensors_size;

  /* Node indices in execution order (owned by the runtime; delegates only). */
  TfLiteStatus (*GetExecutionPlan)(struct TfLiteContext* context,
                                   TfLiteIntArray** execution_plan);

  /* All tensors of the subgraph. */
  TfLiteTensor* tensors;

  /* Runtime private data. */
  void* impl_;

  /* Sets a new shape (takes ownership of new_size) and reallocates. */
  TfLiteStatus (*ResizeTensor)(struct TfLiteContext*, TfLiteTensor* tensor,
                               TfLiteIntArray* new_size);

  /* printf-style error reporting. */
  void (*ReportError)(struct TfLiteContext*, const char* msg, ...);

  /* Appends tensors; writes the index of the first one. */
  TfLiteStatus (*AddTensors)(struct TfLiteContext*, int tensors_to_add,
                             int* first_new_tensor_index);

  /* Node and registration for an execution-plan node index. */
  TfLiteStatus (*GetNodeAndRegistration)(
      struct TfLiteContext*, int node_index, TfLiteNode** node,
      struct TfLiteRegistration** registration);

  /* Replaces the given nodes with delegate kernels built from
   * `registration` (delegates only). */
  TfLiteStatus (*ReplaceNodeSubsetsWithDelegateKernels)(
      struct TfLiteContext*, struct TfLiteRegistration registration,
      const TfLiteIntArray* nodes_to_replace, struct TfLiteDelegate* delegate);

  /* Suggested thread count for kernels (-1: let the kernel decide). */
  int recommended_num_threads;

  /* Shared external contexts (thread pools, ...). */
  TfLiteExternalContext* (*GetExternalContext)(struct TfLiteContext*,
                                               TfLiteExternalContextType);
  void (*SetExternalContext)(struct TfLiteContext*, TfLiteExternalContextType,
                             TfLiteExternalContext*);

  /* Whether fp32 math may be done in fp16. */
  bool allow_fp32_relax_to_fp16;

  /* Opaque profiler (tflite::Profiler*) or NULL. */
  void* profiler;

  /* Memory that lives as long as the interpreter (micro-style API). */
  void* (*AllocatePersistentBuffer)(struct TfLiteContext* ctx, size_t bytes);

  /* Deprecated; not used by the full runtime. */
  TfLiteStatus (*AllocateBufferForEval)(struct TfLiteContext* ctx, size_t bytes,
                                        void** ptr);

  /* Scratch buffers (micro-style API). */
  TfLiteStatus (*RequestScratchBufferInArena)(struct TfLiteContext* ctx,
                                              size_t bytes, int* buffer_idx);
  void* (*GetScratchBuffer)(struct TfLiteContext* ctx, int buffer_idx);

  /* Resizes to `dims` dimensions given by `shape` (copied). */
  TfLiteStatus (*ResizeTensorExplicit)(struct TfLiteContext* ctx,
                                       TfLiteTensor* tensor, int dims,
                                       const int* shape);

  /* Shows how nodes_to_replace would be partitioned (delegates only). The
   * returned array is owned by the runtime. */
  TfLiteStatus (*PreviewDelegatePartitioning)(
      struct TfLiteContext* context, const TfLiteIntArray* nodes_to_replace,
      TfLiteDelegateParams** partition_params_array, int* num_partitions);

  /* Tensor by index (works with runtimes that do not fill `tensors`). */
  TfLiteTensor* (*GetTensor)(const struct TfLiteContext* context,
                             int tensor_idx);
  TfLiteEvalTensor* (*GetEvalTensor)(const struct TfLiteContext* context,
                                     int tensor_idx);

  /* Model metadata entry by name; the data points into the model. */
  TfLiteStatus (*GetModelMetadata)(const struct TfLiteContext* context,
                                   const char* name, const char** ptr,
                                   size_t* bytes);

  /* Borrow / give back the context of another subgraph (control flow). */
  TfLiteStatus (*AcquireSubgraphContext)(
      struct TfLiteContext* context, int subgraph_index,
      struct TfLiteContext** acquired_context);
  TfLiteStatus (*ReleaseSubgraphContext)(struct TfLiteContext* context,
                                         int subgraph_index);
} TfLiteContext;

/* Operator description of the stable (opaque) operator API; see
 * operator.h. */
#if !defined(TFLITE_C_TYPEDEF_TFLITE_OPERATOR)
#define TFLITE_C_TYPEDEF_TFLITE_OPERATOR 1
typedef struct TfLiteOperator TfLiteOperator;
#endif

/* Older name of TfLiteOperator. */
#if !defined(TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL)
#define TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL 1
typedef TfLiteOperator TfLiteRegistrationExternal;
#endif

/* Bit flags in TfLiteRegistration::inplace_operator telling the runtime
 * which inputs an op may overwrite with its output. */
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
typedef enum {
  kTfLiteInplaceOpNone = 0,
  /* Op output data equals its input data (e.g. reshape). */
  kTfLiteInplaceOpDataUnmodified = 1,
  /* Input i may share its buffer with output i. */
  kTfLiteInplaceInputCanBeSharedWithCorrespondingOutput = 2,
  kTfLiteInplaceOpInput0Shared = 4,
  kTfLiteInplaceOpInput1Shared = 8,
  kTfLiteInplaceOpInput2Shared = 16,
  /* Forces a 64-bit underlying type. */
  kTfLiteInplaceOpMaxValue = UINT64_MAX
} TfLiteInPlaceOp;
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic pop
#endif

/* Highest number of inputs an op can mark as shareable. */
static const int kTfLiteMaxSharableOpInputs = 3;

/* A kernel: the callbacks the runtime calls for every node using it
 * (88 bytes on LP64). Zero-initialize it before filling it in. */
typedef struct TfLiteRegistration {
  /* Once per node: parse options, return per-node user_data. `buffer` is the
   * custom options blob (custom ops) or a TfLite*Params pointer (builtins,
   * length 0). */
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);

  /* Releases what init returned. */
  void (*free)(TfLiteContext* context, void* buffer);

  /* Validate inputs and resize outputs; called whenever shapes change. */
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);

  /* Compute. */
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);

  /* Optional extra profiling label. */
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);

  /* A TfLiteBuiltinOperator value (kTfLiteBuiltinCustom for custom ops). */
  int32_t builtin_code;

  /* Name of a custom op, NULL for builtins. */
  const char* custom_name;

  /* Kernel version. */
  int version;

  /* Set when the kernel was created through the TfLiteOperator API. */
  TfLiteOperator* registration_external;

  /* Async kernel for the node, or NULL (async API only). */
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteContext* context,
                                            TfLiteNode* node);

  /* Bitmask of TfLiteInPlaceOp flags. */
  uint64_t inplace_operator;
} TfLiteRegistration;

/* Earlier, shorter layouts of TfLiteRegistration, kept for code compiled
 * against older releases. */
typedef struct TfLiteRegistration_V3 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  TfLiteOperator* registration_external;
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteContext* context,
                                            TfLiteNode* node);
} TfLiteRegistration_V3;

typedef struct TfLiteRegistration_V2 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  TfLiteOperator* registration_external;
} TfLiteRegistration_V2;

typedef struct TfLiteRegistration_V1 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
} TfLiteRegistration_V1;

/* Capabilities a delegate announces in TfLiteDelegate::flags. */
typedef enum TfLiteDelegateFlags {
  kTfLiteDelegateFlagsNone = 0,
  /* Delegated kernels can cope with tensors resized at run time. */
  kTfLiteDelegateFlagsAllowDynamicTensors = 1,
  /* The runtime must propagate shapes before calling delegated kernels
   * (requires AllowDynamicTensors). */
  kTfLiteDelegateFlagsRequirePropagatedShapes = 2,
  /* The delegate reports per-op profiling events. */
  kTfLiteDelegateFlagsPerOperatorProfiling = 4
} TfLiteDelegateFlags;

/* A delegate (56 bytes on LP64). Create with TfLiteDelegateCreate() so that
 * every member starts zeroed. The typedef name comes from c_api_types.h
 * (C99 does not allow repeating a typedef). */
struct TfLiteDelegate {
  /* Delegate private data. */
  void* data_;

  /* Called once when the delegate is applied; typically asks the runtime
   * (via context) to replace supported nodes. */
  TfLiteStatus (*Prepare)(TfLiteContext* context,
                          struct TfLiteDelegate* delegate);

  /* Copy delegate buffer -> tensor->data (may be NULL). */
  TfLiteStatus (*CopyFromBufferHandle)(TfLiteContext* context,
                                       struct TfLiteDelegate* delegate,
                                       TfLiteBufferHandle buffer_handle,
                                       TfLiteTensor* tensor);

  /* Copy tensor->data -> delegate buffer (may be NULL). */
  TfLiteStatus (*CopyToBufferHandle)(TfLiteContext* context,
                                     struct TfLiteDelegate* delegate,
                                     TfLiteBufferHandle buffer_handle,
                                     TfLiteTensor* tensor);

  /* Releases a buffer handle and sets it to kTfLiteNullBufferHandle. */
  void (*FreeBufferHandle)(TfLiteContext* context,
                           struct TfLiteDelegate* delegate,
                           TfLiteBufferHandle* handle);

  /* Bitmask of TfLiteDelegateFlags. */
  int64_t flags;

  /* When non-NULL the delegate is an opaque delegate and the callbacks
   * above are ignored in favor of the builder's. */
  struct TfLiteOpaqueDelegateBuilder* opaque_delegate_builder;
};

/* A delegate with all members zero / NULL. */
TFL_CAPI_EXPORT TfLiteDelegate TfLiteDelegateCreate(void);

/* Callbacks of an opaque delegate; `data` is passed back to each of them.
 * Same meaning as the TfLiteDelegate members of the same names. */
typedef struct TfLiteOpaqueDelegateBuilder {
  void* data;
  TfLiteStatus (*Prepare)(TfLiteOpaqueContext* context,
                          TfLiteOpaqueDelegate* delegate, void* data);
  TfLiteStatus (*CopyFromBufferHandle)(TfLiteOpaqueContext* context,
                                       TfLiteOpaqueDelegate* delegate,
                                       void* data,
                                       TfLiteBufferHandle buffer_handle,
                                       TfLiteOpaqueTensor* tensor);
  TfLiteStatus (*CopyToBufferHandle)(TfLiteOpaqueContext* context,
                                     TfLiteOpaqueDelegate* delegate,
                                     void* data,
                                     TfLiteBufferHandle buffer_handle,
                                     TfLiteOpaqueTensor* tensor);
  void (*FreeBufferHandle)(TfLiteOpaqueContext* context,
                           TfLiteOpaqueDelegate* delegate, void* data,
                           TfLiteBufferHandle* handle);
  int64_t flags;
} TfLiteOpaqueDelegateBuilder;

#ifndef TF_LITE_STATIC_MEMORY
/* Creates an opaque delegate from a copy of `opaque_delegate_builder`.
 * Returns NULL when the builder is NULL. Free with
 * TfLiteOpaqueDelegateDelete. */
TFL_CAPI_EXPORT TfLiteOpaqueDelegate* TfLiteOpaqueDelegateCreate(
    const TfLiteOpaqueDelegateBuilder* opaque_delegate_builder);

/* Frees a delegate from TfLiteOpaqueDelegateCreate. NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteOpaqueDelegateDelete(TfLiteOpaqueDelegate* delegate);
#endif

/* The builder's `data` for opaque delegates, `data_` for classic ones,
 * NULL for NULL. */
TFL_CAPI_EXPORT void* TfLiteOpaqueDelegateGetData(
    const TfLiteOpaqueDelegate* delegate);

/* Facts about a tensor's buffer derived from its allocation type. */
TFL_CAPI_EXPORT TfLiteAllocationStrategy
TfLiteTensorGetAllocationStrategy(const TfLiteTensor* t);
TFL_CAPI_EXPORT TfLiteRunStability
TfLiteTensorGetBufferAddressStability(const TfLiteTensor* t);
TFL_CAPI_EXPORT TfLiteRunStability
TfLiteTensorGetDataStability(const TfLiteTensor* t);
TFL_CAPI_EXPORT TfLiteRunStep TfLiteTensorGetDataKnownStep(const TfLiteTensor* t);
TFL_CAPI_EXPORT TfLiteRunStep
TfLiteTensorGetShapeKnownStep(const TfLiteTensor* t);

#ifdef __cplusplus
} /* extern "C" */

#include <new>
#include <utility>

/* ------------------------------------------------------------------------
 * C++ only: payload of kTfLiteVariant tensors (allocation type
 * kTfLiteVariantObject). tensor->data.data points to a VariantData.
 * ---------------------------------------------------------------------- */
class VariantData {
 public:
  virtual ~VariantData() = default;
  /* Copies *this into `maybe_alloc` (destroying its old value) when it is
   * non-null, otherwise into a new heap object. Returns the copy. */
  virtual VariantData* CloneTo(VariantData* maybe_alloc) const = 0;
};

/* CRTP helper implementing CloneTo via Derived's copy constructor. */
template <typename ErasedDerived>
class AbstractVariantData : public VariantData {
 public:
  VariantData* CloneTo(VariantData* maybe_alloc) const override {
    const ErasedDerived& self = static_cast<const ErasedDerived&>(*this);
    if (maybe_alloc == nullptr) return new ErasedDerived(self);
    ErasedDerived* slot = static_cast<ErasedDerived*>(maybe_alloc);
    slot->~ErasedDerived();
    return new (slot) ErasedDerived(self);
  }

 protected:
  AbstractVariantData() = default;
  AbstractVariantData(const AbstractVariantData&) = default;
  AbstractVariantData(AbstractVariantData&&) = delete;
};

/* (Re)constructs the VariantType payload of a kTfLiteVariant tensor from
 * `args`, reusing the existing storage when there is one. */
template <class VariantType, class... VariantArgs>
TfLiteStatus TfLiteTensorVariantRealloc(TfLiteTensor* t,
                                        VariantArgs&&... args) {
  if (t->type != kTfLiteVariant) return kTfLiteError;
  VariantType* fresh;
  if (t->data.raw != nullptr) {
    static_cast<VariantData*>(t->data.data)->~VariantData();
    fresh = new (t->data.raw) VariantType(std::forward<VariantArgs>(args)...);
  } else {
    fresh = new VariantType(std::forward<VariantArgs>(args)...);
  }
  t->data.data = static_cast<VariantData*>(fresh);
  t->allocation_type = kTfLiteVariantObject;
  return kTfLiteOk;
}

#endif /* __cplusplus */

#endif /* TENSORFLOW_LITE_CORE_C_COMMON_H_ */
