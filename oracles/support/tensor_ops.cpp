#include "oracles/support/tensor_ops.hpp"

#include "core/tensor/index_span.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace convcheck::ops {

namespace {

// A broken composition must be reported as a finding, never read out of bounds, so precondition failures throw
// (verify_one records the message) instead of asserting. The message is formatted only when it is thrown: these
// checks run on every op of every case.
template <class... Args> void require(bool condition, fmt::format_string<Args...> message, Args &&...args) {
  if (!condition) throw std::runtime_error(fmt::format(message, std::forward<Args>(args)...));
}

std::vector<int64_t> row_major_strides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t a = shape.size(); a-- > 1;) strides[a - 1] = strides[a] * shape[a];
  return strides;
}

void require_rank(const Tensor &tensor, size_t rank, const char *op) {
  require(tensor.shape().size() == rank, "{}: expected rank {}, got shape {}", op, rank, tensor.shape());
}

// Most ops here are "out[i_0, .., i_r] = in[offset_0(i_0) + .. + offset_r(i_r)], or 0 when some offset is -1":
// one table of input offsets per output axis. The output extents are the table lengths.
using AxisOffsets = std::vector<std::vector<int64_t>>;

// The gather row by row: the offsets of all axes but the last add up to a row's base (an odometer over those axes),
// and the last axis's table is applied along the row, as one copy when it is a contiguous run.
template <class T> void gather_rows(const T *in, T *out, const AxisOffsets &tables) {
  const std::vector<int64_t> &last = tables.back();
  const auto row_length = static_cast<int64_t>(last.size());
  const size_t outer_axes = tables.size() - 1;
  bool contiguous = true;
  for (int64_t j = 1; j < row_length && contiguous; ++j) contiguous = last[static_cast<size_t>(j)] == last[0] + j;
  contiguous = contiguous && last[0] >= 0;
  std::vector<size_t> index(outer_axes, 0);
  for (;; out += row_length) {
    int64_t base = 0;
    bool padded = false; // the output is zero-initialised: a row in the padding is left as is
    for (size_t a = 0; a < outer_axes; ++a) {
      const int64_t offset = tables[a][index[a]];
      padded = padded || offset < 0;
      base += offset;
    }
    if (!padded && contiguous) std::copy(in + base + last[0], in + base + last[0] + row_length, out);
    else if (!padded)
      for (int64_t j = 0; j < row_length; ++j)
        if (last[static_cast<size_t>(j)] >= 0) out[j] = in[base + last[static_cast<size_t>(j)]];
    size_t a = outer_axes; // the next row: the innermost outer axis moves first
    while (a > 0 && ++index[a - 1] == tables[a - 1].size()) index[--a] = 0;
    if (a == 0) return;
  }
}

Tensor gather(const Tensor &tensor, const AxisOffsets &tables) {
  require(!tables.empty(), "tensor ops need a rank of at least 1");
  Shape shape;
  for (const auto &table : tables) shape.push_back(static_cast<int64_t>(table.size()));
  Tensor result(tensor.dtype(), shape);
  if (result.size() == 0) return result;
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    gather_rows(tensor.data<T>(), out, tables);
  });
  return result;
}

// One table per axis from `offset(axis, output_index, input_stride)`, with `extent(axis)` output indices.
template <class Extent, class Offset> AxisOffsets make_tables(const Tensor &tensor, Extent extent, Offset offset) {
  const std::vector<int64_t> strides = row_major_strides(tensor.shape());
  AxisOffsets tables(tensor.shape().size());
  for (size_t a = 0; a < tables.size(); ++a) {
    const int64_t count = extent(a);
    require(count >= 0, "negative extent on axis {} of {}", a, tensor.shape());
    tables[a].resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) tables[a][static_cast<size_t>(i)] = offset(a, i, strides[a]);
  }
  return tables;
}

} // namespace

Tensor tile(const Tensor &tensor, const Shape &reps) {
  const Shape &in = tensor.shape();
  require(reps.size() == in.size(), "tile: one repetition count per axis");
  return gather(tensor, make_tables(
                            tensor, [&](size_t a) { return in[a] * reps[a]; },
                            [&](size_t a, int64_t i, int64_t stride) { return (i % in[a]) * stride; }));
}

