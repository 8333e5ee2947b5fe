// BATCH_MATMUL: out[..., i, j] = sum_k lhs[..., i, k] * rhs[..., k, j], with
// adj_x / adj_y transposing the last two dimensions of lhs / rhs and NumPy
// broadcasting of the leading (batch) dimensions. Ranks 2 to 5.
// Types (lhs x rhs -> out): FLOAT32 x FLOAT32 -> FLOAT32; INT8 x INT8 -> INT8
// (requantized) or INT32 (raw products, zero points ignored, as upstream);
// INT16 x INT16 -> INT16 and INT16 x INT8 -> INT16 (zero points must be 0).
// Quantized kernels use per-tensor parameters only, as upstream: per-channel
// quantized tensors count as scale 0 (see LegacyQuantParams).
//
// Hybrid FLOAT32 x INT8 -> FLOAT32 (dynamic-range quantized weights), as
// upstream: every row of lhs (K values) is quantized to int8 at each Eval,
// symmetrically or, with asymmetric_quantize_inputs, with its own zero point
// (internal/hybrid_fc.h). rhs has one scale, or one per output column (along
// its N dimension), zero points 0. Each output is the exact integer sum
// sum_k (q[i, k] - zp_i) * rhs[k, j] times the row's scale times the rhs
// scale: for one rhs scale their product is taken first, else the row scale
// times the column's scale, then float(sum) times that (upstream's order).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::IntArrayPtr;

constexpr char kOp[] = "BATCH_MATMUL";
constexpr int kMaxRank = 5;

// The kernel a node runs (lhs x rhs -> out), chosen in Prepare.
enum class Path {
  kFloat,     // FLOAT32 x FLOAT32 -> FLOAT32
  kHybrid,    // FLOAT32 x INT8 -> FLOAT32
  kInt8,      // INT8 x INT8 -> INT8
  kInt8Raw,   // INT8 x INT8 -> INT32
  kInt16,     // INT16 x INT16 -> INT16
  kInt16x8,   // INT16 x INT8 -> INT16
};

Path ChoosePath(const TfLiteTensor* lhs, const TfLiteTensor* rhs, const TfLiteTensor* out) {
  if (lhs->type == kTfLiteFloat32) return rhs->type == kTfLiteInt8 ? Path::kHybrid : Path::kFloat;
  if (lhs->type == kTfLiteInt8) return out->type == kTfLiteInt32 ? Path::kInt8Raw : Path::kInt8;
  return rhs->type == kTfLiteInt8 ? Path::kInt16x8 : Path::kInt16;
}

struct OpData {
  Path path = Path::kFloat;
  int64_t rows = 0;   // M
  int64_t depth = 0;  // K
  int64_t cols = 0;   // N
  // For every output matrix, the index of the lhs and rhs matrix it reads.
  internal::ScratchVector<int64_t> lhs_batch;
  internal::ScratchVector<int64_t> rhs_batch;
  internal::QuantParams lhs_q, rhs_q, out_q;
  internal::QuantizedMultiplier multiplier;
  // Float scratch: one transposed lhs matrix, and every rhs matrix as [N x K].
  internal::ScratchVector<float> lhs_t;
  internal::ScratchVector<float> rhs_t;
  bool rhs_t_valid = false;  // rhs_t holds a constant rhs already
  // Hybrid (FLOAT32 x INT8).
  bool asymmetric = false;           // per-row zero points (asymmetric_quantize_inputs)
  float rhs_scale = 0.0f;            // one rhs scale, or 0 with channel_scales
  internal::ScratchVector<float> channel_scales; // one per output column, or empty
  internal::ScratchVector<int16_t> rhs_int;      // every rhs matrix as [N x K]
  bool rhs_int_valid = false;        // rhs_int holds a constant rhs already
  internal::ScratchVector<int16_t> lhs_int;      // every lhs row quantized, minus its zero point
  internal::ScratchVector<float> row_scales;     // one per lhs row (times rhs_scale)
  internal::ScratchVector<int8_t> row_q;         // one quantized row
};

