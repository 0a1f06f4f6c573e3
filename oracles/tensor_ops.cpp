#include "oracles/tensor_ops.hpp"

#include "core/index_span.hpp"

#include <algorithm>
#include <stdexcept>

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

template <class T>
void gather_axis(const T *in, T *&out, const AxisOffsets &tables, const std::vector<int64_t> &block, size_t axis,
                 int64_t base) {
  const bool last = axis + 1 == tables.size();
  for (int64_t offset : tables[axis]) {
    if (offset < 0) out += block[axis]; // the output is zero-initialised: a padded block is left as is
    else if (last) *out++ = in[base + offset];
    else gather_axis(in, out, tables, block, axis + 1, base + offset);
  }
}

Tensor gather(const Tensor &tensor, const AxisOffsets &tables) {
  require(!tables.empty(), "tensor ops need a rank of at least 1");
  Shape shape;
  for (const auto &table : tables) shape.push_back(static_cast<int64_t>(table.size()));
  Tensor result(tensor.dtype(), shape);
  if (result.size() == 0) return result;
  const std::vector<int64_t> block = row_major_strides(shape);
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    gather_axis(tensor.data<T>(), out, tables, block, 0, 0);
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
    for (int64_t i = 0; i < count; ++i) tables[a].push_back(offset(a, i, strides[a]));
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

// Each output element sums over (c, r, s) in that order, taps in the padding skipped. The loops run along output
// rows: for one (c, r, s), every element of the row whose tap lands inside gets its product, so the elements of a
// row accumulate side by side (independent additions) while each keeps its own (c, r, s) order.
template <class T>
void conv2d_loops(const T *data, const T *weight, T *out, const Shape &in, const Shape &kernel, const Shape &result,
                  const Conv2dParams &p) {
  const int64_t C = in[1], H = in[2], W = in[3], K = kernel[0], CG = kernel[1], R = kernel[2], S = kernel[3];
  const int64_t KG = K / p.groups, P = result[2], Q = result[3];
  std::vector<IndexSpan> columns(static_cast<size_t>(S)); // the x whose tap s lands inside: 0 <= x*sw - pl + s*dw < W
  for (int64_t s = 0; s < S; ++s)
    columns[static_cast<size_t>(s)] = in_range(s * p.dilation_width - p.pad_left, p.stride_width, Q, W);
  for (int64_t n = 0; n < in[0]; ++n)
    for (int64_t k = 0; k < K; ++k) {
      const T *image = data + (n * C + k / KG * CG) * H * W;
      for (int64_t y = 0; y < P; ++y, out += Q) { // `out` is zero-filled
        const int64_t top = y * p.stride_height - p.pad_top;
        const IndexSpan rows = in_range(top, p.dilation_height, R, H);
        for (int64_t c = 0; c < CG; ++c)
          for (int64_t r = rows.first; r < rows.last; ++r) {
            const T *image_row = image + (c * H + top + r * p.dilation_height) * W;
            const T *taps = weight + ((k * CG + c) * R + r) * S;
            for (int64_t s = 0; s < S; ++s) {
              const IndexSpan xs = columns[static_cast<size_t>(s)];
              const int64_t offset = s * p.dilation_width - p.pad_left; // may be negative: an index, not a pointer
              if (p.stride_width == 1) {
#pragma omp simd // x indexes different elements: each element's own sum is still in (c, r, s) order
                for (int64_t x = xs.first; x < xs.last; ++x) out[x] += image_row[offset + x] * taps[s];
              } else {
                for (int64_t x = xs.first; x < xs.last; ++x) out[x] += image_row[offset + x * p.stride_width] * taps[s];
              }
            }
          }
      }
    }
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
    conv2d_loops(data.data<T>(), weight.data<T>(), out, in, kernel, shape, p);
  });
  return result;
}

} // namespace convcheck::ops
