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

CasePrimitives::CasePrimitives(const Problem &config, OnednnPath path, dnnl::algorithm algorithm, bool inference)
    : geometry_(geometry_of(config)), user_(user_descs(config, geometry_, path)),
      descs_(primitive_descs(user_, geometry_, path)), algorithm_(algorithm), inference_(inference) {
  const Geometry &g = geometry_;
  if (config.op == Op::deconv)
    deconv_forward_.emplace(dnnl::deconvolution_forward::desc(dnnl::prop_kind::forward_training,
                                                              dnnl::algorithm::deconvolution_direct, descs_.data,
                                                              descs_.weight, descs_.output, g.strides, g.dilates,
                                                              g.padding_l, g.padding_r),
                            strict_attr(), cpu_engine());
  else
    forward_.emplace(forward_desc(dnnl::prop_kind::forward_training), strict_attr(), cpu_engine());
}

dnnl::primitive_desc CasePrimitives::of(Direction direction) const {
  if (deconv_forward_) return deconv_of(direction);
  const Geometry &g = geometry_;
  switch (direction) {
  case Direction::output:
    if (inference_)
      return dnnl::convolution_forward::primitive_desc(forward_desc(dnnl::prop_kind::forward_inference),
                                                       strict_attr(), cpu_engine());
    return *forward_;
  case Direction::grad_data: {
    const dnnl::convolution_backward_data::desc desc(algorithm_, descs_.data,
                                                     descs_.weight, descs_.output, g.strides, g.dilates,
                                                     g.padding_l, g.padding_r);
    return dnnl::convolution_backward_data::primitive_desc(desc, strict_attr(), cpu_engine(), *forward_);
  }
  case Direction::grad_weight: {
    const dnnl::convolution_backward_weights::desc desc(algorithm_, descs_.data,
                                                        descs_.weight, descs_.output, g.strides, g.dilates,
                                                        g.padding_l, g.padding_r);
    return dnnl::convolution_backward_weights::primitive_desc(desc, strict_attr(), cpu_engine(), *forward_);
  }
  }
  throw std::logic_error("unknown direction");
}

dnnl::primitive_desc CasePrimitives::deconv_of(Direction direction) const {
  const Geometry &g = geometry_;
  constexpr auto direct = dnnl::algorithm::deconvolution_direct;
  switch (direction) {
  case Direction::output: return *deconv_forward_;
  case Direction::grad_data: {
    const dnnl::deconvolution_backward_data::desc desc(direct, descs_.data, descs_.weight, descs_.output, g.strides,
                                                       g.dilates, g.padding_l, g.padding_r);
    return dnnl::deconvolution_backward_data::primitive_desc(desc, strict_attr(), cpu_engine(), *deconv_forward_);
  }
  case Direction::grad_weight: {
    const dnnl::deconvolution_backward_weights::desc desc(direct, descs_.data, descs_.weight, descs_.output,
                                                          g.strides, g.dilates, g.padding_l, g.padding_r);
    return dnnl::deconvolution_backward_weights::primitive_desc(desc, strict_attr(), cpu_engine(),
                                                                *deconv_forward_);
  }
  }
  throw std::logic_error("unknown direction");
}

dnnl::convolution_forward::desc CasePrimitives::forward_desc(dnnl::prop_kind kind) const {
  return {kind, algorithm_, descs_.data, descs_.weight, descs_.output, geometry_.strides, geometry_.dilates,
          geometry_.padding_l, geometry_.padding_r};
}

} // namespace convcheck::onednn_internal
