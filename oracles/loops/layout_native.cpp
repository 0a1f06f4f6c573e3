// Layout-converted strategies: `nhwc_hwio`, `nhwc_ohwi`, `nchw_hwio` always compute in their named layouts
// (TVM's and TensorFlow's NHWC/HWIO, oneDNN's channels-last "ohwi", and a weight-only conversion), and `layout`
// computes in the layouts the case asks for (problem.data_layout, problem.weight_layout), so the generator's
// layout variation reaches an implementation that honours it. The names are the 2-D spellings; every rank runs
// in the same kind of layout (NWC/WIO for 1-D, NDHWC/DHWIO for 3-D).
//
// The loops are the definition of core/numerics/naive_loops.hpp, over three spatial axes (z, y, x) with kernel
// taps (t, r, s) and, per axis, position = o*stride - pad_begin + tap*dilation:
//   output[n,k,o]      = sum_{t,r,s,c} data[n, g*C/G + c, position(o, tap)] * weight[k,c,t,r,s]
//   grad_data[n,i,h]   = sum_{t,r,s,k in group of i, h = position(o, tap)}
//                            grad_output[n,k,o] * weight[k, i - g*C/G, tap]                     (gather form)
//   grad_weight[k,c,t] = sum_{n,o} grad_output[n,k,o] * data[n, g*C/G + c, position(o, tap)]
// but with every element addressed in its held layout (DataOffset, WeightOffset below) and the loops ordered as a
// channels-last kernel orders them (TVM's topi conv2d_nhwc: output pixel outer, channel innermost), so they also
// sum in a different order from the reference and exercise the error bound. A problem of rank 1 or 2 has unit
// outer axes (core/problem/problem.hpp): the same bytes as its 3-D form, so one loop nest serves every rank, and a
// unit axis costs one pass of an outer loop per pixel. Negative padding (a crop) needs nothing special: taps whose
// position falls outside the input are skipped whichever side of it they fall.

#include "oracles/loops/layout_native.hpp"

#include <algorithm>
#include <cassert>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/numerics/naive_loops.hpp"
#include "core/problem/extents.hpp"
#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/index_span.hpp"
#include "core/tensor/layout.hpp"

