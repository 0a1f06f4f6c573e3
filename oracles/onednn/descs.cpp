#include "oracles/onednn/descs.hpp"

#include <stdexcept>

namespace convcheck::onednn_internal {

Geometry geometry_of(const Problem &p) {
  Geometry g;
  g.grouped = p.groups > 1;
  g.data = {p.batch, p.in_channels};
  g.output = {p.batch, p.out_channels};
  g.weight = g.grouped ? memory::dims{p.groups, p.out_channels_per_group(), p.in_channels_per_group()}
                       : memory::dims{p.out_channels, p.in_channels};
  for (int64_t index = p.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(index)];
    g.data.push_back(axis.in);
    g.weight.push_back(axis.kernel);
    g.output.push_back(p.out_size(index));
    g.strides.push_back(axis.stride);
    g.dilates.push_back(axis.dilation - 1);
    g.padding_l.push_back(axis.pad_begin);
    g.padding_r.push_back(axis.pad_end);
  }
  return g;
}

Tag data_tag(DataLayout layout, int64_t ndims) {
  constexpr Tag channels_first[] = {Tag::ncw, Tag::nchw, Tag::ncdhw};
  constexpr Tag channels_last[] = {Tag::nwc, Tag::nhwc, Tag::ndhwc};
  return (layout == DataLayout::nxc ? channels_last : channels_first)[ndims - 1];
}

Tag weight_tag(Op op, WeightLayout layout, bool grouped, int64_t ndims) {
  struct ByRank {
    Tag plain[max_ndims], grouped[max_ndims];
  };
  // A deconv's canonical weight [C_in, C_out/G, k...] in oneDNN's dims {G, O, I, k...}: i before o.
  constexpr ByRank iox{{Tag::bac, Tag::iohw, Tag::iodhw}, {Tag::acbd, Tag::giohw, Tag::giodhw}};
  if (op == Op::deconv) return (grouped ? iox.grouped : iox.plain)[ndims - 1];
  constexpr ByRank oix{{Tag::oiw, Tag::oihw, Tag::oidhw}, {Tag::goiw, Tag::goihw, Tag::goidhw}};
  constexpr ByRank xio{{Tag::wio, Tag::hwio, Tag::dhwio}, {Tag::wigo, Tag::hwigo, Tag::dhwigo}};
  constexpr ByRank oxi{{Tag::owi, Tag::ohwi, Tag::odhwi}, {Tag::gowi, Tag::gohwi, Tag::godhwi}};
  const ByRank &tags = layout == WeightLayout::xio ? xio : layout == WeightLayout::oxi ? oxi : oix;
  return (grouped ? tags.grouped : tags.plain)[ndims - 1];
}

WeightLayout held_weight_layout(const Problem &config, OnednnPath path) {
  if (config.op == Op::deconv) return WeightLayout::oix; // the canonical IOHW per group (weight_tag)
  if (path != OnednnPath::plain) return config.weight_layout;
  return config.data_layout == DataLayout::nxc ? WeightLayout::xio : WeightLayout::oix;
}

memory::data_type onednn_type(DType dtype) {
  switch (dtype) {
  case DType::float32: return memory::data_type::f32;
  case DType::bfloat16: return memory::data_type::bf16;
  case DType::float16: return memory::data_type::f16;
  case DType::float64: break; // outside the Support row: oneDNN's CPU convolution has no f64
  }
  throw std::logic_error("onednn: no oneDNN data type for " + to_string(dtype));
}

Descs user_descs(const Problem &config, const Geometry &g, OnednnPath path) {
  const Precision &p = config.precision;
  const Tag data = data_tag(config.data_layout, config.ndims);
  return {{g.data, onednn_type(p.src), data},
          {g.weight, onednn_type(p.weight),
           weight_tag(config.op, held_weight_layout(config, path), g.grouped, config.ndims)},
          {g.output, onednn_type(p.dst), data}};
}

Descs primitive_descs(const Descs &user, const Geometry &g, OnednnPath path) {
  const auto any = [](const memory::desc &held, const memory::dims &dims) {
    return memory::desc(dims, held.get_data_type(), Tag::any);
  };
  switch (path) {
  case OnednnPath::plain: return user;
  case OnednnPath::any_weights: return {user.data, any(user.weight, g.weight), user.output};
  case OnednnPath::blocked: break;
  }
  return {any(user.data, g.data), any(user.weight, g.weight), any(user.output, g.output)};
}

} // namespace convcheck::onednn_internal
