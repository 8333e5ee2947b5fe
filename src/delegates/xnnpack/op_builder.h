// Internal to the XNNPACK delegate: OpBuilder decides whether XNNPACK can run
// one TFLite node and, given an xnn_subgraph, defines it there. Checking and
// defining share one code path (subgraph == nullptr only checks), so a node is
// claimed only if it can actually be built.
//
//   op_builder.cc      tensor/value support checks, quantization rules, the
//                      op dispatch (Visit: a table from builtin code to
//                      visitor) and how tensors become values
//   ops_compute.cc     convolutions, fully connected, pooling, batch matmul,
//                      element-wise unary/binary ops, softmax, mean, sum
//   ops_hybrid.cc      float32 convolutions / fully connected with int8
//                      weights, dynamically quantized (helpers of the above)
//   ops_mediapipe.cc   MediaPipe custom ops (transposed conv with bias,
//                      argmax pooling / unpooling pairs)
//   ops_layout.cc      pad, concatenation, reshape, slice, strided slice,
//                      transpose, split, depth/space, resize, (de)quantize
//   ops_attention.cc   STABLEHLO_COMPOSITE odml.scaled_dot_product_attention
//   sparse_weights.cc  DENSIFY of sparse constants, done once at prepare
//   xnnpack_delegate.cc  the delegate object, node selection and C API
//   kernel.cc          the kernel of one partition (builds the subgraph)
//
// Another builtin operator: a Visit* function (checks, then `if
// (!Defining()) return kTfLiteOk;`, then the xnn_define_* call), one line in
// OpBuilder::Visitors::kTable, and a case in ValueTensors if some of its
// inputs are not values (shapes, axes). Refusals go through Fail.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_OP_BUILDER_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_OP_BUILDER_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xnnpack.h>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// The attention composite / custom op name (ops_attention.cc).
inline constexpr char kSdpa[] = "odml.scaled_dot_product_attention";

using StaticData = std::shared_ptr<std::vector<float>>;
// Tensor index -> float32 contents, for outputs of fp16-constant DEQUANTIZE.
using StaticMap = std::unordered_map<int, StaticData>;

// IEEE half -> float.
float HalfToFloat(uint16_t h);

// Sparse weights (sparse_weights.cc): each DENSIFY of a read-only sparse
// float32 / float16 / int8 constant is done here, once. The float32 (for int8:
// int8, with the DENSIFY output's quantization) result goes to
// `statics` under the tensor the delegate reads (the DENSIFY output, or for
// float16 the output of the single DEQUANTIZE reading it), with the node
// producing that tensor in `producer`. `follows` gets (DENSIFY, DEQUANTIZE)
// node pairs: such a DENSIFY is delegated exactly when its DEQUANTIZE is.
void UnpackSparseWeights(TfLiteContext* context, StaticMap* statics,
                         std::unordered_map<int, int>* producer,
                         std::vector<std::pair<int, int>>* follows);

// Which quantized paths are enabled (TFLITE_XNNPACK_DELEGATE_FLAG_QS8/QU8;
// `dynamic`: float32 ops with int8 weights run dynamically quantized, unless
// TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_DYNAMICALLY_QUANTIZED_OPS).
struct QuantFlags {
  bool qs8 = true;
  bool qu8 = true;
  bool dynamic = true;
};

class OpBuilder {
 public:
  OpBuilder(TfLiteContext* context, const StaticMap* statics, QuantFlags quant,
            xnn_subgraph_t subgraph, const std::vector<uint32_t>* ids)
      : context_(context), statics_(statics), quant_(quant), subgraph_(subgraph), ids_(ids) {}

  // The partition being defined (its nodes and the tensors read after it).
  void SetPartition(const TfLiteDelegateParams* partition) { partition_ = partition; }
  // A spatial PAD folded into the VALID CONV_2D / DEPTHWISE_CONV_2D reading
  // its output (the delegate does it: this XNNPACK's own fusion misses
  // int8 zero points below 0): the conv reads `input` with these paddings.
  struct FusedPad {
    int input;
    uint32_t top, right, bottom, left;
  };
  // Conv input tensor -> the PAD folded into it (not owned; may be null).
  void SetFusedPads(const std::unordered_map<int, FusedPad>* pads) { fused_pads_ = pads; }
  // Where constants made up while defining (not model tensors) are kept: they
  // must live as long as the runtime (the kernel owns `keep`).
  void SetConstants(std::vector<StaticData>* keep) { constants_ = keep; }

  // Whether `reg` at `node` can run on XNNPACK; with a subgraph, also defines it.
  TfLiteStatus Visit(int node_index, const TfLiteNode* node, const TfLiteRegistration* reg);

