// The indirection buffers our XNNPACK build (patch 0012) writes at reshape
// for convolutions and depthwise convolutions, against the layouts written
// out from their definition here: which input pixel (or the zero buffer)
// each slot points at, for strides, dilations, paddings, kernel sizes and
// output tiles over many geometries, including windows that hang over every
// edge and slots the buffer leaves alone. White-box: calls XNNPACK's internal
// builders directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#if TFLITE_C_WITH_XNNPACK
extern "C" {
void xnn_indirection_init_conv2d(size_t output_tile_size, size_t output_start, size_t output_end,
                                 const void** indirection_buffer, const void* input,
                                 const void* zero_buffer, size_t input_pixel_stride,
                                 size_t input_height, size_t input_width, size_t output_height,
                                 size_t output_width, size_t kernel_height, size_t kernel_width,
                                 size_t stride_height, size_t stride_width, size_t dilation_height,
                                 size_t dilation_width, size_t input_padding_top,
                                 size_t input_padding_left);
void xnn_indirection_init_dwconv2d_compressed(
    size_t output_y_start, size_t output_y_end, const void** indirection_buffer,
    const void* input, size_t input_pixel_stride, const void* zero_buffer, size_t input_height,
    size_t input_width, size_t output_height, size_t output_width, size_t kernel_height,
    size_t kernel_width, size_t stride_height, size_t stride_width, size_t dilation_height,
    size_t dilation_width, size_t input_padding_top, size_t input_padding_left,
    size_t step_height, size_t step_width, size_t indirect_top_height,
    size_t indirect_bot_height, size_t primary_tile);
}
#endif

namespace {

#if TFLITE_C_WITH_XNNPACK

struct Geometry {
  size_t in_h, in_w, kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w, pad_top,
      pad_left, out_h, out_w, pixel_stride;
};

// Deterministic pseudo-random numbers in [lo, hi].
struct Rng {
  uint32_t state = 12345;
  size_t operator()(size_t lo, size_t hi) {
    state = state * 1664525u + 1013904223u;
    return lo + (state >> 8) % (hi - lo + 1);
  }
};

// Kernel sizes 1-6, strides 1-4, dilations 1-3, paddings up to the kernel
// size, rows up to 30 pixels (tiles inside a row and across rows); half the
// cases with the output size the padding gives (windows that
// fit), half with any output size (windows off the far edge too).
Geometry RandomGeometry(Rng& r, bool consistent) {
  for (;;) {
    Geometry g;
    g.in_h = r(1, 12);
    g.in_w = r(1, 30);
    g.kernel_h = r(1, 6);
    g.kernel_w = r(1, 6);
    g.stride_h = r(1, 4);
    g.stride_w = r(1, 4);
    g.dilation_h = r(1, 3);
    g.dilation_w = r(1, 3);
    g.pad_top = r(0, g.kernel_h);
    g.pad_left = r(0, g.kernel_w);
    g.pixel_stride = 4 * r(1, 5);
    g.out_h = r(1, 12);
    g.out_w = r(1, 30);
    if (!consistent) return g;
    const long span_h = long(g.in_h + 2 * g.pad_top) - long(g.dilation_h * (g.kernel_h - 1) + 1);
    const long span_w = long(g.in_w + 2 * g.pad_left) - long(g.dilation_w * (g.kernel_w - 1) + 1);
    if (span_h < 0 || span_w < 0) continue;
    g.out_h = size_t(span_h) / g.stride_h + 1;
    g.out_w = size_t(span_w) / g.stride_w + 1;
    return g;
  }
}

const char kInput[1] = {0};  // only its address matters; never read
const char kZero[1] = {0};

// Where the window of output (oy, ox) reads at kernel tap (ky, kx).
const void* Tap(const Geometry& g, size_t oy, size_t ox, size_t ky, size_t kx) {
  const long iy = long(oy * g.stride_h + ky * g.dilation_h) - long(g.pad_top);
  const long ix = long(ox * g.stride_w + kx * g.dilation_w) - long(g.pad_left);
  if (iy < 0 || ix < 0 || iy >= long(g.in_h) || ix >= long(g.in_w)) return kZero;
  return reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(kInput) +
                                       (size_t(iy) * g.in_w + size_t(ix)) * g.pixel_stride);
}

