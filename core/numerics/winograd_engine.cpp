// The tile loop of core/numerics/winograd.hpp: the kernel transformed once per (output channel, input channel),
// then per image, group and tile the input tile transformed once per input channel, the products summed over the
// input channels in the transformed domain (Lavin and Gray's batched GEMM, here a plain loop) and the sum
// transformed back. The transposed form runs the same tiles backwards: grad_output's tile through A, the products
// summed over the output channels, B, and the tiles' overlapping inputs added.

#include <algorithm>
#include <cmath>

#include "core/numerics/winograd.hpp"

namespace convcheck {

namespace {

using Dims = std::array<int64_t, 3>;

int64_t volume(const Dims &dims) { return dims[0] * dims[1] * dims[2]; }

template <class T> void record_peak(const T *values, int64_t count, double *peak) {
  if (peak)
    for (int64_t i = 0; i < count; ++i) *peak = std::max(*peak, std::abs(static_cast<double>(values[i])));
}

// out = matrix (rows x dims[axis]) applied along `axis` of the block `in` (dims, row-major); out has dims with
// dims[axis] = rows and holds zeros on entry. Each output a dot product in increasing order of the column, its zero
// coefficients left out (the same sums for finite inputs; the transforms are a third to a half zeros).
template <class T>
void apply(const std::vector<T> &matrix, int64_t rows, size_t axis, const Dims &dims, const T *in, T *out) {
  const int64_t cols = dims[axis];
  int64_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= dims[a];
  for (size_t a = axis + 1; a < 3; ++a) inner *= dims[a];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t row = 0; row < rows; ++row) {
      T *to = out + (o * rows + row) * inner;
      for (int64_t col = 0; col < cols; ++col) {
        const T coefficient = matrix[static_cast<size_t>(row * cols + col)];
        if (coefficient == T(0)) continue;
        const T *from = in + (o * cols + col) * inner;
        for (int64_t i = 0; i < inner; ++i) to[i] += coefficient * from[i];
      }
    }
}

// One matrix per axis, with its row count: a stage of the tile (B^T, G, A^T, or for the transposed form A and B).
template <class T> using Stage = std::array<std::pair<const std::vector<T> *, int64_t>, 3>;

// The three axes' matrices of `stage` applied in turn (D, H, W) to a block of dims `dims`, into `result` (dims the
// rows); `scratch` is reused between calls.
template <class T>
void transform(const Stage<T> &stage, Dims dims, const T *in, std::vector<T> &result, std::vector<T> &scratch,
               double *peak) {
  std::vector<T> current(in, in + volume(dims));
  for (size_t a = 0; a < 3; ++a) {
    const auto [matrix, rows] = stage[a];
    if (rows == 1 && dims[a] == 1 && (*matrix)[0] == T(1)) continue; // an axis without a transform
    Dims next = dims;
    next[a] = rows;
    scratch.assign(static_cast<size_t>(volume(next)), T(0));
    apply(*matrix, rows, a, dims, current.data(), scratch.data());
    std::swap(current, scratch);
    dims = next;
    record_peak(current.data(), volume(dims), peak);
  }
  result = std::move(current);
}

template <class T> std::vector<T> transposed(const std::vector<T> &matrix, int64_t rows, int64_t cols) {
  std::vector<T> result(matrix.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) result[static_cast<size_t>(j * rows + i)] = matrix[static_cast<size_t>(i * cols + j)];
  return result;
}

// The tiles per axis and where tile 0 starts: `shift` outputs before output 0, so that tiles cover [0, out).
Dims tile_counts(const std::array<int64_t, 3> &out, const Dims &m, const WinogradOptions &options) {
  Dims tiles{};
  for (size_t a = 0; a < 3; ++a) {
    const int64_t covered = out[a] + options.tile_shift[a];
    tiles[a] = options.drop_last_partial_tile ? covered / m[a] : (covered + m[a] - 1) / m[a];
  }
  return tiles;
}

// The kernel in the transformed domain, U[k][c] = G g G^T per axis, for every (output channel, input channel).
template <class T>
std::vector<T> transformed_kernel(const Correlation &s, const Stage<T> &g, int64_t area, const T *weight,
                                  double *peak) {
  std::vector<T> transformed(static_cast<size_t>(s.groups * s.out_per_group * s.in_per_group * area)), block, scratch;
  const int64_t taps = volume(s.kernel);
  for (int64_t kc = 0; kc < s.groups * s.out_per_group * s.in_per_group; ++kc) {
    transform(g, s.kernel, weight + kc * taps, block, scratch, peak);
    std::copy(block.begin(), block.end(), transformed.begin() + kc * area);
  }
  return transformed;
}

// Walks the block of dims `dims` at `origin` of a channel of dims `size`, calling visit(block index, channel
// index) for each position inside the channel.
template <class Visit> void over_block(const Dims &size, const Dims &origin, const Dims &dims, Visit visit) {
  for (int64_t i = 0; i < volume(dims); ++i) {
    const int64_t z = origin[0] + i / (dims[1] * dims[2]), y = origin[1] + i / dims[2] % dims[1],
                  x = origin[2] + i % dims[2];
    if (z >= 0 && z < size[0] && y >= 0 && y < size[1] && x >= 0 && x < size[2]) visit(i, (z * size[1] + y) * size[2] + x);
  }
}

// The block of `channel` at `origin` (zeros outside the channel).
template <class T> void gather(const T *channel, const Dims &size, const Dims &origin, const Dims &dims, T *block) {
  std::fill(block, block + volume(dims), T(0));
  over_block(size, origin, dims, [&](int64_t i, int64_t at) { block[i] = channel[at]; });
}

// Per axis: tiles, their size m, the transform's size alpha, and the tiles' stages.
template <class T> struct Tiling {
  Dims m{}, alpha{}, tiles{}, shift{};
  Stage<T> g{}, bt{}, at{};
};

template <class T>
Tiling<T> tiling(const std::array<TransformSet<T>, 3> &axes, const Dims &out, const WinogradOptions &options) {
  Tiling<T> t;
  for (size_t a = 0; a < 3; ++a) {
    t.m[a] = axes[a].m, t.alpha[a] = axes[a].alpha, t.shift[a] = options.tile_shift[a];
    t.g[a] = {&axes[a].g, axes[a].alpha}, t.bt[a] = {&axes[a].bt, axes[a].alpha}, t.at[a] = {&axes[a].at, axes[a].m};
  }
  t.tiles = tile_counts(out, t.m, options);
  return t;
}

// Calls visit(first output of the tile) for every tile, in order.
template <class T, class Visit> void over_tiles(const Tiling<T> &t, Visit visit) {
  for (int64_t tz = 0; tz < t.tiles[0]; ++tz)
    for (int64_t ty = 0; ty < t.tiles[1]; ++ty)
      for (int64_t tx = 0; tx < t.tiles[2]; ++tx)
        visit(Dims{tz * t.m[0] - t.shift[0], ty * t.m[1] - t.shift[1], tx * t.m[2] - t.shift[2]});
}

} // namespace

