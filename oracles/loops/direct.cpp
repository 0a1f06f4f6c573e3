// `direct`: one dedicated loop nest per direction in the case dtype, written from the definition independently of
// core/numerics/naive_loops.hpp (the point is a second implementation, not a second caller), in the shapes that
// direct kernels use (cuDNN's and CUTLASS's "direct" / "analytic" iterators). Over three spatial axes (a problem of
// lower rank has unit outer axes: core/problem/problem.hpp), with o = (od, p, q) an output position, h = (z, y, x)
// an input position and t = (t, r, s) a kernel tap, and per axis position = o*stride - pad_begin + t*dilation:
//
//   output[n,k,o]      = sum_t sum_c data[n, g*C/G + c, o*stride - pad + t*dilation] * weight[k,c,t]
//   grad_data[n,i,h]   = sum_t sum_{k in group of i} grad_output[n, k, (h + pad - t*dilation)/stride]
//                                                    * weight[k, i - g*C/G, t]
//                        over the t whose quotients are exact and inside [0, OD) x [0, P) x [0, Q)  (a gather)
//   grad_weight[k,c,t] = sum_{n,o} grad_output[n,k,o] * data[n, g*C/G + c, o*stride - pad + t*dilation]
//
// with g = k / (K/G). A tap outside [0, in) on some axis, in the padding or cropped away by a negative padding,
// contributes nothing. Forward and grad_data sum taps (t, r, s) outermost and channels innermost, where the naive
// loops sum channels outermost, so they round in a genuinely different order. The in-range taps of forward and
// grad_weight are found by solving the index inequality once per plane, row or column (`inside`) instead of testing
// every tap, which is a second derivation of the padding arithmetic as well; grad_data's gather reads
// core/tensor/index_span.hpp's table of the taps that read each input plane, row and column.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/tensor/index_span.hpp"
#include "core/problem/extents.hpp"
#include "core/problem/precision_table.hpp"
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

/// Output-stationary forward: each output element sums taps (t, r, s) outer, input channels innermost. A whole
/// output row is computed together, as direct kernels tile the output: for one (t, r, s, c), every element of the
/// row whose tap lands inside gets its product, in the same per-element order. Like direct kernels that tile output
/// channels, up to 4 kernels of a group (`width`) share each input value they read; the width loop is unrolled
/// explicitly so that the loop along the row still vectorizes at -O2.
///
/// The depth loops go outermost (`forward_rows`): for one output plane od and one in-range kernel plane t, the
/// loops are those of a 2-D problem over input plane z (`forward_plane`), which a 2-D problem runs once. Every
/// element of plane od still receives its products in (t, r, s, c) order.
template <class T> struct PlaneTaps {
  const T *data;   // the group's first input channel, at input plane z; channels e.in_volume apart
  const T *filter; // kernel k's taps of plane t; kernel k + j is j * e.filter_volume further on
  T *output;       // kernel k's output plane od, zero-filled; kernel k + j is j * e.out_volume further on
};

template <int width, class T>
void forward_plane(const Problem &c, const Extents &e, const PlaneTaps<T> &at,
                   const std::vector<IndexRange> &columns) {
  const SpatialAxis &height = c.height(), &across = c.width();
  const int64_t cg = e.cg, R = e.R, S = e.S, W = e.W, Q = e.Q, volume = e.out_volume;
  const int64_t channel_stride = e.in_volume, kernel_stride = e.T * R * S, next_kernel = e.filter_volume;
  for (int64_t p = 0; p < e.P; ++p) {
    T *row = at.output + p * Q;
    const int64_t top = p * height.stride - height.pad_begin; // input row of tap r = 0
    const IndexRange rows = inside(top, height.dilation, R, e.H);
    for (int64_t r = rows.first; r < rows.last; ++r)
      for (int64_t s = 0; s < S; ++s) {
        const IndexRange qs = columns[static_cast<size_t>(s)];
        // Input column of output column q: q*sw + offset; an index, not a pointer, as it may be negative.
        const int64_t offset = (top + r * height.dilation) * W - across.pad_begin + s * across.dilation;
        const T *taps = at.filter + r * S + s; // tap (r, s) of input channel ci of kernel k
        for (int64_t ci = 0; ci < cg; ++ci, taps += kernel_stride) {
          T tap[width];
          for (int j = 0; j < width; ++j) tap[j] = taps[j * next_kernel];
          const T *plane = at.data + ci * channel_stride;
          if (across.stride == 1) {
#pragma omp simd // q indexes different output elements; each keeps its own order
            for (int64_t q = qs.first; q < qs.last; ++q) {
              const T value = plane[offset + q];
#pragma GCC unroll 4
              for (int j = 0; j < width; ++j) row[j * volume + q] += value * tap[j];
            }
          } else {
            for (int j = 0; j < width; ++j)
              for (int64_t q = qs.first; q < qs.last; ++q)
                row[j * volume + q] += plane[offset + q * across.stride] * tap[j];
          }
        }
      }
  }
}

