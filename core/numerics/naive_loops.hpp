#pragma once
// The convolution written directly from its definition, one loop nest per direction, over three spatial axes
// (D, H, W; a problem of lower rank has unit outer axes, which change nothing: core/problem/problem.hpp). Both
// the double reference (core/numerics/reference.cpp, which also sums |products| for the error bound) and the
// `naive` strategy (in the case's format) instantiate these, so there is one definition to read. With
// x = (z, y, x) an output position, t = (t, r, s) a kernel tap, and per axis position = out*stride - pad_begin +
// tap*dilation:
//
//   output[n,k,o]      = sum_{c,t} data[n, g*C/G + c, o*stride - pad + t*dilation] * weight[k,c,t]
//   grad_data[n,i,h]   = sum over (k in group of i, t) with h = o*stride - pad + t*dilation for some in-range o
//                        of grad_output[n,k,o] * weight[k, i - g*C/G, t]
//   grad_weight[k,c,t] = sum_{n,o} grad_output[n,k,o] * data[n, g*C/G + c, o*stride - pad + t*dilation]
//
// where g = k / (K/G). Taps that fall outside the input (in the padding, or cropped away by a negative padding)
// contribute nothing and are not counted as terms.
//
// Every element receives its products in the order of its sum as written: (c, t, r, s) for output, (k, t, r, s)
// for grad_data, (n, o) for grad_weight; so an accumulator that adds them one by one rounds exactly as a loop per
// element would. Only the loops AROUND the elements are arranged for speed: the innermost loop runs along a row
// of elements (output and grad_data) or along the sum itself (grad_weight), and which taps are in range is worked
// out once per row (`in_range`, and for grad_data the taps that read each input row, `tap_readers`) instead of
// being tested per tap.
//
// `Acc` receives the products, starting from a zero result:
//   acc.axpy(first, result_stride, x, x_stride, w, count):  result[first + j*result_stride] += x[j*x_stride] * w
//   acc.dot(index, x, y, y_stride, count):                  result[index] += x[j] * y[j*y_stride]
// for j = 0 .. count-1 in increasing order.

#include <cstdint>
#include <vector>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"
#include "core/tensor/index_span.hpp"

namespace convcheck {

/// For one kernel column s, the output columns q whose tap s reads inside the input row (w = q*sw - pl + s*dw),
/// and the input column the first of them reads.
struct TapColumns {
  IndexSpan outputs;
  int64_t first_input = 0;
};

inline std::vector<TapColumns> output_columns_per_tap(const Problem &p) {
  const SpatialAxis &w = p.width();
  std::vector<TapColumns> columns(static_cast<size_t>(w.kernel));
  for (int64_t s = 0; s < w.kernel; ++s) {
    const IndexSpan qs = in_range(s * w.dilation - w.pad_begin, w.stride, w.out(), w.in);
    columns[static_cast<size_t>(s)] = {qs, qs.first * w.stride - w.pad_begin + s * w.dilation};
  }
  return columns;
}

/// For each input position of `axis`, the (tap, output position) pairs that read it, in tap order
/// (core/tensor/index_span.hpp).
inline TapReaders tap_readers_of(const SpatialAxis &axis) {
  return tap_readers(axis.in, axis.kernel, axis.out(), axis.stride, axis.pad_begin, axis.dilation);
}

/// The taps of `axis` whose input position o*stride - pad_begin + tap*dilation lies inside the input, for output
/// position `o`, and the input position of tap 0 (which may lie outside).
struct AxisTaps {
  int64_t origin;
  IndexSpan taps;
};
inline AxisTaps taps_at(const SpatialAxis &axis, int64_t o) {
  const int64_t origin = o * axis.stride - axis.pad_begin;
  return {origin, in_range(origin, axis.dilation, axis.kernel, axis.in)};
}

/// For input position h of `axis`, the output position whose tap `tap` reads it, or -1 when none does.
inline int64_t output_reading(const SpatialAxis &axis, int64_t h, int64_t tap) {
  const int64_t scaled = h + axis.pad_begin - tap * axis.dilation;
  if (scaled < 0 || scaled % axis.stride != 0 || scaled / axis.stride >= axis.out()) return -1;
  return scaled / axis.stride;
}

template <class Acc, class In> void naive_forward(const Problem &c, const In *data, const In *weight, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const SpatialAxis &dd = c.depth(), &hh = c.height(), &ww = c.width();
  const int64_t OD = dd.out(), P = hh.out(), Q = ww.out(), D = dd.in, H = hh.in, W = ww.in;
  const int64_t T = dd.kernel, R = hh.kernel, S = ww.kernel;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t k = 0; k < c.out_channels; ++k) {
      const int64_t g = k / kg;
      for (int64_t od = 0; od < OD; ++od) {
        const AxisTaps planes = taps_at(dd, od);
        for (int64_t p = 0; p < P; ++p) {
          const AxisTaps rows = taps_at(hh, p);
          const int64_t first = (((n * c.out_channels + k) * OD + od) * P + p) * Q;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t t = planes.taps.first; t < planes.taps.last; ++t)
              for (int64_t r = rows.taps.first; r < rows.taps.last; ++r) {
                const int64_t z = planes.origin + t * dd.dilation, y = rows.origin + r * hh.dilation;
                const In *input_row = data + (((n * c.in_channels + g * cg + ci) * D + z) * H + y) * W;
                const In *taps = weight + (((k * cg + ci) * T + t) * R + r) * S;
                for (int64_t s = 0; s < S; ++s) {
                  const TapColumns &column = columns[static_cast<size_t>(s)];
                  if (column.outputs.size() <= 0) continue;
                  acc.axpy(first + column.outputs.first, 1, input_row + column.first_input, ww.stride, taps[s],
                           column.outputs.size());
                }
              }
        }
      }
    }
}