// Checked by Prepare (internal::RequireParams).
const TfLiteBatchMatMulParams* Params(const TfLiteNode* node) {
  return static_cast<const TfLiteBatchMatMulParams*>(node->builtin_data);
}

TfLiteStatus CheckTypes(TfLiteContext* context, const TfLiteTensor* lhs, const TfLiteTensor* rhs,
                        const TfLiteTensor* out) {
  const TfLiteType l = lhs->type, r = rhs->type, o = out->type;
  const bool ok = (l == kTfLiteFloat32 && (r == kTfLiteFloat32 || r == kTfLiteInt8) &&
                   o == kTfLiteFloat32) ||
                  (l == kTfLiteInt8 && r == kTfLiteInt8 && (o == kTfLiteInt8 || o == kTfLiteInt32)) ||
                  (l == kTfLiteInt16 && (r == kTfLiteInt16 || r == kTfLiteInt8) &&
                   o == kTfLiteInt16);
  if (ok) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: unsupported types %s x %s -> %s", kOp, TfLiteTypeGetName(l),
                     TfLiteTypeGetName(r), TfLiteTypeGetName(o));
  return kTfLiteError;
}

// Hybrid rhs quantization: one positive scale, or one per output column
// along rhs dimension `n_dim` (of size `cols`); zero points 0.
TfLiteStatus PrepareHybridScales(TfLiteContext* context, const TfLiteTensor* rhs, int n_dim,
                                 int64_t cols, OpData* data) {
  const TfLiteAffineQuantization* aq = internal::HybridWeightQuantization(rhs);
  if (aq == nullptr || aq->scale == nullptr || aq->scale->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: INT8 rhs with FLOAT32 lhs needs quantization scales", kOp);
    return kTfLiteError;
  }
  const int count = aq->scale->size;
  if (count != 1 && (count != cols || aq->quantized_dimension != n_dim)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: rhs has %d quantization scales (dimension %d); per-channel "
                       "quantization is supported only along the output columns (%lld scales, "
                       "dimension %d)",
                       kOp, count, aq->quantized_dimension, static_cast<long long>(cols), n_dim);
    return kTfLiteError;
  }
  for (int i = 0; i < count; ++i) {
    if (!(aq->scale->data[i] > 0.0f) || std::isinf(aq->scale->data[i])) {
      TF_LITE_KERNEL_LOG(context, "%s: rhs quantization scale %d is %g (must be positive)", kOp, i,
                         static_cast<double>(aq->scale->data[i]));
      return kTfLiteError;
    }
  }
  if (!internal::ZeroPointsAreZero(*aq)) {
    TF_LITE_KERNEL_LOG(context, "%s: hybrid rhs with a nonzero zero point is not supported", kOp);
    return kTfLiteError;
  }
  if (count == 1) {
    data->rhs_scale = aq->scale->data[0];
    data->channel_scales.clear();
  } else {
    data->rhs_scale = 0.0f;
    data->channel_scales.assign(aq->scale->data, aq->scale->data + count);
  }
  return kTfLiteOk;
}

// Size of dimension `d` of `t` once its shape is left-padded with 1s to `rank`.
int PaddedDim(const TfLiteTensor* t, int rank, int d) {
  const int i = d - (rank - t->dims->size);
  return i < 0 ? 1 : t->dims->data[i];
}

