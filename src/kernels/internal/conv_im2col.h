// The im2col + GEMM scaffold of the convolutions (CONV_2D float, 8-bit and
// hybrid; CONV_3D and CONV_3D_TRANSPOSE use its tiling): output pixels are
// cut into tiles, each tile's receptive fields are copied into rows of a patch
// matrix, and threads take contiguous runs of tiles, each with its own
// scratch slot. Also what the 8-bit and hybrid paths share around int16
// filters: packing them, and the depthwise sums of one output pixel.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/wrapping_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Scratch budgets per tile, in values: 1 MiB of floats, 256 KiB of int16.
// Small enough to stay in cache beside the filter, large enough for an
// efficient GEMM. A tile has at least kMinConvTileRows rows.
constexpr int64_t kFloatTileValues = 256 * 1024;
constexpr int64_t kInt16TileValues = 128 * 1024;
constexpr int64_t kMinConvTileRows = 16;

// Rows per tile for `pixels` rows of `cols` values each within `budget`
// values (but at least kMinConvTileRows rows, at most `pixels`, at least 1).
inline int64_t ConvTileRows(int64_t pixels, int64_t cols, int64_t budget) {
  return std::max<int64_t>(
      1, std::min(pixels, std::max(kMinConvTileRows, budget / std::max<int64_t>(1, cols))));
}

struct ConvTiling {
  int64_t tile_rows = 0;  // output pixels per tile
  int threads = 1;        // tiles processed in parallel (one scratch slot each)
};

// Tiles for `pixels` output pixels with `patch_cols` values per patch row and
// `out_c` output channels, and as many threads as the work justifies (at most
// one per tile). With more than one thread the pixels are cut into at least
// kTasksPerThread tiles per thread (of kMinConvTileRows rows or more), so a
// worker that wakes late still takes its share.
inline ConvTiling PlanConvTiles(TfLiteContext* context, int64_t pixels, int64_t patch_cols,
                                int64_t out_c, int64_t budget) {
  ConvTiling t;
  t.tile_rows = ConvTileRows(pixels, patch_cols, budget);
  const int threads = ThreadsForWork(KernelThreads(context), pixels * patch_cols * out_c);
  if (threads > 1 && pixels > 0) {
    const int64_t min_rows_tiles = (pixels + kMinConvTileRows - 1) / kMinConvTileRows;
    const int64_t tiles = std::max((pixels + t.tile_rows - 1) / t.tile_rows,
                                   TasksFor(threads, min_rows_tiles));
    t.tile_rows = (pixels + tiles - 1) / tiles;
  }
  const int64_t tiles = (pixels + t.tile_rows - 1) / t.tile_rows;
  t.threads = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(tiles, threads)));
  return t;
}

// Cuts `pixels` output pixels into tiles of `tile_rows`; at most `workers`
// threads claim them as they become free and call tile(slot, first, count),
// `slot` < workers naming the thread's scratch.
template <typename Tile>
void ForEachConvTile(int workers, int64_t pixels, int64_t tile_rows, Tile tile) {
  const int64_t tiles = (pixels + tile_rows - 1) / tile_rows;
  ParallelTasks(workers, tiles, [&](int slot, int64_t t) {
    const int64_t first = t * tile_rows;
    tile(slot, first, std::min(tile_rows, pixels - first));
  });
}

// Fills `patches` (rows of `patch_cols` values) with the receptive fields of
// output pixels [first, first + count) within `group` of `groups`: a tap
// inside the image is written by copy_tap(batch, input_offset, dst, n), which
// fills dst[0, n) from the NHWC input's values [input_offset, input_offset +
// n); a tap in the padding is n zeros.
template <typename Dst, typename CopyTap>
void Im2Col(const ConvGeometry& g, const ConvWindowParams& w, int groups, int64_t patch_cols,
            int group, int64_t first, int64_t count, Dst* patches, CopyTap copy_tap) {
  const int group_c = g.in_c / groups;
  for (int64_t r = 0; r < count; ++r) {
    const int64_t pixel = first + r;
    const int x = static_cast<int>(pixel % g.out_w);
    const int y = static_cast<int>((pixel / g.out_w) % g.out_h);
    const int64_t b = pixel / (int64_t{g.out_w} * g.out_h);
    Dst* dst = patches + r * patch_cols;
    const int y0 = y * w.stride_h - g.pad_top;
    const int x0 = x * w.stride_w - g.pad_left;
    for (int ky = 0; ky < g.filter_h; ++ky) {
      const int iy = y0 + ky * w.dilation_h;
      for (int kx = 0; kx < g.filter_w; ++kx, dst += group_c) {
        const int ix = x0 + kx * w.dilation_w;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(dst, dst + group_c, Dst{0});
          continue;
        }
        copy_tap(b, ((b * g.in_h + iy) * g.in_w + ix) * g.in_c + group * group_c, dst, group_c);
      }
    }
  }
}