template <int width, class T>
void forward_rows(const Problem &c, const Extents &e, const T *group_data, const T *filter, T *volumes,
                  const std::vector<IndexRange> &columns) {
  const SpatialAxis &depth = c.depth();
  const int64_t plane_size = e.H * e.W, kernel_plane = e.R * e.S, output_plane = e.P * e.Q;
  for (int64_t od = 0; od < e.OD; ++od) {
    const int64_t front = od * depth.stride - depth.pad_begin; // input plane of tap t = 0
    const IndexRange planes = inside(front, depth.dilation, e.T, e.D);
    for (int64_t t = planes.first; t < planes.last; ++t) {
      const PlaneTaps<T> at{group_data + (front + t * depth.dilation) * plane_size, filter + t * kernel_plane,
                                   volumes + od * output_plane};
      forward_plane<width>(c, e, at, columns);
    }
  }
}

template <class T> void forward(const Problem &c, const T *data, const T *weight, T *output) {
  const Extents e(c);
  std::vector<IndexRange> columns(static_cast<size_t>(e.S)); // for tap s, the q with 0 <= q*sw - pl + s*dw < W
  for (int64_t s = 0; s < e.S; ++s)
    columns[static_cast<size_t>(s)] = inside(s * c.width().dilation - c.width().pad_begin, c.width().stride, e.Q, e.W);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t k = 0; k < c.out_channels;) {
      const T *group_data = data + (n * c.in_channels + (k / e.kg) * e.cg) * e.in_volume;
      const T *filter = weight + k * e.filter_volume;
      T *volumes = output + (n * c.out_channels + k) * e.out_volume;
      const int64_t width = std::min<int64_t>(4, (k / e.kg + 1) * e.kg - k); // kernels left in k's group
      switch (width) {
      case 4: forward_rows<4>(c, e, group_data, filter, volumes, columns); break;
      case 3: forward_rows<3>(c, e, group_data, filter, volumes, columns); break;
      case 2: forward_rows<2>(c, e, group_data, filter, volumes, columns); break;
      default: forward_rows<1>(c, e, group_data, filter, volumes, columns); break;
      }
      k += width;
    }
}

/// Input columns w, w + sw, w + 2*sw, ... are read by the same kernel columns s, at output columns q, q + 1, q + 2,
/// ...: such a run of up to 4 columns (`ColumnBlock`) is gathered side by side, each element still summing its own
/// products in (t, r, s, k) order, so that their additions overlap instead of forming one chain of latencies.
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

/// The (tap, output position) pairs that read each input plane and row, merged: for input row (z, h), the
/// (t, od) x (r, p) with z + pd - t*dd = od*sd and h + pt - r*dh = p*sh exactly, in (t, r) order, each held as the
/// offsets it contributes: (t*R + r)*S into a kernel and (od*P + p)*Q into an output channel. Built once per call, so
/// that the gather below loops over input rows as in 2-D, whatever the rank.
struct RowReaders {
  std::vector<int64_t> starts; // the pairs of input row z*H + h are offsets[starts[z*H + h] .. starts[z*H + h + 1])
  std::vector<std::pair<int64_t, int64_t>> offsets; // (kernel offset, output offset)
};

/// The output position whose tap `tap` reads input position `position` of `axis` (position + pad_begin -
/// tap*dilation = output*stride exactly, output in [0, out)), or -1 when none does.
int64_t reading_output(const SpatialAxis &axis, int64_t out, int64_t position, int64_t tap) {
  const int64_t scaled = position + axis.pad_begin - tap * axis.dilation;
  return scaled >= 0 && scaled % axis.stride == 0 && scaled / axis.stride < out ? scaled / axis.stride : -1;
}