// M, K and N from the last two dimensions of lhs and rhs (after adj_x /
// adj_y); the inner dimensions must agree.
TfLiteStatus ReadMatrixDims(TfLiteContext* context, const TfLiteTensor* lhs,
                            const TfLiteTensor* rhs, const TfLiteBatchMatMulParams& params,
                            OpData* data) {
  const int lr = internal::NumDims(lhs), rr = internal::NumDims(rhs);
  data->rows = params.adj_x ? internal::Dim(lhs, lr - 1) : internal::Dim(lhs, lr - 2);
  data->depth = params.adj_x ? internal::Dim(lhs, lr - 2) : internal::Dim(lhs, lr - 1);
  data->cols = params.adj_y ? internal::Dim(rhs, rr - 2) : internal::Dim(rhs, rr - 1);
  const int64_t rdepth = params.adj_y ? internal::Dim(rhs, rr - 1) : internal::Dim(rhs, rr - 2);
  if (data->depth == rdepth) return kTfLiteOk;
  char a[96], b[96];
  TF_LITE_KERNEL_LOG(context,
                     "%s: inner dimensions differ: lhs %s (adj_x=%d) and rhs %s (adj_y=%d)", kOp,
                     internal::ShapeToString(lhs->dims, a, sizeof(a)), params.adj_x,
                     internal::ShapeToString(rhs->dims, b, sizeof(b)), params.adj_y);
  return kTfLiteError;
}

// Broadcasts the batch dimensions into `shape` (of the output's rank; its
// last two dimensions are left to the caller), records which lhs and rhs
// matrix each output matrix reads, and counts the lhs and rhs matrices.
TfLiteStatus BroadcastBatches(TfLiteContext* context, const TfLiteTensor* lhs,
                              const TfLiteTensor* rhs, TfLiteIntArray* shape, OpData* data,
                              int64_t* lhs_count, int64_t* rhs_count) {
  const int rank = shape->size;
  int64_t lhs_stride[kMaxRank], rhs_stride[kMaxRank];
  int64_t ls = 1, rs = 1;
  for (int d = rank - 3; d >= 0; --d) {
    const int ld = PaddedDim(lhs, rank, d), rd = PaddedDim(rhs, rank, d);
    if (ld != rd && ld != 1 && rd != 1) {
      char a[96], b[96];
      TF_LITE_KERNEL_LOG(context, "%s: batch dimensions of %s and %s are not broadcastable", kOp,
                         internal::ShapeToString(lhs->dims, a, sizeof(a)),
                         internal::ShapeToString(rhs->dims, b, sizeof(b)));
      return kTfLiteError;
    }
    shape->data[d] = ld == 1 ? rd : ld;
    lhs_stride[d] = ld == 1 ? 0 : ls;
    rhs_stride[d] = rd == 1 ? 0 : rs;
    ls *= ld;
    rs *= rd;
  }
  data->lhs_batch.clear();
  data->rhs_batch.clear();
  int64_t batches = 1;
  for (int d = 0; d < rank - 2; ++d) batches *= shape->data[d];
  int64_t index[kMaxRank] = {0};
  for (int64_t b = 0; b < batches; ++b) {
    int64_t li = 0, ri = 0;
    for (int d = 0; d < rank - 2; ++d) {
      li += index[d] * lhs_stride[d];
      ri += index[d] * rhs_stride[d];
    }
    data->lhs_batch.push_back(li);
    data->rhs_batch.push_back(ri);
    for (int d = rank - 3; d >= 0; --d) {
      if (++index[d] < shape->data[d]) break;
      index[d] = 0;
    }
  }
  *lhs_count = ls;
  *rhs_count = rs;
  return kTfLiteOk;
}

// kHybrid: the rhs scales and the scratch for `ls` lhs and `rs` rhs matrices.
TfLiteStatus PrepareHybrid(TfLiteContext* context, const TfLiteTensor* rhs,
                           const TfLiteBatchMatMulParams& params, int64_t ls, int64_t rs,
                           OpData* data) {
  const int64_t rows = data->rows, depth = data->depth, cols = data->cols;
  const int rr = internal::NumDims(rhs);
  const int n_dim = params.adj_y ? rr - 2 : rr - 1;
  TF_LITE_ENSURE_OK(context, PrepareHybridScales(context, rhs, n_dim, cols, data));
  if (depth > internal::kMaxQGemmDepth) {
    TF_LITE_KERNEL_LOG(context, "%s: hybrid inner dimension %lld is not supported (at most %lld)",
                       kOp, static_cast<long long>(depth),
                       static_cast<long long>(internal::kMaxQGemmDepth));
    return kTfLiteError;
  }
  data->asymmetric = params.asymmetric_quantize_inputs;
  data->lhs_t.assign(params.adj_x ? rows * depth : 0, 0.0f);
  data->rhs_int.assign(static_cast<size_t>(rs * cols * depth), 0);
  data->rhs_int_valid = false;
  data->lhs_int.assign(static_cast<size_t>(ls * rows * depth), 0);
  data->row_scales.assign(static_cast<size_t>(ls * rows), 0.0f);
  data->row_q.assign(static_cast<size_t>(std::max<int64_t>(depth, 1)), 0);
  return kTfLiteOk;
}

