/* Every function of core/c/c_api_opaque.h called from C with NULL handles,
   NULL out-parameters and out-of-range indices. Upstream dereferences most of
   these (a crash); here each returns the failure value its header documents
   (NULL, kTfLiteError, -1 / 0, kTfLiteNoType, ...) and the process lives.
   Valid calls are covered by opaque_coverage_test and opaque_custom_op_test;
   this file is only about the hostile arguments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "c_check.h"

static void tensor_accessors(void) {
  int32_t n = 7, len = 7;
  const char* str = "x";
  int slen = 3;
  char buffer[4] = {1, 2, 3, 4};
  TfLiteQuantization q;
  TfLiteQuantizationParams qp;

  CHECK(TfLiteOpaqueTensorType(NULL) == kTfLiteNoType);
  CHECK(TfLiteOpaqueTensorNumDims(NULL) == -1);
  CHECK(TfLiteOpaqueTensorDim(NULL, 0) == -1);
  CHECK(TfLiteOpaqueTensorGetNumDimsSignature(NULL, &n) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorGetDimSignature(NULL, 0, &len) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorIsVariable(NULL) == 0);
  CHECK(TfLiteOpaqueTensorByteSize(NULL) == 0);
  CHECK(TfLiteOpaqueTensorData(NULL) == NULL);
  (void)TfLiteOpaqueTensorGetAllocationType(NULL);
  (void)TfLiteOpaqueTensorGetAllocationStrategy(NULL);
  (void)TfLiteOpaqueTensorGetBufferAddressStability(NULL);
  (void)TfLiteOpaqueTensorGetDataStability(NULL);
  (void)TfLiteOpaqueTensorGetDataKnownStep(NULL);
  (void)TfLiteOpaqueTensorGetShapeKnownStep(NULL);
  CHECK(TfLiteOpaqueTensorName(NULL) == NULL);
  q = TfLiteOpaqueTensorGetQuantization(NULL);
  CHECK(q.type == kTfLiteNoQuantization && q.params == NULL);
  qp = TfLiteOpaqueTensorGetQuantizationParams(NULL);
  CHECK(qp.scale == 0.0f && qp.zero_point == 0);
  CHECK(TfLiteOpaqueTensorCopyFromBuffer(NULL, buffer, sizeof buffer) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorCopyToBuffer(NULL, buffer, sizeof buffer) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorGetStringCount(NULL) <= 0);
  CHECK(TfLiteOpaqueTensorGetString(NULL, 0, &str, &slen) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorWriteStrings(NULL, &str, 1, &slen) != kTfLiteOk);
  CHECK(TfLiteOpaqueTensorWriteString(NULL, "abc", 3) != kTfLiteOk);
  TfLiteOpaqueTensorSetAllocationTypeToDynamic(NULL);
  TfLiteOpaqueTensorSetNonCpuAllocation(NULL);
  CHECK(buffer[0] == 1 && buffer[3] == 4); /* nothing was written */
}

static void tensor_builder(void) {
  TfLiteQuantizationParams qp = {0.5f, 3};
  TfLiteQuantization q;
  TfLiteOpaqueTensorBuilder* b;
  q.type = kTfLiteNoQuantization;
  q.params = NULL;
  CHECK(TfLiteOpaqueTensorBuilderSetType(NULL, kTfLiteFloat32) == NULL);
  CHECK(TfLiteOpaqueTensorBuilderSetData(NULL, NULL) == NULL);
  CHECK(TfLiteOpaqueTensorBuilderSetAllocationType(NULL, kTfLiteDynamic) == NULL);
  CHECK(TfLiteOpaqueTensorBuilderSetQuantizationParams(NULL, qp) == NULL);
  CHECK(TfLiteOpaqueTensorBuilderSetQuantization(NULL, q) == NULL);
  TfLiteOpaqueTensorBuilderDelete(NULL);
  /* A real builder still chains after the NULL calls. */
  b = TfLiteOpaqueTensorBuilderCreate();
  CHECK(b != NULL);
  CHECK(TfLiteOpaqueTensorBuilderSetType(b, kTfLiteFloat32) == b);
  TfLiteOpaqueTensorBuilderDelete(b);
}

