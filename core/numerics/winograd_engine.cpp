// The tile loop of core/numerics/winograd.hpp: the kernel transformed once per (output channel, input channel),
// then per image, group and tile the input tile transformed once per input channel, the products summed over the
// input channels in the transformed domain (Lavin and Gray's batched GEMM, here a plain loop) and the sum
// transformed back.

#include <algorithm>
#include <cmath>

#include "core/numerics/winograd.hpp"

namespace convcheck {

namespace {

using Dims = std::array<int64_t, 3>;

int64_t volume(const Dims &dims) { return dims[0] * dims[1] * dims[2]; }

// out = matrix (rows x dims[axis]) applied along `axis` of the block `in` (dims, row-major); out has dims with
// dims[axis] = rows. Each output a dot product in increasing order of the column.
template <class T>
void apply(const std::vector<T> &matrix, int64_t rows, size_t axis, const Dims &dims, const T *in, T *out) {
  const int64_t cols = dims[axis];
  int64_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= dims[a];
  for (size_t a = axis + 1; a < 3; ++a) inner *= dims[a];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t i = 0; i < inner; ++i) {
        T sum = 0;
        for (int64_t col = 0; col < cols; ++col)
          sum += matrix[static_cast<size_t>(row * cols + col)] * in[(o * cols + col) * inner + i];
        out[(o * rows + row) * inner + i] = sum;
      }
}

// The three axes' `which` matrices applied in turn (D, H, W) to a block of dims `from`, into `result` (dims
// `rows`); `scratch` is reused between calls.
template <class T, class Pick>
void transform(const std::array<TransformSet<T>, 3> &axes, Pick pick, Dims dims, const T *in, std::vector<T> &result,
               std::vector<T> &scratch, double *peak) {
  std::vector<T> current(in, in + volume(dims));
  for (size_t a = 0; a < 3; ++a) {
    const auto [matrix, rows] = pick(axes[a]);
    Dims next = dims;
    next[a] = rows;
    scratch.assign(static_cast<size_t>(volume(next)), T(0));
    apply(*matrix, rows, a, dims, current.data(), scratch.data());
    std::swap(current, scratch);
    dims = next;
    if (peak)
      for (T value : current) *peak = std::max(*peak, std::abs(static_cast<double>(value)));
  }
  result = std::move(current);
}

} // namespace

template <class T>
void winograd_correlate(const Correlation &s, const std::array<TransformSet<T>, 3> &axes, const T *input,
                        const T *weight, T *out, const WinogradOptions &options, double *peak) {
  Dims alpha{}, m{}, tiles{}, kernel = s.kernel;
  for (size_t a = 0; a < 3; ++a) {
    alpha[a] = axes[a].alpha, m[a] = axes[a].m;
    tiles[a] = options.drop_last_partial_tile ? s.out[a] / m[a] : (s.out[a] + m[a] - 1) / m[a];
  }
  const int64_t area = volume(alpha), in_volume = volume(s.in), out_volume = volume(s.out), taps = volume(kernel);
  const int64_t out_channels = s.groups * s.out_per_group, in_channels = s.groups * s.in_per_group;
  auto g_of = [](const TransformSet<T> &x) { return std::pair{&x.g, x.alpha}; };
  auto bt_of = [](const TransformSet<T> &x) { return std::pair{&x.bt, x.alpha}; };
  auto at_of = [](const TransformSet<T> &x) { return std::pair{&x.at, x.m}; };
  std::vector<T> scratch, block, sum(static_cast<size_t>(area)), tile(static_cast<size_t>(area));
  // U[k][c] = G g G^T per axis: the kernel in the transformed domain.
  std::vector<T> transformed_weight(static_cast<size_t>(out_channels * s.in_per_group * area));
  for (int64_t kc = 0; kc < out_channels * s.in_per_group; ++kc) {
    transform(axes, g_of, kernel, weight + kc * taps, block, scratch, peak);
    std::copy(block.begin(), block.end(), transformed_weight.begin() + kc * area);
  }
  std::vector<T> transformed_input(static_cast<size_t>(s.in_per_group * area));
  std::fill(out, out + s.batch * out_channels * out_volume, T(0));
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g)
      for (int64_t tz = 0; tz < tiles[0]; ++tz)
        for (int64_t ty = 0; ty < tiles[1]; ++ty)
          for (int64_t tx = 0; tx < tiles[2]; ++tx) {
            const Dims first{tz * m[0], ty * m[1], tx * m[2]};
            // V[c] = B^T d B per axis, d the input tile (zeros outside the input).
            for (int64_t c = 0; c < s.in_per_group; ++c) {
              const T *channel = input + (n * in_channels + g * s.in_per_group + c) * in_volume;
              for (int64_t i = 0; i < area; ++i) {
                const int64_t iz = i / (alpha[1] * alpha[2]), iy = i / alpha[2] % alpha[1], ix = i % alpha[2];
                const int64_t z = first[0] - s.pad_begin[0] + iz, y = first[1] - s.pad_begin[1] + iy,
                              x = first[2] - s.pad_begin[2] + ix;
                const bool inside = z >= 0 && z < s.in[0] && y >= 0 && y < s.in[1] && x >= 0 && x < s.in[2];
                tile[static_cast<size_t>(i)] = inside ? channel[(z * s.in[1] + y) * s.in[2] + x] : T(0);
              }
              transform(axes, bt_of, alpha, tile.data(), block, scratch, peak);
              std::copy(block.begin(), block.end(), transformed_input.begin() + c * area);
            }
            for (int64_t o = 0; o < s.out_per_group; ++o) {
              const int64_t k = g * s.out_per_group + o;
              // M = sum_c U[k][c] . V[c], then Y = A^T M A per axis.
              std::fill(sum.begin(), sum.end(), T(0));
              for (int64_t c = 0; c < s.in_per_group; ++c) {
                const T *u = transformed_weight.data() + (k * s.in_per_group + c) * area;
                const T *v = transformed_input.data() + c * area;
                for (int64_t i = 0; i < area; ++i) sum[static_cast<size_t>(i)] += u[i] * v[i];
              }
              if (peak)
                for (T value : sum) *peak = std::max(*peak, std::abs(static_cast<double>(value)));
              transform(axes, at_of, alpha, sum.data(), block, scratch, peak);
              T *result = out + (n * out_channels + k) * out_volume;
              for (int64_t i = 0; i < volume(m); ++i) {
                const int64_t z = first[0] + i / (m[1] * m[2]), y = first[1] + i / m[2] % m[1], x = first[2] + i % m[2];
                if (z < s.out[0] && y < s.out[1] && x < s.out[2])
                  result[(z * s.out[1] + y) * s.out[2] + x] = block[static_cast<size_t>(i)];
              }
            }
          }
}

template void winograd_correlate(const Correlation &, const std::array<TransformSet<float>, 3> &, const float *,
                                  const float *, float *, const WinogradOptions &, double *);
template void winograd_correlate(const Correlation &, const std::array<TransformSet<double>, 3> &, const double *,
                                 const double *, double *, const WinogradOptions &, double *);

} // namespace convcheck