  // A constant: read-only model data or an unpacked fp16 weight.
  bool IsStatic(int t) const;
  // The XNNPACK datatype tensor `t` is defined with (xnn_datatype_invalid if
  // it cannot be an XNNPACK value).
  xnn_datatype Datatype(int t) const;
  // Defines tensor `t` as value `*id` of `subgraph`.
  xnn_status DefineValue(xnn_subgraph_t subgraph, int t, uint32_t external_id, uint32_t flags,
                         uint32_t* id) const;

  // Custom operators (by name) Visit may take: MediaPipe's
  // Convolution2DTransposeBias, MaxPoolingWithArgmax2D and MaxUnpooling2D.
  static bool KnownCustomOp(const char* custom_name);

  // The tensors a node reads/writes as values (not shape/axes/size inputs).
  static void ValueTensors(int builtin_code, const TfLiteNode* node, std::vector<int>* out);

 private:
  // Visit's table from builtin code to the Visit* function (op_builder.cc).
  struct Visitors;

  bool Defining() const { return subgraph_ != nullptr; }
  // Refuses the node: returns kTfLiteError, and while defining (not while
  // only checking) reports "node #<index>: <message>" (report.h).
  TfLiteStatus Fail(const char* format, ...) __attribute__((format(printf, 2, 3)));
  TfLiteStatus Check(xnn_status s, const char* what);

  // Tensors are named by their index `t` in the context (-1: none).
  const TfLiteTensor& TensorAt(int t) const { return context_->tensors[t]; }
  // The XNNPACK value tensor `t` was defined as (only while defining).
  uint32_t ValueIdOf(int t) const { return (*ids_)[t]; }
  int NumDims(int t) const { return TensorAt(t).dims ? TensorAt(t).dims->size : -1; }
  int Dim(int t, int i) const { return TensorAt(t).dims->data[i]; }
  bool ValidIndex(int t) const {
    return t >= 0 && t < static_cast<int>(context_->tensors_size);
  }
  // Fixed shape with rank in [min_rank, max_rank] and every dimension > 0.
  bool GoodShape(int t, int min_rank, int max_rank) const;
  const void* StaticPointer(int t) const;
  bool StaticInts(int t, std::vector<int64_t>* out) const;

  // Float32 tensors (static fp16-dequantized ones count as float32).
  bool IsFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const;
  bool IsDynamicFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const;
  bool IsStaticFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const;