template <class Acc, class In>
void naive_grad_data(const Problem &c, const In *grad_output, const In *weight, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const SpatialAxis &dd = c.depth(), &hh = c.height(), &ww = c.width();
  const int64_t OD = dd.out(), P = hh.out(), Q = ww.out(), D = dd.in, H = hh.in, W = ww.in;
  const int64_t T = dd.kernel, R = hh.kernel, S = ww.kernel;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  const TapReaders planes = tap_readers_of(dd), rows = tap_readers_of(hh); // worked out once, not per tap
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t i = 0; i < c.in_channels; ++i) {
      const int64_t g = i / cg, ci = i % cg;
      for (int64_t z = 0; z < D; ++z)
        for (int64_t h = 0; h < H; ++h) {
          const int64_t row_first = (((n * c.in_channels + i) * D + z) * H + h) * W;
          for (int64_t k = g * kg; k < (g + 1) * kg; ++k)
            for (const auto &[t, od] : planes.of(z))
              for (const auto &[r, p] : rows.of(h)) {
                const In *grad_row = grad_output + (((n * c.out_channels + k) * OD + od) * P + p) * Q;
                const In *taps = weight + (((k * cg + ci) * T + t) * R + r) * S;
                for (int64_t s = 0; s < S; ++s) {
                  const TapColumns &column = columns[static_cast<size_t>(s)];
                  if (column.outputs.size() <= 0) continue;
                  acc.axpy(row_first + column.first_input, ww.stride, grad_row + column.outputs.first, 1, taps[s],
                           column.outputs.size());
                }
              }
        }
    }
}

