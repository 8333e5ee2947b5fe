// RESHAPE: same data, new shape. Any element type.
//
// The new shape comes from the second input when it is a 1-D INT32 tensor,
// otherwise from the params (new_shape). One dimension may be -1: it is
// inferred from the element count. When the shape tensor is not a constant,
// its value is only known at Eval, so the output becomes a dynamic tensor
// that Eval resizes.
#include <cstring>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "RESHAPE";

struct OpData {
  bool shape_known_in_prepare = true;
};

const TfLiteTensor* ShapeTensor(const TfLiteContext* context, const TfLiteNode* node) {
  if (internal::NumInputs(node) != 2) return nullptr;
  const TfLiteTensor* shape = internal::GetOptionalInput(context, node, 1);
  if (shape == nullptr || shape->type != kTfLiteInt32 || internal::NumDims(shape) != 1) {
    return nullptr;  // not usable: fall back to the params, as upstream does
  }
  return shape;
}

// The requested shape, with -1 not yet resolved.
internal::IntArrayPtr RequestedShape(const TfLiteContext* context, const TfLiteNode* node) {
  const TfLiteTensor* shape = ShapeTensor(context, node);
  // A shape tensor nothing writes has no memory (malformed models); like
  // upstream, only its shape is of use then, so the params decide.
  if (shape != nullptr && (shape->data.raw != nullptr || internal::Dim(shape, 0) == 0)) {
    return internal::MakeIntArray(shape->data.i32, internal::Dim(shape, 0));
  }
  const auto* params = static_cast<const TfLiteReshapeParams*>(node->builtin_data);
  int rank = params->num_dimensions;
  if (rank < 0 || rank > TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT) return nullptr;
  // Old converters wrote new_shape [0] to mean "a scalar".
  if (rank == 1 && params->shape[0] == 0) rank = 0;
  return internal::MakeIntArray(params->shape, rank);
}

// Resolves a -1 in `shape` and checks that it holds as many elements as the
// input.
TfLiteStatus ResolveShape(TfLiteContext* context, const TfLiteTensor* input,
                          TfLiteIntArray* shape) {
  const int64_t input_elements = internal::NumElements(input);
  int64_t known = 1;  // product of the dimensions other than -1
  int unknown = -1;
  for (int i = 0; i < shape->size; ++i) {
    const int d = shape->data[i];
    if (d == -1) {
      if (unknown != -1) {
        TF_LITE_KERNEL_LOG(context, "%s: new shape has more than one -1 dimension", kOp);
        return kTfLiteError;
      }
      unknown = i;
    } else if (d < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: new shape has negative dimension %d", kOp, d);
      return kTfLiteError;
    } else {
      // Checked: known (up to 2^40) times d (up to 2^31) overflows int64.
      if (__builtin_mul_overflow(known, int64_t{d}, &known) || known > (int64_t{1} << 40)) {
        TF_LITE_KERNEL_LOG(context, "%s: new shape is too large", kOp);
        return kTfLiteError;
      }
    }
  }
  if (unknown != -1) {
    // With zero elements on either side the inferred size is 0.
    const int64_t inferred = known == 0 ? 0 : input_elements / known;
    if (inferred > 0x7fffffff) {
      TF_LITE_KERNEL_LOG(context, "%s: inferred dimension is too large", kOp);
      return kTfLiteError;
    }
    shape->data[unknown] = static_cast<int>(inferred);
    known *= inferred;
  }
  if (known != input_elements) {
    char in_str[96], out_str[96];
    TF_LITE_KERNEL_LOG(context, "%s: cannot reshape %s (%lld elements) to %s (%lld elements)", kOp,
                       internal::ShapeToString(input->dims, in_str, sizeof(in_str)),
                       static_cast<long long>(input_elements),
                       internal::ShapeToString(shape, out_str, sizeof(out_str)),
                       static_cast<long long>(known));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  internal::IntArrayPtr shape = RequestedShape(context, node);
  if (shape == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: invalid new_shape in params", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, ResolveShape(context, input, shape.get()));
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 2, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }

  const TfLiteTensor* shape = ShapeTensor(context, node);
  // Strings are sized by their content, which exists only at Eval.
  data->shape_known_in_prepare = output->type != kTfLiteString &&
                                 (shape == nullptr || internal::IsConstantOrPersistent(shape));
  if (!data->shape_known_in_prepare) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (!data->shape_known_in_prepare) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, node));
    if (output->type == kTfLiteString) {
      // The runtime cannot size a string tensor from its shape; it needs
      // exactly the input's bytes.
      TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(input->bytes, output));
      output->bytes = input->bytes;
    }
  }
  if (output->bytes < input->bytes) {
    TF_LITE_KERNEL_LOG(context, "%s: output buffer (%zu bytes) smaller than input (%zu bytes)", kOp,
                       output->bytes, input->bytes);
    return kTfLiteError;
  }
  // The runtime may let the output share the input's buffer.
  if (output->data.raw != input->data.raw && input->bytes > 0) {
    std::memcpy(output->data.raw, input->data.raw, input->bytes);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RESHAPE() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