Tensor strided_slice(const Tensor &tensor, const Shape &begin, const Shape &end, const Shape &step) {
  const Shape &in = tensor.shape();
  require(begin.size() == in.size() && end.size() == in.size() && step.size() == in.size(),
          "strided_slice: one begin, end and step per axis");
  for (size_t a = 0; a < in.size(); ++a)
    require(step[a] > 0 && begin[a] >= 0 && begin[a] < std::min(end[a], in[a]),
            "strided_slice: empty or invalid range on axis {} of {}", a, in);
  return gather(tensor, make_tables(
                            tensor,
                            [&](size_t a) { return (std::min(end[a], in[a]) - begin[a] + step[a] - 1) / step[a]; },
                            [&](size_t a, int64_t i, int64_t stride) { return (begin[a] + i * step[a]) * stride; }));
}

Tensor sum_axis(const Tensor &tensor, int axis) {
  Shape shape = tensor.shape();
  require(axis >= 0 && static_cast<size_t>(axis) < shape.size(), "sum: axis out of range");
  const int64_t extent = shape[static_cast<size_t>(axis)];
  const int64_t inner = row_major_strides(shape)[static_cast<size_t>(axis)];
  shape.erase(shape.begin() + axis);
  Tensor result(tensor.dtype(), shape);
  const int64_t outer = inner == 0 ? 0 : result.size() / inner;
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const T *in = tensor.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < extent; ++j)
        for (int64_t i = 0; i < inner; ++i) out[o * inner + i] += in[(o * extent + j) * inner + i];
  });
  return result;
}

Tensor insert_zeros(const Tensor &tensor, const Shape &factor) {
  const Shape &in = tensor.shape();
  require(factor.size() == in.size(), "insert_zeros: one factor per axis");
  return gather(tensor, make_tables(
                            tensor, [&](size_t a) { return in[a] == 0 ? 0 : (in[a] - 1) * factor[a] + 1; },
                            [&](size_t a, int64_t i, int64_t stride) {
                              return i % factor[a] == 0 ? i / factor[a] * stride : int64_t{-1};
                            }));
}

Tensor pad(const Tensor &tensor, const Shape &low, const Shape &high) {
  const Shape &in = tensor.shape();
  require(low.size() == in.size() && high.size() == in.size(), "pad: one low and high amount per axis");
  return gather(tensor, make_tables(
                            tensor, [&](size_t a) { return in[a] + low[a] + high[a]; },
                            [&](size_t a, int64_t i, int64_t stride) {
                              const int64_t j = i - low[a];
                              return j >= 0 && j < in[a] ? j * stride : int64_t{-1};
                            }));
}

Tensor flip(const Tensor &tensor, const std::vector<int> &axes) {
  const Shape &in = tensor.shape();
  std::vector<bool> flipped(in.size(), false);
  for (int axis : axes) {
    require(axis >= 0 && static_cast<size_t>(axis) < in.size(), "flip: axis out of range");
    flipped[static_cast<size_t>(axis)] = true;
  }
  return gather(tensor, make_tables(
                            tensor, [&](size_t a) { return in[a]; },
                            [&](size_t a, int64_t i, int64_t stride) {
                              return (flipped[a] ? in[a] - 1 - i : i) * stride;
                            }));
}

Tensor concatenate(const std::vector<Tensor> &parts, int axis) {
  require(!parts.empty(), "concatenate: no parts");
  const Shape &first = parts.front().shape();
  const auto at = static_cast<size_t>(axis);
  require(axis >= 0 && at < first.size(), "concatenate: axis out of range");
  Shape shape = first;
  shape[at] = 0;
  for (const Tensor &part : parts) {
    Shape other = part.shape();
    require(other.size() == first.size() && part.dtype() == parts.front().dtype(), "concatenate: rank or dtype");
    shape[at] += other[at];
    other[at] = first[at];
    require(other == first, "concatenate: shape {} does not fit {}", part.shape(), first);
  }
  Tensor result(parts.front().dtype(), shape);
  const int64_t outer = element_count(Shape(shape.begin(), shape.begin() + axis));
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    // Row-major: each outer index holds the parts' blocks one after the other.
    for (int64_t o = 0; o < outer; ++o)
      for (const Tensor &part : parts) {
        const int64_t block = outer == 0 ? 0 : part.size() / outer;
        const T *in = part.data<T>() + o * block;
        out = std::copy(in, in + block, out);
      }
  });
  return result;
}