template <class Acc, class In>
void naive_grad_weight(const Problem &c, const In *grad_output, const In *data, Acc &acc) {
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  const SpatialAxis &dd = c.depth(), &hh = c.height(), &ww = c.width();
  const int64_t OD = dd.out(), P = hh.out(), Q = ww.out(), D = dd.in, H = hh.in, W = ww.in;
  const int64_t T = dd.kernel, R = hh.kernel, S = ww.kernel;
  const std::vector<TapColumns> columns = output_columns_per_tap(c);
  for (int64_t k = 0; k < c.out_channels; ++k)
    for (int64_t ci = 0; ci < cg; ++ci) {
      const int64_t i = (k / kg) * cg + ci;
      for (int64_t t = 0; t < T; ++t) {
        // The output planes and rows whose tap (t, r) reads inside the input.
        const IndexSpan ods = in_range(t * dd.dilation - dd.pad_begin, dd.stride, OD, D);
        for (int64_t r = 0; r < R; ++r) {
          const IndexSpan ps = in_range(r * hh.dilation - hh.pad_begin, hh.stride, P, H);
          for (int64_t s = 0; s < S; ++s) {
            const TapColumns &column = columns[static_cast<size_t>(s)];
            if (column.outputs.size() <= 0) continue;
            const int64_t index = (((k * cg + ci) * T + t) * R + r) * S + s;
            for (int64_t n = 0; n < c.batch; ++n)
              for (int64_t od = ods.first; od < ods.last; ++od) {
                const int64_t z = od * dd.stride - dd.pad_begin + t * dd.dilation;
                for (int64_t p = ps.first; p < ps.last; ++p) {
                  const int64_t h = p * hh.stride - hh.pad_begin + r * hh.dilation;
                  acc.dot(index,
                          grad_output + (((n * c.out_channels + k) * OD + od) * P + p) * Q + column.outputs.first,
                          data + (((n * c.in_channels + i) * D + z) * H + h) * W + column.first_input, ww.stride,
                          column.outputs.size());
                }
              }
          }
        }
      }
    }
}

/// How many products the sum of each result element of a direction has: multiplier * per_axis[0][z] *
/// per_axis[1][y] * per_axis[2][x] for the element whose last three (spatial) coordinates are (z, y, x); the
/// other coordinates do not change it.
struct TermCounts {
  int64_t multiplier = 0;
  std::array<std::vector<int64_t>, max_ndims> per_axis;
  int64_t at(int64_t z, int64_t y, int64_t x) const {
    return multiplier * per_axis[0][static_cast<size_t>(z)] * per_axis[1][static_cast<size_t>(y)] *
           per_axis[2][static_cast<size_t>(x)];
  }
};

/// The term counts of `direction`, counted tap by tap from the definition above.
inline TermCounts term_counts(const Problem &c, Direction direction) {
  // Taps of one axis that land inside: position = out*stride - pad + tap*dilation in [0, in).
  auto inside = [](const SpatialAxis &a, int64_t out, int64_t tap) {
    const int64_t position = out * a.stride - a.pad_begin + tap * a.dilation;
    return position >= 0 && position < a.in;
  };
  auto count = [](int64_t extent, int64_t taps, auto taken) {
    std::vector<int64_t> counts(static_cast<size_t>(extent));
    for (int64_t y = 0; y < extent; ++y)
      for (int64_t t = 0; t < taps; ++t) counts[static_cast<size_t>(y)] += taken(y, t) ? 1 : 0;
    return counts;
  };
  TermCounts terms;
  for (size_t a = 0; a < max_ndims; ++a) {
    const SpatialAxis &axis = c.axes[a];
    switch (direction) {
    case Direction::output:
      terms.per_axis[a] = count(axis.out(), axis.kernel, [&](int64_t o, int64_t t) { return inside(axis, o, t); });
      break;
    case Direction::grad_data:
      // Input position h is read by tap t of the output position output_reading(h, t).
      terms.per_axis[a] =
          count(axis.in, axis.kernel, [&](int64_t h, int64_t t) { return output_reading(axis, h, t) >= 0; });
      break;
    case Direction::grad_weight:
      terms.per_axis[a] = count(axis.kernel, axis.out(), [&](int64_t t, int64_t o) { return inside(axis, o, t); });
      break;
    }
  }
  switch (direction) {
  case Direction::output: terms.multiplier = c.in_channels_per_group(); break;
  case Direction::grad_data: terms.multiplier = c.out_channels_per_group(); break;
  case Direction::grad_weight: terms.multiplier = c.batch; break;
  }
  return terms;
}

} // namespace convcheck
