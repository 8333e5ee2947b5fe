// STABLEHLO_REDUCE_WINDOW and REDUCE_WINDOW: a sliding-window reduction over
// a tensor of rank 1 to 6. Element types as upstream: BOOL, INT8, INT16,
// INT32, INT64, UINT8, FLOAT32, FLOAT64.
//
// STABLEHLO_REDUCE_WINDOW (inputs: operand, init_value; options
// TfLiteStablehloReduceWindowParams) follows stablehlo.reduce_window: the
// operand is first dilated by base_dilations (holes hold init_value), then
// padded by (low, high) pairs of `padding` (negative values crop; the pads
// hold init_value); a window of window_dimensions taps spaced by
// window_dilations moves by window_strides over that tensor, and each output
// element is init_value folded with the window's elements in row-major
// order. The reduction is the single operator of the body subgraph: ADD,
// MUL, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR or their STABLEHLO_
// counterparts (as upstream; any other body is refused in Prepare).
//
// REDUCE_WINDOW (deprecated; inputs: operand, init_value and constant INT64
// window_dimensions, window_strides, window_dilations; reduce_function from
// TfLiteReduceWindowParams) is the same without base dilation or padding.
//
// As upstream: max/min keep the accumulator when it compares >= / <= the
// element (so NaNs follow that rule), ALL/ANY give 1 or 0 in the element
// type, BOOL is computed as int8, and holes and pads are folded in like
// elements. Integer sums and products wrap.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/stablehlo_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kStablehloOp[] = "STABLEHLO_REDUCE_WINDOW";
constexpr char kTfliteOp[] = "REDUCE_WINDOW";
constexpr int kMaxRank = 6;

struct OpData {
  int rank = 0;
  TfLiteReduceWindowFunction body = TfLiteReduceWindowFunctionUnsupported;
  int64_t in_dims[kMaxRank];
  int64_t base_dilation[kMaxRank];
  int64_t pad_low[kMaxRank];
  int64_t padded[kMaxRank];  // size of the dilated and padded operand
  int64_t window[kMaxRank];
  int64_t stride[kMaxRank];
  int64_t window_dilation[kMaxRank];
  int64_t out_dims[kMaxRank];
  int64_t window_elems;  // taps per window
};

// The reduction a body operator stands for.
TfLiteReduceWindowFunction BodyFunction(int32_t builtin_code) {
  switch (builtin_code) {
    case kTfLiteBuiltinAdd:
    case kTfLiteBuiltinStablehloAdd:
      return TfLiteReduceWindowFunctionAdd;
    case kTfLiteBuiltinMul:
    case kTfLiteBuiltinStablehloMultiply:
      return TfLiteReduceWindowFunctionMul;
    case kTfLiteBuiltinMaximum:
    case kTfLiteBuiltinStablehloMaximum:
      return TfLiteReduceWindowFunctionMax;
    case kTfLiteBuiltinMinimum:
    case kTfLiteBuiltinStablehloMinimum:
      return TfLiteReduceWindowFunctionMin;
    case kTfLiteBuiltinLogicalAnd:
    case kTfLiteBuiltinStablehloAnd:
      return TfLiteReduceWindowFunctionAll;
    case kTfLiteBuiltinLogicalOr:
    case kTfLiteBuiltinStablehloOr:
      return TfLiteReduceWindowFunctionAny;
    default:
      return TfLiteReduceWindowFunctionUnsupported;
  }
}

// Finds the reduction of body subgraph `index`: its only operator's.
TfLiteStatus ReadBody(TfLiteContext* context, int index, TfLiteReduceWindowFunction* body) {
  int32_t code;
  TF_LITE_ENSURE_OK(context, internal::ReadBodyOperator(context, kStablehloOp, index, &code));
  *body = BodyFunction(code);
  if (*body == TfLiteReduceWindowFunctionUnsupported) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: body operator (builtin code %d) not supported; supported are ADD, "
                       "MUL, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR and their STABLEHLO_ forms",
                       kStablehloOp, code);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Checks operand, init_value and output, and reads the operand's shape.
