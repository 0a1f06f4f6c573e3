// Layout-converted strategies: `nhwc_hwio`, `nhwc_ohwi`, `nchw_hwio` always compute in their named layouts
// (TVM's and TensorFlow's NHWC/HWIO, oneDNN's channels-last "ohwi", and a weight-only conversion), and `layout`
// computes in the layouts the case asks for (config.data_layout, config.weight_layout), so the generator's layout
// variation reaches an implementation that honours it.
//
// The loops are the definition of core/numerics/naive_loops.hpp,
//   output[n,k,p,q]      = sum_{r,s,c} data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s]
//   grad_data[n,i,h,w]   = sum_{r,s,k in group of i, h = p*sh - pt + r*dh, w = q*sw - pl + s*dw}
//                              grad_output[n,k,p,q] * weight[k, i - g*C/G, r, s]          (gather form)
//   grad_weight[k,c,r,s] = sum_{n,p,q} grad_output[n,k,p,q] * data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw]
// but with every element addressed in its held layout (DataOffset, WeightOffset below) and the loops ordered as a
// channels-last kernel orders them (TVM's topi conv2d_nhwc: output pixel outer, channel innermost), so they also
// sum in a different order from the reference and exercise the error bound.

#include "oracles/layout_native.hpp"

#include <algorithm>
#include <cassert>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/tensor/layout.hpp"
#include "core/tensor/index_span.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

namespace {

/// Offset of element (n, c, h, w) of a data-shaped buffer (data, grad_data, output, grad_output) held in L.
template <DataLayout L> struct DataOffset {
  int64_t channels, height, width;
  int64_t operator()(int64_t n, int64_t c, int64_t h, int64_t w) const {
    if constexpr (L == DataLayout::nxc) return ((n * height + h) * width + w) * channels + c; // [N, H, W, C]
    else return ((n * channels + c) * height + h) * width + w;                                  // [N, C, H, W]
  }
  /// How far apart neighbouring channels and neighbouring columns lie in L.
  int64_t channel_step() const { return (*this)(0, 1, 0, 0); }
  int64_t column_step() const { return (*this)(0, 0, 0, 1); }
};

/// Offset of element (k, c, r, s) of a weight-shaped buffer (weight, grad_weight) held in L; c is within the group.
template <WeightLayout L> struct WeightOffset {
  int64_t out_channels, in_per_group, kernel_height, kernel_width;
  int64_t operator()(int64_t k, int64_t c, int64_t r, int64_t s) const {
    if constexpr (L == WeightLayout::xio) return ((r * kernel_width + s) * in_per_group + c) * out_channels + k;
    else if constexpr (L == WeightLayout::oxi) return ((k * kernel_height + r) * kernel_width + s) * in_per_group + c;
    else return ((k * in_per_group + c) * kernel_height + r) * kernel_width + s;
  }
  /// How far apart neighbouring output and neighbouring input channels lie in L.
  int64_t out_step() const { return (*this)(1, 0, 0, 0); }
  int64_t in_step() const { return (*this)(0, 1, 0, 0); }
};

/// One config's geometry, read once (Problem computes P and Q on every call), and the three addressings:
/// input-data-shaped, output-shaped and weight-shaped buffers.
template <DataLayout DL, WeightLayout WL> struct Geometry {
  explicit Geometry(const Problem &c)
      : N(c.batch), C(c.in_channels), K(c.out_channels), H(c.height().in), W(c.width().in), P(c.height().out()),
        Q(c.width().out()), R(c.height().kernel), S(c.width().kernel), cg(c.in_channels_per_group()),
        kg(c.out_channels_per_group()), sh(c.height().stride), sw(c.width().stride), dh(c.height().dilation),
        dw(c.width().dilation), pt(c.height().pad_begin), pl(c.width().pad_begin), data{C, H, W}, output{K, P, Q}, weight{K, cg, R, S} {}
  int64_t N, C, K, H, W, P, Q, R, S, cg, kg, sh, sw, dh, dw, pt, pl;
  DataOffset<DL> data, output;
  WeightOffset<WL> weight;
};

// Per element, the products are summed r and s outer, channels innermost, as channels-last kernels sum. Like those
// kernels, the loops keep every channel of a pixel in flight together (`sums`): each element still adds its
// products one by one in that order, but the additions of different channels are independent, so they overlap,
// and the loop over channels is long even when groups are small (depthwise). A channel's group decides which
// channels of the other tensor it reads (`grouped_axpy`). Which taps are in range depends on one coordinate each,
// so it is worked out per row and per column (core/tensor/index_span.hpp).

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

// output[n, k, p, q] for all k of a pixel: sums[k] += data[n, group(k)*C/G + ci, h, w] * weight[k, ci, r, s].
template <class T, DataLayout DL, WeightLayout WL>
void forward_loops(const Problem &c, const T *data, const T *weight, T *output) {
  const Geometry<DL, WL> g(c);
  const int64_t data_step = g.data.channel_step(), in_step = g.weight.in_step(), out_step = g.weight.out_step();
  const int64_t result_step = g.output.channel_step(), groups = g.K / g.kg;
  std::vector<T> sums(static_cast<size_t>(g.K));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t p = 0; p < g.P; ++p) {
      const IndexSpan rows = in_range(p * g.sh - g.pt, g.dh, g.R, g.H);
      for (int64_t q = 0; q < g.Q; ++q) {
        const IndexSpan columns = in_range(q * g.sw - g.pl, g.dw, g.S, g.W);
        std::fill(sums.begin(), sums.end(), T{0});
        for (int64_t r = rows.first; r < rows.last; ++r)
          for (int64_t s = columns.first; s < columns.last; ++s) {
            const T *pixel = data + g.data(n, 0, p * g.sh - g.pt + r * g.dh, q * g.sw - g.pl + s * g.dw);
            const T *taps = weight + g.weight(0, 0, r, s);
            for (int64_t ci = 0; ci < g.cg; ++ci)
              grouped_axpy(sums.data(), groups, g.kg, pixel + ci * data_step, g.cg * data_step, taps + ci * in_step,
                           g.kg * out_step, out_step);
          }
        T *result = output + g.output(n, 0, p, q);
        for (int64_t k = 0; k < g.K; ++k) result[k * result_step] = sums[static_cast<size_t>(k)];
      }
    }
}

