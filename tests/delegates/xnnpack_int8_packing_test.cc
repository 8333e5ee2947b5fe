// The int8 weight packer our XNNPACK build uses for 1x1 convolutions on x86
// (patch 0014: any number of output channels per tile, 8 input channels per
// step), against the packed layout written out here from its definition.
// Per group and per block of `nr` output channels: `nr` int32 biases, each
// the channel's bias (0 without one) minus the input zero point times the
// sum of the channel's kernel bytes (in 32-bit wrap-around arithmetic);
// then, for every step of 8 input channels, 8 bytes of each of the `nr`
// channels (zero past the input channels); then `extra_bytes` the packer
// leaves alone (the per-channel scales XNNPACK writes afterwards). The slots
// of the channels that pad the last block are left alone too: XNNPACK
// zero-fills the buffer before packing, as the test does, and its GEMM
// microkernels never store those columns. White-box: calls the packer
// directly (plain C, built on every architecture).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#if TFLITE_C_WITH_XNNPACK

extern "C" {
struct PackParams {  // XNNPACK's xnn_qs8_packw_params
  int8_t input_zero_point;
};
void xnn_qs8_packw_gemm_goi_ukernel_kr8__tflitec(size_t g, size_t nc, size_t kc, size_t nr,
                                                 size_t kr, size_t sr, const int8_t* weights,
                                                 const int32_t* bias, const void* scale,
                                                 int8_t* packed_weights, size_t extra_bytes,
                                                 const void* params);
}

namespace {

using PackFn = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, const int8_t*,
                        const int32_t*, const void*, int8_t*, size_t, const void*);

constexpr uint8_t kUntouched = 0xA5;  // in the extra bytes, which no packer writes

struct Rng {
  uint32_t state = 77;
  int operator()(int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % uint32_t(hi - lo + 1));
  }
};

size_t BlockBytes(size_t nr, size_t kc, size_t extra) {
  return nr * sizeof(int32_t) + (kc + 7) / 8 * 8 * nr + extra;
}

// The layout from its definition; the extra bytes hold kUntouched.
std::vector<uint8_t> Expected(size_t g, size_t nc, size_t kc, size_t nr, const int8_t* w,
                              const int32_t* b, int izp, size_t extra) {
  const size_t blocks = (nc + nr - 1) / nr;
  std::vector<uint8_t> out(g * blocks * BlockBytes(nr, kc, extra), 0);
  uint8_t* p = out.data();
  for (size_t group = 0; group < g; ++group) {
    const int8_t* gw = w + group * nc * kc;
    const int32_t* gb = b != nullptr ? b + group * nc : nullptr;
    for (size_t n0 = 0; n0 < nc; n0 += nr) {
      for (size_t j = 0; j < nr; ++j) {
        uint32_t v = 0;
        if (n0 + j < nc) {
          int64_t sum = 0;
          for (size_t k = 0; k < kc; ++k) sum += gw[(n0 + j) * kc + k];
          v = (gb != nullptr ? uint32_t(gb[n0 + j]) : 0u) - uint32_t(sum) * uint32_t(izp);
        }
        std::memcpy(p + j * sizeof(int32_t), &v, sizeof(v));
      }
      p += nr * sizeof(int32_t);
      for (size_t k0 = 0; k0 < kc; k0 += 8) {
        for (size_t j = 0; j < nr; ++j) {
          for (size_t i = 0; i < 8; ++i) {
            const bool inside = n0 + j < nc && k0 + i < kc;
            *p++ = inside ? uint8_t(gw[(n0 + j) * kc + k0 + i]) : 0;
          }
        }
      }
      std::memset(p, kUntouched, extra);
      p += extra;
    }
  }
  return out;
}

void CheckPacker(PackFn pack, size_t nr, const char* name) {
  Rng rng;
  for (int iter = 0; iter < 3000; ++iter) {
    const size_t g = size_t(rng(1, 3));
    const size_t nc = size_t(rng(1, 3 * int(nr) + 5));
    const size_t kc = size_t(rng(1, 70));
    const size_t extra = size_t(rng(0, 2)) * nr * sizeof(float);
    const int izp = iter % 5 == 0 ? -128 : iter % 5 == 1 ? 127 : rng(-128, 127);
    std::vector<int8_t> w(g * nc * kc);
    for (int8_t& x : w) {
      x = int8_t(iter % 7 == 0 ? (rng(0, 1) ? 127 : -128) : rng(-128, 127));
    }
    std::vector<int32_t> b(g * nc);
    for (int32_t& x : b) x = iter % 9 == 0 ? (rng(0, 1) ? INT32_MAX : INT32_MIN) : rng(-5000, 5000);
    const bool with_bias = iter % 4 != 3;
    const std::vector<uint8_t> want =
        Expected(g, nc, kc, nr, w.data(), with_bias ? b.data() : nullptr, izp, extra);
    // Zero-filled as XNNPACK leaves it, with the extra bytes marked.
    std::vector<uint8_t> got(want.size(), 0);
    const size_t block = BlockBytes(nr, kc, extra);
    for (size_t off = block - extra; off < got.size(); off += block) {
      std::memset(got.data() + off, kUntouched, extra);
    }
    const PackParams params{int8_t(izp)};
    pack(g, nc, kc, nr, 8, 1, w.data(), with_bias ? b.data() : nullptr, nullptr,
         reinterpret_cast<int8_t*>(got.data()), extra, &params);
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(int(got[i]), int(want[i]))
          << name << ": byte " << i << " of " << want.size() << ", g " << g << " nc " << nc
          << " kc " << kc << " extra " << extra << " izp " << izp
          << (with_bias ? "" : " no bias");
    }
  }
}

TEST(XnnpackInt8Packing, PackerWritesTheDefinedLayout) {
  for (size_t nr : {8, 16, 4}) {
    SCOPED_TRACE(nr);
    CheckPacker(xnn_qs8_packw_gemm_goi_ukernel_kr8__tflitec, nr, "kr8");
  }
}

}  // namespace

#else

TEST(XnnpackInt8Packing, PackerWritesTheDefinedLayout) {
  GTEST_SKIP() << "built without XNNPACK";
}

#endif