TfLiteStatus CheckTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                          OpData* d) {
  const TfLiteTensor *input, *init;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, op, &init));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  if (!internal::TypeIn(input->type, {kTfLiteBool, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32,
                                      kTfLiteInt64, kTfLiteUInt8, kTfLiteFloat32,
                                      kTfLiteFloat64})) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (init->type != input->type || output->type != input->type) {
    TF_LITE_KERNEL_LOG(context, "%s: init_value (%s) and output (%s) must have the input's type %s",
                       op, TfLiteTypeGetName(init->type), TfLiteTypeGetName(output->type),
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  if (internal::NumElements(init) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: init_value is empty", op);
    return kTfLiteError;
  }
  d->rank = internal::NumDims(input);
  if (d->rank < 1 || d->rank > kMaxRank) {
    TF_LITE_KERNEL_LOG(context, "%s: input rank %d is outside [1, %d]", op, d->rank, kMaxRank);
    return kTfLiteError;
  }
  for (int i = 0; i < d->rank; ++i) d->in_dims[i] = internal::Dim(input, i);
  return kTfLiteOk;
}

// Computes the padded operand's and the output's shape from the attributes
// in `d` (checked positive here), then sizes the output.
TfLiteStatus PlanWindow(TfLiteContext* context, TfLiteNode* node, const char* op, OpData* d,
                        const int64_t* pad_high) {
  int out[kMaxRank];
  d->window_elems = 1;
  for (int i = 0; i < d->rank; ++i) {
    if (d->base_dilation[i] <= 0 || d->window[i] <= 0 || d->stride[i] <= 0 ||
        d->window_dilation[i] <= 0) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: dimension %d: window size, stride and dilations must be positive "
                         "(got %lld, %lld, %lld, %lld)",
                         op, i, static_cast<long long>(d->window[i]),
                         static_cast<long long>(d->stride[i]),
                         static_cast<long long>(d->base_dilation[i]),
                         static_cast<long long>(d->window_dilation[i]));
      return kTfLiteError;
    }
    // dilated = (in - 1) * base_dilation + 1 (0 for an empty axis), then
    // padded = dilated + low + high, span = (window - 1) * window_dilation + 1.
    int64_t dilated = 0, padded, span, unused;
    const bool overflow =
        (d->in_dims[i] > 0 && !internal::SpreadExtent(d->in_dims[i], d->base_dilation[i], &dilated)) ||
        !internal::AddEdges(dilated, d->pad_low[i], pad_high[i], &padded) ||
        !internal::AddEdges(dilated, 0, pad_high[i], &unused) ||
        !internal::SpreadExtent(d->window[i], d->window_dilation[i], &span);
    if (overflow || padded < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: dimension %d: dilated and padded size is %s", op, i,
                         overflow ? "too large" : "negative");
      return kTfLiteError;
    }
    d->padded[i] = padded;
    d->out_dims[i] = padded < span ? 0 : (padded - span) / d->stride[i] + 1;
    if (d->out_dims[i] > INT32_MAX) {
      TF_LITE_KERNEL_LOG(context, "%s: dimension %d: output size is too large", op, i);
      return kTfLiteError;
    }
    out[i] = static_cast<int>(d->out_dims[i]);
    if (__builtin_mul_overflow(d->window_elems, d->window[i], &d->window_elems)) {
      TF_LITE_KERNEL_LOG(context, "%s: the window has too many elements", op);
      return kTfLiteError;
    }
  }
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0),
                               internal::MakeIntArray(out, d->rank).release());
}

TfLiteStatus StablehloPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kStablehloOp));
  const auto* p = static_cast<const TfLiteStablehloReduceWindowParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kStablehloOp, 2, 2, 1));
  TF_LITE_ENSURE_OK(context, CheckTensors(context, node, kStablehloOp, d));
  int64_t pad_high[kMaxRank];
  bool any_padding = false;
  for (int i = 0; i < d->rank; ++i) {
    d->base_dilation[i] = p->base_dilations[i];
    d->pad_low[i] = p->padding[2 * i];
    pad_high[i] = p->padding[2 * i + 1];
    d->window[i] = p->window_dimensions[i];
    d->stride[i] = p->window_strides[i];
    d->window_dilation[i] = p->window_dilations[i];
    any_padding = any_padding || d->pad_low[i] != 0 || pad_high[i] != 0;
  }
  TF_LITE_ENSURE_OK(context, ReadBody(context, p->body_subgraph_index, &d->body));
  TF_LITE_ENSURE_OK(context, PlanWindow(context, node, kStablehloOp, d, pad_high));
  // Upstream refuses padding that leaves nothing to reduce.
  if (any_padding) {
    for (int i = 0; i < d->rank; ++i) {
      if (d->padded[i] == 0) {
        TF_LITE_KERNEL_LOG(context, "%s: the padding gives an empty tensor", kStablehloOp);
        return kTfLiteError;
      }
    }
  }
  return kTfLiteOk;
}

// Reads one of REDUCE_WINDOW's constant INT64 attribute inputs.
TfLiteStatus ReadAttribute(TfLiteContext* context, TfLiteNode* node, int i, const char* what,
                           int rank, int64_t* values) {
  const TfLiteTensor* t;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kTfliteOp, &t));
  if (t->type != kTfLiteInt64 || !internal::IsConstantOrPersistent(t) ||
      t->data.raw == nullptr || internal::NumElements(t) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must be a constant INT64 tensor of %d elements (the rank)",
                       kTfliteOp, what, rank);
    return kTfLiteError;
  }
  std::memcpy(values, t->data.raw, sizeof(int64_t) * rank);
  return kTfLiteOk;
}

