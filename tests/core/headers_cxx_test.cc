// Compile-time check of the public C headers from C++.
//
// Includes every public header through both its public and core path,
// re-declares every C API function with its expected TF Lite 2.19 prototype
// inside extern "C" (so any drift is a "conflicting declaration of C
// function" error), and checks the old TfLiteRegistrationExternal names of
// tensorflow/lite/c/c_api.h: real functions with the signatures of their
// TfLiteOperator* counterparts, plus a C++ overload of Create that takes
// 2.19's fourth (user_data) argument.

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/async/c/types.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/core/c/operator.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

extern "C" {
#include "../c/c_api_signatures.inc"
}

namespace {

// ---- TfLiteRegistrationExternal compatibility names -------------------------

static_assert(std::is_same<TfLiteRegistrationExternal, TfLiteOperator>::value,
              "TfLiteRegistrationExternal must alias TfLiteOperator");

// Each old name is a function with the new one's signature.
#define EXPECT_SAME_SIGNATURE(old_name, new_name)                     \
  static_assert(std::is_same<decltype(&old_name), decltype(&new_name)>::value, \
                #old_name " must have the signature of " #new_name)

EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalGetBuiltInCode,
                      TfLiteOperatorGetBuiltInCode);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalGetVersion, TfLiteOperatorGetVersion);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalDelete, TfLiteOperatorDelete);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalSetInit, TfLiteOperatorSetInit);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalSetFree, TfLiteOperatorSetFree);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalSetPrepare, TfLiteOperatorSetPrepare);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalSetInvoke, TfLiteOperatorSetInvoke);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalSetAsyncKernel,
                      TfLiteOperatorSetAsyncKernel);
EXPECT_SAME_SIGNATURE(TfLiteRegistrationExternalGetCustomName,
                      TfLiteOperatorGetCustomName);
EXPECT_SAME_SIGNATURE(TfLiteInterpreterOptionsAddRegistrationExternal,
                      TfLiteInterpreterOptionsAddOperator);

#undef EXPECT_SAME_SIGNATURE

// Create: the guide's three-argument function and 2.19's four-argument form.
static_assert(std::is_same<decltype(TfLiteRegistrationExternalCreate(
                               kTfLiteBuiltinCustom, "op", 1)),
                           TfLiteOperator*>::value,
              "three-argument TfLiteRegistrationExternalCreate");
static_assert(std::is_same<decltype(TfLiteRegistrationExternalCreate(
                               kTfLiteBuiltinCustom, "op", 1, nullptr)),
                           TfLiteOperator*>::value,
              "four-argument TfLiteRegistrationExternalCreate");

// ---- Types the C API contracts rely on -------------------------------------

// Regular (non stable-ABI) build: the opaque delegate handle is TfLiteDelegate.
static_assert(std::is_same<TfLiteOpaqueDelegate, TfLiteDelegate>::value,
              "TfLiteOpaqueDelegate must be TfLiteDelegate by default");

// Callback types spelled exactly as upstream.
using ErrorReporter = void (*)(void*, const char*, va_list);
static_assert(
    std::is_same<decltype(&TfLiteInterpreterOptionsSetErrorReporter),
                 void (*)(TfLiteInterpreterOptions*, ErrorReporter,
                          void*)>::value,
    "TfLiteInterpreterOptionsSetErrorReporter signature");
static_assert(std::is_same<decltype(&TfLiteInterpreterOptionsCreate),
                           TfLiteInterpreterOptions* (*)()>::value,
              "TfLiteInterpreterOptionsCreate takes no arguments");
static_assert(
    std::is_same<decltype(&TfLiteOpaqueContextReportError),
                 void (*)(TfLiteOpaqueContext*, const char*, ...)>::value,
    "TfLiteOpaqueContextReportError is variadic");

static_assert(std::is_enum<TfLiteIoType>::value, "TfLiteIoType is an enum");
static_assert(kTfLiteIoTypeUnknown == 0 && kTfLiteIoTypeInput == 1 &&
                  kTfLiteIoTypeOutput == 2,
              "TfLiteIoType values");

// Opaque handles stay incomplete in the public headers.
template <typename T, typename = void>
struct IsComplete : std::false_type {};
template <typename T>
struct IsComplete<T, decltype(void(sizeof(T)))> : std::true_type {};

static_assert(!IsComplete<TfLiteModel>::value, "TfLiteModel is opaque");
static_assert(!IsComplete<TfLiteInterpreter>::value,
              "TfLiteInterpreter is opaque");
static_assert(!IsComplete<TfLiteInterpreterOptions>::value,
              "TfLiteInterpreterOptions is opaque");
static_assert(!IsComplete<TfLiteSignatureRunner>::value,
              "TfLiteSignatureRunner is opaque");
static_assert(!IsComplete<TfLiteOperator>::value, "TfLiteOperator is opaque");
static_assert(!IsComplete<TfLiteOpaqueTensorBuilder>::value,
              "TfLiteOpaqueTensorBuilder is opaque");
static_assert(!IsComplete<TfLiteAsyncKernel>::value,
              "TfLiteAsyncKernel is opaque");
static_assert(!IsComplete<TfLiteExecutionTask>::value,
              "TfLiteExecutionTask is opaque");
static_assert(IsComplete<TfLiteTensor>::value,
              "TfLiteTensor is fully defined once common.h is included");

#if !defined(TF_LITE_OPAQUE_KERNEL_LOG) ||       \
    !defined(TF_LITE_OPAQUE_MAYBE_KERNEL_LOG) || \
    !defined(TF_LITE_OPAQUE_ENSURE_MSG) ||       \
    !defined(TF_LITE_OPAQUE_ENSURE) ||           \
    !defined(TF_LITE_OPAQUE_ENSURE_EQ) ||        \
    !defined(TF_LITE_OPAQUE_ENSURE_TYPES_EQ) ||  \
    !defined(TF_LITE_OPAQUE_ENSURE_NEAR)
#error "c_api_opaque.h is missing a TF_LITE_OPAQUE_* macro"
#endif

TEST(PublicHeadersCxx, CompileAsCxxWithExpectedSignatures) {
  // The real checks are the static_asserts and re-declarations above; this
  // test only has to exist and run.
  EXPECT_EQ(static_cast<int>(kTfLiteIoTypeOutput), 2);
  EXPECT_EQ(static_cast<int>(kTfLiteBuiltinCustom), 32);
}

}  // namespace
