/*
 * tflite-c: basic types shared by the TensorFlow Lite C API, the kernel API
 * (common.h) and the delegate API.
 *
 * Applications normally include "tensorflow/lite/c/c_api_types.h", which
 * simply forwards here.
 *
 * Every name, enumerator value and struct layout in this file is part of the
 * binary interface of TensorFlow Lite 2.19 and must not change.
 */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Symbol visibility.
 *
 * Public entry points are tagged TFL_CAPI_EXPORT. On ELF/Mach-O targets the
 * tag gives default visibility (the library is compiled with
 * -fvisibility=hidden). On Windows it marks dllexport while the library
 * itself is compiled (TFL_COMPILE_LIBRARY) and expands to nothing for users.
 * Static builds (TFL_STATIC_LIBRARY_BUILD) and SWIG get an empty tag.
 * ------------------------------------------------------------------------- */
#if defined(SWIG) || defined(TFL_STATIC_LIBRARY_BUILD)
#define TFL_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TFL_COMPILE_LIBRARY
#define TFL_CAPI_EXPORT __declspec(dllexport)
#else
#define TFL_CAPI_EXPORT
#endif
#else
#define TFL_CAPI_EXPORT __attribute__((visibility("default")))
#endif

/* Result code of nearly every runtime call. More codes may appear in later
 * versions, so callers should treat any value other than kTfLiteOk as a
 * failure rather than switching exhaustively. */
typedef enum TfLiteStatus {
  kTfLiteOk = 0,
  kTfLiteError = 1,                  /* runtime / interpreter failure */
  kTfLiteDelegateError = 2,          /* failure inside a delegate */
  kTfLiteApplicationError = 3,       /* delegate incompatible with graph state */
  kTfLiteDelegateDataNotFound = 4,   /* delegate cache: no serialized data */
  kTfLiteDelegateDataWriteError = 5, /* delegate cache: write failed */
  kTfLiteDelegateDataReadError = 6,  /* delegate cache: read failed */
  kTfLiteUnresolvedOps = 7,          /* model uses ops nobody registered */
  kTfLiteCancelled = 8,              /* Invoke() was cancelled by the user */
  kTfLiteOutputShapeNotKnown = 9     /* Prepare: size known, shape not yet */
} TfLiteStatus;

/* Element type of a tensor. Values match the TFLite flatbuffer schema's
 * TensorType closely but are NOT the same numbering; never cast one into the
 * other without a mapping. */
typedef enum {
  kTfLiteNoType = 0,
  kTfLiteFloat32 = 1,
  kTfLiteInt32 = 2,
  kTfLiteUInt8 = 3,
  kTfLiteInt64 = 4,
  kTfLiteString = 5,
  kTfLiteBool = 6,
  kTfLiteInt16 = 7,
  kTfLiteComplex64 = 8,
  kTfLiteInt8 = 9,
  kTfLiteFloat16 = 10,
  kTfLiteFloat64 = 11,
  kTfLiteComplex128 = 12,
  kTfLiteUInt64 = 13,
  kTfLiteResource = 14,
  kTfLiteVariant = 15,
  kTfLiteUInt32 = 16,
  kTfLiteUInt16 = 17,
  kTfLiteInt4 = 18,
  kTfLiteBFloat16 = 19
} TfLiteType;

/* Legacy per-tensor affine quantization:
 *   real = scale * (quantized - zero_point)
 * Still filled in for per-tensor quantized tensors even when the richer
 * TfLiteAffineQuantization (common.h) is present. */
typedef struct TfLiteQuantizationParams {
  float scale;
  int32_t zero_point;
} TfLiteQuantizationParams;

/* How one dimension of a sparse tensor is stored. */
typedef enum TfLiteDimensionType {
  kTfLiteDimDense = 0,
  kTfLiteDimSparseCSR
} TfLiteDimensionType;

/* ---------------------------------------------------------------------------
 * Opaque handles used by c_api.h, c_api_opaque.h and common.h.
 * ------------------------------------------------------------------------- */

/* Opaque views of TfLiteContext / TfLiteNode / TfLiteTensor. */
typedef struct TfLiteOpaqueContext TfLiteOpaqueContext;
typedef struct TfLiteOpaqueNode TfLiteOpaqueNode;
typedef struct TfLiteOpaqueTensor TfLiteOpaqueTensor;

/* A delegate (backend that takes over parts of a graph); the full struct is
 * defined in common.h. */
typedef struct TfLiteDelegate TfLiteDelegate;

/* Always-opaque delegate handle (experimental). */
typedef struct TfLiteOpaqueDelegateStruct TfLiteOpaqueDelegateStruct;

/* Delegate handle used by the opaque delegate API (experimental). In the
 * regular (non stable-ABI) build this is the same type as TfLiteDelegate. */
#if (defined(TFLITE_WITH_STABLE_ABI) && TFLITE_WITH_STABLE_ABI) || \
    (defined(TFLITE_USE_OPAQUE_DELEGATE) && TFLITE_USE_OPAQUE_DELEGATE)
typedef TfLiteOpaqueDelegateStruct TfLiteOpaqueDelegate;
#else
typedef TfLiteDelegate TfLiteOpaqueDelegate;
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_TYPES_H_ */