// The integer paths: per-tensor parameters and the output multiplier.
TfLiteStatus PrepareInteger(TfLiteContext* context, const TfLiteTensor* lhs,
                            const TfLiteTensor* rhs, const TfLiteTensor* out, OpData* data) {
  data->lhs_q = internal::LegacyQuantParams(lhs);
  data->rhs_q = internal::LegacyQuantParams(rhs);
  data->out_q = internal::LegacyQuantParams(out);
  if (lhs->type == kTfLiteInt16 &&
      (data->lhs_q.zero_point != 0 || data->rhs_q.zero_point != 0 || data->out_q.zero_point != 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 tensors must have zero point 0", kOp);
    return kTfLiteError;
  }
  if (out->type == kTfLiteInt32) return kTfLiteOk;
  if (data->out_q.scale == 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: output needs a per-tensor quantization scale", kOp);
    return kTfLiteError;
  }
  data->multiplier = internal::QuantizeMultiplier(static_cast<double>(data->lhs_q.scale) *
                                                  static_cast<double>(data->rhs_q.scale) /
                                                  static_cast<double>(data->out_q.scale));
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor* lhs;
  const TfLiteTensor* rhs;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &lhs));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &rhs));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &out));
  TF_LITE_ENSURE_OK(context, CheckTypes(context, lhs, rhs, out));

  const int lr = internal::NumDims(lhs), rr = internal::NumDims(rhs);
  if (lr < 2 || lr > kMaxRank || rr < 2 || rr > kMaxRank) {
    TF_LITE_KERNEL_LOG(context, "%s: inputs must have rank 2 to %d, got %d and %d", kOp, kMaxRank,
                       lr, rr);
    return kTfLiteError;
  }
  const auto& params = *Params(node);
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, ReadMatrixDims(context, lhs, rhs, params, data));
  const int rank = std::max(lr, rr);
  IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  int64_t ls = 0, rs = 0;
  TF_LITE_ENSURE_OK(context, BroadcastBatches(context, lhs, rhs, shape.get(), data, &ls, &rs));
  shape->data[rank - 2] = static_cast<int>(data->rows);
  shape->data[rank - 1] = static_cast<int>(data->cols);

  data->path = ChoosePath(lhs, rhs, out);
  if (data->path == Path::kHybrid) {
    TF_LITE_ENSURE_OK(context, PrepareHybrid(context, rhs, params, ls, rs, data));
  } else if (data->path == Path::kFloat) {
    data->lhs_t.assign(params.adj_x ? data->rows * data->depth : 0, 0.0f);
    data->rhs_t.assign(params.adj_y ? 0 : rs * data->depth * data->cols, 0.0f);
    data->rhs_t_valid = false;
  } else {
    TF_LITE_ENSURE_OK(context, PrepareInteger(context, lhs, rhs, out, data));
  }
  return context->ResizeTensor(context, out, shape.release());
}

// Copies the [r x c] row-major matrix `in` to `out` as [c x r].
void Transpose(const float* in, int64_t r, int64_t c, float* out) {
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) out[j * r + i] = in[i * c + j];
  }
}

