// The Winograd tiling envelope (docs/bounds.md, "Winograd"): one bound on the magnitude bracket of every tiling at
// once. On an axis, a tile that holds output x at its position i reads the inputs x - pad + q, q = k - i in
// [-(m-1), alpha), and the bracket |A^T| [(|G| |g|) . (|B^T| |d|)] multiplies |g_t| |d(x - pad + q)| by
// K_i[t][q + i] = sum_j |A^T_ij| |G_jt| |B^T_j,q+i|. E[t][q] = max_i K_i[t][q + i] bounds that for every i, so the
// correlation of |d| with E|g| bounds the bracket wherever the tiles start. The transposed form's bracket is the same
// correlation with E turned round (both indices reversed).

#include "core/numerics/winograd.hpp"

#include <algorithm>
#include <cmath>

namespace convcheck {

namespace {

using Dims = std::array<int64_t, 3>;

int64_t volume(const Dims &dims) { return dims[0] * dims[1] * dims[2]; }

// out[f][b][..., x, ...] = sum_q filters[f][q] in[b][..., x - offset + q, ...] along `axis` for x < out_size, the
// inputs outside [0, dims[axis]) zero; `in` is [batch][dims], `filters` rows of `width`.
std::vector<double> filtered(const std::vector<double> &in, int64_t batch, const Dims &dims, size_t axis,
                             const std::vector<double> &filters, int64_t width, int64_t offset, int64_t out_size) {
  const int64_t rows = static_cast<int64_t>(filters.size()) / width, size = dims[axis];
  int64_t outer = batch, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= dims[a];
  for (size_t a = axis + 1; a < 3; ++a) inner *= dims[a];
  std::vector<double> out(static_cast<size_t>(rows * outer * out_size * inner), 0.0);
  for (int64_t f = 0; f < rows; ++f)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t x = 0; x < out_size; ++x) {
        double *to = out.data() + ((f * outer + o) * out_size + x) * inner;
        for (int64_t q = 0; q < width; ++q) {
          const double coefficient = filters[static_cast<size_t>(f * width + q)];
          const int64_t at = x - offset + q;
          if (coefficient == 0 || at < 0 || at >= size) continue;
          const double *from = in.data() + (o * size + at) * inner;
          for (int64_t i = 0; i < inner; ++i) to[i] += coefficient * from[i];
        }
      }
  return out;
}

} // namespace

std::vector<double> tiling_envelope(const WinogradAxis &axis, bool transposed) {
  if (axis.alpha == 1) return {1.0};
  const int64_t m = axis.m, r = axis.r, alpha = axis.alpha, width = alpha + m - 1;
  std::vector<double> envelope(static_cast<size_t>(r * width), 0.0);
  auto at = [](const std::vector<double> &matrix, int64_t cols, int64_t row, int64_t col) {
    return std::abs(matrix[static_cast<size_t>(row * cols + col)]);
  };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t t = 0; t < r; ++t)
      for (int64_t k = 0; k < alpha; ++k) {
        double coefficient = 0;
        for (int64_t j = 0; j < alpha; ++j) coefficient += at(axis.at, alpha, i, j) * at(axis.g, r, j, t) * at(axis.bt, alpha, j, k);
        double &bound = envelope[static_cast<size_t>(t * width + k - i + m - 1)];
        bound = std::max(bound, coefficient);
      }
  if (transposed) std::reverse(envelope.begin(), envelope.end()); // both indices of a row-major matrix reversed
  return envelope;
}

std::vector<double> enveloped_correlation(const Correlation &s, const std::array<WinogradAxis, 3> &axes,
                                          bool transposed, const double *input, const double *weight) {
  std::array<std::vector<double>, 3> envelope;
  Dims width{}, offset{};
  for (size_t a = 0; a < 3; ++a) {
    envelope[a] = tiling_envelope(axes[a], transposed);
    width[a] = axes[a].alpha + axes[a].m - 1;
    offset[a] = s.pad_begin[a] + axes[a].m - 1;
  }
  const int64_t in_volume = volume(s.in), out_volume = volume(s.out), taps = volume(s.kernel);
  const int64_t out_channels = s.groups * s.out_per_group, in_channels = s.groups * s.in_per_group;
  std::vector<double> out(static_cast<size_t>(s.batch * out_channels * out_volume), 0.0);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g)
      for (int64_t c = 0; c < s.in_per_group; ++c) {
        // |d_c| filtered along W, H, D by each tap's row of E: [taps][out], the taps in the weight's order.
        const double *channel = input + (n * in_channels + g * s.in_per_group + c) * in_volume;
        std::vector<double> block(channel, channel + in_volume);
        Dims dims = s.in;
        int64_t batch = 1;
        for (size_t a = 3; a-- > 0;) {
          block = filtered(block, batch, dims, a, envelope[a], width[a], offset[a], s.out[a]);
          batch *= s.kernel[a], dims[a] = s.out[a];
        }
        for (int64_t o = 0; o < s.out_per_group; ++o) {
          const int64_t k = g * s.out_per_group + o;
          const double *kernel = weight + (k * s.in_per_group + c) * taps;
          double *result = out.data() + (n * out_channels + k) * out_volume;
          for (int64_t t = 0; t < taps; ++t) {
            if (kernel[t] == 0) continue;
            const double *tap = block.data() + t * out_volume;
            for (int64_t x = 0; x < out_volume; ++x) result[x] += kernel[t] * tap[x];
          }
        }
      }
  return out;
}

} // namespace convcheck