// grad_data[n, i, h, w] for all i of a pixel: sums[i] += grad_output[n, group(i)*K/G + kk, p, q] * weight[group(i)*K/G
// + kk, i % (C/G), r, s], over the (r, p) and (s, q) that read (h, w).
template <class T, DataLayout DL, WeightLayout WL>
void grad_data_loops(const Problem &c, const T *grad_output, const T *weight, T *grad_data) {
  const Geometry<DL, WL> g(c);
  const int64_t grad_step = g.output.channel_step(), in_step = g.weight.in_step(), out_step = g.weight.out_step();
  const int64_t result_step = g.data.channel_step();
  const TapReaders rows = tap_readers(g.H, g.R, g.P, g.sh, g.pt, g.dh);
  const TapReaders columns = tap_readers(g.W, g.S, g.Q, g.sw, g.pl, g.dw);
  const int64_t groups = g.C / g.cg;
  std::vector<T> sums(static_cast<size_t>(g.C));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t h = 0; h < g.H; ++h)
      for (int64_t w = 0; w < g.W; ++w) {
        std::fill(sums.begin(), sums.end(), T{0});
        for (int64_t a = rows.starts[static_cast<size_t>(h)]; a < rows.starts[static_cast<size_t>(h + 1)]; ++a) {
          const auto [r, p] = rows.pairs[static_cast<size_t>(a)];
          const int64_t first_column = columns.starts[static_cast<size_t>(w)];
          for (int64_t b = first_column; b < columns.starts[static_cast<size_t>(w + 1)]; ++b) {
            const auto [s, q] = columns.pairs[static_cast<size_t>(b)];
            const T *pixel = grad_output + g.output(n, 0, p, q), *taps = weight + g.weight(0, 0, r, s);
            for (int64_t kk = 0; kk < g.kg; ++kk)
              grouped_axpy(sums.data(), groups, g.cg, pixel + kk * grad_step, g.kg * grad_step, taps + kk * out_step,
                           g.kg * out_step, in_step);
          }
        }
        T *result = grad_data + g.data(n, 0, h, w);
        for (int64_t i = 0; i < g.C; ++i) result[i * result_step] = sums[static_cast<size_t>(i)];
      }
}