  // Per-tensor quantized int8 (QS8 on) or uint8 (QU8 on) tensor.
  bool IsQuantized(int t) const;
  float Scale(int t) const;
  int32_t ZeroPoint(int t) const;
  bool SameQuantization(int a, int b) const;
  // A non-constant "activation" value: float32, or per-tensor QS8/QU8.
  bool IsActivation(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const;
  // Activation `t` and `u` have the same datatype.
  bool SameType(int t, int u) const { return Datatype(t) == Datatype(u); }
  // Activations (and static float/quantized inputs) of data-movement ops:
  // same datatype and, when quantized, same scale and zero point.
  bool MovesData(int in, int out) const;

  // Weights of a quantized conv/FC: int8 per-tensor or per-channel (zero
  // points 0, per-channel along `channel_dim`) or uint8 per-tensor, static.
  bool IsQuantizedFilter(int filter, int input, int channel_dim, int channels) const;
  bool IsQuantizedBias(int bias, int filter, int channels) const;
  // Float32 input, quantized or (`allow_hybrid`, see IsHybridFilter) int8
  // weights: the filter, bias and output types a conv/FC takes.
  TfLiteStatus CheckFilterAndBias(int in, int filter, int bias, int out, int channel_dim,
                                  int channels, bool allow_hybrid = false);
  // Dynamically quantized ("hybrid", dynamic-range) weights, as upstream
  // delegates them: a float32 input with a static INT8 filter (one scale, or
  // one per output channel along `channel_dim`, zero points 0) while QS8 and
  // dynamically quantized ops are enabled. XNNPACK then quantizes the input
  // itself (DefineDynamicallyQuantized) and multiplies in int8.
  // A FULLY_CONNECTED layer's static INT4 [out, in] matrix also qualifies
  // (IsInt4MatrixFilter).
  bool IsHybridFilter(int in, int filter, int channel_dim, int channels) const;
  bool IsInt4MatrixFilter(int filter, int channel_dim, int channels) const;
  // The hybrid filter as a qcint8 (INT4: qcint4) value with one scale per
  // output channel (`as_matrix`: shaped [channels, rest], channel_dim 0).
  TfLiteStatus DefineHybridFilter(int filter, int channel_dim, int channels, uint32_t* id,
                                  bool as_matrix = false);
  // Float32 value `src` (shape `rank`/`dims`) converted to a qdint8 value
  // `*id`, with one scale and zero point per slice of its last
  // `nonbatch_dims` dimensions.
  TfLiteStatus DefineDynamicallyQuantized(uint32_t src, int rank, const size_t* dims,
                                          size_t nonbatch_dims, uint32_t* id);
  // The same, for value `src` holding tensor `tensor` (its shape).
  TfLiteStatus DefineDynamicallyQuantized(uint32_t src, int tensor, size_t nonbatch_dims,
                                          uint32_t* id);

  static bool ActivationRange(TfLiteFusedActivation a, float* lo, float* hi);
  // Shared checks of conv/pool parameters: the fused activation (its clamp
  // range into lo/hi), positive strides and window (dilations or filter size;
  // `invalid` is the failure message) and SAME/VALID padding.
  TfLiteStatus CheckWindow(TfLiteFusedActivation activation, int stride_w, int stride_h, int a,
                           int b, TfLitePadding padding, const char* invalid, float* lo,
                           float* hi);
  // Refuses (without taking the node) a convolution window the builtin
  // kernels refuse: overflowing spans, strides or output sizes.
  TfLiteStatus CheckConvGeometry(int in, int filter_h, int filter_w, const TfLiteConvParams& p);
  TfLiteStatus CheckConvGeometry(int in, int filter_h, int filter_w, TfLitePadding padding,
                                 int stride_h, int stride_w, int dilation_h, int dilation_w);

  // The tensor index of input / output `i` of node `n` (-1 past the last).
  int InputTensor(const TfLiteNode* n, int i) const {
    return i < n->inputs->size ? n->inputs->data[i] : -1;
  }
  int OutputTensor(const TfLiteNode* n, int i) const {
    return i < n->outputs->size ? n->outputs->data[i] : -1;
  }
  bool Arity(const TfLiteNode* n, int min_in, int max_in, int outs) const {
    return n->inputs->size >= min_in && n->inputs->size <= max_in && n->outputs->size == outs;
  }

  // ops_compute.cc
  // CONV_2D / DEPTHWISE_CONV_2D (their params): 4-D activation input and
  // output, 4-D filter (output channels along `channel_dim`), optional bias
  // (-1) of the filter's channel count, CheckFilterAndBias and CheckWindow.
  struct ConvNode {
    int in, filter, bias, out;  // tensors
    float lo, hi;               // the fused activation's clamp
  };
  template <typename ConvParams>
  TfLiteStatus CheckConvNode(const TfLiteNode* n, const ConvParams& p, int channel_dim,
                             bool allow_hybrid, ConvNode* c);
  TfLiteStatus VisitConv2d(const TfLiteNode* n, const TfLiteConvParams* p);
  TfLiteStatus VisitDepthwiseConv2d(const TfLiteNode* n, const TfLiteDepthwiseConvParams* p);
  TfLiteStatus VisitTransposeConv(const TfLiteNode* n, const TfLiteTransposeConvParams* p);
  // Transposed convolution of checked tensors (filter [oc, kh, kw, ic])
  // whose output size is taken from `out`: paddings and adjustment as TFLite.
  TfLiteStatus DefineDeconvolution(int in, int filter, int bias, int out, TfLitePadding padding,
                                   int stride_h, int stride_w, float lo, float hi);
  TfLiteStatus VisitFullyConnected(const TfLiteNode* n, const TfLiteFullyConnectedParams* p);
  // A hybrid fully connected layer's input `in` quantized per row of `ic`
  // values (reshaped to 2-D first when `flags` ask TFLite's flattening,
  // which is then cleared).
  TfLiteStatus DefineHybridFullyConnectedInput(int in, int ic, uint32_t* flags, uint32_t* id);
  TfLiteStatus VisitBatchMatMul(const TfLiteNode* n, const TfLiteBatchMatMulParams* p);
  // Its steps: the checks of a static int8 B (hybrid: A is quantized
  // dynamically); A with its last two dimensions swapped (adj_x; `dims`, A's
  // shape, is swapped too); the hybrid definition.
  TfLiteStatus CheckHybridBatchMatMulB(int a, int b, int out, const TfLiteBatchMatMulParams* p);
  TfLiteStatus DefineTransposedMatrices(uint32_t in, int rank, size_t* dims, uint32_t* transposed);
  TfLiteStatus DefineHybridBatchMatMul(uint32_t lhs, int rank, const size_t* lhs_dims, int b,
                                       int out, int columns, uint32_t flags,
                                       const TfLiteBatchMatMulParams* p);
  TfLiteStatus VisitPool(const TfLiteNode* n, bool max, const TfLitePoolParams* p);
  TfLiteStatus VisitBinary(const TfLiteNode* n, int builtin_code, xnn_binary_operator op,
                           TfLiteFusedActivation act);
  TfLiteStatus VisitClamp(const TfLiteNode* n, float lo, float hi);
  // (RSQRT is left to the builtin kernel: XNNPACK's gives NaN, not inf, at 0.)
  TfLiteStatus VisitUnary(const TfLiteNode* n, xnn_unary_operator op,
                          const xnn_unary_params* params = nullptr);
  TfLiteStatus VisitPrelu(const TfLiteNode* n);
  TfLiteStatus VisitSoftmax(const TfLiteNode* n, const TfLiteSoftmaxParams* p);
  // MEAN and SUM.
  TfLiteStatus VisitReduce(const TfLiteNode* n, const TfLiteReducerParams* p,
                           xnn_reduce_operator op);

  // ops_mediapipe.cc: MediaPipe custom operators (by custom_name).
  TfLiteStatus VisitCustom(const TfLiteNode* n, const TfLiteRegistration* reg);
  TfLiteStatus VisitTransposeConvBias(const TfLiteNode* n);
  TfLiteStatus VisitArgmaxPool(const TfLiteNode* n, bool pair_check);
  TfLiteStatus VisitUnpool(const TfLiteNode* n, bool pair_check);
  // Whether the argmax pooling at `node_index` and every reader of its
  // indices (all MaxUnpooling2D) can run on XNNPACK together.
  bool ArgmaxPairSupported(int node_index);
  // When defining: whether argmax `indices` are read after the partition
  // by no node outside it (so they are a model output).
  bool IndicesLeaveTheModel(int indices);

  // ops_attention.cc: STABLEHLO_COMPOSITE (scaled dot-product attention
  // only) and the custom op of that name (flexbuffer attributes in both).
  static bool IsSdpaComposite(const TfLiteNode* n);
  struct Sdpa;  // one attention node: checks and the graph defining it
  TfLiteStatus VisitComposite(const TfLiteNode* n);
  TfLiteStatus VisitScaledDotProductAttention(const TfLiteNode* n, const void* attributes,
                                              size_t attributes_size);

  // ops_layout.cc
  TfLiteStatus VisitPad(const TfLiteNode* n);
  TfLiteStatus VisitConcatenation(const TfLiteNode* n, const TfLiteConcatenationParams* p);
  TfLiteStatus VisitReshape(const TfLiteNode* n);
  TfLiteStatus VisitSlice(const TfLiteNode* n);
  TfLiteStatus VisitStridedSlice(const TfLiteNode* n, const TfLiteStridedSliceParams* p);
  TfLiteStatus VisitTranspose(const TfLiteNode* n);
  TfLiteStatus VisitSplit(const TfLiteNode* n, const TfLiteSplitParams* p);
  // DEPTH_TO_SPACE / SPACE_TO_DEPTH: 4-D data moved, block size > 1.
  TfLiteStatus CheckBlockRearrangement(const TfLiteNode* n, int block_size, int* in, int* out);
  TfLiteStatus VisitDepthToSpace(const TfLiteNode* n, const TfLiteDepthToSpaceParams* p);
  TfLiteStatus VisitSpaceToDepth(const TfLiteNode* n, const TfLiteSpaceToDepthParams* p);
  TfLiteStatus VisitResizeBilinear(const TfLiteNode* n, const TfLiteResizeBilinearParams* p);
  TfLiteStatus VisitQuantize(const TfLiteNode* n);
  TfLiteStatus VisitDequantize(const TfLiteNode* n);
  // QUANTIZE/DEQUANTIZE after their type checks: same shape, xnn_unary_convert.
  TfLiteStatus DefineConvert(int in, int out);
  // Defines `in` sliced to [offsets, offsets + sizes) into `out`.
  TfLiteStatus DefineSlice(int in, int out, const std::vector<int64_t>& begin,
                           const std::vector<int64_t>& size);

  TfLiteContext* context_;
  const StaticMap* statics_;
  QuantFlags quant_;
  xnn_subgraph_t subgraph_;
  const std::vector<uint32_t>* ids_;
  const TfLiteDelegateParams* partition_ = nullptr;
  const std::unordered_map<int, FusedPad>* fused_pads_ = nullptr;
  // The value a conv reads for input `in` and the paddings of a folded PAD;
  // `tensor` (if not null) gets the tensor that value holds.
  uint32_t ConvInput(int in, uint32_t pads[4], int* tensor = nullptr) const;
  int node_index_ = -1;
  // Scale arrays of values defined here (XNNPACK keeps the pointers and
  // reads them when the runtime is created, while this builder is alive).
  std::vector<StaticData> owned_scales_;
  std::vector<StaticData>* constants_ = nullptr;
};

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_OP_BUILDER_H_