template <class T>
void winograd_correlate(const Correlation &s, const std::array<TransformSet<T>, 3> &axes, const T *input,
                        const T *weight, T *out, const WinogradOptions &options, double *peak) {
  const Tiling<T> t = tiling(axes, s.out, options);
  const int64_t area = volume(t.alpha), in_volume = volume(s.in), out_volume = volume(s.out);
  const int64_t out_channels = s.groups * s.out_per_group, in_channels = s.groups * s.in_per_group;
  std::vector<T> scratch, block, sum(static_cast<size_t>(area)), tile(static_cast<size_t>(area));
  const std::vector<T> transformed_weight = transformed_kernel(s, t.g, area, weight, peak);
  std::vector<T> transformed_input(static_cast<size_t>(s.in_per_group * area));
  std::fill(out, out + s.batch * out_channels * out_volume, T(0));
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g)
      over_tiles(t, [&](const Dims &first) {
        const Dims origin{first[0] - s.pad_begin[0], first[1] - s.pad_begin[1], first[2] - s.pad_begin[2]};
        // V[c] = B^T d B per axis, d the input tile (zeros outside the input).
        for (int64_t c = 0; c < s.in_per_group; ++c) {
          gather(input + (n * in_channels + g * s.in_per_group + c) * in_volume, s.in, origin, t.alpha, tile.data());
          transform(t.bt, t.alpha, tile.data(), block, scratch, peak);
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
          record_peak(sum.data(), area, peak);
          transform(t.at, t.alpha, sum.data(), block, scratch, peak);
          T *result = out + (n * out_channels + k) * out_volume;
          over_block(s.out, first, t.m, [&](int64_t i, int64_t at) { result[at] = block[static_cast<size_t>(i)]; });
        }
      });
}