// grad_weight[k, ci, r, s] for all k: sums[k] += data[n, group(k)*C/G + ci, h, w] * grad_output[n, k, p, q], over
// (n, p, q) in order.
template <class T, DataLayout DL, WeightLayout WL>
void grad_weight_loops(const Problem &c, const T *grad_output, const T *data, T *grad_weight) {
  const Geometry<DL, WL> g(c);
  const int64_t grad_step = g.output.channel_step(), data_step = g.data.channel_step();
  const int64_t result_step = g.weight.out_step(), groups = g.K / g.kg;
  std::vector<T> sums(static_cast<size_t>(g.K));
  for (int64_t r = 0; r < g.R; ++r) {
    const IndexSpan rows = in_range(r * g.dh - g.pt, g.sh, g.P, g.H); // output rows p whose tap r is inside
    for (int64_t s = 0; s < g.S; ++s) {
      const IndexSpan columns = in_range(s * g.dw - g.pl, g.sw, g.Q, g.W);
      for (int64_t ci = 0; ci < g.cg; ++ci) {
        std::fill(sums.begin(), sums.end(), T{0});
        for (int64_t n = 0; n < g.N; ++n)
          for (int64_t p = rows.first; p < rows.last; ++p)
            for (int64_t q = columns.first; q < columns.last; ++q) {
              const T *x = data + g.data(n, ci, p * g.sh - g.pt + r * g.dh, q * g.sw - g.pl + s * g.dw);
              grouped_axpy(sums.data(), groups, g.kg, x, g.cg * data_step, grad_output + g.output(n, 0, p, q),
                           g.kg * grad_step, grad_step);
            }
        T *result = grad_weight + g.weight(0, ci, r, s);
        for (int64_t k = 0; k < g.K; ++k) result[k * result_step] = sums[static_cast<size_t>(k)];
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
  Tensor result(result_dtype(config, direction), shape);
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

Strategy converted(const char *name, DataLayout data_layout, WeightLayout weight_layout) {
  return Strategy{
      .name = name,
      .description = fmt::format("{} data, {} weight: inputs layout-transformed, loops indexing those layouts, "
                                 "result transformed back; all configs, all directions",
                                 to_string(data_layout, 2), to_string(weight_layout, 2)),
      .supports = {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32, DType::float64}, .crops = true},
      .run = [data_layout, weight_layout](const Case &c, Direction direction) {
        return layout_converted_result(c, direction, data_layout, weight_layout);
      },
      .implementation = nullptr,
  };
}

const Registration nhwc_hwio{converted("nhwc_hwio", DataLayout::nxc, WeightLayout::xio)};
const Registration nhwc_ohwi{converted("nhwc_ohwi", DataLayout::nxc, WeightLayout::oxi)};
const Registration nchw_hwio{converted("nchw_hwio", DataLayout::ncx, WeightLayout::xio)};
const Registration case_layouts{{
    .name = "layout",
    .description = "the case's own data_layout and weight_layout: inputs layout-transformed, loops indexing those "
                   "layouts, result transformed back; all configs, all directions",
    .supports = {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32, DType::float64}, .crops = true},
    .unsupported = nullptr,
    .run =
        [](const Case &c, Direction direction) {
          return layout_converted_result(c, direction, c.problem.data_layout, c.problem.weight_layout);
        },
    .implementation = nullptr,
}};

} // namespace

Tensor held_layout_result(const Problem &config, const HeldInputs &inputs, Direction direction) {
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
  return config.precision.acc == DType::float32 ? held_result_typed<float>(config, inputs, direction, shape)
                                        : held_result_typed<double>(config, inputs, direction, shape);
}

Tensor layout_converted_result(const Case &conv_case, Direction direction, DataLayout data_layout,
                               WeightLayout weight_layout) {
  const Tensor held = held_layout_result(conv_case.problem, hold(conv_case, direction, data_layout, weight_layout),
                                         direction);
  return direction == Direction::grad_weight ? from_weight_layout(held, weight_layout)
                                             : from_data_layout(held, data_layout);
}

} // namespace convcheck
