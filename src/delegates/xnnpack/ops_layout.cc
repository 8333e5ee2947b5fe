// Data-movement and conversion ops of the XNNPACK delegate: PAD,
// CONCATENATION, RESHAPE, SLICE, STRIDED_SLICE, TRANSPOSE, SPLIT,
// DEPTH_TO_SPACE, SPACE_TO_DEPTH, RESIZE_BILINEAR, QUANTIZE, DEQUANTIZE.
// Quantized inputs and outputs of data-movement ops must share scale and zero
// point (XNNPACK copies the bytes).
#include <algorithm>
#include <cstdint>

#include "src/delegates/xnnpack/op_builder.h"

namespace tflite_c {
namespace xnnpack {

TfLiteStatus OpBuilder::VisitPad(const TfLiteNode* n) {
  if (!Arity(n, 2, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), pads = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!MovesData(in, out) || NumDims(in) < 1) return Fail("unsupported tensors");
  std::vector<int64_t> v;
  if (!StaticInts(pads, &v)) return Fail("paddings must be a static int tensor");
  const int rank = NumDims(in);
  if (NumDims(pads) != 2 || Dim(pads, 0) != rank || Dim(pads, 1) != 2 || NumDims(out) != rank)
    return Fail("paddings shape mismatch");
  size_t pre[XNN_MAX_TENSOR_DIMS], post[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) {
    if (v[2 * i] < 0 || v[2 * i + 1] < 0) return Fail("negative padding");
    pre[i] = static_cast<size_t>(v[2 * i]);
    post[i] = static_cast<size_t>(v[2 * i + 1]);
    if (static_cast<int64_t>(Dim(out, i)) != Dim(in, i) + v[2 * i] + v[2 * i + 1])
      return Fail("output shape mismatch");
  }
  if (!Defining()) return kTfLiteOk;
  // 0.0f is quantized with the output's parameters (its zero point).
  return Check(
      xnn_define_static_constant_pad(subgraph_, pre, post, 0.0f, ValueIdOf(in), ValueIdOf(out), 0),
      "xnn_define_static_constant_pad");
}

TfLiteStatus OpBuilder::VisitConcatenation(const TfLiteNode* n,
                                           const TfLiteConcatenationParams* p) {
  if (!p || n->inputs->size < 2 || n->inputs->size > 5 || n->outputs->size != 1)
    return Fail("only 2 to 5 inputs");
  if (p->activation != kTfLiteActNone) return Fail("fused activation");
  const int out = OutputTensor(n, 0);
  if (!IsActivation(out, 1)) return Fail("unsupported output");
  const int rank = NumDims(out);
  int axis = p->axis < 0 ? p->axis + rank : p->axis;
  if (axis < 0 || axis >= rank) return Fail("invalid axis");
  int64_t total = 0;
  for (int i = 0; i < n->inputs->size; ++i) {
    const int t = InputTensor(n, i);
    if (!MovesData(t, out) || NumDims(t) != rank)
      return Fail("inputs must be non-constant and typed/quantized like the output");
    for (int d = 0; d < rank; ++d)
      if (d != axis && Dim(t, d) != Dim(out, d)) return Fail("input shape mismatch");
    total += Dim(t, axis);
  }
  if (total != Dim(out, axis)) return Fail("output shape mismatch");
  if (!Defining()) return kTfLiteOk;
  const uint32_t o = ValueIdOf(out);
  uint32_t v[5];  // the inputs' values
  for (int i = 0; i < n->inputs->size; ++i) v[i] = ValueIdOf(InputTensor(n, i));
  switch (n->inputs->size) {
    case 2:
      return Check(xnn_define_concatenate2(subgraph_, axis, v[0], v[1], o, 0),
                   "xnn_define_concatenate2");
    case 3:
      return Check(xnn_define_concatenate3(subgraph_, axis, v[0], v[1], v[2], o, 0),
                   "xnn_define_concatenate3");
    case 4:
      return Check(xnn_define_concatenate4(subgraph_, axis, v[0], v[1], v[2], v[3], o, 0),
                   "xnn_define_concatenate4");
    default:
      return Check(xnn_define_concatenate5(subgraph_, axis, v[0], v[1], v[2], v[3], v[4], o, 0),
                   "xnn_define_concatenate5");
  }
}

TfLiteStatus OpBuilder::VisitReshape(const TfLiteNode* n) {
  if (!Arity(n, 1, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), shape = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!MovesData(in, out) || NumDims(out) < 1) return Fail("unsupported tensors");
  size_t elements_in = 1, elements_out = 1;
  for (int i = 0; i < NumDims(in); ++i) elements_in *= static_cast<size_t>(Dim(in, i));
  for (int i = 0; i < NumDims(out); ++i) elements_out *= static_cast<size_t>(Dim(out, i));
  if (elements_in != elements_out) return Fail("element count mismatch");
  size_t dims[XNN_MAX_TENSOR_DIMS];
  const int rank = NumDims(out);
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(out, i));
  if (shape >= 0) {
    std::vector<int64_t> v;
    if (!StaticInts(shape, &v)) return Fail("new shape must be static");
    if (static_cast<int>(v.size()) != rank) return Fail("new shape rank mismatch");
    int inferred = 0;
    for (int i = 0; i < rank; ++i) {
      if (v[i] == -1) {
        ++inferred;
        dims[i] = 0;  // XNNPACK infers it (keeps working after input resizes)
      } else if (v[i] != Dim(out, i)) {
        return Fail("new shape mismatch");
      }
    }
    if (inferred > 1) return Fail("more than one inferred dimension");
  }
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_static_reshape(subgraph_, rank, dims, ValueIdOf(in), ValueIdOf(out), 0),
               "xnn_define_static_reshape");
}