namespace convcheck {

namespace {

/// Offset of element (n, c, z, y, x) of a data-shaped buffer (data, grad_data, output, grad_output) held in L.
template <DataLayout L> struct DataOffset {
  int64_t channels, depth, height, width;
  int64_t operator()(int64_t n, int64_t c, int64_t z, int64_t y, int64_t x) const {
    if constexpr (L == DataLayout::nxc) return (((n * depth + z) * height + y) * width + x) * channels + c; // NDHWC
    else return (((n * channels + c) * depth + z) * height + y) * width + x;                                 // NCDHW
  }
  /// How far apart neighbouring channels and neighbouring columns lie in L.
  int64_t channel_step() const { return (*this)(0, 1, 0, 0, 0); }
  int64_t column_step() const { return (*this)(0, 0, 0, 0, 1); }
};

/// Offset of element (k, c, t, r, s) of a weight-shaped buffer (weight, grad_weight) held in L; c is within the
/// group.
template <WeightLayout L> struct WeightOffset {
  int64_t out_channels, in_per_group, kernel_depth, kernel_height, kernel_width;
  int64_t operator()(int64_t k, int64_t c, int64_t t, int64_t r, int64_t s) const {
    const int64_t tap = (t * kernel_height + r) * kernel_width + s;
    if constexpr (L == WeightLayout::xio) return (tap * in_per_group + c) * out_channels + k; // DHWIO
    else if constexpr (L == WeightLayout::oxi) return (k * kernel_volume() + tap) * in_per_group + c; // ODHWI
    else return (k * in_per_group + c) * kernel_volume() + tap;                                      // OIDHW
  }
  int64_t kernel_volume() const { return kernel_depth * kernel_height * kernel_width; }
  /// How far apart neighbouring output and neighbouring input channels lie in L.
  int64_t out_step() const { return (*this)(1, 0, 0, 0, 0); }
  int64_t in_step() const { return (*this)(0, 1, 0, 0, 0); }
  /// How far apart neighbouring kernel columns lie in L.
  int64_t column_step() const { return (*this)(0, 0, 0, 0, 1); }
};

/// One problem's geometry, read once (SpatialAxis computes out() on every call), and the three addressings:
/// input-data-shaped, output-shaped and weight-shaped buffers.
template <DataLayout DL, WeightLayout WL> struct Geometry : Extents {
  explicit Geometry(const Problem &c)
      : Extents(c), depth(c.depth()), height(c.height()), width(c.width()), data{C, D, H, W}, output{K, OD, P, Q},
        weight{K, cg, T, R, S} {}
  SpatialAxis depth, height, width;
  DataOffset<DL> data, output;
  WeightOffset<WL> weight;
};

/// The output positions o of `axis` whose tap `tap` reads inside the input: 0 <= o*stride - pad + tap*dilation < in.
IndexSpan outputs_reading(const SpatialAxis &axis, int64_t outputs, int64_t tap) {
  return in_range(tap * axis.dilation - axis.pad_begin, axis.stride, outputs, axis.in);
}

// Per element, the products are summed t, r and s outer, channels innermost, as channels-last kernels sum. Like
// those kernels, the loops keep every channel of a pixel in flight together (`sums`): each element still adds its
// products one by one in that order, but the additions of different channels are independent, so they overlap,
// and the loop over channels is long even when groups are small (depthwise). A channel's group decides which
// channels of the other tensor it reads (`grouped_axpy`). Which taps are in range depends on one coordinate each,
// so it is worked out per plane, row and column (core/tensor/index_span.hpp).

/// One product for every channel in flight: for each group j < `groups` and each of its `per_group` channels t,
///   sums[j*per_group + t] += x[j*x_group_step] * y[j*y_group_step + t*y_step]
/// where x is the other tensor's value the whole group shares. When the group's channels lie next to each other in
/// y (y_step 1), the loop over them is contiguous and vectorizes; each sum still gets exactly one product. Inlined:
/// on small configs a call per tap and channel costs more than the products.
template <class T>
[[gnu::always_inline]] inline void grouped_axpy(T *sums, int64_t groups, int64_t per_group, const T *x,
                                                int64_t x_group_step, const T *y, int64_t y_group_step,
                                                int64_t y_step) {
  if (per_group == 1) {
    for (int64_t j = 0; j < groups; ++j) sums[j] += x[j * x_group_step] * y[j * y_group_step];
    return;
  }
  for (int64_t j = 0; j < groups; ++j, sums += per_group) {
    const T shared = x[j * x_group_step];
    const T *row = y + j * y_group_step;
    if (y_step == 1) {
#pragma omp simd // t indexes different sums
      for (int64_t t = 0; t < per_group; ++t) sums[t] += shared * row[t];
    } else {
      for (int64_t t = 0; t < per_group; ++t) sums[t] += shared * row[t * y_step];
    }
  }
}

// output[n, k, o] for all k of a pixel: sums[k] += data[n, group(k)*C/G + ci, position] * weight[k, ci, t, r, s].
template <class T, DataLayout DL, WeightLayout WL>
void forward_loops(const Problem &c, const T *data, const T *weight, T *output) {
  const Geometry<DL, WL> g(c);
  const int64_t data_step = g.data.channel_step(), in_step = g.weight.in_step(), out_step = g.weight.out_step();
  const int64_t result_step = g.output.channel_step(), groups = g.K / g.kg;
  const int64_t pixel_step = g.data.column_step() * g.width.dilation, tap_step = g.weight.column_step();
  std::vector<T> sums(static_cast<size_t>(g.K));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t od = 0; od < g.OD; ++od) {
      const AxisTaps planes = taps_at(g.depth, od);
      for (int64_t p = 0; p < g.P; ++p) {
        const AxisTaps rows = taps_at(g.height, p);
        for (int64_t q = 0; q < g.Q; ++q) {
          const AxisTaps columns = taps_at(g.width, q);
          std::fill(sums.begin(), sums.end(), T{0});
          for (int64_t t = planes.taps.first; t < planes.taps.last; ++t)
            for (int64_t r = rows.taps.first; r < rows.taps.last; ++r) {
              // Where the first tap inside and its kernel column lie (indices: with no tap inside, the first would
              // lie outside); each next tap is a step further in both.
              const int64_t first_pixel = g.data(n, 0, planes.origin + t * g.depth.dilation,
                                                 rows.origin + r * g.height.dilation,
                                                 columns.origin + columns.taps.first * g.width.dilation);
              const int64_t first_taps = g.weight(0, 0, t, r, columns.taps.first);
              for (int64_t j = 0; j < columns.taps.size(); ++j) {
                const T *pixel = data + (first_pixel + j * pixel_step), *taps = weight + (first_taps + j * tap_step);
                for (int64_t ci = 0; ci < g.cg; ++ci)
                  grouped_axpy(sums.data(), groups, g.kg, pixel + ci * data_step, g.cg * data_step,
                               taps + ci * in_step, g.kg * out_step, out_step);
              }
            }
          T *result = output + g.output(n, 0, od, p, q);
          for (int64_t k = 0; k < g.K; ++k) result[k * result_step] = sums[static_cast<size_t>(k)];
        }
      }
    }
}

// grad_data[n, i, z, y, x] for all i of a pixel: sums[i] += grad_output[n, group(i)*K/G + kk, o] *
// weight[group(i)*K/G + kk, i % (C/G), t, r, s], over the (tap, o) pairs of each axis that read the pixel.
template <class T, DataLayout DL, WeightLayout WL>
void grad_data_loops(const Problem &c, const T *grad_output, const T *weight, T *grad_data) {
  const Geometry<DL, WL> g(c);
  const int64_t grad_step = g.output.channel_step(), in_step = g.weight.in_step(), out_step = g.weight.out_step();
  const int64_t result_step = g.data.channel_step(), groups = g.C / g.cg;
  const int64_t grad_column_step = g.output.column_step(), tap_step = g.weight.column_step();
  const TapReaders planes = tap_readers_of(g.depth), rows = tap_readers_of(g.height);
  const TapReaders columns = tap_readers_of(g.width);
  std::vector<T> sums(static_cast<size_t>(g.C));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t z = 0; z < g.depth.in; ++z)
      for (int64_t y = 0; y < g.height.in; ++y)
        for (int64_t x = 0; x < g.width.in; ++x) {
          std::fill(sums.begin(), sums.end(), T{0});
          for (const auto &[t, od] : planes.of(z))
            for (const auto &[r, p] : rows.of(y)) {
              const T *grad_row = grad_output + g.output(n, 0, od, p, 0);
              const T *kernel_row = weight + g.weight(0, 0, t, r, 0);
              for (const auto &[s, q] : columns.of(x)) {
                const T *pixel = grad_row + q * grad_column_step, *taps = kernel_row + s * tap_step;
                for (int64_t kk = 0; kk < g.kg; ++kk)
                  grouped_axpy(sums.data(), groups, g.cg, pixel + kk * grad_step, g.kg * grad_step,
                               taps + kk * out_step, g.kg * out_step, in_step);
              }
            }
          T *result = grad_data + g.data(n, 0, z, y, x);
          for (int64_t i = 0; i < g.C; ++i) result[i * result_step] = sums[static_cast<size_t>(i)];
        }
}