namespace {

// Each output element sums over (c, r, s) in that order, taps in the padding skipped. Two schedules give the same
// sums bit for bit; which is faster depends on the shape, and the compositions produce both kinds:
// - along output rows (`row_schedule`): for one (c, r, s), every element of the row whose tap lands inside gets
//   its product, so a row's elements accumulate side by side. Good when output rows are long.
// - element by element (`element_schedule`), the kernel row innermost. Good when kernel rows are long and output
//   rows short, as in the weight-gradient composition (P x Q kernels, R x S outputs).
struct ConvGeometry {
  int64_t C, H, W, K, CG, R, S, KG, P, Q;
  ConvGeometry(const Shape &in, const Shape &kernel, const Shape &result, int64_t groups)
      : C(in[1]), H(in[2]), W(in[3]), K(kernel[0]), CG(kernel[1]), R(kernel[2]), S(kernel[3]), KG(K / groups),
        P(result[2]), Q(result[3]) {}
};

// Both schedules run up to 4 neighbouring kernels of a group together (`width`), as they read the same image. In the
// element schedule each image value is then loaded once for all of them and their sums are independent chains whose
// additions overlap (one chain waits out the latency of every addition); in the row schedule each image value is
// loaded once for the kernels' rows and the tap's span and the row's bookkeeping are shared. Every element still
// sums its own products in (c, r, s) order. The width loops are unrolled explicitly: at -O2 GCC leaves them rolled,
// which keeps `sums` in memory (a chain through the stack) and the row loop from vectorizing.
template <int width, class T>
void element_block(const T *image, const T *weight, T *out, int64_t k, const std::vector<IndexSpan> &taps_of_column,
                   const ConvGeometry &g, const Conv2dParams &p) {
  for (int64_t y = 0; y < g.P; ++y) {
    const int64_t top = y * p.stride_height - p.pad_top;
    const IndexSpan rows = in_range(top, p.dilation_height, g.R, g.H);
    for (int64_t x = 0; x < g.Q; ++x) {
      const IndexSpan ss = taps_of_column[static_cast<size_t>(x)];
      const int64_t left = x * p.stride_width - p.pad_left; // input column of tap s = 0, may be negative
      T sums[width] = {};
      for (int64_t c = 0; c < g.CG; ++c)
        for (int64_t r = rows.first; r < rows.last; ++r) {
          const T *image_row = image + (c * g.H + top + r * p.dilation_height) * g.W;
          const T *taps = weight + ((k * g.CG + c) * g.R + r) * g.S;
          for (int64_t s = ss.first; s < ss.last; ++s) {
            const T value = image_row[left + s * p.dilation_width];
#pragma GCC unroll 4
            for (int j = 0; j < width; ++j) sums[j] += value * taps[j * g.CG * g.R * g.S + s];
          }
        }
      for (int j = 0; j < width; ++j) out[j * g.P * g.Q + y * g.Q + x] = sums[j];
    }
  }
}

// Calls block<width>(image, k, out) for every image and run of up to 4 kernels of one group, in order.
template <class T, class Block>
void by_kernel_blocks(const T *data, T *out, int64_t batch, const ConvGeometry &g, Block &&block) {
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t k = 0; k < g.K;) {
      const T *image = data + (n * g.C + k / g.KG * g.CG) * g.H * g.W;
      const int64_t width = std::min<int64_t>(4, (k / g.KG + 1) * g.KG - k);
      T *at = out + (n * g.K + k) * g.P * g.Q;
      switch (width) {
      case 4: block(std::integral_constant<int, 4>{}, image, k, at); break;
      case 3: block(std::integral_constant<int, 3>{}, image, k, at); break;
      case 2: block(std::integral_constant<int, 2>{}, image, k, at); break;
      default: block(std::integral_constant<int, 1>{}, image, k, at); break;
      }
      k += width;
    }
}

