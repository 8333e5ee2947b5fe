// The op table: one harness over every builtin op, in the style of ggml's
// test-backend-ops. A case is op x input shapes x element types x options,
// named "<OP>_<variant>". Each case either draws seeded random inputs and
// computes the expected outputs with a plain reference written in the test
// (independent of src/kernels), or gives hand-computed inputs and outputs.
// The harness runs a one-op model through the public C API and compares:
//   float32              |got - ref| <= atol + rtol * |ref|   (per case)
//   int8/uint8/int16     inputs are quantized first and the reference sees
//                        their dequantized values, so the only error left is
//                        the output's rounding: |dequant(got) - ref| <= lsb * scale
//   int32/int64/bool/... exact
// Every output the planner puts in the arena is moved into a buffer with
// guard bytes on both sides (a custom allocation): a kernel that writes
// outside its output fails the case.
//
// The references live in reference.cc; the case lists next to this file, one per op family
// (elementwise.cc, reduce.cc, layout.cc, nn.cc, ...); op_table_test.cc runs them.
#ifndef TFLITE_C_TESTS_KERNELS_OP_TABLE_HARNESS_H_
#define TFLITE_C_TESTS_KERNELS_OP_TABLE_HARNESS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace op_table {

using testing::Opts;
using testing::Quantization;
using tflite::BuiltinOperator;
using tflite::TensorType;

// ---- reference tensors and helpers -------------------------------------------------------

// Values are doubles so that int64 and large int32 values stay exact.
struct FTensor {
  std::vector<int> shape;
  std::vector<double> v;
  std::vector<std::string> s;  // STRING tensors: the strings (v stays empty)
};

int NumElements(const std::vector<int>& shape);
std::vector<int> Strides(const std::vector<int>& shape);
// Multi-index of flat element `flat` of `shape`.
std::vector<int> Unflatten(int flat, const std::vector<int>& shape);
// Flat offset of multi-index `idx` in `shape`.
int Flatten(const std::vector<int>& idx, const std::vector<int>& shape);
// Element of `t` at the (right-aligned, numpy-broadcast) output index `idx`.
double BroadcastAt(const FTensor& t, const std::vector<int>& idx);
std::vector<int> BroadcastShape(const std::vector<int>& a, const std::vector<int>& b);

FTensor Unary(const FTensor& x, const std::function<double(double)>& f);
FTensor Binary(const FTensor& a, const FTensor& b, const std::function<double(double, double)>& f);
// Reduction over `axes` with `init` and `step`, then `finish(acc, count)`.
FTensor Reduce(const FTensor& x, std::vector<int> axes, bool keep_dims, double init,
               const std::function<double(double, double)>& step,
               const std::function<double(double, int)>& finish);
FTensor Transpose(const FTensor& x, const std::vector<int>& perm);
// NHWC convolution: regular (filter [O,kh,kw,C]) or depthwise (filter [1,kh,kw,C*M]).
FTensor Conv(const FTensor& x, const FTensor& w, const FTensor& bias, int stride, bool same,
             bool depthwise, int multiplier);
FTensor Pool(const FTensor& x, int k, int stride, bool same, bool max);

// ---- cases -------------------------------------------------------------------------------

enum class Kind {
  kData,       // model input; random values in [lo, hi] unless `values` are given
  kDataConst,  // constant (weights); quantized per tensor like the data inputs
  kInt32Const, // int32 constant (axes, shapes, paddings ...): goes to the reference's `ints`
  kOmitted,    // optional input left out (-1)
  kVariable,   // variable tensor (recurrent state), zero at the first Invoke
};

// Input/output type marker: the case's element type.
constexpr TensorType kSameType = static_cast<TensorType>(-1);

struct InputSpec {
  Kind kind = Kind::kData;
  std::vector<int> shape;
  TensorType type = kSameType;
  bool fixed = false;         // `values` given (hand-picked), not drawn at random
  std::vector<double> values;
  std::vector<int32_t> ints;  // kInt32Const values
  std::vector<std::string> strings;  // STRING tensors (type STRING, `fixed`)
};

