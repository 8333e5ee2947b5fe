// The 4-bit weight packer our XNNPACK build uses for the dynamically
// quantized fully connected layer on x86 (patch 0022: QD8 x QC4W, signed
// weights, 16 input channels per step as 8 bytes, any number of output
// channels per tile), against the packed layout written out here from its
// definition, and against XNNPACK's own reference packer.
//
// Weights come as TFLite stores INT4: two's complement nibbles, two a byte,
// the first value in the low nibble, rows of an even number of values. Per
// block of `nr` output channels the packed form is `nr` int32 values (the
// channel's bias, 0 without one, less the input zero point times the sum of
// its values, in 32-bit wrap-around arithmetic); then, for every step of 16
// input channels and each of the `nr` channels, 8 bytes, byte i holding
// channel i of the step in its low nibble and channel i + 8 in its high
// one, each as value + 8 (channels past the end count as 0, stored as 8);
// then `extra_bytes` no packer writes (XNNPACK's scales and biases). Slots of
// channels that pad the last block stay as XNNPACK leaves them: zero.
// White-box: calls the packers directly (plain C, built on every
// architecture).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#if TFLITE_C_WITH_XNNPACK

extern "C" {
struct Qc4wParams {  // XNNPACK's xnn_qs8_qc4w_packing_params
  int8_t input_zero_point;
  uint8_t kernel_zero_point;
};
using Qc4wPackFn = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*,
                            const int32_t*, const float*, void*, size_t, const Qc4wParams*);
void xnn_pack_qs8_qc4w_gemm_goi_w_kr8__tflitec(size_t g, size_t nc, size_t kc, size_t nr, size_t kr,
                                               size_t sr, const uint8_t* kernel,
                                               const int32_t* bias, const float* scale,
                                               void* packed_weights, size_t extra_bytes,
                                               const Qc4wParams* params);
void xnn_pack_qs8_qc4uw_gemm_goi_w(size_t g, size_t nc, size_t kc, size_t nr, size_t kr, size_t sr,
                                   const uint8_t* kernel, const int32_t* bias, const float* scale,
                                   void* packed_weights, size_t extra_bytes,
                                   const Qc4wParams* params);
}

namespace {

constexpr uint8_t kUntouched = 0xA5;  // in the extra bytes, which no packer writes

struct Rng {
  uint32_t state = 91;
  int operator()(int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % uint32_t(hi - lo + 1));
  }
};

size_t BlockBytes(size_t nr, size_t kc, size_t extra) {
  return nr * sizeof(int32_t) + (kc + 15) / 16 * 8 * nr + extra;
}

