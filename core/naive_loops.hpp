#pragma once
// The convolution written directly from its definition, one loop nest per direction. Both the double reference
// (core/reference.cpp, which also sums |products| for the error bound) and the `naive` strategy (in the case
// dtype) instantiate these, so there is one definition to read:
//
//   output[n,k,p,q]    = sum_{c,r,s} data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s]
//   grad_data[n,i,h,w] = sum over (k in group of i, r, s) with h = p*sh - pt + r*dh, w = q*sw - pl + s*dw
//                        for some in-range p, q of grad_output[n,k,p,q] * weight[k, i - g*C/G, r, s]
//   grad_weight[k,c,r,s] = sum_{n,p,q} grad_output[n,k,p,q] * data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw]
//
// where g = k / (K/G). Taps that fall in the padding contribute nothing and are not counted as terms.
//
// Every element receives its products in the order of its sum as written: (c, r, s) for output, (k, r, s) for
// grad_data, (n, p, q) for grad_weight; so an accumulator that adds them one by one rounds exactly as a loop per
// element would. Only the loops AROUND the elements are arranged for speed: the innermost loop runs along a row
// of elements (output and grad_data) or along the sum itself (grad_weight), and which taps are in range is worked
// out once per row (`in_range`) instead of being tested per tap.
//
// `Acc` receives the products, starting from a zero result:
//   acc.axpy(first, result_stride, x, x_stride, w, count):  result[first + j*result_stride] += x[j*x_stride] * w
//   acc.dot(index, x, y, y_stride, count):                  result[index] += x[j] * y[j*y_stride]
// for j = 0 .. count-1 in increasing order.

#include <cstdint>
#include <vector>

#include "core/conv_config.hpp"
#include "core/direction.hpp"
#include "core/index_span.hpp"

namespace convcheck {

/// For one kernel column s, the output columns q whose tap s reads inside the input row (w = q*sw - pl + s*dw),
/// and the input column the first of them reads.
struct TapColumns {
  IndexSpan outputs;
  int64_t first_input = 0;
};

inline std::vector<TapColumns> output_columns_per_tap(const ConvConfig &c) {
  std::vector<TapColumns> columns(static_cast<size_t>(c.kernel_width));
  for (int64_t s = 0; s < c.kernel_width; ++s) {
    const IndexSpan qs = in_range(s * c.dilation_width - c.pad_left, c.stride_width, c.out_width(), c.in_width);
    columns[static_cast<size_t>(s)] = {qs, qs.first * c.stride_width - c.pad_left + s * c.dilation_width};
  }
  return columns;
}

template <class Acc, class In> void naive_forward(const ConvConfig &c, const In *data, const In *weight, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t k = 0; k < c.out_channels; ++k) {
      const int64_t g = k / kg;
      for (int64_t p = 0; p < P; ++p) {
        const int64_t top = p * c.stride_height - c.pad_top; // input row of tap r = 0
        const IndexSpan rows = in_range(top, c.dilation_height, R, H);
        const int64_t first = ((n * c.out_channels + k) * P + p) * Q;
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t r = rows.first; r < rows.last; ++r) {
            const In *input_row = data + ((n * c.in_channels + g * cg + ci) * H + top + r * c.dilation_height) * W;
            const In *taps = weight + ((k * cg + ci) * R + r) * S;
            for (int64_t s = 0; s < S; ++s) {
              const TapColumns &column = columns[static_cast<size_t>(s)];
              if (column.outputs.size() <= 0) continue;
              acc.axpy(first + column.outputs.first, 1, input_row + column.first_input, c.stride_width, taps[s],
                       column.outputs.size());
            }
          }
      }
    }
}

template <class Acc, class In>
void naive_grad_data(const ConvConfig &c, const In *grad_output, const In *weight, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t i = 0; i < c.in_channels; ++i) {
      const int64_t g = i / cg, ci = i % cg;
      for (int64_t h = 0; h < H; ++h) {
        const int64_t row_first = ((n * c.in_channels + i) * H + h) * W;
        for (int64_t k = g * kg; k < (g + 1) * kg; ++k)
          for (int64_t r = 0; r < R; ++r) {
            // h = p*sh - pt + r*dh for an in-range p, or tap r reads nothing of this row.
            const int64_t ph = h + c.pad_top - r * c.dilation_height;
            if (ph < 0 || ph % c.stride_height != 0 || ph / c.stride_height >= P) continue;
            const In *grad_row = grad_output + ((n * c.out_channels + k) * P + ph / c.stride_height) * Q;
            const In *taps = weight + ((k * cg + ci) * R + r) * S;
            for (int64_t s = 0; s < S; ++s) {
              const TapColumns &column = columns[static_cast<size_t>(s)];
              if (column.outputs.size() <= 0) continue;
              acc.axpy(row_first + column.first_input, c.stride_width, grad_row + column.outputs.first, 1, taps[s],
                       column.outputs.size());
            }
          }
      }
    }
}