void EvalFloat(TfLiteContext* context, const TfLiteNode* node, OpData* data,
               const TfLiteTensor* lhs, const TfLiteTensor* rhs, TfLiteTensor* out) {
  const auto* params = Params(node);
  const int64_t m = data->rows, k = data->depth, n = data->cols;
  const float* rhs_nk = rhs->data.f;  // all rhs matrices as [N x K]
  if (!params->adj_y) {
    if (!data->rhs_t_valid) {
      const int64_t count = static_cast<int64_t>(data->rhs_t.size()) / std::max<int64_t>(k * n, 1);
      for (int64_t b = 0; b < count; ++b) {
        Transpose(rhs->data.f + b * k * n, k, n, data->rhs_t.data() + b * k * n);
      }
      data->rhs_t_valid = internal::IsConstantOrPersistent(rhs);
    }
    rhs_nk = data->rhs_t.data();
  }
  const int threads = internal::KernelThreads(context);
  for (size_t b = 0; b < data->lhs_batch.size(); ++b) {
    const float* l = lhs->data.f + data->lhs_batch[b] * m * k;
    if (params->adj_x) {
      Transpose(l, k, m, data->lhs_t.data());
      l = data->lhs_t.data();
    }
    internal::MatMulTransposedRhs({l, m, k, k}, {rhs_nk + data->rhs_batch[b] * n * k, n, k, k},
                                  {out->data.f + b * m * n, m, n, n}, threads);
  }
}

// Hybrid: see the top of the file.
void EvalHybrid(TfLiteContext* context, const TfLiteNode* node, OpData* data,
                const TfLiteTensor* lhs, const TfLiteTensor* rhs, TfLiteTensor* out) {
  const auto* params = Params(node);
  const int64_t m = data->rows, k = data->depth, n = data->cols;
  // rhs as int16 [N x K] matrices, once for a constant rhs.
  if (!data->rhs_int_valid) {
    const int64_t count = static_cast<int64_t>(data->rhs_int.size()) / std::max<int64_t>(k * n, 1);
    for (int64_t b = 0; b < count; ++b) {
      const int8_t* r = rhs->data.int8 + b * k * n;
      int16_t* q = data->rhs_int.data() + b * n * k;
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t p = 0; p < k; ++p) q[j * k + p] = params->adj_y ? r[j * k + p] : r[p * n + j];
      }
    }
    data->rhs_int_valid = internal::IsConstantOrPersistent(rhs);
  }
  // Every lhs row quantized on its own.
  const int64_t lhs_count = static_cast<int64_t>(data->row_scales.size()) / std::max<int64_t>(m, 1);
  const int kk = static_cast<int>(k);
  for (int64_t b = 0; b < lhs_count; ++b) {
    const float* l = lhs->data.f + b * m * k;
    if (params->adj_x) {
      Transpose(l, k, m, data->lhs_t.data());
      l = data->lhs_t.data();
    }
    for (int64_t i = 0; i < m; ++i) {
      float scale;
      int32_t offset = 0;
      if (data->asymmetric) {
        internal::QuantizeRowAsymmetric(l + i * k, kk, data->row_q.data(), &scale, &offset);
      } else {
        internal::QuantizeRowSymmetric(l + i * k, kk, data->row_q.data(), &scale);
      }
      if (data->channel_scales.empty()) scale *= data->rhs_scale;
      data->row_scales[b * m + i] = scale;
      internal::WidenWithOffset(data->row_q.data(), k, -offset,
                                data->lhs_int.data() + (b * m + i) * k);
    }
  }
  // Integer sums go to the output buffer first (int32 and float have one
  // size) and are scaled in place.
  const int64_t batches = static_cast<int64_t>(data->lhs_batch.size());
  const int threads =
      internal::ThreadsForWork(internal::KernelThreads(context), batches * m * n * k);
  int32_t* sums = reinterpret_cast<int32_t*>(out->data.raw);
  float* o = out->data.f;
  const float* channel = data->channel_scales.empty() ? nullptr : data->channel_scales.data();
  internal::ParallelFor(threads, batches * m, [&](int64_t begin, int64_t end) {
    while (begin < end) {
      const int64_t b = begin / m, i0 = begin % m;
      const int64_t rows = std::min(end, (b + 1) * m) - begin;
      const int64_t lrow = data->lhs_batch[b] * m + i0;
      internal::QGemmS16(data->lhs_int.data() + lrow * k, rows, k,
                         data->rhs_int.data() + data->rhs_batch[b] * n * k, n, k, k,
                         sums + begin * n, n);
      for (int64_t i = 0; i < rows; ++i) {
        const float row_scale = data->row_scales[lrow + i];
        float* oi = o + (begin + i) * n;
        for (int64_t j = 0; j < n; ++j) {
          int32_t s;
          std::memcpy(&s, oi + j, sizeof(s));
          const float scale = channel ? row_scale * channel[j] : row_scale;
          oi[j] = scale * static_cast<float>(s);
        }
      }
      begin += rows;
    }
  });
}

