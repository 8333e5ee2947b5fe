// PAD (input, paddings) and PADV2 (input, paddings, constant_values): grows
// each dimension i by paddings[i, 0] elements before and paddings[i, 1]
// after, filled with one value. Any fixed-size element type.
//
// The fill value is constant_values when given; otherwise 0, except for
// quantized tensors (UINT8 always, INT8/INT16 when they carry quantization
// parameters), which are padded with the output zero point, i.e. with a real
// 0. Paddings may be INT32, INT64, INT16, INT8 or BOOL. When they are not a
// constant the output shape is only known at Eval, so the output is dynamic.
#include <cstring>
#include <limits>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct OpData {
  const char* name = "PAD";
  size_t element_bytes = 0;
  bool shape_known_in_prepare = true;
};

struct Padding {
  int rank = 0;
  int before[internal::kMaxLayoutRank] = {0};
  int after[internal::kMaxLayoutRank] = {0};
};

TfLiteStatus ReadPaddings(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                          const TfLiteTensor* paddings, Padding* p) {
  std::vector<int> values;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, op, "paddings", paddings, &values));
  p->rank = internal::NumDims(input);
  for (int d = 0; d < p->rank; ++d) {
    p->before[d] = values[2 * d];
    p->after[d] = values[2 * d + 1];
    if (p->before[d] < 0 || p->after[d] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: paddings of dimension %d are negative (%d, %d)", op, d,
                         p->before[d], p->after[d]);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                          const TfLiteTensor* paddings, TfLiteTensor* output, Padding* p) {
  TF_LITE_ENSURE_OK(context, ReadPaddings(context, op, input, paddings, p));
  internal::IntArrayPtr shape(TfLiteIntArrayCopy(input->dims));
  for (int d = 0; d < p->rank; ++d) {
    const int64_t size = int64_t{internal::Dim(input, d)} + p->before[d] + p->after[d];
    if (size > std::numeric_limits<int>::max()) {
      TF_LITE_KERNEL_LOG(context, "%s: padded dimension %d is too large", op, d);
      return kTfLiteError;
    }
    shape->data[d] = static_cast<int>(size);
  }
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const char* op = data->name;
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 2, 3, 1));
  const TfLiteTensor *input, *paddings;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, op, &paddings));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  const TfLiteTensor* value = internal::GetOptionalInput(context, node, 2);

  if (output->type != input->type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, op, "input", input->type,
                                                       &data->element_bytes));
  const int rank = internal::NumDims(input);
  if (rank > internal::kMaxLayoutRank) {
    TF_LITE_KERNEL_LOG(context, "%s: input rank %d is above the maximum %d", op, rank,
                       internal::kMaxLayoutRank);
    return kTfLiteError;
  }
  if (internal::NumDims(paddings) != 2 || internal::Dim(paddings, 0) != rank ||
      internal::Dim(paddings, 1) != 2) {
    char shape[64];
    TF_LITE_KERNEL_LOG(context, "%s: paddings must have shape [%d, 2] for a rank-%d input, got %s",
                       op, rank, rank,
                       internal::ShapeToString(paddings->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  if (value != nullptr) {
    if (value->type != input->type) {
      return internal::TypeMismatch(context, op, "constant_values", value->type, "input",
                                    input->type);
    }
    if (internal::NumElements(value) != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: constant_values must hold exactly one value", op);
      return kTfLiteError;
    }
  }

  data->shape_known_in_prepare = internal::IsConstantOrPersistent(paddings);
  if (!data->shape_known_in_prepare) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  Padding p;
  return ResizeOutput(context, op, input, paddings, output, &p);
}

// The value that fills the padding, as raw element bytes.
TfLiteStatus PadValue(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                      const TfLiteTensor* value, const TfLiteTensor* output, size_t bytes,
                      unsigned char* out) {
  std::memset(out, 0, bytes);
  const bool quantized =
      input->type == kTfLiteUInt8 ||
      ((input->type == kTfLiteInt8 || input->type == kTfLiteInt16) &&
       input->quantization.type != kTfLiteNoQuantization);
  if (value != nullptr) {
    if (quantized && (value->params.zero_point != output->params.zero_point ||
                      value->params.scale != output->params.scale)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: constant_values must have the output's scale and zero point", op);
      return kTfLiteError;
    }
    std::memcpy(out, value->data.raw, bytes);
    return kTfLiteOk;
  }
  if (!quantized) return kTfLiteOk;
  // The zero point is inside the output type (CheckArity checked it).
  const int32_t zp = output->params.zero_point;
  if (input->type == kTfLiteInt16) {
    const int16_t v = static_cast<int16_t>(zp);
    std::memcpy(out, &v, sizeof(v));
  } else {
    out[0] = static_cast<unsigned char>(zp);  // same bits for int8 and uint8
  }
  return kTfLiteOk;
}

struct PadCopy {
  const Padding* p;
  const TfLiteIntArray* in_dims;
  const TfLiteIntArray* out_dims;
  int64_t in_stride[internal::kMaxLayoutRank];
  int64_t out_stride[internal::kMaxLayoutRank];
  size_t es;
  const unsigned char* value;
  // The last padded dimension: the dimensions after it are copied whole, so
  // its block is one contiguous run of input (NHWC padded in H and W copies
  // W * C elements at a time, not C).
  int last_padded;

  // Writes output block `d` (all of dims d.. at one outer index) from the
  // matching input block.
  void Run(int d, const char* in, char* out) const {
    const int64_t before = p->before[d] * out_stride[d];
    const int64_t after = p->after[d] * out_stride[d];
    const int n = in_dims->data[d];
    internal::FillElements(out, before, value, es);
    out += before * es;
    if (d == last_padded) {
      const int64_t run = n * in_stride[d];
      if (run > 0) std::memcpy(out, in, run * es);
      out += run * es;
    } else {
      for (int i = 0; i < n; ++i) {
        Run(d + 1, in + i * in_stride[d] * es, out + i * out_stride[d] * es);
      }
      out += n * out_stride[d] * es;
    }
    internal::FillElements(out, after, value, es);
  }
};

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const char* op = data->name;
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* paddings = internal::InputAt(context, node, 1);
  const TfLiteTensor* value = internal::GetOptionalInput(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);

  Padding p;
  if (data->shape_known_in_prepare) {
    TF_LITE_ENSURE_OK(context, ReadPaddings(context, op, input, paddings, &p));
  } else {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, op, input, paddings, output, &p));
  }
  const size_t es = data->element_bytes;
  unsigned char fill[16];
  TF_LITE_ENSURE_OK(context, PadValue(context, op, input, value, output, es, fill));

  if (p.rank == 0) {
    std::memcpy(output->data.raw, input->data.raw, es);
    return kTfLiteOk;
  }
  if (internal::NumElements(input) == 0) {
    internal::FillElements(output->data.raw, internal::NumElements(output), fill, es);
    return kTfLiteOk;
  }
  PadCopy copy{&p, input->dims, output->dims, {}, {}, es, fill, 0};
  internal::RowMajorStrides(input->dims, copy.in_stride);
  internal::RowMajorStrides(output->dims, copy.out_stride);
  for (int d = 0; d < p.rank; ++d) {
    if (p.before[d] != 0 || p.after[d] != 0) copy.last_padded = d;
  }
  copy.Run(0, input->data.raw, output->data.raw);
  return kTfLiteOk;
}

template <const char* kName>
void* Init(TfLiteContext*, const char*, size_t) {
  auto* data = new OpData();
  data->name = kName;
  return data;
}

constexpr char kPad[] = "PAD";
constexpr char kPadV2[] = "PADV2";

}  // namespace

const TfLiteRegistration* Register_PAD() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(Init<kPad>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

const TfLiteRegistration* Register_PADV2() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(Init<kPadV2>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
