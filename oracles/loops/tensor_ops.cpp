#include "oracles/loops/tensor_ops.hpp"

#include "core/tensor/index_span.hpp"

#include <algorithm>
#include <array>
#include <cmath>
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
    bool padded = false; // a row in the padding: zeros (T{} is +0 in every format)
    for (size_t a = 0; a < outer_axes; ++a) {
      const int64_t offset = tables[a][index[a]];
      padded = padded || offset < 0;
      base += offset;
    }
    if (padded) std::fill(out, out + row_length, T{});
    else if (contiguous) std::copy(in + base + last[0], in + base + last[0] + row_length, out);
    else
      for (int64_t j = 0; j < row_length; ++j) {
        const int64_t offset = last[static_cast<size_t>(j)];
        out[j] = offset >= 0 ? in[base + offset] : T{};
      }
    size_t a = outer_axes; // the next row: the innermost outer axis moves first
    while (a > 0 && ++index[a - 1] == tables[a - 1].size()) index[--a] = 0;
    if (a == 0) return;
  }
}

Tensor gather(const Tensor &tensor, const AxisOffsets &tables) {
  require(!tables.empty(), "tensor ops need a rank of at least 1");
  Shape shape;
  for (const auto &table : tables) shape.push_back(static_cast<int64_t>(table.size()));
  Tensor result = Tensor::uninitialized(tensor.dtype(), shape); // gather_rows writes every element
  if (result.size() == 0) return result;
  // Copies only: any storage format.
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
  visit_computed(result, [&](auto *out) {
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
  visit_typed(result, [&](auto *out) { // copies only: any storage format
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

// Each output element sums over (t, c, r, s) in that order, taps in the padding skipped. Every rank runs as 3-D (a
// 1-D or 2-D conv is the same bytes with unit outer axes: kernel 1, stride 1, no padding), with the depth loops
// outermost: for each output plane and each kernel plane t that lands inside the input, a 2-D conv of that input
// plane with kernel plane t is added into the output plane. So a 2-D conv runs the 2-D loops once per output, as
// before there was a depth axis. Two schedules give the same sums bit for bit; which is faster depends on the
// shape, and the compositions produce both kinds:
// - along output rows (`row_plane`): for one (c, r, s), every element of the row whose tap lands inside gets its
//   product, so a row's elements accumulate side by side. Good when output rows are long.
// - element by element (`element_plane`), the kernel row innermost. Good when kernel rows are long and output rows
//   short, as in the weight-gradient composition (P x Q kernels, R x S outputs).
struct ConvGeometry {
  int64_t C, D, H, W;     // data channels and extents
  int64_t K, CG, T, R, S; // weight
  int64_t KG, OD, P, Q;   // kernels per group, output extents
  int64_t image_size, kernel_volume; // one channel of an image (D * H * W) and of a kernel (T * R * S)
  int64_t kernel_size, plane_size;   // one whole kernel (C/G * T * R * S) and one output channel (OD * P * Q)
  ConvAxis depth, height, width;
  ConvGeometry(const std::array<int64_t, 5> &in, const std::array<int64_t, 5> &kernel,
               const std::array<int64_t, 5> &result, int64_t groups, const std::array<ConvAxis, 3> &axes)
      : C(in[1]), D(in[2]), H(in[3]), W(in[4]), K(kernel[0]), CG(kernel[1]), T(kernel[2]), R(kernel[3]),
        S(kernel[4]), KG(K / groups), OD(result[2]), P(result[3]), Q(result[4]), image_size(D * H * W),
        kernel_volume(T * R * S), kernel_size(CG * kernel_volume), plane_size(OD * P * Q), depth(axes[0]),
        height(axes[1]), width(axes[2]) {}
};

// Both schedules run up to 4 neighbouring kernels of a group together (`lanes`), as they read the same image. In the
// element schedule each image value is then loaded once for all of them and their sums are independent chains whose
// additions overlap (one chain waits out the latency of every addition); in the row schedule each image value is
// loaded once for the kernels' rows and the tap's span and the row's bookkeeping are shared. Every element still
// sums its own products in (t, c, r, s) order. The lane loops are unrolled explicitly: at -O2 GCC leaves them rolled,
// which keeps `sums` in memory (a chain through the stack) and the row loop from vectorizing.
//
// The plane functions take `image` at input plane z of channel 0, `kernels` at kernel plane t of channel 0 of the
// block's first kernel, and `out` at output plane z of that kernel; kernel j of the block lies j * kernel_size and
// its output j * plane_size further on.
template <int lanes, class T>
void element_plane(const T *image, const char *zero_rows, const T *kernels, T *out,
                   const std::vector<IndexSpan> &taps_of_column, const ConvGeometry &g) {
  for (int64_t y = 0; y < g.P; ++y) {
    const int64_t top = y * g.height.stride - g.height.pad_begin;
    const IndexSpan rows = in_range(top, g.height.dilation, g.R, g.H);
    for (int64_t x = 0; x < g.Q; ++x) {
      const IndexSpan ss = taps_of_column[static_cast<size_t>(x)];
      const int64_t left = x * g.width.stride - g.width.pad_begin; // input column of tap s = 0, may be outside
      T sums[lanes];
      for (int j = 0; j < lanes; ++j) sums[j] = out[j * g.plane_size + y * g.Q + x]; // the earlier kernel planes'
      for (int64_t c = 0; c < g.CG; ++c)
        for (int64_t r = rows.first; r < rows.last; ++r) {
          if (zero_rows[c * g.D * g.H + top + r * g.height.dilation]) continue;
          const T *image_row = image + c * g.image_size + (top + r * g.height.dilation) * g.W;
          const T *taps = kernels + c * g.kernel_volume + r * g.S;
          for (int64_t s = ss.first; s < ss.last; ++s) {
            const T value = image_row[left + s * g.width.dilation];
#pragma GCC unroll 4
            for (int j = 0; j < lanes; ++j) sums[j] += value * taps[j * g.kernel_size + s];
          }
        }
      for (int j = 0; j < lanes; ++j) out[j * g.plane_size + y * g.Q + x] = sums[j];
    }
  }
}

// One tap (c, r, s) of one output row for `lanes` kernels: out[j*plane + x] += image_row[offset + x*stride] *
// taps[j*kernel_size + s] for the columns x whose tap s lands inside.
template <int lanes, class T>
[[gnu::always_inline]] inline void row_tap(const T *image_row, const T *taps, T *out, int64_t s, IndexSpan xs,
                                           const ConvGeometry &g) {
  const int64_t offset = s * g.width.dilation - g.width.pad_begin; // may be negative: an index, not a pointer
  const int64_t plane = g.plane_size;
  T tap[lanes];
  for (int j = 0; j < lanes; ++j) tap[j] = taps[j * g.kernel_size + s];
  if (g.width.stride == 1) {
#pragma omp simd // x indexes different elements: each element's own sum is still in (t, c, r, s) order
    for (int64_t x = xs.first; x < xs.last; ++x) {
      const T value = image_row[offset + x];
#pragma GCC unroll 4
      for (int j = 0; j < lanes; ++j) out[j * plane + x] += value * tap[j];
    }
  } else {
    for (int j = 0; j < lanes; ++j)
      for (int64_t x = xs.first; x < xs.last; ++x)
        out[j * plane + x] += image_row[offset + x * g.width.stride] * tap[j];
  }
}

template <int lanes, class T>
void row_plane(const T *image, const char *zero_rows, const T *kernels, T *out, const std::vector<IndexSpan> &columns,
               const ConvGeometry &g) {
  for (int64_t y = 0; y < g.P; ++y, out += g.Q) { // `out` holds the earlier kernel planes' sums (zero at first)
    const int64_t top = y * g.height.stride - g.height.pad_begin;
    const IndexSpan rows = in_range(top, g.height.dilation, g.R, g.H);
    for (int64_t c = 0; c < g.CG; ++c)
      for (int64_t r = rows.first; r < rows.last; ++r) {
        if (zero_rows[c * g.D * g.H + top + r * g.height.dilation]) continue;
        const T *image_row = image + c * g.image_size + (top + r * g.height.dilation) * g.W;
        const T *taps = kernels + c * g.kernel_volume + r * g.S;
        for (int64_t s = 0; s < g.S; ++s) row_tap<lanes>(image_row, taps, out, s, columns[static_cast<size_t>(s)], g);
      }
  }
}

// Calls plane<lanes>(image plane, kernel plane, output plane) for every image, run of up to 4 kernels of one group,
// output plane z and kernel plane t that lands inside the input, in that order (t ascending within z).
template <class T, class Plane>
void by_kernel_planes(const T *data, const char *zero_rows, const T *weight, T *out, int64_t batch,
                      const ConvGeometry &g, Plane &&plane) {
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t k = 0; k < g.K;) {
      const T *image = data + (n * g.C + k / g.KG * g.CG) * g.image_size;
      const char *image_zero_rows = zero_rows + (n * g.C + k / g.KG * g.CG) * g.D * g.H;
      const int64_t lanes = std::min<int64_t>(4, (k / g.KG + 1) * g.KG - k);
      for (int64_t z = 0; z < g.OD; ++z) {
        const int64_t front = z * g.depth.stride - g.depth.pad_begin;
        const IndexSpan planes = in_range(front, g.depth.dilation, g.T, g.D);
        T *at = out + (n * g.K + k) * g.plane_size + z * g.P * g.Q;
        for (int64_t t = planes.first; t < planes.last; ++t) {
          const T *image_plane = image + (front + t * g.depth.dilation) * g.H * g.W;
          const char *plane_zero_rows = image_zero_rows + (front + t * g.depth.dilation) * g.H;
          const T *kernel_plane = weight + k * g.kernel_size + t * g.R * g.S;
          switch (lanes) {
          case 4: plane(std::integral_constant<int, 4>{}, image_plane, plane_zero_rows, kernel_plane, at); break;
          case 3: plane(std::integral_constant<int, 3>{}, image_plane, plane_zero_rows, kernel_plane, at); break;
          case 2: plane(std::integral_constant<int, 2>{}, image_plane, plane_zero_rows, kernel_plane, at); break;
          default: plane(std::integral_constant<int, 1>{}, image_plane, plane_zero_rows, kernel_plane, at); break;
          }
        }
      }
      k += lanes;
    }
}

template <class T>
void row_schedule(const T *data, const char *zero_rows, const T *weight, T *out, int64_t batch, const ConvGeometry &g) {
  std::vector<IndexSpan> columns(static_cast<size_t>(g.S)); // the x whose tap s lands inside: 0 <= x*sw - pl + s*dw < W
  for (int64_t s = 0; s < g.S; ++s)
    columns[static_cast<size_t>(s)] = in_range(s * g.width.dilation - g.width.pad_begin, g.width.stride, g.Q, g.W);
  by_kernel_planes(data, zero_rows, weight, out, batch, g,
                   [&](auto lanes, const T *image, const char *image_zero_rows, const T *kernels, T *at) {
                     row_plane<decltype(lanes)::value>(image, image_zero_rows, kernels, at, columns, g);
                   });
}

template <class T>
void element_schedule(const T *data, const char *zero_rows, const T *weight, T *out, int64_t batch,
                      const ConvGeometry &g) {
  std::vector<IndexSpan> taps_of_column(static_cast<size_t>(g.Q)); // the s that land inside for output column x
  for (int64_t x = 0; x < g.Q; ++x)
    taps_of_column[static_cast<size_t>(x)] =
        in_range(x * g.width.stride - g.width.pad_begin, g.width.dilation, g.S, g.W);
  by_kernel_planes(data, zero_rows, weight, out, batch, g,
                   [&](auto lanes, const T *image, const char *image_zero_rows, const T *kernels, T *at) {
                     element_plane<decltype(lanes)::value>(image, image_zero_rows, kernels, at, taps_of_column, g);
                   });
}

// Which input rows ([N, C, D, H], one flag per row of W values) hold only zeros, for the schedules to skip: with
// finite taps, a zero row's products are zeros, which change no sum (only, at most, the sign of a zero result).
// The zero-inserted inputs of the conv_transpose compositions (legalized grad_data, a deconv's output) are mostly
// such rows: stride - 1 of every stride along each outer axis. With a tap that is not finite nothing is skipped
// (0 * inf is NaN).
template <class T>
std::vector<char> rows_of_zeros(const T *data, const T *weight, int64_t batch, const ConvGeometry &g) {
  const int64_t rows = batch * g.C * g.D * g.H;
  std::vector<char> zero(static_cast<size_t>(rows), 0);
  if (!std::all_of(weight, weight + g.K * g.kernel_size, [](T tap) { return std::isfinite(tap); })) return zero;
  for (int64_t row = 0; row < rows; ++row)
    zero[static_cast<size_t>(row)] = std::all_of(data + row * g.W, data + (row + 1) * g.W, [](T v) { return v == 0; });
  return zero;
}

// A shape of rank 2 + n (n <= 3 spatial axes) as the 3-D one with the same bytes: unit axes inserted after the two
// leading ones.
std::array<int64_t, 5> as_3d(const Shape &shape) {
  std::array<int64_t, 5> lifted{shape[0], shape[1], 1, 1, 1};
  std::copy(shape.begin() + 2, shape.end(), lifted.end() - (shape.size() - 2));
  return lifted;
}

// The axes of `params` for a conv of `spatial` axes (all defaults when it lists none), as the three of the 3-D conv.
std::array<ConvAxis, 3> axes_3d(const ConvParams &params, size_t spatial) {
  require(params.axes.empty() || params.axes.size() == spatial, "conv: {} axes of parameters for {} spatial axes",
          params.axes.size(), spatial);
  std::array<ConvAxis, 3> axes{};
  for (size_t a = 0; a < params.axes.size(); ++a) axes[3 - spatial + a] = params.axes[a];
  return axes;
}

} // namespace

Tensor conv(const Tensor &data, const Tensor &weight, const ConvParams &params) {
  const Shape &in = data.shape(), &kernel = weight.shape();
  require(in.size() >= 3 && in.size() <= 5 && kernel.size() == in.size(),
          "conv: data {} and weight {} are not both of rank 3, 4 or 5", in, kernel);
  require(params.groups >= 1 && kernel[0] % params.groups == 0 && in[1] == kernel[1] * params.groups &&
              data.dtype() == weight.dtype(),
          "conv: data {} and weight {} do not fit groups={}", in, kernel, params.groups);
  const size_t spatial = in.size() - 2;
  const std::array<ConvAxis, 3> axes = axes_3d(params, spatial);
  Shape shape{in[0], kernel[0]};
  shape.reserve(in.size());
  for (size_t a = 0; a < spatial; ++a) {
    const ConvAxis &axis = axes[3 - spatial + a];
    require(axis.stride >= 1 && axis.dilation >= 1 && axis.pad_begin >= 0 && axis.pad_end >= 0,
            "conv: stride and dilation must be positive, padding non-negative");
    // out = (in + pad_begin + pad_end - dilation*(kernel-1) - 1) / stride + 1, as relay.nn.conv2d infers it.
    const int64_t span = in[2 + a] + axis.pad_begin + axis.pad_end - axis.dilation * (kernel[2 + a] - 1) - 1;
    require(span >= 0, "conv: weight {} does not fit data {} with this padding", kernel, in);
    shape.push_back(span / axis.stride + 1);
  }
  Tensor result(data.dtype(), shape);
  visit_computed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const ConvGeometry g(as_3d(in), as_3d(kernel), as_3d(shape), params.groups, axes);
    const std::vector<char> zero_rows = rows_of_zeros(data.data<T>(), weight.data<T>(), in[0], g);
    if (g.Q >= g.S) row_schedule(data.data<T>(), zero_rows.data(), weight.data<T>(), out, in[0], g);
    else element_schedule(data.data<T>(), zero_rows.data(), weight.data<T>(), out, in[0], g);
  });
  return result;
}

} // namespace convcheck::ops
