#include "oracles/onednn/primitives.hpp"

#include <stdexcept>

#include "core/problem/op.hpp"
#include "oracles/onednn/memory.hpp"

namespace convcheck::onednn_internal {

const dnnl::primitive_attr &strict_attr() {
  static const dnnl::primitive_attr attr = [] {
    dnnl::primitive_attr built;
    built.set_fpmath_mode(dnnl::fpmath_mode::strict);
    built.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return built;
  }();
  return attr;
}

CasePrimitives::CasePrimitives(const Problem &config, OnednnPath path, dnnl::algorithm algorithm)
    : geometry_(geometry_of(config)), user_(user_descs(config, geometry_, path)),
      descs_(primitive_descs(user_, geometry_, path)), algorithm_(algorithm) {
  if (config.op == Op::deconv) {
    const Geometry &g = geometry_;
    deconv_forward_.emplace(cpu_engine(), dnnl::prop_kind::forward_training, dnnl::algorithm::deconvolution_direct,
                            descs_.data, descs_.weight, descs_.output, g.strides, g.dilates, g.padding_l, g.padding_r,
                            strict_attr());
  } else {
    forward_.emplace(forward(dnnl::prop_kind::forward_training));
  }
}

dnnl::primitive_desc CasePrimitives::of(Direction direction) const {
  if (deconv_forward_) return deconv_of(direction);
  const Geometry &g = geometry_;
  switch (direction) {
  case Direction::output: return *forward_;
  case Direction::grad_data:
    return dnnl::convolution_backward_data::primitive_desc(cpu_engine(), algorithm_, descs_.data, descs_.weight,
                                                           descs_.output, g.strides, g.dilates, g.padding_l,
                                                           g.padding_r, *forward_, strict_attr());
  case Direction::grad_weight:
    return dnnl::convolution_backward_weights::primitive_desc(cpu_engine(), algorithm_, descs_.data, descs_.weight,
                                                              descs_.output, g.strides, g.dilates, g.padding_l,
                                                              g.padding_r, *forward_, strict_attr());
  }
  throw std::logic_error("unknown direction");
}

dnnl::primitive_desc CasePrimitives::deconv_of(Direction direction) const {
  const Geometry &g = geometry_;
  constexpr auto direct = dnnl::algorithm::deconvolution_direct;
  switch (direction) {
  case Direction::output: return *deconv_forward_;
  case Direction::grad_data:
    return dnnl::deconvolution_backward_data::primitive_desc(cpu_engine(), direct, descs_.data, descs_.weight,
                                                             descs_.output, g.strides, g.dilates, g.padding_l,
                                                             g.padding_r, *deconv_forward_, strict_attr());
  case Direction::grad_weight:
    return dnnl::deconvolution_backward_weights::primitive_desc(cpu_engine(), direct, descs_.data, descs_.weight,
                                                                descs_.output, g.strides, g.dilates, g.padding_l,
                                                                g.padding_r, *deconv_forward_, strict_attr());
  }
  throw std::logic_error("unknown direction");
}

dnnl::convolution_forward::primitive_desc CasePrimitives::forward(dnnl::prop_kind kind) const {
  const Geometry &g = geometry_;
  return {cpu_engine(), kind,         algorithm_,   descs_.data,  descs_.weight, descs_.output,
          g.strides,    g.dilates,    g.padding_l,  g.padding_r,  strict_attr()};
}

} // namespace convcheck::onednn_internal