// Im2Col of a FLOAT32 input.
inline void Im2ColFloat(const ConvGeometry& g, const ConvWindowParams& w, int groups,
                        int64_t patch_cols, const float* input, int group, int64_t first,
                        int64_t count, float* patches) {
  Im2Col(g, w, groups, patch_cols, group, first, count, patches,
         [input](int64_t, int64_t offset, float* dst, int n) {
           std::memcpy(dst, input + offset, sizeof(float) * n);
         });
}

// Im2Col of an 8-bit input into int16 patches: each value plus
// `batch_offset(b)` of its batch; padding taps are 0.
template <typename T, typename BatchOffset>
void Im2ColWidened(const ConvGeometry& g, const ConvWindowParams& w, int groups,
                   int64_t patch_cols, const T* input, int group, int64_t first, int64_t count,
                   BatchOffset batch_offset, int16_t* patches) {
  Im2Col(g, w, groups, patch_cols, group, first, count, patches,
         [&](int64_t b, int64_t offset, int16_t* dst, int n) {
           WidenWithOffset(input + offset, n, batch_offset(b), dst);
         });
}

// The first `count` values of an INT8, UINT8 or INT4 filter, plus `offset`,
// as int16 in `out`.
inline void PackFilterInt16(const TfLiteTensor* filter, int64_t count, int32_t offset,
                            ScratchVector<int16_t>* out) {
  out->resize(static_cast<size_t>(count));
  int16_t* dst = out->data();
  if (filter->type == kTfLiteInt4) {
    UnpackInt4(reinterpret_cast<const uint8_t*>(filter->data.raw_const), count, dst);
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<int16_t>(dst[i] + offset);
  } else if (filter->type == kTfLiteUInt8) {
    const uint8_t* f = filter->data.uint8;
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<int16_t>(f[i] + offset);
  } else {
    const int8_t* f = filter->data.int8;
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<int16_t>(f[i] + offset);
  }
}

// DEPTHWISE_CONV_2D with 8-bit input values: sets acc[0, out_c) to the
// int32 sums of (input + offset) * filter over output pixel (b, y, x)'s
// window, `filter` holding [KH * KW, out_c] int16 values and output channel
// c reading input channel c / multiplier. Padding taps add nothing.
template <typename T>
void DepthwisePixelSums(const ConvGeometry& g, const ConvWindowParams& window, const T* input,
                        const int16_t* filter, int out_c, int multiplier, int32_t offset,
                        int64_t b, int y, int x, DepthwiseTapScratch* scratch,
                        int32_t* __restrict acc) {
  static_assert(sizeof(T) == 1, "8-bit input values");
  if (multiplier == 1 && int64_t{g.filter_h} * g.filter_w <= kMaxGatheredTaps) {
    const int count = GatherDepthwiseTaps(g, window, reinterpret_cast<const uint8_t*>(input),
                                          filter, out_c, b, y, x, scratch);
    DepthwiseSums(scratch->inputs, scratch->filters, count, out_c, std::is_signed_v<T>, offset,
                  acc);
    return;
  }
  std::fill(acc, acc + out_c, 0);
  ForEachInputTap(g, window, b, y, x, [&](int64_t in_offset, int tap) {
    const T* __restrict src = input + in_offset;
    const int16_t* __restrict w = filter + int64_t{tap} * out_c;
    // More than about 33,000 taps (a hostile window) can leave the int32
    // range: the sums wrap around, as upstream's int32 sums do.
    for (int c = 0; c < g.in_c; ++c) {
      const int32_t v = static_cast<int32_t>(src[c]) + offset;
      for (int k = 0; k < multiplier; ++k) {
        acc[c * multiplier + k] = WrappingAdd(acc[c * multiplier + k], v * w[c * multiplier + k]);
      }
    }
  });
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_