TfLiteStatus OpBuilder::DefineSlice(int in, int out, const std::vector<int64_t>& begin,
                                    const std::vector<int64_t>& size) {
  const int rank = NumDims(in);
  if (NumDims(out) != rank || static_cast<int>(begin.size()) != rank ||
      static_cast<int>(size.size()) != rank)
    return Fail("slice rank mismatch");
  size_t offsets[XNN_MAX_TENSOR_DIMS], sizes[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) {
    if (begin[i] < 0 || size[i] <= 0 || begin[i] + size[i] > Dim(in, i))
      return Fail("slice out of range");
    if (size[i] != Dim(out, i)) return Fail("output shape mismatch");
    offsets[i] = static_cast<size_t>(begin[i]);
    sizes[i] = static_cast<size_t>(size[i]);
  }
  if (!Defining()) return kTfLiteOk;
  return Check(
      xnn_define_static_slice(subgraph_, rank, offsets, sizes, ValueIdOf(in), ValueIdOf(out), 0),
      "xnn_define_static_slice");
}

TfLiteStatus OpBuilder::VisitSlice(const TfLiteNode* n) {
  if (!Arity(n, 3, 3, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!MovesData(in, out) || NumDims(in) < 1) return Fail("unsupported tensors");
  std::vector<int64_t> begin, size;
  if (!StaticInts(InputTensor(n, 1), &begin) || !StaticInts(InputTensor(n, 2), &size))
    return Fail("begin and size must be static");
  if (static_cast<int>(begin.size()) != NumDims(in) || size.size() != begin.size())
    return Fail("begin/size length mismatch");
  for (size_t i = 0; i < size.size(); ++i)
    if (size[i] == -1) size[i] = Dim(in, static_cast<int>(i)) - begin[i];
  return DefineSlice(in, out, begin, size);
}

TfLiteStatus OpBuilder::VisitStridedSlice(const TfLiteNode* n,
                                          const TfLiteStridedSliceParams* p) {
  if (!p || !Arity(n, 4, 4, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (p->ellipsis_mask != 0 || p->new_axis_mask != 0 || p->shrink_axis_mask != 0)
    return Fail("ellipsis/new-axis/shrink-axis masks not supported");
  if (!MovesData(in, out) || NumDims(in) < 1) return Fail("unsupported tensors");
  std::vector<int64_t> begin, end, strides;
  if (!StaticInts(InputTensor(n, 1), &begin) || !StaticInts(InputTensor(n, 2), &end) ||
      !StaticInts(InputTensor(n, 3), &strides))
    return Fail("begin, end and strides must be static");
  const int rank = NumDims(in);
  if (static_cast<int>(begin.size()) != rank || end.size() != begin.size() ||
      strides.size() != begin.size())
    return Fail("begin/end/strides length mismatch");
  std::vector<int64_t> offsets(rank), sizes(rank);
  for (int i = 0; i < rank; ++i) {
    if (strides[i] != 1) return Fail("only unit strides");
    const int64_t dim = Dim(in, i);
    int64_t b = (p->begin_mask & (1 << i)) ? 0 : begin[i];
    if (b < 0) b += dim;
    b = std::min<int64_t>(std::max<int64_t>(b, 0), dim);
    int64_t e;
    if (p->end_mask & (1 << i)) {
      e = dim;
    } else if (p->offset) {
      e = b + end[i];
    } else {
      e = end[i] < 0 ? end[i] + dim : end[i];
    }
    e = std::min<int64_t>(std::max<int64_t>(e, 0), dim);
    offsets[i] = b;
    sizes[i] = e - b;
  }
  return DefineSlice(in, out, offsets, sizes);
}

TfLiteStatus OpBuilder::VisitTranspose(const TfLiteNode* n) {
  if (!Arity(n, 2, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!MovesData(in, out) || NumDims(in) < 1) return Fail("unsupported tensors");
  std::vector<int64_t> v;
  if (!StaticInts(InputTensor(n, 1), &v)) return Fail("permutation must be static");
  const int rank = NumDims(in);
  if (static_cast<int>(v.size()) != rank || NumDims(out) != rank)
    return Fail("permutation length mismatch");
  size_t perm[XNN_MAX_TENSOR_DIMS];
  std::vector<bool> seen(rank, false);
  for (int i = 0; i < rank; ++i) {
    if (v[i] < 0 || v[i] >= rank || seen[v[i]]) return Fail("invalid permutation");
    seen[v[i]] = true;
    perm[i] = static_cast<size_t>(v[i]);
    if (Dim(out, i) != Dim(in, static_cast<int>(v[i]))) return Fail("output shape mismatch");
  }
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_static_transpose(subgraph_, rank, perm, ValueIdOf(in), ValueIdOf(out), 0),
               "xnn_define_static_transpose");
}

// Inputs (axis, input); 2 to 4 equal outputs.
TfLiteStatus OpBuilder::VisitSplit(const TfLiteNode* n, const TfLiteSplitParams* p) {
  if (!p || n->inputs->size != 2 || n->outputs->size < 2 || n->outputs->size > 4)
    return Fail("only 2 to 4 outputs");
  const int in = InputTensor(n, 1), outs = n->outputs->size;
  if (p->num_splits != outs) return Fail("num_splits mismatch");
  std::vector<int64_t> v;
  if (!StaticInts(InputTensor(n, 0), &v) || v.size() != 1)
    return Fail("axis must be a static scalar");
  if (!IsActivation(in, 1)) return Fail("unsupported input");
  const int rank = NumDims(in);
  int64_t axis = v[0] < 0 ? v[0] + rank : v[0];
  if (axis < 0 || axis >= rank) return Fail("invalid axis");
  if (Dim(in, static_cast<int>(axis)) % outs != 0) return Fail("uneven split");
  for (int k = 0; k < outs; ++k) {
    const int o = OutputTensor(n, k);
    if (!MovesData(in, o) || NumDims(o) != rank) return Fail("unsupported output");
    for (int d = 0; d < rank; ++d) {
      const int want = d == axis ? Dim(in, d) / outs : Dim(in, d);
      if (Dim(o, d) != want) return Fail("output shape mismatch");
    }
  }
  if (!Defining()) return kTfLiteOk;
  const int32_t a = static_cast<int32_t>(axis);
  const uint32_t src = ValueIdOf(in);
  uint32_t o[4];  // the outputs' values
  for (int i = 0; i < outs; ++i) o[i] = ValueIdOf(OutputTensor(n, i));
  switch (outs) {
    case 2:
      return Check(xnn_define_even_split2(subgraph_, a, src, o[0], o[1], 0),
                   "xnn_define_even_split2");
    case 3:
      return Check(xnn_define_even_split3(subgraph_, a, src, o[0], o[1], o[2], 0),
                   "xnn_define_even_split3");
    default:
      return Check(xnn_define_even_split4(subgraph_, a, src, o[0], o[1], o[2], o[3], 0),
                   "xnn_define_even_split4");
  }
}

TfLiteStatus OpBuilder::CheckBlockRearrangement(const TfLiteNode* n, int block_size, int* in,
                                                int* out) {
  if (!Arity(n, 1, 1, 1)) return kTfLiteError;
  *in = InputTensor(n, 0), *out = OutputTensor(n, 0);
  if (!MovesData(*in, *out) || NumDims(*in) != 4 || NumDims(*out) != 4)
    return Fail("unsupported tensors");
  if (block_size < 2) return Fail("block size must be > 1");
  return kTfLiteOk;
}

TfLiteStatus OpBuilder::VisitDepthToSpace(const TfLiteNode* n,
                                          const TfLiteDepthToSpaceParams* p) {
  if (!p) return kTfLiteError;
  int in, out;
  TF_LITE_ENSURE_STATUS(CheckBlockRearrangement(n, p->block_size, &in, &out));
  const int b = p->block_size;
  if (Dim(in, 3) % (b * b) != 0 || Dim(out, 0) != Dim(in, 0) || Dim(out, 1) != Dim(in, 1) * b ||
      Dim(out, 2) != Dim(in, 2) * b || Dim(out, 3) != Dim(in, 3) / (b * b))
    return Fail("shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_depth_to_space_2d(subgraph_, static_cast<uint32_t>(b), ValueIdOf(in),
                                            ValueIdOf(out), 0),
               "xnn_define_depth_to_space_2d");
}

TfLiteStatus OpBuilder::VisitSpaceToDepth(const TfLiteNode* n,
                                          const TfLiteSpaceToDepthParams* p) {
  if (!p) return kTfLiteError;
  int in, out;
  TF_LITE_ENSURE_STATUS(CheckBlockRearrangement(n, p->block_size, &in, &out));
  const int b = p->block_size;
  if (Dim(in, 1) % b != 0 || Dim(in, 2) % b != 0 || Dim(out, 0) != Dim(in, 0) ||
      Dim(out, 1) != Dim(in, 1) / b || Dim(out, 2) != Dim(in, 2) / b ||
      Dim(out, 3) != Dim(in, 3) * b * b)
    return Fail("shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_space_to_depth_2d(subgraph_, static_cast<uint32_t>(b), ValueIdOf(in),
                                            ValueIdOf(out), 0),
               "xnn_define_space_to_depth_2d");
}

TfLiteStatus OpBuilder::VisitResizeBilinear(const TfLiteNode* n,
                                            const TfLiteResizeBilinearParams* p) {
  if (!p || !Arity(n, 2, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), size = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!MovesData(in, out) || NumDims(in) != 4 || NumDims(out) != 4)
    return Fail("unsupported tensors");
  std::vector<int64_t> v;
  if (!StaticInts(size, &v) || v.size() != 2) return Fail("size must be static");
  if (v[0] <= 0 || v[1] <= 0 || v[0] != Dim(out, 1) || v[1] != Dim(out, 2))
    return Fail("invalid output size");
  // XNNPACK refuses sizes of 2^24 and more (outputs at definition, inputs at
  // reshape).
  constexpr int64_t kMaxSize = int64_t{1} << 24;
  if (v[0] >= kMaxSize || v[1] >= kMaxSize || Dim(in, 1) >= kMaxSize || Dim(in, 2) >= kMaxSize)
    return Fail("resize beyond XNNPACK's 2^24 limit");
  if (p->align_corners && p->half_pixel_centers)
    return Fail("align_corners with half_pixel_centers");
  uint32_t flags = 0;
  if (p->align_corners) {
    flags = XNN_FLAG_ALIGN_CORNERS;
  } else if (!p->half_pixel_centers) {
    flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  }
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_static_resize_bilinear_2d(subgraph_, static_cast<size_t>(v[0]),
                                                    static_cast<size_t>(v[1]), ValueIdOf(in),
                                                    ValueIdOf(out), flags),
               "xnn_define_static_resize_bilinear_2d");
}

