// The scaffold of element-wise ops with one input and one output of the same
// shape, out[i] = f(in[i]): unary math (unary_math.cc), the activations
// (relu.cc, logistic.cc, lut_activations.cc, activations.cc), FAKE_QUANT and
// the complex parts REAL, IMAG and COMPLEX_ABS (complex.cc). The output has
// the input's type unless the op says otherwise (OutputType below).
//
// How to add an op to the family:
//  1. In the op's file, describe the op with a struct:
//       struct SinOp {
//         static constexpr const char* kName = "SIN";
//         static constexpr TypeSet kTypes = {kTfLiteFloat32};  // accepted input types
//         static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
//                                  const UnaryOpData& data) {
//           return MapUnary<float>(context, node, [](float x) { return std::sin(x); });
//         }
//       };
//     The scaffold's Prepare checks one input, one output of the input's type,
//     the type against kTypes, sizes the output like the input and sets
//     data.path: kFloat for floating-point inputs, kInteger otherwise.
//  2. Optional members:
//     - `using Data = ...;` a struct deriving from UnaryOpData for per-node
//       state (the default is UnaryOpData itself).
//     - `static TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*,
//       const TfLiteTensor* input, TfLiteTensor* output, Data* data)`, run
//       after the common checks: options, quantization, and data->path for
//       quantized inputs (kQuantized: Eval does the op's own arithmetic).
//     - `static TfLiteType OutputType(TfLiteType input)`: the output type
//       an input type requires, when it is not the input's own type; Eval
//       then maps with MapUnary<In, Out>.
//     - Quantized through a lookup table, out = q(f(dq(in))) (INT8 and UINT8:
//       one entry per value; INT16: 513 interpolated samples): in Prepare,
//       ReadUnaryQuantParams(...) then BuildUnaryLut(input->type, f, data).
//       The scaffold applies the table itself; Eval never sees UnaryPath::kLut.
//  3. Register it: `return RegisterUnaryOp<SinOp>();` from Register_SIN(),
//     declared in the op group's register_*.h and listed in its table.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_

#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/op_description.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/type_set.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// How Eval computes a node, chosen once in Prepare.
enum class UnaryPath : uint8_t {
  kFloat,      // floating-point values
  kInteger,    // integer or BOOL values taken as plain numbers
  kQuantized,  // the op's own arithmetic on quantized values
  kLut,        // a table built in Prepare, applied by the scaffold
};

struct UnaryOpData {
  UnaryPath path = UnaryPath::kFloat;
  QuantParams in, out;  // kQuantized and kLut: the input's and output's
  union {  // the largest member first: zero-initialization covers every byte
    int16_t int16[kLut16Size];
    int8_t int8[kLut8Size];
    uint8_t uint8[kLut8Size];
  } lut = {};
};

// Checks one input of a type in `types` and one output of the same type (or
// of output_type(input type) when given), and gives the output the input's
// shape. `input` and `output` (when not null) receive the tensors.
TfLiteStatus PrepareUnaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                            TypeSet types, const TfLiteTensor** input = nullptr,
                            TfLiteTensor** output = nullptr,
                            TfLiteType (*output_type)(TfLiteType) = nullptr);

// Reads the input's and output's quantization into data->in and data->out.
TfLiteStatus ReadUnaryQuantParams(TfLiteContext* context, const char* op,
                                  const TfLiteTensor* input, const TfLiteTensor* output,
                                  UnaryOpData* data);

// Fills the table of out = quantize(fn(dequantize(in))) for an INT8, UINT8 or
// INT16 input from data->in and data->out, and selects UnaryPath::kLut.
template <typename Fn>
void BuildUnaryLut(TfLiteType type, Fn fn, UnaryOpData* data) {
  if (type == kTfLiteInt8) {
    PopulateLut8<int8_t>(data->in, data->out, fn, data->lut.int8);
  } else if (type == kTfLiteUInt8) {
    PopulateLut8<uint8_t>(data->in, data->out, fn, data->lut.uint8);
  } else {
    PopulateLut16(data->in, data->out, fn, data->lut.int16);
  }
  data->path = UnaryPath::kLut;
}

// out[i] = fn(in[i]) over input 0 of element type In and output 0 of element
// type Out (In unless given).
template <typename In, typename Out = In, typename Fn>
TfLiteStatus MapUnary(TfLiteContext* context, const TfLiteNode* node, Fn fn) {
  const TfLiteTensor* input = InputAt(context, node, 0);
  TfLiteTensor* output = OutputAt(context, node, 0);
  const In* in = static_cast<const In*>(input->data.data);
  Out* out = static_cast<Out*>(output->data.data);
  const int64_t n = NumElements(input);
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
  return kTfLiteOk;
}

// Applies the table of BuildUnaryLut to input 0, writing output 0.
TfLiteStatus ApplyUnaryLut(TfLiteContext* context, const TfLiteNode* node,
                           const UnaryOpData& data);

// ---- registration -----------------------------------------------------------------

template <typename Op>
using UnaryDataOf = typename DataOf<Op, UnaryOpData>::type;

// Op::OutputType when the description declares it, else null (same type).
template <typename Op, typename = void>
struct UnaryOutputTypeOf {
  static constexpr TfLiteType (*value)(TfLiteType) = nullptr;
};
template <typename Op>
struct UnaryOutputTypeOf<Op, std::void_t<decltype(&Op::OutputType)>> {
  static constexpr TfLiteType (*value)(TfLiteType) = &Op::OutputType;
};

template <typename Op>
TfLiteStatus PrepareUnaryNode(TfLiteContext* context, TfLiteNode* node) {
  using Data = UnaryDataOf<Op>;
  static_assert(std::is_base_of_v<UnaryOpData, Data>, "Op::Data must derive from UnaryOpData");
  auto* data = static_cast<Data*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, PrepareUnaryOp(context, node, Op::kName, Op::kTypes, &input, &output,
                                            UnaryOutputTypeOf<Op>::value));
  const bool is_float = input->type == kTfLiteFloat32 || input->type == kTfLiteFloat16 ||
                        input->type == kTfLiteFloat64;
  data->path = is_float ? UnaryPath::kFloat : UnaryPath::kInteger;
  if constexpr (HasPrepareHook<Op>::value) {
    return Op::Prepare(context, node, input, output, data);
  }
  return kTfLiteOk;
}

template <typename Op>
TfLiteStatus EvalUnaryNode(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const UnaryDataOf<Op>*>(node->user_data);
  if (data.path == UnaryPath::kLut) return ApplyUnaryLut(context, node, data);
  return Op::Eval(context, node, data);
}

// The registration of the op described by `Op` (see the top of this file).
template <typename Op>
const TfLiteRegistration* RegisterUnaryOp() {
  return RegisterWithData<UnaryDataOf<Op>, PrepareUnaryNode<Op>, EvalUnaryNode<Op>>();
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_