template <class Acc, class In>
void naive_grad_weight(const ConvConfig &c, const In *grad_output, const In *data, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  for (int64_t k = 0; k < c.out_channels; ++k)
    for (int64_t ci = 0; ci < cg; ++ci) {
      const int64_t i = (k / kg) * cg + ci;
      for (int64_t r = 0; r < R; ++r) {
        // The output rows whose tap r reads inside the input: h = p*sh - pt + r*dh.
        const IndexSpan ps = in_range(r * c.dilation_height - c.pad_top, c.stride_height, P, H);
        for (int64_t s = 0; s < S; ++s) {
          const TapColumns &column = columns[static_cast<size_t>(s)];
          if (column.outputs.size() <= 0) continue;
          const int64_t index = ((k * cg + ci) * R + r) * S + s;
          for (int64_t n = 0; n < c.batch; ++n)
            for (int64_t p = ps.first; p < ps.last; ++p) {
              const int64_t h = p * c.stride_height - c.pad_top + r * c.dilation_height;
              acc.dot(index, grad_output + ((n * c.out_channels + k) * P + p) * Q + column.outputs.first,
                      data + ((n * c.in_channels + i) * H + h) * W + column.first_input, c.stride_width,
                      column.outputs.size());
            }
        }
      }
    }
}

/// How many products the sum of each result element of a direction has: multiplier * rows[y] * columns[x], for
/// the element whose last two coordinates are (y, x); the other coordinates do not change it.
struct TermCounts {
  int64_t multiplier = 0;
  std::vector<int64_t> rows, columns;
  int64_t at(int64_t y, int64_t x) const {
    return multiplier * rows[static_cast<size_t>(y)] * columns[static_cast<size_t>(x)];
  }
};

/// The term counts of `direction`, counted tap by tap from the definition above.
inline TermCounts term_counts(const ConvConfig &c, Direction direction) {
  const int64_t P = c.out_height(), Q = c.out_width(), H = c.in_height, W = c.in_width;
  const int64_t R = c.kernel_height, S = c.kernel_width;
  // Taps of one axis that land inside: position = out*stride - pad + tap*dilation in [0, in_size).
  auto inside = [](int64_t out, int64_t stride, int64_t pad, int64_t tap, int64_t dilation, int64_t in_size) {
    const int64_t position = out * stride - pad + tap * dilation;
    return position >= 0 && position < in_size;
  };
  auto count = [](int64_t extent, int64_t taps, auto taken) {
    std::vector<int64_t> counts(static_cast<size_t>(extent));
    for (int64_t y = 0; y < extent; ++y)
      for (int64_t t = 0; t < taps; ++t) counts[static_cast<size_t>(y)] += taken(y, t) ? 1 : 0;
    return counts;
  };
  const int64_t sh = c.stride_height, sw = c.stride_width, dh = c.dilation_height, dw = c.dilation_width;
  switch (direction) {
  case Direction::output:
    return {c.in_channels_per_group(),
            count(P, R, [&](int64_t p, int64_t r) { return inside(p, sh, c.pad_top, r, dh, H); }),
            count(Q, S, [&](int64_t q, int64_t s) { return inside(q, sw, c.pad_left, s, dw, W); })};
  case Direction::grad_data: {
    // Input row h is read by tap r of output row p when h = p*sh - pt + r*dh.
    auto reads = [](int64_t in, int64_t tap, int64_t stride, int64_t pad, int64_t dilation, int64_t out_size) {
      const int64_t scaled = in + pad - tap * dilation;
      return scaled >= 0 && scaled % stride == 0 && scaled / stride < out_size;
    };
    return {c.out_channels_per_group(),
            count(H, R, [&](int64_t h, int64_t r) { return reads(h, r, sh, c.pad_top, dh, P); }),
            count(W, S, [&](int64_t w, int64_t s) { return reads(w, s, sw, c.pad_left, dw, Q); })};
  }
  case Direction::grad_weight: break;
  }
  return {c.batch, count(R, P, [&](int64_t r, int64_t p) { return inside(p, sh, c.pad_top, r, dh, H); }),
          count(S, Q, [&](int64_t s, int64_t q) { return inside(q, sw, c.pad_left, s, dw, W); })};
}

} // namespace convcheck