template <class T>
void winograd_transposed(const Correlation &s, const std::array<TransformSet<T>, 3> &axes, const T *grad_output,
                         const T *weight, T *grad_input, const WinogradOptions &options, double *peak) {
  const Tiling<T> t = tiling(axes, s.out, options);
  // The forward tile y = A^T [(G g) . (B^T d)] transposed: d += B [(G g) . (A y)], A = (A^T)^T, B = (B^T)^T.
  std::array<std::vector<T>, 3> a_matrix, b_matrix;
  Stage<T> a_stage{}, b_stage{};
  for (size_t a = 0; a < 3; ++a) {
    a_matrix[a] = transposed(axes[a].at, axes[a].m, axes[a].alpha);
    b_matrix[a] = transposed(axes[a].bt, axes[a].alpha, axes[a].alpha);
    a_stage[a] = {&a_matrix[a], axes[a].alpha}, b_stage[a] = {&b_matrix[a], axes[a].alpha};
  }
  const int64_t area = volume(t.alpha), in_volume = volume(s.in), out_volume = volume(s.out);
  const int64_t out_channels = s.groups * s.out_per_group, in_channels = s.groups * s.in_per_group;
  std::vector<T> scratch, block, sum(static_cast<size_t>(area)), tile(static_cast<size_t>(volume(t.m)));
  const std::vector<T> transformed_weight = transformed_kernel(s, t.g, area, weight, peak);
  std::vector<T> transformed_output(static_cast<size_t>(s.out_per_group * area));
  std::fill(grad_input, grad_input + s.batch * in_channels * in_volume, T(0));
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g)
      over_tiles(t, [&](const Dims &first) {
        // V[o] = A y A^T per axis, y the output gradient's tile (zeros outside the output).
        for (int64_t o = 0; o < s.out_per_group; ++o) {
          gather(grad_output + (n * out_channels + g * s.out_per_group + o) * out_volume, s.out, first, t.m, tile.data());
          transform(a_stage, t.m, tile.data(), block, scratch, peak);
          std::copy(block.begin(), block.end(), transformed_output.begin() + o * area);
        }
        const Dims origin{first[0] - s.pad_begin[0], first[1] - s.pad_begin[1], first[2] - s.pad_begin[2]};
        for (int64_t c = 0; c < s.in_per_group; ++c) {
          // M = sum_o U[o][c] . V[o], then B M B^T per axis, added onto the tile's inputs (overlap-add).
          std::fill(sum.begin(), sum.end(), T(0));
          for (int64_t o = 0; o < s.out_per_group; ++o) {
            const T *u = transformed_weight.data() + ((g * s.out_per_group + o) * s.in_per_group + c) * area;
            const T *v = transformed_output.data() + o * area;
            for (int64_t i = 0; i < area; ++i) sum[static_cast<size_t>(i)] += u[i] * v[i];
          }
          record_peak(sum.data(), area, peak);
          transform(b_stage, t.alpha, sum.data(), block, scratch, peak);
          T *result = grad_input + (n * in_channels + g * s.in_per_group + c) * in_volume;
          over_block(s.in, origin, t.alpha, [&](int64_t i, int64_t at) { result[at] += block[static_cast<size_t>(i)]; });
        }
      });
  record_peak(grad_input, s.batch * in_channels * in_volume, peak); // the overlap-add's sums, largest at the end
}

template void winograd_correlate(const Correlation &, const std::array<TransformSet<float>, 3> &, const float *,
                                  const float *, float *, const WinogradOptions &, double *);
template void winograd_correlate(const Correlation &, const std::array<TransformSet<double>, 3> &, const double *,
                                 const double *, double *, const WinogradOptions &, double *);
template void winograd_transposed(const Correlation &, const std::array<TransformSet<float>, 3> &, const float *,
                                  const float *, float *, const WinogradOptions &, double *);
template void winograd_transposed(const Correlation &, const std::array<TransformSet<double>, 3> &, const double *,
                                  const double *, double *, const WinogradOptions &, double *);

} // namespace convcheck
