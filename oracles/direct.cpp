// `direct`: one dedicated loop nest per direction in the case dtype, written from the definition independently of
// core/numerics/naive_loops.hpp (the point is a second implementation, not a second caller), in the shapes that direct
// kernels use (cuDNN's and CUTLASS's "direct" / "analytic" iterators):
//
//   output[n,k,p,q]      = sum_{r,s} sum_c data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s]
//   grad_data[n,i,h,w]   = sum_{r,s} sum_{k in group of i} grad_output[n, k, (h + pt - r*dh)/sh, (w + pl - s*dw)/sw]
//                                                          * weight[k, i - g*C/G, r, s]
//                          over the (r, s) whose quotients are exact and inside [0, P) x [0, Q)  (a gather)
//   grad_weight[k,c,r,s] = sum_{n,p,q} grad_output[n,k,p,q] * data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw]
//
// with g = k / (K/G). Forward and grad_data sum taps outermost and channels innermost, where the naive loops sum
// channels outermost, so they round in a genuinely different order. The in-range taps of forward and grad_weight
// are found by solving the index inequality once per row or column (`inside`) instead of testing every tap, which
// is a second derivation of the padding arithmetic as well; grad_data's gather reads core/tensor/index_span.hpp's table
// of the taps that read each input row and column.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/tensor/index_span.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

namespace {

/// Indices j in [first, last).
struct IndexRange {
  int64_t first = 0;
  int64_t last = 0;
};

/// The j in [0, count) with 0 <= offset + j*step < size (step >= 1): solving the two inequalities gives
/// j >= ceil(-offset / step) and j <= floor((size - 1 - offset) / step).
IndexRange inside(int64_t offset, int64_t step, int64_t count, int64_t size) {
  const int64_t first = offset >= 0 ? 0 : (-offset + step - 1) / step;
  const int64_t room = size - 1 - offset;
  const int64_t last = room < 0 ? 0 : std::min(count, room / step + 1);
  return {first, std::max(first, last)};
}

/// Output-stationary forward: each output element sums taps (r, s) outer, input channels innermost. A whole output
/// row is computed together, as direct kernels tile the output: for one (r, s, c), every element of the row whose
/// tap lands inside gets its product, in the same per-element order. Like direct kernels that tile output channels,
/// up to 4 kernels of a group (`width`) share each input value they read; the width loop is unrolled explicitly so
/// that the loop along the row still vectorizes at -O2.
template <int width, class T>
void forward_rows(const Problem &c, const T *group_data, const T *filter, T *planes,
                  const std::vector<IndexRange> &columns) {
  const int64_t cg = c.in_channels_per_group();
  const int64_t H = c.height().in, W = c.width().in, R = c.height().kernel, S = c.width().kernel;
  const int64_t P = c.height().out(), Q = c.width().out(), channel_stride = H * W;
  for (int64_t p = 0; p < P; ++p) {
    T *row = planes + p * Q;                             // zero-filled; kernel j's row is j * P * Q further on
    const int64_t top = p * c.height().stride - c.height().pad_begin; // input row of tap r = 0
    const IndexRange rows = inside(top, c.height().dilation, R, H);
    for (int64_t r = rows.first; r < rows.last; ++r)
      for (int64_t s = 0; s < S; ++s) {
        const IndexRange qs = columns[static_cast<size_t>(s)];
        // Input column of output column q: q*sw + offset; an index, not a pointer, as it may be negative.
        const int64_t offset = (top + r * c.height().dilation) * W - c.width().pad_begin + s * c.width().dilation;
        for (int64_t ci = 0; ci < cg; ++ci) {
          T tap[width];
          for (int j = 0; j < width; ++j) tap[j] = filter[((j * cg + ci) * R + r) * S + s];
          const T *plane = group_data + ci * channel_stride;
          if (c.width().stride == 1) {
#pragma omp simd // q indexes different output elements; each keeps its own order
            for (int64_t q = qs.first; q < qs.last; ++q) {
              const T value = plane[offset + q];
#pragma GCC unroll 4
              for (int j = 0; j < width; ++j) row[j * P * Q + q] += value * tap[j];
            }
          } else {
            for (int j = 0; j < width; ++j)
              for (int64_t q = qs.first; q < qs.last; ++q)
                row[j * P * Q + q] += plane[offset + q * c.width().stride] * tap[j];
          }
        }
      }
  }
}

template <class T> void forward(const Problem &c, const T *data, const T *weight, T *output) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t H = c.height().in, W = c.width().in, R = c.height().kernel, S = c.width().kernel;
  const int64_t P = c.height().out(), Q = c.width().out();
  std::vector<IndexRange> columns(static_cast<size_t>(S)); // for tap s, the q with 0 <= q*sw - pl + s*dw < W
  for (int64_t s = 0; s < S; ++s)
    columns[static_cast<size_t>(s)] = inside(s * c.width().dilation - c.width().pad_begin, c.width().stride, Q, W);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t k = 0; k < c.out_channels;) {
      const T *group_data = data + (n * c.in_channels + (k / kg) * cg) * H * W;
      const T *filter = weight + k * cg * R * S;
      T *planes = output + (n * c.out_channels + k) * P * Q;
      const int64_t width = std::min<int64_t>(4, (k / kg + 1) * kg - k); // kernels left in k's group
      switch (width) {
      case 4: forward_rows<4>(c, group_data, filter, planes, columns); break;
      case 3: forward_rows<3>(c, group_data, filter, planes, columns); break;
      case 2: forward_rows<2>(c, group_data, filter, planes, columns); break;
      default: forward_rows<1>(c, group_data, filter, planes, columns); break;
      }
      k += width;
    }
}

