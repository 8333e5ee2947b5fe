/* XNNPACK delegate: runs supported operators of a model with the XNNPACK
 * library (linked into this library). Source-compatible with TensorFlow Lite's
 * tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h: same option struct
 * layout, same flag values, same functions.
 *
 *   TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
 *   o.num_threads = 2;
 *   TfLiteDelegate* d = TfLiteXNNPackDelegateCreate(&o);
 *   TfLiteInterpreterOptionsAddDelegate(interpreter_options, d);
 *   ... create, run and delete the interpreter ...
 *   TfLiteXNNPackDelegateDelete(d);   // only after the interpreter is gone
 *
 * In a build without XNNPACK every Create function returns NULL. */
#ifndef TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/core/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of TfLiteXNNPackDelegateOptions.flags. */
/* Delegate signed 8-bit quantized operators (per-tensor and per-channel). */
#define TFLITE_XNNPACK_DELEGATE_FLAG_QS8 0x00000001
/* Delegate unsigned 8-bit quantized operators. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_QU8 0x00000002
/* Run float32 operators in float16 arithmetic. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16 0x00000004
/* Delegate FULLY_CONNECTED also when its weights are not constant. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_DYNAMIC_FULLY_CONNECTED 0x00000008
/* Delegate VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS 0x00000010
/* Rebuild indirection buffers on each run instead of keeping them. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER 0x00000020
/* Also use operators that are not yet on by default. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_LATEST_OPERATORS 0x00000040
/* Reshape the delegated subgraph when input shapes change. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_SUBGRAPH_RESHAPING 0x00000080
/* Prefer code paths that give the same numbers on every machine. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_SLOW_CONSISTENT_ARITHMETIC 0x00000200
/* Never reshape the delegated subgraph (dynamic shapes are not delegated). */
#define TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_SUBGRAPH_RESHAPING 0x00000400
/* Do not delegate dynamically quantized operators. */
#define TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_DYNAMICALLY_QUANTIZED_OPS 0x00000800

/* Packed weights, shareable by several delegates (see the WeightsCache
 * functions below). */
struct TfLiteXNNPackDelegateWeightsCache;

typedef struct {
  /* Threads of the delegate's thread pool; 0 (default) or 1: no pool. */
  int32_t num_threads;
  /* XNN_FLAG_* bits given to XNNPACK when a runtime is created. */
  uint32_t runtime_flags;
  /* TFLITE_XNNPACK_DELEGATE_FLAG_* bits. */
  uint32_t flags;
  /* Shared packed weights (NULL: each delegate packs its own). */
  struct TfLiteXNNPackDelegateWeightsCache* weights_cache;
  /* Deprecated: same as TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS. */
  bool handle_variable_ops;
  /* File-backed weight cache (used only when weights_cache is NULL): the
   * first delegate packs the weights and writes them to this file; later
   * ones (in any process) map it and skip packing. A damaged, truncated or
   * foreign file is reported and rebuilt; a location that can be neither
   * read nor written is reported and weights are packed in memory.
   * TfLiteXNNPackDelegateInMemoryFilePath() selects a cache in memory only.
   * A file descriptor > 0 is used instead of the path (ownership is taken).
   * weight_cache_provider is not supported (reported on stderr, ignored). */
  const char* weight_cache_file_path;
  int weight_cache_file_descriptor; /* default -1 */
  void* weight_cache_provider;
  /* Lock the memory-mapped file-backed cache in RAM. */
  bool weight_cache_lock_memory;
} TfLiteXNNPackDelegateOptions;

/* Whether the in-memory weight cache can be used (true when built with XNNPACK). */
TFL_CAPI_EXPORT bool TfLiteXNNPackDelegateCanUseInMemoryWeightCacheProvider(void);

/* The special weight_cache_file_path selecting the in-memory cache. */
TFL_CAPI_EXPORT const char* TfLiteXNNPackDelegateInMemoryFilePath(void);

/* Default options; start from these so that later fields get defaults. */
TFL_CAPI_EXPORT TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void);

/* Creates a delegate (options NULL: defaults). Delete it with
 * TfLiteXNNPackDelegateDelete after every interpreter using it is deleted.
 * Returns NULL on failure or when the library was built without XNNPACK. */
TFL_CAPI_EXPORT TfLiteDelegate* TfLiteXNNPackDelegateCreate(
    const TfLiteXNNPackDelegateOptions* options);

/* As TfLiteXNNPackDelegateCreate. `context` may carry a thread pool to use;
 * this library's contexts carry none, so the delegate makes its own. */
TFL_CAPI_EXPORT TfLiteDelegate* TfLiteXNNPackDelegateCreateWithThreadpool(
    const TfLiteXNNPackDelegateOptions* options, TfLiteContext* context);

/* The delegate's pthreadpool_t, or NULL when it runs on one thread. */
TFL_CAPI_EXPORT void* TfLiteXNNPackDelegateGetThreadPool(TfLiteDelegate* delegate);

/* The delegate's options (NULL for a NULL delegate). */
TFL_CAPI_EXPORT const TfLiteXNNPackDelegateOptions* TfLiteXNNPackDelegateGetOptions(
    TfLiteDelegate* delegate);

/* The delegate's TFLITE_XNNPACK_DELEGATE_FLAG_* bits (0 for NULL). */
TFL_CAPI_EXPORT int TfLiteXNNPackDelegateGetFlags(TfLiteDelegate* delegate);

/* Destroys a delegate made by one of the Create functions; NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate);

/* Weights cache shared between delegates: create it, pass it in
 * options.weights_cache to every delegate, apply the delegates to their
 * interpreters, then finalize it (before the first inference), and delete it
 * after every delegate using it is deleted. Soft finalization still lets new
 * delegates reuse weights already in the cache; hard finalization freezes it
 * with the least memory. */
TFL_CAPI_EXPORT struct TfLiteXNNPackDelegateWeightsCache*
TfLiteXNNPackDelegateWeightsCacheCreate(void);
TFL_CAPI_EXPORT struct TfLiteXNNPackDelegateWeightsCache*
TfLiteXNNPackDelegateWeightsCacheCreateWithSize(size_t size);
/* Return true on success. */
TFL_CAPI_EXPORT bool TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(
    struct TfLiteXNNPackDelegateWeightsCache* cache);
TFL_CAPI_EXPORT bool TfLiteXNNPackDelegateWeightsCacheFinalizeHard(
    struct TfLiteXNNPackDelegateWeightsCache* cache);
TFL_CAPI_EXPORT void TfLiteXNNPackDelegateWeightsCacheDelete(
    struct TfLiteXNNPackDelegateWeightsCache* cache);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_LITE_DELEGATES_XNNPACK_XNNPACK_DELEGATE_H_ */
