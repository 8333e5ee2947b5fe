/* The guide's Atan kernel, corrected (see README.md): only TfLiteOpaque*
 * accessors, the output shaped in Prepare, float32 checked. */
#include "atan_op.h"

#include <math.h>
#include <stddef.h>

#include "tensorflow/lite/c/c_api_opaque.h"

static TfLiteStatus AtanPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* input;
  TfLiteOpaqueTensor* output;
  TfLiteIntArray* output_size;
  int num_dims, i;

  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfInputs(node), 1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfOutputs(node), 1);

  input = TfLiteOpaqueNodeGetInput(context, node, 0);
  output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE(context, input != NULL && output != NULL);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(input), kTfLiteFloat32);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(output), kTfLiteFloat32);

  /* The output has the input's shape. The runtime takes ownership of
   * output_size, also when resizing fails. */
  num_dims = TfLiteOpaqueTensorNumDims(input);
  output_size = TfLiteIntArrayCreate(num_dims);
  TF_LITE_OPAQUE_ENSURE(context, output_size != NULL);
  for (i = 0; i < num_dims; ++i) {
    output_size->data[i] = TfLiteOpaqueTensorDim(input, i);
  }
  return TfLiteOpaqueContextResizeTensor(context, output, output_size);
}

static TfLiteStatus AtanEval(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const float* input_data = (const float*)TfLiteOpaqueTensorData(input);
  float* output_data = (float*)TfLiteOpaqueTensorData(output);
  size_t count = 1, i;
  int num_dims = TfLiteOpaqueTensorNumDims(input), d;

  for (d = 0; d < num_dims; ++d) {
    count *= (size_t)TfLiteOpaqueTensorDim(input, d);
  }
  if (count == 0) return kTfLiteOk;
  TF_LITE_OPAQUE_ENSURE(context, input_data != NULL && output_data != NULL);
  for (i = 0; i < count; ++i) {
    output_data[i] = atanf(input_data[i]);
  }
  return kTfLiteOk;
}

static TfLiteRegistrationExternal* AtanOpCreate(void) {
  TfLiteRegistrationExternal* r =
      TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "ATAN", /*version=*/1);
  if (r == NULL) return NULL;
  TfLiteRegistrationExternalSetPrepare(r, AtanPrepare);
  TfLiteRegistrationExternalSetInvoke(r, AtanEval);
  return r;
}

TfLiteRegistrationExternal* AtanOpRegistrationExternal(void) {
  /* C has no thread-safe function-local initialization: a race here can at
   * worst create a second operator, which is harmless. Programs that care
   * call this once before starting threads. */
  static TfLiteRegistrationExternal* atan_op = NULL;
  if (atan_op == NULL) atan_op = AtanOpCreate();
  return atan_op;
}