// Built directly rather than by merging two TapReaders: on the small problems fuzzing makes, the per-call set-up
// is a visible share of grad_data's time, and this way it allocates nothing but the table itself.
RowReaders row_readers(const Problem &c, const Extents &e) {
  RowReaders readers;
  readers.starts.reserve(static_cast<size_t>(e.D * e.H + 1));
  for (int64_t z = 0; z < e.D; ++z)
    for (int64_t h = 0; h < e.H; ++h) {
      readers.starts.push_back(static_cast<int64_t>(readers.offsets.size()));
      for (int64_t t = 0; t < e.T; ++t) {
        const int64_t od = reading_output(c.depth(), e.OD, z, t);
        if (od < 0) continue;
        for (int64_t r = 0; r < e.R; ++r) {
          const int64_t p = reading_output(c.height(), e.P, h, r);
          if (p >= 0) readers.offsets.emplace_back((t * e.R + r) * e.S, (od * e.P + p) * e.Q);
        }
      }
    }
  readers.starts.push_back(static_cast<int64_t>(readers.offsets.size()));
  return readers;
}

/// One input row's block of columns: sums[j] gathers grad_output[.., od, p, q + j] * weight[.., t, r, s].
template <int width, class T>
void gather_block(const T *group_grad, const T *group_weight, const RowReaders &rows, const TapReaders &columns,
                  int64_t row_index, const ColumnBlock &block, const Extents &e, int64_t stride, T *row) {
  const int64_t kg = e.kg, out_volume = e.out_volume, filter_volume = e.filter_volume;
  T sums[width] = {};
  for (int64_t a = rows.starts[static_cast<size_t>(row_index)]; a < rows.starts[static_cast<size_t>(row_index + 1)];
       ++a) {
    const auto [kernel_offset, output_offset] = rows.offsets[static_cast<size_t>(a)];
    for (int64_t b = columns.starts[static_cast<size_t>(block.first)];
         b < columns.starts[static_cast<size_t>(block.first + 1)]; ++b) {
      const auto [s, q] = columns.pairs[static_cast<size_t>(b)];
      for (int64_t kk = 0; kk < kg; ++kk) {
        const T *grad = group_grad + kk * out_volume + output_offset + q;
        const T tap = group_weight[kk * filter_volume + kernel_offset + s];
#pragma GCC unroll 4 // `sums` then lives in registers: a chain through memory would undo the point
        for (int j = 0; j < width; ++j) sums[j] += grad[j] * tap;
      }
    }
  }
  for (int j = 0; j < width; ++j) row[block.first + j * stride] = sums[j];
}

