// Layout-converted strategies: `nhwc_hwio`, `nhwc_ohwi`, `nchw_hwio` always compute in their named layouts
// (TVM's and TensorFlow's NHWC/HWIO, oneDNN's channels-last "ohwi", and a weight-only conversion), and `layout`
// computes in the layouts the case asks for (config.data_layout, config.weight_layout), so the generator's layout
// variation reaches an implementation that honours it.
//
// The loops are the definition of core/naive_loops.hpp,
//   output[n,k,p,q]      = sum_{r,s,c} data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s]
//   grad_data[n,i,h,w]   = sum_{r,s,k in group of i, h = p*sh - pt + r*dh, w = q*sw - pl + s*dw}
//                              grad_output[n,k,p,q] * weight[k, i - g*C/G, r, s]          (gather form)
//   grad_weight[k,c,r,s] = sum_{n,p,q} grad_output[n,k,p,q] * data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw]
// but with every element addressed in its held layout (DataOffset, WeightOffset below) and the loops ordered as a
// channels-last kernel orders them (TVM's topi conv2d_nhwc: output pixel outer, channel innermost), so they also
// sum in a different order from the reference and exercise the error bound.

#include "oracles/layout_native.hpp"

#include <cassert>
#include <type_traits>

#include <fmt/format.h>

#include "core/layout.hpp"
#include "core/strategy.hpp"

namespace convcheck {

namespace {

/// Offset of element (n, c, h, w) of a data-shaped buffer (data, grad_data, output, grad_output) held in L.
template <DataLayout L> struct DataOffset {
  int64_t channels, height, width;
  int64_t operator()(int64_t n, int64_t c, int64_t h, int64_t w) const {
    if constexpr (L == DataLayout::nhwc) return ((n * height + h) * width + w) * channels + c; // [N, H, W, C]
    else return ((n * channels + c) * height + h) * width + w;                                  // [N, C, H, W]
  }
};

/// Offset of element (k, c, r, s) of a weight-shaped buffer (weight, grad_weight) held in L; c is within the group.
template <WeightLayout L> struct WeightOffset {
  int64_t out_channels, in_per_group, kernel_height, kernel_width;
  int64_t operator()(int64_t k, int64_t c, int64_t r, int64_t s) const {
    if constexpr (L == WeightLayout::hwio) return ((r * kernel_width + s) * in_per_group + c) * out_channels + k;
    else if constexpr (L == WeightLayout::ohwi) return ((k * kernel_height + r) * kernel_width + s) * in_per_group + c;
    else return ((k * in_per_group + c) * kernel_height + r) * kernel_width + s;
  }
};

/// The three addressings of one config: input-data-shaped, output-shaped and weight-shaped buffers.
template <DataLayout DL, WeightLayout WL> struct Offsets {
  explicit Offsets(const ConvConfig &c)
      : data{c.in_channels, c.in_height, c.in_width}, output{c.out_channels, c.out_height(), c.out_width()},
        weight{c.out_channels, c.in_channels_per_group(), c.kernel_height, c.kernel_width} {}
  DataOffset<DL> data, output;
  WeightOffset<WL> weight;
};

template <class T, DataLayout DL, WeightLayout WL>
void forward_loops(const ConvConfig &c, const T *data, const T *weight, T *output) {
  const Offsets<DL, WL> at(c);
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t p = 0; p < c.out_height(); ++p)
      for (int64_t q = 0; q < c.out_width(); ++q)
        for (int64_t k = 0; k < c.out_channels; ++k) {
          const int64_t first_channel = (k / kg) * cg;
          T sum{};
          for (int64_t r = 0; r < c.kernel_height; ++r) {
            const int64_t h = p * c.stride_height - c.pad_top + r * c.dilation_height;
            if (h < 0 || h >= c.in_height) continue;
            for (int64_t s = 0; s < c.kernel_width; ++s) {
              const int64_t w = q * c.stride_width - c.pad_left + s * c.dilation_width;
              if (w < 0 || w >= c.in_width) continue;
              for (int64_t ci = 0; ci < cg; ++ci)
                sum += data[at.data(n, first_channel + ci, h, w)] * weight[at.weight(k, ci, r, s)];
            }
          }
          output[at.output(n, k, p, q)] = sum;
        }
}

template <class T, DataLayout DL, WeightLayout WL>
void grad_data_loops(const ConvConfig &c, const T *grad_output, const T *weight, T *grad_data) {
  const Offsets<DL, WL> at(c);
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t h = 0; h < c.in_height; ++h)
      for (int64_t w = 0; w < c.in_width; ++w)
        for (int64_t i = 0; i < c.in_channels; ++i) {
          const int64_t group = i / cg, ci = i % cg;
          T sum{};
          for (int64_t r = 0; r < c.kernel_height; ++r) {
            // h = p*sh - pt + r*dh solved for p; only exact, in-range quotients are taps.
            const int64_t ph = h + c.pad_top - r * c.dilation_height;
            if (ph < 0 || ph % c.stride_height != 0 || ph / c.stride_height >= c.out_height()) continue;
            for (int64_t s = 0; s < c.kernel_width; ++s) {
              const int64_t qw = w + c.pad_left - s * c.dilation_width;
              if (qw < 0 || qw % c.stride_width != 0 || qw / c.stride_width >= c.out_width()) continue;
              const int64_t p = ph / c.stride_height, q = qw / c.stride_width;
              for (int64_t k = group * kg; k < (group + 1) * kg; ++k)
                sum += grad_output[at.output(n, k, p, q)] * weight[at.weight(k, ci, r, s)];
            }
          }
          grad_data[at.data(n, i, h, w)] = sum;
        }
}