// grad_weight[k, ci, t, r, s] for all k: sums[k] += data[n, group(k)*C/G + ci, position] * grad_output[n, k, o],
// over (n, od, p, q) in order.
template <class T, DataLayout DL, WeightLayout WL>
void grad_weight_loops(const Problem &c, const T *grad_output, const T *data, T *grad_weight) {
  const Geometry<DL, WL> g(c);
  const int64_t grad_step = g.output.channel_step(), data_step = g.data.channel_step();
  const int64_t result_step = g.weight.out_step(), groups = g.K / g.kg;
  const int64_t grad_column_step = g.output.column_step(), x_step = g.data.column_step() * g.width.stride;
  const SpatialAxis &dd = g.depth, &hh = g.height, &ww = g.width;
  std::vector<T> sums(static_cast<size_t>(g.K));
  for (int64_t t = 0; t < dd.kernel; ++t) {
    const IndexSpan planes = outputs_reading(dd, g.OD, t);
    for (int64_t r = 0; r < hh.kernel; ++r) {
      const IndexSpan rows = outputs_reading(hh, g.P, r);
      for (int64_t s = 0; s < ww.kernel; ++s) {
        const IndexSpan columns = outputs_reading(ww, g.Q, s);
        for (int64_t ci = 0; ci < g.cg; ++ci) {
          std::fill(sums.begin(), sums.end(), T{0});
          for (int64_t n = 0; n < g.N; ++n)
            for (int64_t od = planes.first; od < planes.last; ++od)
              for (int64_t p = rows.first; p < rows.last; ++p) {
                // The first output column whose tap s is inside and the input column it reads (indices: with none
                // inside, they would lie outside); each next column is a step further in both.
                const int64_t first_x = g.data(n, ci, od * dd.stride - dd.pad_begin + t * dd.dilation,
                                               p * hh.stride - hh.pad_begin + r * hh.dilation,
                                               columns.first * ww.stride - ww.pad_begin + s * ww.dilation);
                const int64_t first_grad = g.output(n, 0, od, p, columns.first);
                for (int64_t j = 0; j < columns.size(); ++j)
                  grouped_axpy(sums.data(), groups, g.kg, data + (first_x + j * x_step), g.cg * data_step,
                               grad_output + (first_grad + j * grad_column_step), g.kg * grad_step, grad_step);
              }
          T *result = grad_weight + g.weight(0, ci, t, r, s);
          for (int64_t k = 0; k < g.K; ++k) result[k * result_step] = sums[static_cast<size_t>(k)];
        }
      }
    }
  }
}