/// Input columns w, w + sw, w + 2*sw, ... are read by the same kernel columns s, at output columns q, q + 1, q + 2,
/// ...: such a run of up to 4 columns (`ColumnBlock`) is gathered side by side, each element still summing its own
/// products in (r, s, k) order, so that their additions overlap instead of forming one chain of latencies.
struct ColumnBlock {
  int64_t first = 0; // the input column of element 0; element j is first + j*sw and reads q + j
  int64_t width = 0;
};

// Whether column `other` is read by the same kernel columns as `w`, each at an output column `shift` further on.
bool reads_shifted(const TapReaders &columns, int64_t w, int64_t other, int64_t shift) {
  const auto begin = static_cast<size_t>(columns.starts[static_cast<size_t>(w)]);
  const auto count = static_cast<size_t>(columns.starts[static_cast<size_t>(w + 1)]) - begin;
  const auto other_begin = static_cast<size_t>(columns.starts[static_cast<size_t>(other)]);
  if (static_cast<size_t>(columns.starts[static_cast<size_t>(other + 1)]) - other_begin != count) return false;
  for (size_t b = 0; b < count; ++b) {
    const auto [s, q] = columns.pairs[begin + b];
    const auto [other_s, other_q] = columns.pairs[other_begin + b];
    if (other_s != s || other_q != q + shift) return false;
  }
  return true;
}

std::vector<ColumnBlock> column_blocks(const TapReaders &columns, int64_t W, int64_t stride) {
  std::vector<ColumnBlock> blocks;
  std::vector<bool> placed(static_cast<size_t>(W), false);
  for (int64_t w = 0; w < W; ++w) {
    if (placed[static_cast<size_t>(w)]) continue;
    ColumnBlock block{w, 1};
    while (block.width < 4 && w + block.width * stride < W &&
           reads_shifted(columns, w, w + block.width * stride, block.width))
      placed[static_cast<size_t>(w + block.width++ * stride)] = true;
    blocks.push_back(block);
  }
  return blocks;
}

/// One input row's block of columns: sums[j] gathers grad_output[.., p, q + j] * weight[.., r, s].
/// The extents gather_block needs, read once per call (Problem computes P and Q on every call).
struct GatherExtents {
  explicit GatherExtents(const Problem &c)
      : cg(c.in_channels_per_group()), kg(c.out_channels_per_group()), R(c.height().kernel), S(c.width().kernel),
        P(c.height().out()), Q(c.width().out()), stride(c.width().stride) {}
  int64_t cg, kg, R, S, P, Q, stride;
};

template <int width, class T>
void gather_block(const T *group_grad, const T *group_weight, const TapReaders &rows, const TapReaders &columns,
                  int64_t h, const ColumnBlock &block, const GatherExtents &e, T *row) {
  const int64_t cg = e.cg, kg = e.kg, R = e.R, S = e.S, P = e.P, Q = e.Q;
  T sums[width] = {};
  for (int64_t a = rows.starts[static_cast<size_t>(h)]; a < rows.starts[static_cast<size_t>(h + 1)]; ++a) {
    const auto [r, p] = rows.pairs[static_cast<size_t>(a)];
    for (int64_t b = columns.starts[static_cast<size_t>(block.first)];
         b < columns.starts[static_cast<size_t>(block.first + 1)]; ++b) {
      const auto [s, q] = columns.pairs[static_cast<size_t>(b)];
      for (int64_t kk = 0; kk < kg; ++kk) {
        const T *grad = group_grad + (kk * P + p) * Q + q;
        const T tap = group_weight[(kk * cg * R + r) * S + s];
#pragma GCC unroll 4 // `sums` then lives in registers: a chain through memory would undo the point
        for (int j = 0; j < width; ++j) sums[j] += grad[j] * tap;
      }
    }
  }
  for (int j = 0; j < width; ++j) row[block.first + j * e.stride] = sums[j];
}