TfLiteStatus TflitePrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kTfliteOp));
  const auto* p = static_cast<const TfLiteReduceWindowParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kTfliteOp, 5, 5, 1));
  TF_LITE_ENSURE_OK(context, CheckTensors(context, node, kTfliteOp, d));
  TF_LITE_ENSURE_OK(context,
                    ReadAttribute(context, node, 2, "window_dimensions", d->rank, d->window));
  TF_LITE_ENSURE_OK(context, ReadAttribute(context, node, 3, "window_strides", d->rank, d->stride));
  TF_LITE_ENSURE_OK(context, ReadAttribute(context, node, 4, "window_dilations", d->rank,
                                           d->window_dilation));
  d->body = p->reduce_function;
  if (d->body < TfLiteReduceWindowFunctionAdd || d->body > TfLiteReduceWindowFunctionAny) {
    TF_LITE_KERNEL_LOG(context, "%s: reduce_function %d not supported", kTfliteOp,
                       static_cast<int>(d->body));
    return kTfLiteError;
  }
  const int64_t no_padding[kMaxRank] = {};
  for (int i = 0; i < d->rank; ++i) {
    d->base_dilation[i] = 1;
    d->pad_low[i] = 0;
  }
  return PlanWindow(context, node, kTfliteOp, d, no_padding);
}

// ---- Eval ----------------------------------------------------------------------------

// a + b and a * b, wrapping for integers.
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T Mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

// Reduces every window of the dilated, padded operand with `op`.
template <typename T, typename Op>
void ReduceWindows(const OpData& d, const T* in, T init, T* out, Op op) {
  const int rank = d.rank;
  int64_t in_strides[kMaxRank];
  int64_t out_elems = 1;
  for (int i = rank - 1; i >= 0; --i) {
    in_strides[i] = i == rank - 1 ? 1 : in_strides[i + 1] * d.in_dims[i + 1];
    out_elems *= d.out_dims[i];
  }
  int64_t out_pos[kMaxRank] = {};
  for (int64_t o = 0; o < out_elems; ++o) {
    T acc = init;
    int64_t tap[kMaxRank] = {};
    for (int64_t w = 0; w < d.window_elems; ++w) {
      // Position in the padded operand, then in the dilated one, then in the
      // input; anything but an input element is init_value.
      int64_t offset = 0;
      bool inside = true;
      for (int i = 0; i < rank && inside; ++i) {
        const int64_t dilated =
            out_pos[i] * d.stride[i] + tap[i] * d.window_dilation[i] - d.pad_low[i];
        if (dilated < 0 || dilated % d.base_dilation[i] != 0) {
          inside = false;
        } else {
          const int64_t index = dilated / d.base_dilation[i];
          inside = index < d.in_dims[i];
          offset += index * in_strides[i];
        }
      }
      acc = op(acc, inside ? in[offset] : init);
      for (int i = rank - 1; i >= 0 && ++tap[i] == d.window[i]; --i) tap[i] = 0;
    }
    out[o] = acc;
    for (int i = rank - 1; i >= 0 && ++out_pos[i] == d.out_dims[i]; --i) out_pos[i] = 0;
  }
}

template <typename T>
void EvalType(const OpData& d, const TfLiteTensor* input, const TfLiteTensor* init,
              TfLiteTensor* output) {
  const T* in = static_cast<const T*>(input->data.data);
  const T init_value = *static_cast<const T*>(init->data.data);
  T* out = static_cast<T*>(output->data.data);
  switch (d.body) {
    case TfLiteReduceWindowFunctionAdd:
      return ReduceWindows(d, in, init_value, out, Add<T>);
    case TfLiteReduceWindowFunctionMul:
      return ReduceWindows(d, in, init_value, out, Mul<T>);
    case TfLiteReduceWindowFunctionMax:
      return ReduceWindows(d, in, init_value, out, [](T a, T b) { return a >= b ? a : b; });
    case TfLiteReduceWindowFunctionMin:
      return ReduceWindows(d, in, init_value, out, [](T a, T b) { return a <= b ? a : b; });
    case TfLiteReduceWindowFunctionAll:
      return ReduceWindows(d, in, init_value, out, [](T a, T b) { return T(a && b); });
    default:  // Any; Prepare refused the rest
      return ReduceWindows(d, in, init_value, out, [](T a, T b) { return T(a || b); });
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& d = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* init = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  switch (input->type) {
    case kTfLiteBool:  // as int8, like upstream
    case kTfLiteInt8:
      EvalType<int8_t>(d, input, init, output);
      break;
    case kTfLiteInt16:
      EvalType<int16_t>(d, input, init, output);
      break;
    case kTfLiteInt32:
      EvalType<int32_t>(d, input, init, output);
      break;
    case kTfLiteInt64:
      EvalType<int64_t>(d, input, init, output);
      break;
    case kTfLiteUInt8:
      EvalType<uint8_t>(d, input, init, output);
      break;
    case kTfLiteFloat32:
      EvalType<float>(d, input, init, output);
      break;
    default:  // FLOAT64; Prepare refused the rest
      EvalType<double>(d, input, init, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_REDUCE_WINDOW() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, StablehloPrepare, Eval);
  return &r;
}

const TfLiteRegistration* Register_REDUCE_WINDOW() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, TflitePrepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