template <DataLayout L> using DataTag = std::integral_constant<DataLayout, L>;
template <WeightLayout L> using WeightTag = std::integral_constant<WeightLayout, L>;

/// Calls f(DataTag, WeightTag) with the runtime layouts lifted to compile time, so each loop nest is compiled
/// with its own index arithmetic rather than branching on the layout per element.
template <class F> void with_layouts(DataLayout data_layout, WeightLayout weight_layout, F &&f) {
  auto with_weight = [&](auto data_tag) {
    switch (weight_layout) {
    case WeightLayout::xio: return f(data_tag, WeightTag<WeightLayout::xio>{});
    case WeightLayout::oxi: return f(data_tag, WeightTag<WeightLayout::oxi>{});
    case WeightLayout::oix: return f(data_tag, WeightTag<WeightLayout::oix>{});
    }
  };
  if (data_layout == DataLayout::nxc) with_weight(DataTag<DataLayout::nxc>{});
  else with_weight(DataTag<DataLayout::ncx>{});
}

template <class T>
Tensor held_result_typed(const Problem &config, const HeldInputs &in, Direction direction, const Shape &shape) {
  Tensor result = Tensor::uninitialized(result_dtype(config, direction), shape); // the loops write every element
  T *out = result.data<T>();
  with_layouts(in.data_layout, in.weight_layout, [&](auto data_tag, auto weight_tag) {
    constexpr DataLayout DL = decltype(data_tag)::value;
    constexpr WeightLayout WL = decltype(weight_tag)::value;
    switch (direction) {
    case Direction::output:
      forward_loops<T, DL, WL>(config, in.data.data<T>(), in.weight.data<T>(), out);
      break;
    case Direction::grad_data:
      grad_data_loops<T, DL, WL>(config, in.grad_output.data<T>(), in.weight.data<T>(), out);
      break;
    case Direction::grad_weight:
      grad_weight_loops<T, DL, WL>(config, in.grad_output.data<T>(), in.data.data<T>(), out);
      break;
    }
  });
  return result;
}

// Only the inputs the direction reads are transformed, as a converted graph transforms only its live edges.
HeldInputs hold(const Case &c, Direction direction, DataLayout data_layout, WeightLayout weight_layout) {
  HeldInputs held{data_layout, weight_layout, {}, {}, {}};
  if (direction != Direction::grad_data) held.data = to_data_layout(c[Role::data], data_layout);
  if (direction != Direction::grad_weight) held.weight = to_weight_layout(c[Role::weight], weight_layout);
  if (direction != Direction::output) held.grad_output = to_data_layout(c[Role::grad_output], data_layout);
  return held;
}

