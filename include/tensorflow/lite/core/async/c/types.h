/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Opaque handle types and enums shared by the asynchronous-execution parts of
 * the C API. Only forward declarations live here; the async entry points
 * themselves are not part of this library's public headers.
 */
#ifndef TENSORFLOW_LITE_CORE_ASYNC_C_TYPES_H_
#define TENSORFLOW_LITE_CORE_ASYNC_C_TYPES_H_

#ifdef __cplusplus
extern "C" {
#endif

/** Kernel-side asynchronous execution interface (opaque). An operator can
 * expose one through TfLiteOperatorSetAsyncKernel(). */
typedef struct TfLiteAsyncKernel TfLiteAsyncKernel;

/** One asynchronous inference request (opaque). Not thread-safe: a task must
 * only be used from one thread at a time. */
typedef struct TfLiteExecutionTask TfLiteExecutionTask;

/** Says whether a tensor is a model input or a model output. */
typedef enum TfLiteIoType {
  kTfLiteIoTypeUnknown = 0,
  kTfLiteIoTypeInput = 1,
  kTfLiteIoTypeOutput = 2
} TfLiteIoType;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_ASYNC_C_TYPES_H_ */