// Quantized products accumulate in `Acc` and are requantized to `Out`, or
// stored raw when `Out` is INT32.
template <typename L, typename R, typename Acc, typename Out>
void EvalInteger(const TfLiteNode* node, const OpData& data, const TfLiteTensor* lhs,
                 const TfLiteTensor* rhs, TfLiteTensor* out) {
  const auto* params = Params(node);
  const int64_t m = data.rows, k = data.depth, n = data.cols;
  // Element (i, k) of lhs is at i * lsi + k * lsk; (k, j) of rhs at k * rsk + j * rsj.
  const int64_t lsi = params->adj_x ? 1 : k, lsk = params->adj_x ? m : 1;
  const int64_t rsk = params->adj_y ? 1 : n, rsj = params->adj_y ? k : 1;
  constexpr bool kRaw = std::is_same_v<Out, int32_t>;
  const Acc lzp = kRaw ? 0 : data.lhs_q.zero_point;
  const Acc rzp = kRaw ? 0 : data.rhs_q.zero_point;
  const int32_t ozp = data.out_q.zero_point;
  Out* o = static_cast<Out*>(out->data.data);
  for (size_t b = 0; b < data.lhs_batch.size(); ++b) {
    const L* l = static_cast<const L*>(lhs->data.data) + data.lhs_batch[b] * m * k;
    const R* r = static_cast<const R*>(rhs->data.data) + data.rhs_batch[b] * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        Acc acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          acc += (static_cast<Acc>(l[i * lsi + p * lsk]) - lzp) *
                 (static_cast<Acc>(r[p * rsk + j * rsj]) - rzp);
        }
        if constexpr (kRaw) {
          *o++ = acc;
        } else {
          *o++ = internal::ClampTo<Out>(
              internal::MultiplyByQuantizedMultiplier(acc, data.multiplier) + ozp);
        }
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* lhs = internal::InputAt(context, node, 0);
  const TfLiteTensor* rhs = internal::InputAt(context, node, 1);
  TfLiteTensor* out = internal::OutputAt(context, node, 0);
  switch (data->path) {
    case Path::kFloat:
      EvalFloat(context, node, data, lhs, rhs, out);
      break;
    case Path::kHybrid:
      EvalHybrid(context, node, data, lhs, rhs, out);
      break;
    case Path::kInt8:
      EvalInteger<int8_t, int8_t, int32_t, int8_t>(node, *data, lhs, rhs, out);
      break;
    case Path::kInt8Raw:
      EvalInteger<int8_t, int8_t, int32_t, int32_t>(node, *data, lhs, rhs, out);
      break;
    case Path::kInt16:
      EvalInteger<int16_t, int16_t, int64_t, int16_t>(node, *data, lhs, rhs, out);
      break;
    case Path::kInt16x8:
      EvalInteger<int16_t, int8_t, int64_t, int16_t>(node, *data, lhs, rhs, out);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BATCH_MATMUL() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