// A data input of the case's type with random values.
InputSpec Data(std::vector<int> shape);
// A data-typed constant with random values (weights).
InputSpec Weights(std::vector<int> shape);
// An int32 constant (axes, shapes, paddings, indices ...).
InputSpec Ints(std::vector<int> shape, std::vector<int32_t> v);
// A model input / constant with given values, of `type` (kSameType: the case's type).
InputSpec In(std::vector<int> shape, std::vector<double> values, TensorType type = kSameType);
InputSpec Const(std::vector<int> shape, std::vector<double> values, TensorType type = kSameType);
InputSpec Omitted();
InputSpec Variable(std::vector<int> shape);
// A STRING constant with the given strings (as an output: the expected strings).
InputSpec Str(std::vector<int> shape, std::vector<std::string> strings);

// The reference sees the data inputs (Data, Weights, In, Const; in order,
// dequantized for quantized types) and, apart, the Ints() constants.
using RefFn = std::function<std::vector<FTensor>(const std::vector<FTensor>& data,
                                                 const std::vector<std::vector<int32_t>>& ints)>;
// References that apply `f` element-wise (binary: with broadcasting).
RefFn UnaryRef(std::function<double(double)> f);
RefFn BinaryRef(std::function<double(double, double)> f);
// A reference that returns hand-computed outputs.
RefFn Expect(std::vector<FTensor> outputs);

enum class Outcome { kOk, kPrepareFails, kInvokeFails };

struct OpCase {
  std::string name;  // "<OP>_<variant>", unique in the table
  BuiltinOperator op;
  std::vector<InputSpec> inputs;
  RefFn ref;
  std::vector<TensorType> types;
  std::function<tflite::BuiltinOptionsUnion()> options = [] { return tflite::BuiltinOptionsUnion(); };
  float lo = -3.f, hi = 3.f;
  // Output rule for quantized types: same quantization as input 0 (layout
  // ops, max pool, ...), or a fixed one (logistic, softmax, tanh).
  bool out_like_input = false;
  std::function<Quantization(TensorType)> fixed_out;
  TensorType out_type_override = kSameType;  // e.g. BOOL, INT32 (every output)
  std::vector<TensorType> out_types;         // per output, when outputs differ
  // Quantized types without scale/zero point: values are the raw integers.
  bool raw_integers = false;
  float rtol = 1e-5f, atol = 1e-5f;
  float lsb = 1.01f;
  int version = 1;
  // Types upstream supports that this build still refuses: the table checks
  // they fail in Prepare with "not supported" (and flags them once they work).
  std::vector<TensorType> unsupported;
  // Called on the model after the operator is added (e.g. to set
  // builtin_options_2, which the options union above does not reach).
  std::function<void(testing::OneOpModel&)> after_op;
  // Also run with the default delegates applied (XNNPACK), as a second test.
  bool also_default_delegates = false;
  // Adds the subgraphs the operator names (control flow bodies, branches,
  // update computations) to the model, after the operator: main is subgraph
  // 0, the first one added is 1. The harness makes subgraph 0 current again.
  std::function<void(testing::ModelBuilder&)> subgraphs;
  // Outputs no reference can predict value by value (random draws): the
  // reference gives only their shapes, and `property` checks the values it is
  // given (one vector per output, decoded as for the comparison) and returns
  // what is wrong, or "" when nothing is. The harness then also runs a second
  // model built the same way and expects the same bytes (fixed seeds).
  std::function<std::string(const std::vector<std::vector<double>>&)> property;
  // Error cases: where the model must fail, and a substring of the message.
  Outcome outcome = Outcome::kOk;
  std::string error;
};