template <int width, class T>
void row_block(const T *image, const T *weight, T *out, int64_t k, const std::vector<IndexSpan> &columns,
               const ConvGeometry &g, const Conv2dParams &p) {
  for (int64_t y = 0; y < g.P; ++y, out += g.Q) { // `out` is zero-filled; kernel j's plane is j * P * Q further on
    const int64_t top = y * p.stride_height - p.pad_top;
    const IndexSpan rows = in_range(top, p.dilation_height, g.R, g.H);
    for (int64_t c = 0; c < g.CG; ++c)
      for (int64_t r = rows.first; r < rows.last; ++r) {
        const T *image_row = image + (c * g.H + top + r * p.dilation_height) * g.W;
        const T *taps = weight + ((k * g.CG + c) * g.R + r) * g.S;
        for (int64_t s = 0; s < g.S; ++s) {
          const IndexSpan xs = columns[static_cast<size_t>(s)];
          const int64_t offset = s * p.dilation_width - p.pad_left; // may be negative: an index, not a pointer
          T tap[width];
          for (int j = 0; j < width; ++j) tap[j] = taps[j * g.CG * g.R * g.S + s];
          if (p.stride_width == 1) {
#pragma omp simd // x indexes different elements: each element's own sum is still in (c, r, s) order
            for (int64_t x = xs.first; x < xs.last; ++x) {
              const T value = image_row[offset + x];
#pragma GCC unroll 4
              for (int j = 0; j < width; ++j) out[j * g.P * g.Q + x] += value * tap[j];
            }
          } else {
            for (int j = 0; j < width; ++j)
              for (int64_t x = xs.first; x < xs.last; ++x)
                out[j * g.P * g.Q + x] += image_row[offset + x * p.stride_width] * tap[j];
          }
        }
      }
  }
}

template <class T>
void row_schedule(const T *data, const T *weight, T *out, int64_t batch, const ConvGeometry &g, const Conv2dParams &p) {
  std::vector<IndexSpan> columns(static_cast<size_t>(g.S)); // the x whose tap s lands inside: 0 <= x*sw - pl + s*dw < W
  for (int64_t s = 0; s < g.S; ++s)
    columns[static_cast<size_t>(s)] = in_range(s * p.dilation_width - p.pad_left, p.stride_width, g.Q, g.W);
  by_kernel_blocks(data, out, batch, g, [&](auto width, const T *image, int64_t k, T *at) {
    row_block<decltype(width)::value>(image, weight, at, k, columns, g, p);
  });
}

template <class T>
void element_schedule(const T *data, const T *weight, T *out, int64_t batch, const ConvGeometry &g,
                      const Conv2dParams &p) {
  std::vector<IndexSpan> taps_of_column(static_cast<size_t>(g.Q)); // the s that land inside for output column x
  for (int64_t x = 0; x < g.Q; ++x)
    taps_of_column[static_cast<size_t>(x)] = in_range(x * p.stride_width - p.pad_left, p.dilation_width, g.S, g.W);
  by_kernel_blocks(data, out, batch, g, [&](auto width, const T *image, int64_t k, T *at) {
    element_block<decltype(width)::value>(image, weight, at, k, taps_of_column, g, p);
  });
}

} // namespace

Tensor conv2d(const Tensor &data, const Tensor &weight, const Conv2dParams &p) {
  require_rank(data, 4, "conv2d data");
  require_rank(weight, 4, "conv2d weight");
  const Shape &in = data.shape(), &kernel = weight.shape();
  require(p.groups >= 1 && kernel[0] % p.groups == 0 && in[1] == kernel[1] * p.groups && data.dtype() == weight.dtype(),
          "conv2d: data {} and weight {} do not fit groups={}", in, kernel,
          p.groups);
  require(p.stride_height >= 1 && p.stride_width >= 1 && p.dilation_height >= 1 && p.dilation_width >= 1 &&
              p.pad_top >= 0 && p.pad_bottom >= 0 && p.pad_left >= 0 && p.pad_right >= 0,
          "conv2d: stride and dilation must be positive, padding non-negative");
  // P = (H + pt + pb - dh*(R-1) - 1) / sh + 1, as relay.nn.conv2d infers it.
  const int64_t span_h = in[2] + p.pad_top + p.pad_bottom - p.dilation_height * (kernel[2] - 1) - 1;
  const int64_t span_w = in[3] + p.pad_left + p.pad_right - p.dilation_width * (kernel[3] - 1) - 1;
  require(span_h >= 0 && span_w >= 0, "conv2d: weight {} does not fit data {} with this padding",
          kernel, in);
  const Shape shape{in[0], kernel[0], span_h / p.stride_height + 1, span_w / p.stride_width + 1};
  Tensor result(data.dtype(), shape);
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const ConvGeometry g(in, kernel, shape, p.groups);
    if (g.Q >= g.S) row_schedule(data.data<T>(), weight.data<T>(), out, in[0], g, p);
    else element_schedule(data.data<T>(), weight.data<T>(), out, in[0], g, p);
  });
  return result;
}

} // namespace convcheck::ops
