// ABI conformance tests for the public C headers: struct layouts, option
// struct sizes, enum values and type names. The behaviour of the helpers in
// src/core/common.cc is tested in common_arrays_test.cc,
// common_tensor_test.cc, common_delegate_test.cc and common_macros_test.cc.
//
// The static_asserts mirror /work/shared/conformance/abi/abi_expected.txt
// (TensorFlow Lite 2.19 on x86-64); sizes of the builtin option structs were
// measured against upstream's headers.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

namespace {

#if defined(__LP64__) && UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu

// ---- layouts from abi_expected.txt ----------------------------------------
static_assert(sizeof(TfLiteTensor) == 112, "sizeof(TfLiteTensor)");
static_assert(sizeof(TfLiteNode) == 80, "sizeof(TfLiteNode)");
static_assert(sizeof(TfLiteContext) == 200, "sizeof(TfLiteContext)");
static_assert(sizeof(TfLiteRegistration) == 88, "sizeof(TfLiteRegistration)");
static_assert(sizeof(TfLiteDelegate) == 56, "sizeof(TfLiteDelegate)");
static_assert(sizeof(TfLiteDelegateParams) == 32, "sizeof(TfLiteDelegateParams)");
static_assert(sizeof(TfLiteIntArray) == 4, "sizeof(TfLiteIntArray)");
static_assert(sizeof(TfLiteQuantizationParams) == 8, "sizeof(TfLiteQuantizationParams)");
static_assert(sizeof(TfLiteQuantization) == 16, "sizeof(TfLiteQuantization)");
static_assert(sizeof(TfLiteAffineQuantization) == 24, "sizeof(TfLiteAffineQuantization)");
static_assert(sizeof(TfLiteEvalTensor) == 24, "sizeof(TfLiteEvalTensor)");
static_assert(sizeof(TfLiteCustomAllocation) == 16, "sizeof(TfLiteCustomAllocation)");
static_assert(sizeof(TfLiteSparsity) == 32, "sizeof(TfLiteSparsity)");
static_assert(offsetof(TfLiteTensor, type) == 0, "TfLiteTensor::type");
static_assert(offsetof(TfLiteTensor, data) == 8, "TfLiteTensor::data");
static_assert(offsetof(TfLiteTensor, dims) == 16, "TfLiteTensor::dims");
static_assert(offsetof(TfLiteTensor, params) == 24, "TfLiteTensor::params");
static_assert(offsetof(TfLiteTensor, allocation_type) == 32, "TfLiteTensor::allocation_type");
static_assert(offsetof(TfLiteTensor, bytes) == 40, "TfLiteTensor::bytes");
static_assert(offsetof(TfLiteTensor, allocation) == 48, "TfLiteTensor::allocation");
static_assert(offsetof(TfLiteTensor, name) == 56, "TfLiteTensor::name");
static_assert(offsetof(TfLiteTensor, delegate) == 64, "TfLiteTensor::delegate");
static_assert(offsetof(TfLiteTensor, buffer_handle) == 72, "TfLiteTensor::buffer_handle");
static_assert(offsetof(TfLiteTensor, data_is_stale) == 76, "TfLiteTensor::data_is_stale");
static_assert(offsetof(TfLiteTensor, is_variable) == 77, "TfLiteTensor::is_variable");
static_assert(offsetof(TfLiteTensor, quantization) == 80, "TfLiteTensor::quantization");
static_assert(offsetof(TfLiteTensor, sparsity) == 96, "TfLiteTensor::sparsity");
static_assert(offsetof(TfLiteTensor, dims_signature) == 104, "TfLiteTensor::dims_signature");
static_assert(offsetof(TfLiteNode, inputs) == 0, "TfLiteNode::inputs");
static_assert(offsetof(TfLiteNode, outputs) == 8, "TfLiteNode::outputs");
static_assert(offsetof(TfLiteNode, intermediates) == 16, "TfLiteNode::intermediates");
static_assert(offsetof(TfLiteNode, temporaries) == 24, "TfLiteNode::temporaries");
static_assert(offsetof(TfLiteNode, user_data) == 32, "TfLiteNode::user_data");
static_assert(offsetof(TfLiteNode, builtin_data) == 40, "TfLiteNode::builtin_data");
static_assert(offsetof(TfLiteNode, custom_initial_data) == 48, "TfLiteNode::custom_initial_data");
static_assert(offsetof(TfLiteNode, custom_initial_data_size) == 56, "TfLiteNode::custom_initial_data_size");
static_assert(offsetof(TfLiteNode, delegate) == 64, "TfLiteNode::delegate");
static_assert(offsetof(TfLiteNode, might_have_side_effect) == 72, "TfLiteNode::might_have_side_effect");
static_assert(offsetof(TfLiteContext, tensors_size) == 0, "TfLiteContext::tensors_size");
static_assert(offsetof(TfLiteContext, GetExecutionPlan) == 8, "TfLiteContext::GetExecutionPlan");
static_assert(offsetof(TfLiteContext, tensors) == 16, "TfLiteContext::tensors");
static_assert(offsetof(TfLiteContext, impl_) == 24, "TfLiteContext::impl_");
static_assert(offsetof(TfLiteContext, ResizeTensor) == 32, "TfLiteContext::ResizeTensor");
static_assert(offsetof(TfLiteContext, ReportError) == 40, "TfLiteContext::ReportError");
static_assert(offsetof(TfLiteContext, AddTensors) == 48, "TfLiteContext::AddTensors");
static_assert(offsetof(TfLiteContext, GetNodeAndRegistration) == 56, "TfLiteContext::GetNodeAndRegistration");
static_assert(offsetof(TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels) == 64, "TfLiteContext::ReplaceNodeSubsetsWithDelegateKernels");
static_assert(offsetof(TfLiteContext, recommended_num_threads) == 72, "TfLiteContext::recommended_num_threads");
static_assert(offsetof(TfLiteContext, GetExternalContext) == 80, "TfLiteContext::GetExternalContext");
static_assert(offsetof(TfLiteContext, SetExternalContext) == 88, "TfLiteContext::SetExternalContext");
static_assert(offsetof(TfLiteContext, allow_fp32_relax_to_fp16) == 96, "TfLiteContext::allow_fp32_relax_to_fp16");
static_assert(offsetof(TfLiteContext, profiler) == 104, "TfLiteContext::profiler");
static_assert(offsetof(TfLiteContext, AllocatePersistentBuffer) == 112, "TfLiteContext::AllocatePersistentBuffer");
static_assert(offsetof(TfLiteContext, AllocateBufferForEval) == 120, "TfLiteContext::AllocateBufferForEval");
static_assert(offsetof(TfLiteContext, RequestScratchBufferInArena) == 128, "TfLiteContext::RequestScratchBufferInArena");
static_assert(offsetof(TfLiteContext, GetScratchBuffer) == 136, "TfLiteContext::GetScratchBuffer");
static_assert(offsetof(TfLiteContext, ResizeTensorExplicit) == 144, "TfLiteContext::ResizeTensorExplicit");
static_assert(offsetof(TfLiteContext, PreviewDelegatePartitioning) == 152, "TfLiteContext::PreviewDelegatePartitioning");
static_assert(offsetof(TfLiteContext, GetTensor) == 160, "TfLiteContext::GetTensor");
static_assert(offsetof(TfLiteContext, GetEvalTensor) == 168, "TfLiteContext::GetEvalTensor");
static_assert(offsetof(TfLiteContext, GetModelMetadata) == 176, "TfLiteContext::GetModelMetadata");
static_assert(offsetof(TfLiteContext, AcquireSubgraphContext) == 184, "TfLiteContext::AcquireSubgraphContext");
static_assert(offsetof(TfLiteContext, ReleaseSubgraphContext) == 192, "TfLiteContext::ReleaseSubgraphContext");
static_assert(offsetof(TfLiteRegistration, init) == 0, "TfLiteRegistration::init");
static_assert(offsetof(TfLiteRegistration, free) == 8, "TfLiteRegistration::free");
static_assert(offsetof(TfLiteRegistration, prepare) == 16, "TfLiteRegistration::prepare");
static_assert(offsetof(TfLiteRegistration, invoke) == 24, "TfLiteRegistration::invoke");
static_assert(offsetof(TfLiteRegistration, profiling_string) == 32, "TfLiteRegistration::profiling_string");
static_assert(offsetof(TfLiteRegistration, builtin_code) == 40, "TfLiteRegistration::builtin_code");
static_assert(offsetof(TfLiteRegistration, custom_name) == 48, "TfLiteRegistration::custom_name");
static_assert(offsetof(TfLiteRegistration, version) == 56, "TfLiteRegistration::version");
static_assert(offsetof(TfLiteRegistration, registration_external) == 64, "TfLiteRegistration::registration_external");
static_assert(offsetof(TfLiteRegistration, async_kernel) == 72, "TfLiteRegistration::async_kernel");
static_assert(offsetof(TfLiteRegistration, inplace_operator) == 80, "TfLiteRegistration::inplace_operator");
static_assert(offsetof(TfLiteDelegate, data_) == 0, "TfLiteDelegate::data_");
static_assert(offsetof(TfLiteDelegate, Prepare) == 8, "TfLiteDelegate::Prepare");
static_assert(offsetof(TfLiteDelegate, CopyFromBufferHandle) == 16, "TfLiteDelegate::CopyFromBufferHandle");
static_assert(offsetof(TfLiteDelegate, CopyToBufferHandle) == 24, "TfLiteDelegate::CopyToBufferHandle");
static_assert(offsetof(TfLiteDelegate, FreeBufferHandle) == 32, "TfLiteDelegate::FreeBufferHandle");
static_assert(offsetof(TfLiteDelegate, flags) == 40, "TfLiteDelegate::flags");
static_assert(offsetof(TfLiteDelegate, opaque_delegate_builder) == 48, "TfLiteDelegate::opaque_delegate_builder");
static_assert(offsetof(TfLiteDelegateParams, delegate) == 0, "TfLiteDelegateParams::delegate");
static_assert(offsetof(TfLiteDelegateParams, nodes_to_replace) == 8, "TfLiteDelegateParams::nodes_to_replace");
static_assert(offsetof(TfLiteDelegateParams, input_tensors) == 16, "TfLiteDelegateParams::input_tensors");
static_assert(offsetof(TfLiteDelegateParams, output_tensors) == 24, "TfLiteDelegateParams::output_tensors");
static_assert(offsetof(TfLiteQuantization, type) == 0, "TfLiteQuantization::type");
static_assert(offsetof(TfLiteQuantization, params) == 8, "TfLiteQuantization::params");
static_assert(offsetof(TfLiteAffineQuantization, scale) == 0, "TfLiteAffineQuantization::scale");
static_assert(offsetof(TfLiteAffineQuantization, zero_point) == 8, "TfLiteAffineQuantization::zero_point");
static_assert(offsetof(TfLiteAffineQuantization, quantized_dimension) == 16, "TfLiteAffineQuantization::quantized_dimension");
static_assert(kTfLiteFloat32 == 1, "kTfLiteFloat32");
static_assert(kTfLiteInt8 == 9, "kTfLiteInt8");
static_assert(kTfLiteFloat16 == 10, "kTfLiteFloat16");
static_assert(kTfLiteInt4 == 18, "kTfLiteInt4");
static_assert(kTfLiteBFloat16 == 19, "kTfLiteBFloat16");
static_assert(kTfLiteOk == 0, "kTfLiteOk");
static_assert(kTfLiteError == 1, "kTfLiteError");
static_assert(kTfLiteDelegateError == 2, "kTfLiteDelegateError");
static_assert(kTfLiteApplicationError == 3, "kTfLiteApplicationError");
static_assert(kTfLiteDelegateDataNotFound == 4, "kTfLiteDelegateDataNotFound");
static_assert(kTfLiteDelegateDataWriteError == 5, "kTfLiteDelegateDataWriteError");
static_assert(kTfLiteDelegateDataReadError == 6, "kTfLiteDelegateDataReadError");
static_assert(kTfLiteUnresolvedOps == 7, "kTfLiteUnresolvedOps");
static_assert(kTfLiteCancelled == 8, "kTfLiteCancelled");
static_assert(kTfLiteOutputShapeNotKnown == 9, "kTfLiteOutputShapeNotKnown");
static_assert(kTfLiteMmapRo == 1, "kTfLiteMmapRo");
static_assert(kTfLiteArenaRw == 2, "kTfLiteArenaRw");
static_assert(kTfLiteDynamic == 4, "kTfLiteDynamic");
static_assert(kTfLiteCustom == 6, "kTfLiteCustom");
static_assert(kTfLiteVariantObject == 7, "kTfLiteVariantObject");
static_assert(kTfLiteNonCpu == 8, "kTfLiteNonCpu");
static_assert(kTfLitePersistentRo == 5, "kTfLitePersistentRo");
static_assert(kTfLiteDelegateFlagsAllowDynamicTensors == 1, "kTfLiteDelegateFlagsAllowDynamicTensors");
static_assert(kTfLiteDelegateFlagsRequirePropagatedShapes == 2, "kTfLiteDelegateFlagsRequirePropagatedShapes");
static_assert(kTfLiteDelegateFlagsPerOperatorProfiling == 4, "kTfLiteDelegateFlagsPerOperatorProfiling");

// ---- the rest of the common.h structs -------------------------------------
static_assert(sizeof(TfLiteFloatArray) == 4, "");
static_assert(sizeof(TfLiteComplex64) == 8, "");
static_assert(sizeof(TfLiteComplex128) == 16, "");
static_assert(sizeof(TfLiteFloat16) == 2, "");
static_assert(sizeof(TfLiteBFloat16) == 2, "");
static_assert(sizeof(TfLitePtrUnion) == 8, "");
static_assert(sizeof(TfLiteExternalContext) == 16, "");
static_assert(offsetof(TfLiteExternalContext, Refresh) == 8, "");
static_assert(sizeof(TfLiteDimensionMetadata) == 24, "");
static_assert(offsetof(TfLiteDimensionMetadata, dense_size) == 4, "");
static_assert(offsetof(TfLiteDimensionMetadata, array_segments) == 8, "");
static_assert(offsetof(TfLiteDimensionMetadata, array_indices) == 16, "");
static_assert(offsetof(TfLiteSparsity, traversal_order) == 0, "");
static_assert(offsetof(TfLiteSparsity, block_map) == 8, "");
static_assert(offsetof(TfLiteSparsity, dim_metadata) == 16, "");
static_assert(offsetof(TfLiteSparsity, dim_metadata_size) == 24, "");
static_assert(offsetof(TfLiteCustomAllocation, bytes) == 8, "");
static_assert(offsetof(TfLiteEvalTensor, data) == 0, "");
static_assert(offsetof(TfLiteEvalTensor, dims) == 8, "");
static_assert(offsetof(TfLiteEvalTensor, type) == 16, "");
static_assert(sizeof(TfLiteOpaqueDelegateParams) == 40, "");
static_assert(offsetof(TfLiteOpaqueDelegateParams, delegate_data) == 8, "");
static_assert(offsetof(TfLiteOpaqueDelegateParams, output_tensors) == 32, "");
static_assert(sizeof(TfLiteOpaqueDelegateBuilder) == 48, "");
static_assert(offsetof(TfLiteOpaqueDelegateBuilder, flags) == 40, "");
static_assert(sizeof(TfLiteRegistration_V1) == 64, "");
static_assert(sizeof(TfLiteRegistration_V2) == 72, "");
static_assert(sizeof(TfLiteRegistration_V3) == 80, "");
static_assert(offsetof(TfLiteRegistration_V3, async_kernel) == 72, "");

// ---- builtin option structs (sizes measured on upstream 2.19 headers) -----
static_assert(sizeof(EmptyStructPlaceholder) == 1, "sizeof(EmptyStructPlaceholder)");
static_assert(sizeof(TfLitePaddingValues) == 16, "sizeof(TfLitePaddingValues)");
static_assert(sizeof(TfLiteMirrorPaddingParams) == 4, "sizeof(TfLiteMirrorPaddingParams)");
static_assert(sizeof(TfLiteConvParams) == 28, "sizeof(TfLiteConvParams)");
static_assert(sizeof(TfLiteConv3DParams) == 32, "sizeof(TfLiteConv3DParams)");
static_assert(sizeof(TfLitePoolParams) == 40, "sizeof(TfLitePoolParams)");
static_assert(sizeof(TfLiteDepthwiseConvParams) == 28, "sizeof(TfLiteDepthwiseConvParams)");
static_assert(sizeof(TfLiteTransposeConvParams) == 20, "sizeof(TfLiteTransposeConvParams)");
static_assert(sizeof(TfLiteSVDFParams) == 12, "sizeof(TfLiteSVDFParams)");
static_assert(sizeof(TfLiteRNNParams) == 8, "sizeof(TfLiteRNNParams)");
static_assert(sizeof(TfLiteSequenceRNNParams) == 12, "sizeof(TfLiteSequenceRNNParams)");
static_assert(sizeof(TfLiteBidirectionalSequenceRNNParams) == 12, "sizeof(TfLiteBidirectionalSequenceRNNParams)");
static_assert(sizeof(TfLiteLSTMParams) == 20, "sizeof(TfLiteLSTMParams)");
static_assert(sizeof(TfLiteUnidirectionalSequenceLSTMParams) == 16, "sizeof(TfLiteUnidirectionalSequenceLSTMParams)");
static_assert(sizeof(TfLiteBidirectionalSequenceLSTMParams) == 16, "sizeof(TfLiteBidirectionalSequenceLSTMParams)");
static_assert(sizeof(TfLiteFullyConnectedParams) == 16, "sizeof(TfLiteFullyConnectedParams)");
static_assert(sizeof(TfLiteBatchMatMulParams) == 3, "sizeof(TfLiteBatchMatMulParams)");
static_assert(sizeof(TfLiteLSHProjectionParams) == 4, "sizeof(TfLiteLSHProjectionParams)");
static_assert(sizeof(TfLiteSoftmaxParams) == 4, "sizeof(TfLiteSoftmaxParams)");
static_assert(sizeof(TfLiteConcatenationParams) == 8, "sizeof(TfLiteConcatenationParams)");
static_assert(sizeof(TfLiteAddParams) == 8, "sizeof(TfLiteAddParams)");
static_assert(sizeof(TfLiteSpaceToBatchNDParams) == 1, "sizeof(TfLiteSpaceToBatchNDParams)");
static_assert(sizeof(TfLiteBatchToSpaceNDParams) == 1, "sizeof(TfLiteBatchToSpaceNDParams)");
static_assert(sizeof(TfLiteMulParams) == 4, "sizeof(TfLiteMulParams)");
static_assert(sizeof(TfLiteSubParams) == 8, "sizeof(TfLiteSubParams)");
static_assert(sizeof(TfLiteDivParams) == 4, "sizeof(TfLiteDivParams)");
static_assert(sizeof(TfLiteL2NormParams) == 4, "sizeof(TfLiteL2NormParams)");
static_assert(sizeof(TfLiteLocalResponseNormParams) == 16, "sizeof(TfLiteLocalResponseNormParams)");
static_assert(sizeof(TfLiteLeakyReluParams) == 4, "sizeof(TfLiteLeakyReluParams)");
static_assert(sizeof(TfLiteGeluParams) == 1, "sizeof(TfLiteGeluParams)");
static_assert(sizeof(TfLiteResizeBilinearParams) == 2, "sizeof(TfLiteResizeBilinearParams)");
static_assert(sizeof(TfLiteResizeNearestNeighborParams) == 2, "sizeof(TfLiteResizeNearestNeighborParams)");
static_assert(sizeof(TfLitePadParams) == 1, "sizeof(TfLitePadParams)");
static_assert(sizeof(TfLitePadV2Params) == 1, "sizeof(TfLitePadV2Params)");
static_assert(sizeof(TfLiteReshapeParams) == 36, "sizeof(TfLiteReshapeParams)");
static_assert(sizeof(TfLiteSkipGramParams) == 12, "sizeof(TfLiteSkipGramParams)");
static_assert(sizeof(TfLiteSpaceToDepthParams) == 4, "sizeof(TfLiteSpaceToDepthParams)");
static_assert(sizeof(TfLiteDepthToSpaceParams) == 4, "sizeof(TfLiteDepthToSpaceParams)");
static_assert(sizeof(TfLiteCastParams) == 8, "sizeof(TfLiteCastParams)");
static_assert(sizeof(TfLiteEmbeddingLookupSparseParams) == 4, "sizeof(TfLiteEmbeddingLookupSparseParams)");
static_assert(sizeof(TfLiteGatherParams) == 8, "sizeof(TfLiteGatherParams)");
static_assert(sizeof(TfLiteTransposeParams) == 1, "sizeof(TfLiteTransposeParams)");
static_assert(sizeof(TfLiteReducerParams) == 1, "sizeof(TfLiteReducerParams)");
static_assert(sizeof(TfLiteSplitParams) == 4, "sizeof(TfLiteSplitParams)");
static_assert(sizeof(TfLiteSplitVParams) == 4, "sizeof(TfLiteSplitVParams)");
static_assert(sizeof(TfLiteSqueezeParams) == 36, "sizeof(TfLiteSqueezeParams)");
static_assert(sizeof(TfLiteStridedSliceParams) == 24, "sizeof(TfLiteStridedSliceParams)");
static_assert(sizeof(TfLiteArgMaxParams) == 4, "sizeof(TfLiteArgMaxParams)");
static_assert(sizeof(TfLiteArgMinParams) == 4, "sizeof(TfLiteArgMinParams)");
static_assert(sizeof(TfLiteSparseToDenseParams) == 1, "sizeof(TfLiteSparseToDenseParams)");
static_assert(sizeof(TfLiteShapeParams) == 4, "sizeof(TfLiteShapeParams)");
static_assert(sizeof(TfLiteRankParams) == 1, "sizeof(TfLiteRankParams)");
static_assert(sizeof(TfLiteFakeQuantParams) == 16, "sizeof(TfLiteFakeQuantParams)");
static_assert(sizeof(TfLitePackParams) == 8, "sizeof(TfLitePackParams)");
static_assert(sizeof(TfLiteOneHotParams) == 4, "sizeof(TfLiteOneHotParams)");
static_assert(sizeof(TfLiteUnpackParams) == 8, "sizeof(TfLiteUnpackParams)");
static_assert(sizeof(TfLiteUniqueParams) == 4, "sizeof(TfLiteUniqueParams)");
static_assert(sizeof(TfLiteReverseSequenceParams) == 8, "sizeof(TfLiteReverseSequenceParams)");
static_assert(sizeof(TfLiteMatrixDiagParams) == 1, "sizeof(TfLiteMatrixDiagParams)");
static_assert(sizeof(TfLiteMatrixSetDiagParams) == 1, "sizeof(TfLiteMatrixSetDiagParams)");
static_assert(sizeof(TfLiteIfParams) == 8, "sizeof(TfLiteIfParams)");
static_assert(sizeof(TfLiteWhileParams) == 8, "sizeof(TfLiteWhileParams)");
static_assert(sizeof(TfLiteCumsumParams) == 2, "sizeof(TfLiteCumsumParams)");
static_assert(sizeof(TfLiteCallOnceParams) == 4, "sizeof(TfLiteCallOnceParams)");
static_assert(sizeof(TfLiteHashtableParams) == 12, "sizeof(TfLiteHashtableParams)");
static_assert(sizeof(TfLiteVarHandleParams) == 16, "sizeof(TfLiteVarHandleParams)");
static_assert(sizeof(TfLiteRandomParams) == 8, "sizeof(TfLiteRandomParams)");
static_assert(sizeof(TfLiteBucketizeParams) == 16, "sizeof(TfLiteBucketizeParams)");
static_assert(sizeof(TfLiteStablehloConcatenateParams) == 8, "sizeof(TfLiteStablehloConcatenateParams)");
static_assert(sizeof(TfLiteStablehloScatterParams) == 240, "sizeof(TfLiteStablehloScatterParams)");
static_assert(sizeof(TfLiteStablehloRngBitGeneratorParams) == 4, "sizeof(TfLiteStablehloRngBitGeneratorParams)");
static_assert(sizeof(TfLiteStablehloGatherParams) == 296, "sizeof(TfLiteStablehloGatherParams)");
static_assert(sizeof(TfLiteStablehloReduceWindowParams) == 392, "sizeof(TfLiteStablehloReduceWindowParams)");
static_assert(sizeof(TfLiteReduceWindowParams) == 4, "sizeof(TfLiteReduceWindowParams)");
static_assert(sizeof(TfLiteStablehloPadParams) == 192, "sizeof(TfLiteStablehloPadParams)");
static_assert(sizeof(TfLiteStablehloCompositeParams) == 32, "sizeof(TfLiteStablehloCompositeParams)");
static_assert(sizeof(TfLiteStablehloCaseParams) == 84, "sizeof(TfLiteStablehloCaseParams)");
static_assert(sizeof(TfLiteConv3DTransposeParams) == 32, "sizeof(TfLiteConv3DTransposeParams)");

static_assert(offsetof(TfLiteConvParams, quantized_bias_type) == 24, "");
static_assert(offsetof(TfLiteFullyConnectedParams, keep_num_dims) == 8, "");
static_assert(offsetof(TfLiteFullyConnectedParams, quantized_bias_type) == 12,
              "");
static_assert(offsetof(TfLitePoolParams, computed) == 24, "");
static_assert(offsetof(TfLiteReshapeParams, num_dimensions) == 32, "");
static_assert(offsetof(TfLiteStablehloCompositeParams, attributes) == 16, "");
static_assert(offsetof(TfLiteStablehloCaseParams, num_branches) == 80, "");

#endif  // LP64

// ---- enum values (platform independent) ------------------------------------
static_assert(kTfLiteNoType == 0 && kTfLiteInt32 == 2 && kTfLiteUInt8 == 3 &&
                  kTfLiteInt64 == 4 && kTfLiteString == 5 && kTfLiteBool == 6 &&
                  kTfLiteInt16 == 7 && kTfLiteComplex64 == 8 &&
                  kTfLiteFloat64 == 11 && kTfLiteComplex128 == 12 &&
                  kTfLiteUInt64 == 13 && kTfLiteResource == 14 &&
                  kTfLiteVariant == 15 && kTfLiteUInt32 == 16 &&
                  kTfLiteUInt16 == 17,
              "TfLiteType");
static_assert(kTfLiteMemNone == 0 && kTfLiteArenaRwPersistent == 3, "");
static_assert(kTfLiteNoQuantization == 0 && kTfLiteAffineQuantization == 1,
              "");
static_assert(kTfLiteDimDense == 0 && kTfLiteDimSparseCSR == 1, "");
static_assert(kTfLiteNullBufferHandle == -1, "");
static_assert(kTfLiteOptionalTensor == -1, "");
static_assert(kTfLiteMaxExternalContexts == 5, "");
static_assert(kTfLiteCpuBackendContext == 3, "");
static_assert(kTfLiteDelegateFlagsNone == 0, "");
static_assert(kTfLiteInplaceOpInput2Shared == 16, "");
static_assert(sizeof(TfLiteInPlaceOp) == 8, "64-bit underlying type");
static_assert(kTfLiteAllocationStrategyNew == 5, "");
static_assert(kTfLiteRunStabilityAcrossRuns == 3, "");
static_assert(kTfLiteRunStepEval == 3, "");
static_assert(kTfLitePaddingSame == 1 && kTfLitePaddingValid == 2, "");
static_assert(kTfLiteActRelu6 == 3 && kTfLiteActSigmoid == 6, "");
static_assert(kTfLiteBuiltinAdd == 0 && kTfLiteBuiltinConv2d == 3 &&
                  kTfLiteBuiltinFullyConnected == 9 &&
                  kTfLiteBuiltinSoftmax == 25 && kTfLiteBuiltinCustom == 32 &&
                  kTfLiteBuiltinDelegate == 51 &&
                  kTfLiteBuiltinPlaceholderForGreaterOpCodes == 127 &&
                  kTfLiteBuiltinBatchMatmul == 126 &&
                  kTfLiteBuiltinCumsum == 128 &&
                  kTfLiteBuiltinStablehloLogistic == 162 &&
                  kTfLiteBuiltinStablehloComposite == 206 &&
                  kTfLiteBuiltinStablehloCase == 209,
              "TfLiteBuiltinOperator");

TEST(Types, GetNameForEveryType) {
  struct Case {
    TfLiteType type;
    const char* name;
  };
  const Case cases[] = {
      {kTfLiteNoType, "NOTYPE"},       {kTfLiteFloat32, "FLOAT32"},
      {kTfLiteInt32, "INT32"},         {kTfLiteUInt8, "UINT8"},
      {kTfLiteInt64, "INT64"},         {kTfLiteString, "STRING"},
      {kTfLiteBool, "BOOL"},           {kTfLiteInt16, "INT16"},
      {kTfLiteComplex64, "COMPLEX64"}, {kTfLiteInt8, "INT8"},
      {kTfLiteFloat16, "FLOAT16"},     {kTfLiteFloat64, "FLOAT64"},
      {kTfLiteComplex128, "COMPLEX128"}, {kTfLiteUInt64, "UINT64"},
      {kTfLiteResource, "RESOURCE"},   {kTfLiteVariant, "VARIANT"},
      {kTfLiteUInt32, "UINT32"},       {kTfLiteUInt16, "UINT16"},
      {kTfLiteInt4, "INT4"},           {kTfLiteBFloat16, "BFLOAT16"},
  };
  std::set<int> seen;
  for (const Case& c : cases) {
    EXPECT_STREQ(TfLiteTypeGetName(c.type), c.name) << c.type;
    seen.insert(c.type);
  }
  EXPECT_EQ(seen.size(), 20u);  // every value 0..19
  EXPECT_STREQ(TfLiteTypeGetName(static_cast<TfLiteType>(20)), "Unknown type");
  EXPECT_STREQ(TfLiteTypeGetName(static_cast<TfLiteType>(-1)), "Unknown type");
  EXPECT_STREQ(TfLiteTypeGetName(static_cast<TfLiteType>(1000)),
               "Unknown type");
}

}  // namespace