// ---- hand-computed cases ------------------------------------------------------------------
// Written one per line: name (the variant; the op's name is prefixed), op,
// options, inputs with their values, the expected output, then optionally
// where it must fail and a word of the message, and the op version.
//   {"SameShape", kAdd, AddOpts(), {F32({2}, {1, 2}), F32({2}, {3, 4})}, F32({2}, {4, 6})}
struct Hand {
  Hand(std::string name, BuiltinOperator op, tflite::BuiltinOptionsUnion options,
       std::vector<InputSpec> inputs, InputSpec output, Outcome outcome = Outcome::kOk,
       std::string error = "", int version = 1)
      : name(std::move(name)), op(op), options(std::move(options)), inputs(std::move(inputs)),
        outputs{std::move(output)}, outcome(outcome), error(std::move(error)), version(version) {}
  // A further output (ops with several).
  Hand&& And(InputSpec output) && {
    outputs.push_back(std::move(output));
    return std::move(*this);
  }
  std::string name;
  BuiltinOperator op;
  tflite::BuiltinOptionsUnion options;
  std::vector<InputSpec> inputs;
  std::vector<InputSpec> outputs;
  Outcome outcome;
  std::string error;
  int version;
};
InputSpec F32(std::vector<int> shape, std::vector<double> values);
InputSpec I32(std::vector<int> shape, std::vector<double> values);
InputSpec I64(std::vector<int> shape, std::vector<double> values);
// A tensor of `type` with zeros (raw integers: no quantization).
InputSpec Typed(TensorType type, std::vector<int> shape);
InputSpec Const(InputSpec s);
// Float results within 5e-6 * (1 + |want|), integers exact; each runs on the
// builtin kernels and with the default delegates.
std::vector<OpCase> Cases(std::vector<Hand> hands);

// Moves the cases of `from` to the end of `to`.
void Append(std::vector<OpCase>* to, std::vector<OpCase> from);

// Sets `options` as builtin_options_2 (the StableHLO-era options table) of
// every case in `cases`.
template <typename T>
std::vector<OpCase> WithOptions2(std::vector<OpCase> cases, T options) {
  for (OpCase& c : cases) {
    c.after_op = [options](testing::OneOpModel& m) {
      T copy = options;
      m.builder().op(0).builtin_options_2.Set(std::move(copy));
    };
  }
  return cases;
}

// Element type lists most cases use.
extern const std::vector<TensorType> kF, kF8, kF8S, kFU8, kF816, kI32, kI64, kBool;

bool Quantized(TensorType t);
std::string TypeName(TensorType t);

// Builds, runs and checks one case for one element type (gtest assertions),
// on the builtin kernels or with the default delegates (XNNPACK) applied.
void RunCase(const OpCase& c, TensorType type, bool default_delegates = false);

// The case lists, one per op family.
std::vector<OpCase> UnaryCases();
std::vector<OpCase> BinaryCases();
std::vector<OpCase> ReductionCases();
std::vector<OpCase> LayoutCases();
std::vector<OpCase> NnCases();
std::vector<OpCase> BinaryHandCases();
std::vector<OpCase> ActivationHandCases();
std::vector<OpCase> ReshapeHandCases();
std::vector<OpCase> ConvHandCases();
std::vector<OpCase> FullyConnectedHandCases();
std::vector<OpCase> DepthwiseHandCases();
std::vector<OpCase> LogicHandCases();
std::vector<OpCase> ConversionCases();
std::vector<OpCase> ShapeHandCases();
std::vector<OpCase> IndexHandCases();
std::vector<OpCase> NmsHandCases();
std::vector<OpCase> ImageHandCases();
std::vector<OpCase> ComplexHandCases();
std::vector<OpCase> StablehloHandCases();
std::vector<OpCase> ReduceWindowCases();
std::vector<OpCase> RecurrentHandCases();
std::vector<OpCase> HashRandomCases();
std::vector<OpCase> SubgraphOpCases();
std::vector<OpCase> LstmCases();
const std::vector<OpCase>& AllCases();

// ---- sentinels -----------------------------------------------------------------------------

// Moves each arena output of `m` (after Allocate) into a buffer with guard
// bytes before and after it, and re-allocates. Outputs the kernel made
// dynamic in Prepare keep their heap buffer (counted in `unguarded`).
class OutputGuards {
 public:
  static constexpr size_t kGuardBytes = 64;
  static constexpr uint8_t kGuardValue = 0xA5;

  bool Attach(testing::OneOpModel& m, int num_outputs);
  // Empty when every guard byte is intact, else which output and where.
  std::string Damage() const;
  int unguarded() const { return unguarded_; }
  // Outputs guarded / left unguarded by every Attach so far (for the summary).
  static int total_guarded;
  static int total_unguarded;

 private:
  struct Buffer {
    int output;
    std::vector<uint8_t> storage;
    size_t offset;  // of the data in storage (64-byte aligned address)
    size_t bytes;
  };
  std::vector<Buffer> buffers_;
  int unguarded_ = 0;
};

}  // namespace op_table
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_OP_TABLE_HARNESS_H_