/// "NWC/NHWC/NDHWC": a layout kind in every rank it is spelled for.
template <class Layout> std::string every_rank(Layout layout) {
  return fmt::format("{}/{}/{}", to_string(layout, 1), to_string(layout, 2), to_string(layout, 3));
}

const Support every_rank_support{.ops = {Op::conv, Op::deconv},
                                 .ranks = {1, 2, 3},
                                 .dtypes = {DType::float32, DType::float64},
                                 .precisions = mixed_precisions(),

                                 .data_layouts = every_data_layout,
                                 .weight_layouts = every_weight_layout, .crops = true};

Strategy converted(const char *name, DataLayout data_layout, WeightLayout weight_layout) {
  return Strategy{
      .name = name,
      .description = fmt::format("{} data, {} weight: inputs layout-transformed, loops indexing those layouts, "
                                 "result transformed back; ranks 1-3, crops, all directions",
                                 every_rank(data_layout), every_rank(weight_layout)),
      .supports = every_rank_support,
      .run = any_op([data_layout, weight_layout](const Case &c, Direction direction) {
        return layout_converted_result(c, direction, data_layout, weight_layout);
      }),
      .implementation = nullptr,
      .cost_planned = true, // scalar loops: at size a share of cases (core/run/cost_plan.hpp)
  };
}

const Registration nhwc_hwio{converted("nhwc_hwio", DataLayout::nxc, WeightLayout::xio)};
const Registration nhwc_ohwi{converted("nhwc_ohwi", DataLayout::nxc, WeightLayout::oxi)};
const Registration nchw_hwio{converted("nchw_hwio", DataLayout::ncx, WeightLayout::xio)};
const Registration case_layouts{{
    .name = "layout",
    .description = "the case's own data_layout and weight_layout: inputs layout-transformed, loops indexing those "
                   "layouts, result transformed back; ranks 1-3, crops, all directions",
    .supports = every_rank_support,
    .unsupported = nullptr,
    .run = any_op([](const Case &c, Direction direction) {
      return layout_converted_result(c, direction, c.problem.data_layout, c.problem.weight_layout);
    }),
    .implementation = nullptr,
    .cost_planned = true,
}};

} // namespace

Tensor held_layout_result(const Problem &config, const HeldInputs &inputs, Direction direction) {
  if (!config.precision.single()) { // stored values widened to the accumulation format, the result rounded once
    const DType acc = config.precision.acc;
    const auto widen = [acc](const Tensor &t) { return t.empty() || t.dtype() == acc ? t.clone() : t.cast(acc); };
    Problem uniform = config;
    uniform.precision = Precision::uniform(acc);
    const HeldInputs widened{inputs.data_layout, inputs.weight_layout, widen(inputs.data), widen(inputs.weight),
                             widen(inputs.grad_output)};
    return held_layout_result(uniform, widened, direction).cast(result_dtype(config, direction));
  }
  const Shape canonical = result_shape(config, direction);
  const Shape shape = direction == Direction::grad_weight ? weight_shape_in(canonical, inputs.weight_layout)
                                                          : data_shape_in(canonical, inputs.data_layout);
  // The loops trust the shapes; a held input of the wrong shape is a programming error, not a finding.
  assert(direction == Direction::grad_data ||
         inputs.data.shape() == data_shape_in(config.data_shape(), inputs.data_layout));
  assert(direction == Direction::grad_weight ||
         inputs.weight.shape() == weight_shape_in(config.weight_shape(), inputs.weight_layout));
  assert(direction == Direction::output ||
         inputs.grad_output.shape() == data_shape_in(config.output_shape(), inputs.data_layout));
  return with_compute_type(config.precision.acc, [&](auto zero) {
    return held_result_typed<decltype(zero)>(config, inputs, direction, shape);
  });
}

Tensor layout_converted_result(const Case &conv_case, Direction direction, DataLayout data_layout,
                               WeightLayout weight_layout) {
  const Tensor held = held_layout_result(conv_case.problem, hold(conv_case, direction, data_layout, weight_layout),
                                         direction);
  return direction == Direction::grad_weight ? from_weight_layout(held, weight_layout)
                                             : from_data_layout(held, data_layout);
}

} // namespace convcheck
