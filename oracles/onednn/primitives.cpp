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
  if (config.op == Op::deconv)
    deconv_forward_.emplace(forward<dnnl::deconvolution_forward>(dnnl::algorithm::deconvolution_direct));
  else
    forward_.emplace(forward<dnnl::convolution_forward>(algorithm_));
}

dnnl::primitive_desc CasePrimitives::of(Direction direction) const {
  using namespace dnnl;
  if (deconv_forward_) {
    constexpr auto direct = algorithm::deconvolution_direct;
    switch (direction) {
    case Direction::output: return *deconv_forward_;
    case Direction::grad_data: return backward<deconvolution_backward_data>(direct, *deconv_forward_);
    case Direction::grad_weight: return backward<deconvolution_backward_weights>(direct, *deconv_forward_);
    }
  } else {
    switch (direction) {
    case Direction::output: return *forward_;
    case Direction::grad_data: return backward<convolution_backward_data>(algorithm_, *forward_);
    case Direction::grad_weight: return backward<convolution_backward_weights>(algorithm_, *forward_);
    }
  }
  throw std::logic_error("unknown direction");
}

// Every conv and deconv primitive descriptor of v3 takes the same arguments in the same order: the three memory
// descriptors as data, weight, output (src or diff_src, weights or diff_weights, dst or diff_dst), the geometry, and
// a backward one the forward one as its hint.
template <class Primitive> typename Primitive::primitive_desc CasePrimitives::forward(dnnl::algorithm algorithm) const {
  const Geometry &g = geometry_;
  return {cpu_engine(), dnnl::prop_kind::forward_training, algorithm, descs_.data, descs_.weight, descs_.output,
          g.strides, g.dilates, g.padding_l, g.padding_r, strict_attr()};
}

template <class Primitive, class Hint>
typename Primitive::primitive_desc CasePrimitives::backward(dnnl::algorithm algorithm, const Hint &hint) const {
  const Geometry &g = geometry_;
  return {cpu_engine(), algorithm, descs_.data, descs_.weight, descs_.output, g.strides, g.dilates, g.padding_l,
          g.padding_r, hint, strict_attr()};
}

} // namespace convcheck::onednn_internal