const void* Sentinel(size_t i) { return reinterpret_cast<const void*>(uintptr_t{0x7000000} + i); }

// Depthwise layout: output row r of the buffer starts at r * step_height;
// the pointer of output column ox, tap (ky, kx) sits at
// (ox * step_width + kx) * kernel_h + ky in it. Neighbouring outputs may
// share a slot (step_width below the kernel width): then they must agree.
// The compressed form keeps rows [start, top + 1) and the last `bottom`
// rows. When the rows reach the last output row, the slots up to the
// microkernel's primary tile repeat the last pointer.
void ExpectDepthwise(const Geometry& g, size_t step_width, size_t y_start, size_t y_end,
                     size_t top, size_t bottom, size_t primary_tile) {
  const size_t kernel_size = g.kernel_h * g.kernel_w;
  const size_t step_height = kernel_size + (g.out_w - 1) * step_width * g.kernel_h;
  const size_t slots = (g.out_h + 1) * step_height + primary_tile + 8;
  std::vector<const void*> want(slots), got(slots);
  std::vector<bool> written(slots, false);
  for (size_t i = 0; i < slots; ++i) want[i] = got[i] = Sentinel(i);
  std::vector<size_t> rows;  // output row of each buffer row
  for (size_t oy = y_start; oy < y_end && oy < top + 1; ++oy) rows.push_back(oy);
  for (size_t oy = y_end - bottom; oy < y_end; ++oy) rows.push_back(oy);
  for (size_t r = 0; r < rows.size(); ++r) {
    const size_t row = (y_start + r) * step_height;
    for (size_t ox = 0; ox < g.out_w; ++ox) {
      for (size_t ky = 0; ky < g.kernel_h; ++ky) {
        for (size_t kx = 0; kx < g.kernel_w; ++kx) {
          const size_t slot = row + (ox * step_width + kx) * g.kernel_h + ky;
          const void* p = Tap(g, rows[r], ox, ky, kx);
          ASSERT_TRUE(!written[slot] || want[slot] == p) << "the layout is not consistent";
          want[slot] = p;
          written[slot] = true;
        }
      }
    }
  }
  if (y_end == g.out_h) {
    const size_t end = (y_start + rows.size()) * step_height;
    for (size_t t = kernel_size; t < primary_tile; ++t) want[end - kernel_size + t] = want[end - 1];
  }
  xnn_indirection_init_dwconv2d_compressed(
      y_start, y_end, got.data(), kInput, g.pixel_stride, kZero, g.in_h, g.in_w, g.out_h,
      g.out_w, g.kernel_h, g.kernel_w, g.stride_h, g.stride_w, g.dilation_h, g.dilation_w,
      g.pad_top, g.pad_left, step_height, step_width, top, bottom, primary_tile);
  for (size_t i = 0; i < slots; ++i) {
    ASSERT_EQ(got[i], want[i]) << "slot " << i << " of " << g.out_h << "x" << g.out_w
                               << " outputs, kernel " << g.kernel_h << "x" << g.kernel_w
                               << ", stride " << g.stride_h << "x" << g.stride_w << ", dilation "
                               << g.dilation_h << "x" << g.dilation_w << ", padding "
                               << g.pad_top << "," << g.pad_left << ", step width "
                               << step_width << ", rows " << y_start << "-" << y_end;
  }
}