/// Gathering grad_data: each input element sums the taps that read it, (r, s) outer, output channels innermost.
template <class T> void grad_data(const Problem &c, const T *grad_output, const T *weight, T *grad_input) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t H = c.height().in, W = c.width().in, R = c.height().kernel, S = c.width().kernel;
  const int64_t P = c.height().out(), Q = c.width().out();
  // The (tap, output position) pairs that read each input row and column: h + pt - r*dh = p*sh, exactly.
  const TapReaders rows = tap_readers(H, R, P, c.height().stride, c.height().pad_begin, c.height().dilation);
  const TapReaders columns = tap_readers(W, S, Q, c.width().stride, c.width().pad_begin, c.width().dilation);
  const std::vector<ColumnBlock> blocks = column_blocks(columns, W, c.width().stride);
  const GatherExtents extents(c);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t i = 0; i < c.in_channels; ++i) {
      const int64_t g = i / cg, ci = i % cg;
      const T *group_grad = grad_output + (n * c.out_channels + g * kg) * P * Q;
      const T *group_weight = weight + (g * kg * cg + ci) * R * S; // weight[g*K/G, ci, 0, 0]
      for (int64_t h = 0; h < H; ++h) {
        T *row = grad_input + ((n * c.in_channels + i) * H + h) * W;
        for (const ColumnBlock &block : blocks) {
          const auto gather = [&](auto width) {
            gather_block<decltype(width)::value>(group_grad, group_weight, rows, columns, h, block, extents, row);
          };
          switch (block.width) {
          case 4: gather(std::integral_constant<int, 4>{}); break;
          case 3: gather(std::integral_constant<int, 3>{}); break;
          case 2: gather(std::integral_constant<int, 2>{}); break;
          default: gather(std::integral_constant<int, 1>{}); break;
          }
        }
      }
    }
}

/// Direct wgrad: each weight element sums over (n, p, q), visiting only the output positions whose tap is inside.
/// One partial sum per image, reduced at the end, as split-K direct wgrad kernels reduce over the batch; this also
/// makes the rounding differ from naive's single running sum. Which (p, q) a tap reads depends only on (r, s), so all
/// K * C/G elements of one tap run together (`image_sums`, `sums`), each in its own (n, p, q) order: their additions
/// are independent and overlap, and the C/G input channels of a group share every grad_output value.
template <class T> void grad_weight(const Problem &c, const T *grad_output, const T *data, T *grad_filter) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group(), K = c.out_channels;
  const int64_t H = c.height().in, W = c.width().in, R = c.height().kernel, S = c.width().kernel;
  const int64_t P = c.height().out(), Q = c.width().out();
  std::vector<T> sums(static_cast<size_t>(K * cg)), image_sums(static_cast<size_t>(K * cg));
  for (int64_t r = 0; r < R; ++r) {
    // h = p*sh + (r*dh - pt): the same inequality as forward's, solved for p instead of r.
    const int64_t top = r * c.height().dilation - c.height().pad_begin;
    const IndexRange rows = inside(top, c.height().stride, P, H);
    for (int64_t s = 0; s < S; ++s) {
      const int64_t left = s * c.width().dilation - c.width().pad_begin;
      const IndexRange cols = inside(left, c.width().stride, Q, W);
      std::fill(sums.begin(), sums.end(), T{0});
      for (int64_t n = 0; n < c.batch; ++n) {
        const T *grad_planes = grad_output + n * K * P * Q;
        const T *images = data + n * c.in_channels * H * W;
        std::fill(image_sums.begin(), image_sums.end(), T{0});
        for (int64_t p = rows.first; p < rows.last; ++p)
          for (int64_t q = cols.first; q < cols.last; ++q) {
            const int64_t at = (p * c.height().stride + top) * W + q * c.width().stride + left;
            T *element = image_sums.data();
            for (int64_t k = 0; k < K; k += kg) {
              const T *planes = images + k / kg * cg * H * W + at; // the group's first input channel
              for (int64_t kk = k; kk < k + kg; ++kk, element += cg) {
                const T grad = grad_planes[(kk * P + p) * Q + q];
                for (int64_t ci = 0; ci < cg; ++ci) element[ci] += grad * planes[ci * H * W];
              }
            }
          }
        for (size_t e = 0; e < sums.size(); ++e) sums[e] += image_sums[e];
      }
      for (int64_t e = 0; e < K * cg; ++e) grad_filter[(e * R + r) * S + s] = sums[static_cast<size_t>(e)];
    }
  }
}

template <class T> Tensor direct_typed(const Case &cc, Direction direction) {
  Tensor result(result_dtype(cc.problem, direction), result_shape(cc.problem, direction));
  T *out = result.data<T>();
  switch (direction) {
  case Direction::output: forward(cc.problem, cc[Role::data].data<T>(), cc[Role::weight].data<T>(), out); break;
  case Direction::grad_data: grad_data(cc.problem, cc[Role::grad_output].data<T>(), cc[Role::weight].data<T>(), out); break;
  case Direction::grad_weight: grad_weight(cc.problem, cc[Role::grad_output].data<T>(), cc[Role::data].data<T>(), out); break;
  }
  return result;
}

const Registration registration{{
    .name = "direct",
    .description = "dedicated direct loops per direction (gathering grad_data, direct wgrad) in the case dtype, "
                   "taps outer and channels inner; all configs, all directions",
    .supports = {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32, DType::float64}, .crops = true},
    .run =
        [](const Case &c, Direction direction) {
          return c.problem.precision.acc == DType::float32 ? direct_typed<float>(c, direction)
                                                  : direct_typed<double>(c, direction);
        },
}};

} // namespace

} // namespace convcheck