TfLiteStatus OpBuilder::DefineConvert(int in, int out) {
  for (int i = 0; i < NumDims(in); ++i)
    if (NumDims(out) != NumDims(in) || Dim(out, i) != Dim(in, i)) return Fail("shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(
      xnn_define_unary(subgraph_, xnn_unary_convert, nullptr, ValueIdOf(in), ValueIdOf(out), 0),
      "xnn_define_unary(convert)");
}

// float32 -> QS8/QU8, or a requantization within QS8 or within QU8 (input
// to output scale ratio in [1/256, 128], as upstream).
TfLiteStatus OpBuilder::VisitQuantize(const TfLiteNode* n) {
  if (!Arity(n, 1, 1, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!IsActivation(out) || !IsQuantized(out)) return Fail("QUANTIZE output not int8/uint8");
  if (IsActivation(in) && IsQuantized(in)) {
    if (!SameType(in, out)) return Fail("requantization between int8 and uint8 not supported");
    const float r = Scale(in) / Scale(out);
    if (r < 1.0f / 256.0f || r > 128.0f) return Fail("input-to-output scale ratio out of range");
    return DefineConvert(in, out);
  }
  if (!IsDynamicFloat(in)) return Fail("unsupported QUANTIZE input");
  return DefineConvert(in, out);
}

// QS8/QU8 -> float32 (fp16 constants are handled by the delegate separately).
TfLiteStatus OpBuilder::VisitDequantize(const TfLiteNode* n) {
  if (!Arity(n, 1, 1, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!IsActivation(in) || !IsQuantized(in) || !IsDynamicFloat(out))
    return Fail("only int8/uint8 to float32 DEQUANTIZE");
  return DefineConvert(in, out);
}

}  // namespace xnnpack
}  // namespace tflite_c