template <class T, DataLayout DL, WeightLayout WL>
void grad_weight_loops(const ConvConfig &c, const T *grad_output, const T *data, T *grad_weight) {
  const Offsets<DL, WL> at(c);
  const int64_t cg = c.in_channels_per_group(), kg = c.out_channels_per_group();
  for (int64_t r = 0; r < c.kernel_height; ++r)
    for (int64_t s = 0; s < c.kernel_width; ++s)
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t k = 0; k < c.out_channels; ++k) {
          const int64_t i = (k / kg) * cg + ci;
          T sum{};
          for (int64_t n = 0; n < c.batch; ++n)
            for (int64_t p = 0; p < c.out_height(); ++p) {
              const int64_t h = p * c.stride_height - c.pad_top + r * c.dilation_height;
              if (h < 0 || h >= c.in_height) continue;
              for (int64_t q = 0; q < c.out_width(); ++q) {
                const int64_t w = q * c.stride_width - c.pad_left + s * c.dilation_width;
                if (w < 0 || w >= c.in_width) continue;
                sum += grad_output[at.output(n, k, p, q)] * data[at.data(n, i, h, w)];
              }
            }
          grad_weight[at.weight(k, ci, r, s)] = sum;
        }
}

template <DataLayout L> using DataTag = std::integral_constant<DataLayout, L>;
template <WeightLayout L> using WeightTag = std::integral_constant<WeightLayout, L>;

/// Calls f(DataTag, WeightTag) with the runtime layouts lifted to compile time, so each loop nest is compiled
/// with its own index arithmetic rather than branching on the layout per element.
template <class F> void with_layouts(DataLayout data_layout, WeightLayout weight_layout, F &&f) {
  auto with_weight = [&](auto data_tag) {
    switch (weight_layout) {
    case WeightLayout::hwio: return f(data_tag, WeightTag<WeightLayout::hwio>{});
    case WeightLayout::ohwi: return f(data_tag, WeightTag<WeightLayout::ohwi>{});
    case WeightLayout::oihw: return f(data_tag, WeightTag<WeightLayout::oihw>{});
    }
  };
  if (data_layout == DataLayout::nhwc) with_weight(DataTag<DataLayout::nhwc>{});
  else with_weight(DataTag<DataLayout::nchw>{});
}

template <class T>
Tensor held_result_typed(const ConvConfig &config, const HeldInputs &in, Direction direction, const Shape &shape) {
  Tensor result(config.dtype, shape);
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
HeldInputs hold(const ConvCase &c, Direction direction, DataLayout data_layout, WeightLayout weight_layout) {
  HeldInputs held{data_layout, weight_layout, {}, {}, {}};
  if (direction != Direction::grad_data) held.data = to_data_layout(c.data, data_layout);
  if (direction != Direction::grad_weight) held.weight = to_weight_layout(c.weight, weight_layout);
  if (direction != Direction::output) held.grad_output = to_data_layout(c.grad_output, data_layout);
  return held;
}

Strategy converted(const char *name, DataLayout data_layout, WeightLayout weight_layout) {
  return Strategy{
      .name = name,
      .description = fmt::format("{} data, {} weight: inputs layout-transformed, loops indexing those layouts, "
                                 "result transformed back; all configs, all directions",
                                 to_string(data_layout), to_string(weight_layout)),
      .unsupported = nullptr, // every valid config and direction runs
      .run = [data_layout, weight_layout](const ConvCase &c, Direction direction) {
        return layout_converted_result(c, direction, data_layout, weight_layout);
      },
      .implementation = nullptr,
  };
}

const Registration nhwc_hwio{converted("nhwc_hwio", DataLayout::nhwc, WeightLayout::hwio)};
const Registration nhwc_ohwi{converted("nhwc_ohwi", DataLayout::nhwc, WeightLayout::ohwi)};
const Registration nchw_hwio{converted("nchw_hwio", DataLayout::nchw, WeightLayout::hwio)};
const Registration case_layouts{{
    .name = "layout",
    .description = "the case's own data_layout and weight_layout: inputs layout-transformed, loops indexing those "
                   "layouts, result transformed back; all configs, all directions",
    .unsupported = nullptr,
    .run =
        [](const ConvCase &c, Direction direction) {
          return layout_converted_result(c, direction, c.config.data_layout, c.config.weight_layout);
        },
    .implementation = nullptr,
}};

} // namespace

Tensor held_layout_result(const ConvConfig &config, const HeldInputs &inputs, Direction direction) {
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
  return config.dtype == DType::float32 ? held_result_typed<float>(config, inputs, direction, shape)
                                        : held_result_typed<double>(config, inputs, direction, shape);
}

Tensor layout_converted_result(const ConvCase &conv_case, Direction direction, DataLayout data_layout,
                               WeightLayout weight_layout) {
  const Tensor held = held_layout_result(conv_case.config, hold(conv_case, direction, data_layout, weight_layout),
                                         direction);
  return direction == Direction::grad_weight ? from_weight_layout(held, weight_layout)
                                             : from_data_layout(held, data_layout);
}

} // namespace convcheck