std::vector<uint8_t> PackNibbles(const std::vector<int>& v) {
  std::vector<uint8_t> bytes((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) bytes[i / 2] |= uint8_t((v[i] & 0xF) << (i % 2 * 4));
  return bytes;
}

// The layout from its definition (one group); the extra bytes hold kUntouched.
std::vector<uint8_t> Expected(size_t nc, size_t kc, size_t nr, const std::vector<int>& w,
                              const int32_t* b, int izp, size_t extra) {
  const size_t blocks = (nc + nr - 1) / nr;
  std::vector<uint8_t> out(blocks * BlockBytes(nr, kc, extra), 0);
  uint8_t* p = out.data();
  auto value = [&](size_t n, size_t k) { return k < kc ? w[n * kc + k] : 0; };
  for (size_t n0 = 0; n0 < nc; n0 += nr) {
    for (size_t j = 0; j < nr && n0 + j < nc; ++j) {
      int64_t sum = 0;
      for (size_t k = 0; k < kc; ++k) sum += w[(n0 + j) * kc + k];
      const uint32_t v = (b != nullptr ? uint32_t(b[n0 + j]) : 0u) - uint32_t(sum) * uint32_t(izp);
      std::memcpy(p + j * sizeof(int32_t), &v, sizeof(v));
    }
    p += nr * sizeof(int32_t);
    for (size_t k0 = 0; k0 < kc; k0 += 16) {
      for (size_t j = 0; j < nr; ++j, p += 8) {
        if (n0 + j >= nc) continue;
        for (size_t i = 0; i < 8; ++i) {
          p[i] = uint8_t((value(n0 + j, k0 + i) + 8) | (value(n0 + j, k0 + 8 + i) + 8) << 4);
        }
      }
    }
    std::memset(p, kUntouched, extra);
    p += extra;
  }
  return out;
}

// Zero-filled as XNNPACK leaves it, with the extra bytes marked.
std::vector<uint8_t> Buffer(size_t size, size_t block, size_t extra) {
  std::vector<uint8_t> got(size, 0);
  for (size_t off = block - extra; off < got.size(); off += block) {
    std::memset(got.data() + off, kUntouched, extra);
  }
  return got;
}

TEST(XnnpackInt4Packing, PackerWritesTheDefinedLayout) {
  Rng rng;
  for (size_t nr : {8, 16, 4}) {
    for (int iter = 0; iter < 2000; ++iter) {
      const size_t nc = size_t(rng(1, 3 * int(nr) + 5));
      const size_t kc = 2 * size_t(rng(1, 40));
      const size_t extra = size_t(rng(0, 2)) * nr * sizeof(float);
      const int izp = iter % 5 == 0 ? -128 : iter % 5 == 1 ? 127 : rng(-128, 127);
      std::vector<int> w(nc * kc);
      for (int& x : w) x = iter % 7 == 0 ? (rng(0, 1) ? 7 : -8) : rng(-8, 7);
      std::vector<int32_t> b(nc);
      for (int32_t& x : b)
        x = iter % 9 == 0 ? (rng(0, 1) ? INT32_MAX : INT32_MIN) : rng(-5000, 5000);
      const bool with_bias = iter % 4 != 3;
      const int32_t* bias = with_bias ? b.data() : nullptr;
      const std::vector<uint8_t> want = Expected(nc, kc, nr, w, bias, izp, extra);
      const std::vector<uint8_t> packed = PackNibbles(w);
      const Qc4wParams params{int8_t(izp), 0};
      const size_t block = BlockBytes(nr, kc, extra);
      std::vector<uint8_t> ours = Buffer(want.size(), block, extra);
      std::vector<uint8_t> reference = ours;
      xnn_pack_qs8_qc4w_gemm_goi_w_kr8__tflitec(1, nc, kc, nr, 8, 1, packed.data(), bias, nullptr,
                                                ours.data(), extra, &params);
      xnn_pack_qs8_qc4uw_gemm_goi_w(1, nc, kc, nr, 8, 1, packed.data(), bias, nullptr,
                                    reference.data(), extra, &params);
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(int(ours[i]), int(want[i]))
            << "byte " << i << " of " << want.size() << ", nr " << nr << " nc " << nc << " kc "
            << kc << " extra " << extra << " izp " << izp << (with_bias ? "" : " no bias");
      }
      ASSERT_EQ(ours, reference) << "nr " << nr << " nc " << nc << " kc " << kc;
    }
  }
}

// Unsigned weights (kernel zero point 8) and odd depths take XNNPACK's
// reference packer: the bytes are its.
TEST(XnnpackInt4Packing, OtherCasesPackAsTheReference) {
  Rng rng;
  for (int iter = 0; iter < 400; ++iter) {
    const bool unsigned_weights = iter % 2 == 0;
    const size_t nr = 8, nc = size_t(rng(1, 30));
    const size_t kc = unsigned_weights ? 2 * size_t(rng(1, 40)) : 2 * size_t(rng(0, 40)) + 1;
    std::vector<uint8_t> bytes((nc * kc + 1) / 2);
    for (uint8_t& x : bytes) x = uint8_t(rng(0, 255));
    std::vector<int32_t> b(nc);
    for (int32_t& x : b) x = rng(-5000, 5000);
    const Qc4wParams params{int8_t(rng(-128, 127)), uint8_t(unsigned_weights ? 8 : 0)};
    const size_t size = (nc + nr - 1) / nr * BlockBytes(nr, kc + 1, 0);
    std::vector<uint8_t> ours(size, 0), reference(size, 0);
    xnn_pack_qs8_qc4w_gemm_goi_w_kr8__tflitec(1, nc, kc, nr, 8, 1, bytes.data(), b.data(), nullptr,
                                              ours.data(), 0, &params);
    xnn_pack_qs8_qc4uw_gemm_goi_w(1, nc, kc, nr, 8, 1, bytes.data(), b.data(), nullptr,
                                  reference.data(), 0, &params);
    ASSERT_EQ(ours, reference) << "nc " << nc << " kc " << kc << " zero point "
                               << int(params.kernel_zero_point);
  }
}

}  // namespace

#else

TEST(XnnpackInt4Packing, PackerWritesTheDefinedLayout) { GTEST_SKIP() << "built without XNNPACK"; }

#endif
