/* Public headers must compile in any include order under strict C99
 * (-pedantic forbids repeated typedefs). This file includes the API headers
 * before common.h, the reverse of headers_compile_test.c. */
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/core/c/operator.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/builtin_ops.h"

int main(void) {
  TfLiteTensor* t = 0;
  TfLiteRegistrationExternal* r = 0;
  return (t == 0 && r == 0 && sizeof(TfLiteTensor) > 0) ? 0 : 1;
}