static void node_accessors(void) {
  const void* init = (const void*)&init;
  const int* list = (const int*)&list;
  int size = 5, count = 5;
  const int temporaries[2] = {0, 1};
  CHECK(TfLiteOpaqueNodeGetInput(NULL, NULL, 0) == NULL);
  CHECK(TfLiteOpaqueNodeGetInput(NULL, NULL, -1) == NULL);
  CHECK(TfLiteOpaqueNodeGetOutput(NULL, NULL, 0) == NULL);
  CHECK(TfLiteOpaqueNodeNumberOfInputs(NULL) <= 0);
  CHECK(TfLiteOpaqueNodeNumberOfOutputs(NULL) <= 0);
  CHECK(TfLiteOpaqueNodeGetUserData(NULL) == NULL);
  CHECK(TfLiteOpaqueNodeGetBuiltinData(NULL) == NULL);
  CHECK(TfLiteOpaqueNodeGetCustomInitialData(NULL, &init, &size) != kTfLiteOk);
  CHECK(TfLiteOpaqueNodeInputs(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueNodeOutputs(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueNodeSetTemporaries(NULL, temporaries, 2) != kTfLiteOk);
  CHECK(TfLiteOpaqueNodeTemporaries(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueNodeGetInputTensorIndex(NULL, 0) == -1);
  CHECK(TfLiteOpaqueNodeGetOutputTensorIndex(NULL, 0) == -1);
}

static void report_va(const char* format, ...) {
  va_list args;
  va_start(args, format);
  TfLiteOpaqueContextReportErrorVa(NULL, format, args);
  va_end(args);
}

static void context_accessors(void) {
  TfLiteIntArray* plan = NULL;
  void* external = NULL;
  TfLiteOpaqueNode* node = NULL;
  TfLiteOperator* reg = NULL;
  TfLiteOpaqueContext* acquired = NULL;
  const int* list = NULL;
  int count = 0, fd = 0, index = 0;
  int64_t offset = 0, size = 0;
  size_t bytes = 0;
  const char* ptr = NULL;

  CHECK(TfLiteOpaqueContextGetExecutionPlan(NULL, &plan) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetExternalContext(NULL, &external, kTfLiteCpuBackendContext) !=
        kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetNodeAndRegistration(NULL, 0, &node, &reg) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(NULL, NULL, NULL, NULL) !=
        kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetOpaqueTensor(NULL, 0) == NULL);
  CHECK(TfLiteOpaqueContextGetInputs(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetOutputs(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetVariables(NULL, &list, &count) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetNumNodes(NULL) == 0);
  CHECK(TfLiteOpaqueContextGetNumTensors(NULL) == 0);
  CHECK(TfLiteOpaqueContextGetName(NULL) == NULL);
  CHECK(TfLiteOpaqueContextResizeTensor(NULL, NULL, NULL) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextAcquireSubgraphContext(NULL, 0, &acquired) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextReleaseSubgraphContext(NULL, 0) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(NULL, 0) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetNodeInitDataMmapInfo(NULL, NULL, &fd, &offset, &size) !=
        kTfLiteOk);
  CHECK(TfLiteOpaqueContextAddTensor(NULL, NULL, &index) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetSizeOfType(NULL, kTfLiteFloat32, &bytes) == kTfLiteOk &&
        bytes == 4); /* needs no context */
  CHECK(TfLiteOpaqueContextGetSizeOfType(NULL, kTfLiteFloat32, NULL) != kTfLiteOk);
  CHECK(TfLiteOpaqueContextGetMetadata(NULL, "name", &ptr, &bytes) != kTfLiteOk);
  TfLiteOpaqueContextReportError(NULL, "%s %d", "ignored", 1);
  report_va("%s %d", "ignored", 2);
}

static void delegate_functions(void) {
  TfLiteOpaqueDelegateBuilder builder = {0};
  TfLiteOpaqueDelegate* d;
  CHECK(TfLiteOpaqueDelegateCreate(NULL) == NULL);
  CHECK(TfLiteOpaqueDelegateGetData(NULL) == NULL);
  TfLiteOpaqueDelegateDelete(NULL);
  d = TfLiteOpaqueDelegateCreate(&builder);
  CHECK(d != NULL);
  CHECK(TfLiteOpaqueDelegateGetData(d) == NULL);
  TfLiteOpaqueDelegateDelete(d);
}

int main(void) {
  tensor_accessors();
  tensor_builder();
  node_accessors();
  context_accessors();
  delegate_functions();
  if (g_failures == 0) printf("opaque_null_args_test: all checks passed\n");
  return g_failures == 0 ? 0 : 1;
}
