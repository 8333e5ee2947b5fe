/* Compile-time check of the public C headers in strict C99
 * (-std=c99 -Wall -Wextra -Werror -pedantic, see tests/CMakeLists.txt).
 *
 * - every public header is included, each through both its public
 *   (tensorflow/lite/c/...) and its core (tensorflow/lite/core/c/...) path;
 * - every C API function is re-declared with its expected TF Lite 2.19
 *   prototype (c_api_signatures.inc), so a signature drift fails the build;
 * - a few type sizes and enum values of the binary interface are checked.
 *
 * Nothing is called and no function address is taken outside unevaluated
 * sizeof operands, so the program links whatever the library implements.
 *
 * common.h is included first on purpose: strict C99 rejects a repeated
 * typedef, and c_api.h / operator.h only add their forward typedefs of
 * TfLiteTensor / TfLiteOperator when common.h has not declared them. */
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/c/common.h"

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/core/async/c/types.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/core/c/operator.h"

#include <stddef.h>
#include <stdint.h>

#include "c_api_signatures.inc"

/* C99 has no _Static_assert; a negative array size does the job. */
#define HDR_CHECK(name, cond) typedef char hdr_check_##name[(cond) ? 1 : -1]

/* async/c/types.h */
HDR_CHECK(io_unknown, kTfLiteIoTypeUnknown == 0);
HDR_CHECK(io_input, kTfLiteIoTypeInput == 1);
HDR_CHECK(io_output, kTfLiteIoTypeOutput == 2);

/* c_api_types.h values the C API's documented contracts rely on. */
HDR_CHECK(status_ok, kTfLiteOk == 0);
HDR_CHECK(status_error, kTfLiteError == 1);
HDR_CHECK(status_delegate_error, kTfLiteDelegateError == 2);
HDR_CHECK(status_application_error, kTfLiteApplicationError == 3);
HDR_CHECK(status_cancelled, kTfLiteCancelled == 8);
HDR_CHECK(quant_params_size, sizeof(TfLiteQuantizationParams) == 8);
HDR_CHECK(builtin_custom, kTfLiteBuiltinCustom == 32);

/* In the regular (non stable-ABI) build the opaque delegate handle is the
 * plain delegate struct, so TfLiteDelegate* converts without a cast. */
static TfLiteOpaqueDelegate* as_opaque(TfLiteDelegate* d) { return d; }

/* Older TfLiteRegistrationExternal names from tensorflow/lite/c/c_api.h:
 * real functions; Create also accepts 2.19's four-argument form. */
static int check_registration_external_aliases(void) {
  const TfLiteRegistrationExternal* reg = NULL;
  TfLiteOperator* as_operator = (TfLiteRegistrationExternal*)NULL;
  size_t n = 0;
  (void)as_operator;
  /* Unevaluated operands: type-checked, never executed or linked. */
  n += sizeof(TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "op", 1));
  n += sizeof(TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "op", 1,
                                               NULL));
  n += sizeof(&TfLiteRegistrationExternalCreate);
  n += sizeof(&TfLiteRegistrationExternalSetAsyncKernel);
  n += sizeof(&TfLiteInterpreterOptionsAddRegistrationExternal);
  n += sizeof(TfLiteRegistrationExternalGetBuiltInCode(reg));
  n += sizeof(TfLiteRegistrationExternalGetVersion(reg));
  n += sizeof(TfLiteRegistrationExternalGetCustomName(reg));
  n += sizeof(&TfLiteRegistrationExternalDelete);
  n += sizeof(&TfLiteRegistrationExternalSetInit);
  n += sizeof(&TfLiteRegistrationExternalSetFree);
  n += sizeof(&TfLiteRegistrationExternalSetPrepare);
  n += sizeof(&TfLiteRegistrationExternalSetInvoke);
  return n > 0 ? 0 : 1;
}

/* The opaque-kernel helper macros must exist with their upstream names. */
#if !defined(TF_LITE_OPAQUE_KERNEL_LOG) ||        \
    !defined(TF_LITE_OPAQUE_MAYBE_KERNEL_LOG) ||  \
    !defined(TF_LITE_OPAQUE_ENSURE_MSG) ||        \
    !defined(TF_LITE_OPAQUE_ENSURE) ||            \
    !defined(TF_LITE_OPAQUE_ENSURE_EQ) ||         \
    !defined(TF_LITE_OPAQUE_ENSURE_TYPES_EQ) ||   \
    !defined(TF_LITE_OPAQUE_ENSURE_NEAR)
#error "c_api_opaque.h is missing a TF_LITE_OPAQUE_* macro"
#endif

#if !defined(TFL_CAPI_EXPORT)
#error "TFL_CAPI_EXPORT must be defined by the public headers"
#endif

int main(void) {
  if (as_opaque(NULL) != NULL) return 1;
  return check_registration_external_aliases();
}