TEST(XnnpackIndirection, DepthwiseSlotsPointWhereTheWindowsRead) {
  Rng r;
  for (int i = 0; i < 20000; ++i) {
    const Geometry g = RandomGeometry(r, i % 2 == 1);
    // The step XNNPACK's depthwise operator uses, and the plain one.
    const size_t shared =
        g.dilation_w == 1 ? std::min(g.stride_w, g.kernel_w) : g.kernel_w;
    const size_t step_width = i % 5 == 0 ? g.kernel_w : shared;
    const size_t tile = g.kernel_h * g.kernel_w + r(0, 4);
    ExpectDepthwise(g, step_width, 0, g.out_h, g.out_h, 0, tile);  // whole buffer
    if (HasFatalFailure()) return;
    if (g.out_h > 1) {  // a band of rows, as a thread's share is built
      const size_t y0 = r(0, g.out_h - 1), y1 = r(y0 + 1, g.out_h);
      ExpectDepthwise(g, step_width, y0, y1, y1, 0, tile);
      if (HasFatalFailure()) return;
    }
    if (g.out_h > 2) {  // compressed: top rows, one middle row, bottom rows
      const size_t top = r(0, g.out_h - 2), bottom = r(0, g.out_h - top - 1);
      ExpectDepthwise(g, step_width, 0, g.out_h, top, bottom, tile);
      if (HasFatalFailure()) return;
    }
  }
}

// Convolution layout: output pixels in tiles of `tile`; the pointer of
// slot (tile start t, offset o), tap k = ky * kernel_w + kx sits at
// t * kernel_size + k * tile + o. Slots past the last pixel repeat it.
void ExpectConvolution(const Geometry& g, size_t tile, size_t start, size_t end) {
  const size_t kernel_size = g.kernel_h * g.kernel_w;
  const size_t pixels = g.out_h * g.out_w;
  const size_t slots = (pixels + tile) * kernel_size + 8;
  std::vector<const void*> want(slots), got(slots);
  for (size_t i = 0; i < slots; ++i) want[i] = got[i] = Sentinel(i);
  for (size_t t = start; t < end; t += tile) {
    for (size_t o = 0; o < tile; ++o) {
      const size_t pixel = std::min(t + o, pixels - 1);
      for (size_t ky = 0; ky < g.kernel_h; ++ky) {
        for (size_t kx = 0; kx < g.kernel_w; ++kx) {
          want[t * kernel_size + (ky * g.kernel_w + kx) * tile + o] =
              Tap(g, pixel / g.out_w, pixel % g.out_w, ky, kx);
        }
      }
    }
  }
  xnn_indirection_init_conv2d(tile, start, end, got.data(), kInput, kZero, g.pixel_stride,
                              g.in_h, g.in_w, g.out_h, g.out_w, g.kernel_h, g.kernel_w,
                              g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_top,
                              g.pad_left);
  for (size_t i = 0; i < slots; ++i) {
    ASSERT_EQ(got[i], want[i]) << "slot " << i << " of " << g.out_h << "x" << g.out_w
                               << " outputs, kernel " << g.kernel_h << "x" << g.kernel_w
                               << ", stride " << g.stride_h << "x" << g.stride_w << ", dilation "
                               << g.dilation_h << "x" << g.dilation_w << ", padding "
                               << g.pad_top << "," << g.pad_left << ", tile " << tile
                               << ", slots " << start << "-" << end;
  }
}

TEST(XnnpackIndirection, ConvolutionSlotsPointWhereTheWindowsRead) {
  Rng r;
  for (int i = 0; i < 20000; ++i) {
    const Geometry g = RandomGeometry(r, i % 2 == 1);
    const size_t tile = r(1, 8);
    const size_t tiles = (g.out_h * g.out_w + tile - 1) / tile;
    ExpectConvolution(g, tile, 0, tiles * tile);  // as reshape builds it
    if (HasFatalFailure()) return;
    const size_t first = r(0, tiles - 1), last = r(first + 1, tiles);
    ExpectConvolution(g, tile, first * tile, last * tile);  // a thread's share
    if (HasFatalFailure()) return;
  }
}

#else

TEST(XnnpackIndirection, DepthwiseSlotsPointWhereTheWindowsRead) {
  GTEST_SKIP() << "built without XNNPACK";
}

#endif  // TFLITE_C_WITH_XNNPACK

}  // namespace
