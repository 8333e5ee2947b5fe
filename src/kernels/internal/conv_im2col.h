// Pieces shared by the 8-bit CONV_2D paths (quantized in conv.cc, hybrid in
// conv_hybrid.cc) that run the convolution as int16 patches times an int16
// filter: the patch gathering and the split of output-pixel tiles among
// threads.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_

#include <algorithm>
#include <cstdint>

#include "src/kernels/internal/conv_util.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/qgemm.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Fills `patches` (rows of `patch_cols` int16 values) with the receptive
// fields of output pixels [first, first + count) within `group` of `groups`:
// each 8-bit NHWC input value plus `batch_offset(b)` of its batch; taps
// outside the image are 0.
template <typename T, typename BatchOffset>
void Im2ColWidened(const ConvGeometry& g, const ConvWindowParams& w, int groups,
                   int64_t patch_cols, const T* input, int group, int64_t first, int64_t count,
                   BatchOffset batch_offset, int16_t* patches) {
  const int group_c = g.in_c / groups;
  for (int64_t r = 0; r < count; ++r) {
    const int64_t pixel = first + r;
    const int x = static_cast<int>(pixel % g.out_w);
    const int y = static_cast<int>((pixel / g.out_w) % g.out_h);
    const int64_t b = pixel / (int64_t{g.out_w} * g.out_h);
    const int32_t offset = batch_offset(b);
    int16_t* dst = patches + r * patch_cols;
    const int y0 = y * w.stride_h - g.pad_top;
    const int x0 = x * w.stride_w - g.pad_left;
    for (int ky = 0; ky < g.filter_h; ++ky) {
      const int iy = y0 + ky * w.dilation_h;
      for (int kx = 0; kx < g.filter_w; ++kx, dst += group_c) {
        const int ix = x0 + kx * w.dilation_w;
        if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) {
          std::fill(dst, dst + group_c, int16_t{0});
          continue;
        }
        const T* src = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_c + group * group_c;
        WidenWithOffset(src, group_c, offset, dst);
      }
    }
  }
}

// Splits `pixels` output pixels into tiles of `tile_rows` and hands each of
// `workers` threads a contiguous run of them as `tile(worker, first, count)`.
template <typename Tile>
void ForEachConvTile(int workers, int64_t pixels, int64_t tile_rows, Tile tile) {
  const int64_t tiles = (pixels + tile_rows - 1) / tile_rows;
  ParallelFor(workers, workers, [&](int64_t w_begin, int64_t w_end) {
    for (int64_t w = w_begin; w < w_end; ++w) {
      for (int64_t t = tiles * w / workers; t < tiles * (w + 1) / workers; ++t) {
        const int64_t first = t * tile_rows;
        tile(w, first, std::min(tile_rows, pixels - first));
      }
    }
  });
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CONV_IM2COL_H_