/// Gathering grad_data: each input element sums the taps that read it, (t, r, s) outer, output channels innermost.
template <class T> void grad_data(const Problem &c, const T *grad_output, const T *weight, T *grad_input) {
  const Extents e(c);
  const SpatialAxis &across = c.width();
  const RowReaders rows = row_readers(c, e);
  const TapReaders columns = tap_readers(e.W, e.S, e.Q, across.stride, across.pad_begin, across.dilation);
  const std::vector<ColumnBlock> blocks = column_blocks(columns, e.W, across.stride);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t i = 0; i < c.in_channels; ++i) {
      const int64_t g = i / e.cg, ci = i % e.cg;
      const T *group_grad = grad_output + (n * c.out_channels + g * e.kg) * e.out_volume;
      const T *group_weight = weight + (g * e.kg * e.cg + ci) * e.T * e.R * e.S; // weight[g*K/G, ci, 0, 0, 0]
      for (int64_t zh = 0; zh < e.D * e.H; ++zh) { // input row (z, h) = (zh / H, zh % H)
        T *row = grad_input + ((n * c.in_channels + i) * e.D * e.H + zh) * e.W;
        for (const ColumnBlock &block : blocks) {
          const auto gather = [&](auto width) {
            gather_block<decltype(width)::value>(group_grad, group_weight, rows, columns, zh, block, e,
                                                 across.stride, row);
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

/// One kernel tap (t, r, s) of grad_weight: the output positions whose tap lands inside, per axis, and the input
/// position tap (t, r, s) reads for output position 0 (`front`, `top`, `left`; any may lie outside).
struct WeightTap {
  IndexRange planes, rows, columns;
  int64_t front, top, left;
};

/// Adds one image's products for tap `tap` into image_sums [K, C/G], each element in (od, p, q) order. Which
/// positions a tap reads depends only on the tap, so all K * C/G elements run together: their additions are
/// independent and overlap, and the C/G input channels of a group share every grad_output value.
template <class T>
void add_image(const Problem &c, const Extents &e, const WeightTap &tap, const T *grad_volumes, const T *images,
               T *image_sums) {
  const int64_t cg = e.cg, kg = e.kg, K = c.out_channels, in_volume = e.in_volume;
  for (int64_t od = tap.planes.first; od < tap.planes.last; ++od) {
    const int64_t z = od * c.depth().stride + tap.front;
    for (int64_t p = tap.rows.first; p < tap.rows.last; ++p) {
      const int64_t plane_row = (z * e.H + p * c.height().stride + tap.top) * e.W + tap.left;
      for (int64_t q = tap.columns.first; q < tap.columns.last; ++q) {
        const int64_t at = plane_row + q * c.width().stride;
        T *element = image_sums;
        for (int64_t k = 0; k < K; k += kg) {
          const T *channels = images + k / kg * cg * in_volume + at; // the group's first input channel
          for (int64_t kk = k; kk < k + kg; ++kk, element += cg) {
            const T grad = grad_volumes[kk * e.out_volume + (od * e.P + p) * e.Q + q];
            for (int64_t ci = 0; ci < cg; ++ci) element[ci] += grad * channels[ci * in_volume];
          }
        }
      }
    }
  }
}

/// Direct wgrad: each weight element sums over (n, od, p, q), visiting only the output positions whose tap is
/// inside. One partial sum per image, reduced at the end, as split-K direct wgrad kernels reduce over the batch; this
/// also makes the rounding differ from naive's single running sum.
template <class T> void grad_weight(const Problem &c, const T *grad_output, const T *data, T *grad_filter) {
  const Extents e(c);
  const int64_t K = c.out_channels, elements = K * e.cg;
  const SpatialAxis &depth = c.depth(), &height = c.height(), &across = c.width();
  std::vector<T> sums(static_cast<size_t>(elements)), image_sums(static_cast<size_t>(elements));
  for (int64_t t = 0; t < e.T; ++t)
    for (int64_t r = 0; r < e.R; ++r)
      for (int64_t s = 0; s < e.S; ++s) {
        // Input position = o*stride + (tap*dilation - pad): the same inequality as forward's, solved for o instead.
        WeightTap tap;
        tap.front = t * depth.dilation - depth.pad_begin;
        tap.top = r * height.dilation - height.pad_begin;
        tap.left = s * across.dilation - across.pad_begin;
        tap.planes = inside(tap.front, depth.stride, e.OD, e.D);
        tap.rows = inside(tap.top, height.stride, e.P, e.H);
        tap.columns = inside(tap.left, across.stride, e.Q, e.W);
        std::fill(sums.begin(), sums.end(), T{0});
        for (int64_t n = 0; n < c.batch; ++n) {
          std::fill(image_sums.begin(), image_sums.end(), T{0});
          add_image(c, e, tap, grad_output + n * K * e.out_volume, data + n * c.in_channels * e.in_volume,
                    image_sums.data());
          for (size_t i = 0; i < sums.size(); ++i) sums[i] += image_sums[i];
        }
        for (int64_t i = 0; i < elements; ++i)
          grad_filter[((i * e.T + t) * e.R + r) * e.S + s] = sums[static_cast<size_t>(i)];
      }
}

template <class T> Tensor direct_typed(const Case &cc, Direction direction) {
  Tensor result(result_dtype(cc.problem, direction), result_shape(cc.problem, direction));
  T *out = result.data<T>();
  const Problem &c = cc.problem;
  switch (direction) {
  case Direction::output: forward(c, cc[Role::data].data<T>(), cc[Role::weight].data<T>(), out); break;
  case Direction::grad_data: grad_data(c, cc[Role::grad_output].data<T>(), cc[Role::weight].data<T>(), out); break;
  case Direction::grad_weight:
    grad_weight(c, cc[Role::grad_output].data<T>(), cc[Role::data].data<T>(), out);
    break;
  }
  return result;
}

const Registration registration{{
    .name = "direct",
    .description = "dedicated direct loops per direction (gathering grad_data, direct wgrad) in the case dtype, "
                   "taps outer and channels inner; ranks 1-3 and crops, all directions",
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .precisions = mixed_precisions(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    // A deconv's output is the gathering grad_data loop of its equivalent conv (core/problem/op.hpp), and so on.
    .run = any_op([](const Case &c, Direction direction) {
      return in_accumulation_format(c, direction, [](const Case &widened, Direction d) {
        return with_compute_type(widened.problem.precision.acc,
                                 [&](auto zero) { return direct_typed<decltype(zero)>(widened, d); });
      });
    }),
    .cost_planned = true, // scalar loops: at size a share of cases (core/run/cost_plan.hpp)
}};

} // namespace

} // namespace convcheck
