#include "oracles/onednn/primitives.hpp"

#include <map>
#include <mutex>
#include <stdexcept>

#include "core/problem/op.hpp"
#include "oracles/onednn/memory.hpp"

namespace convcheck::onednn_internal {

namespace {

dnnl::accumulation_mode accumulation_mode_named(const std::string &mode) {
  using dnnl::accumulation_mode;
  if (mode == "strict") return accumulation_mode::strict;
  if (mode == "relaxed") return accumulation_mode::relaxed;
  if (mode == "any") return accumulation_mode::any;
  if (mode == "f32") return accumulation_mode::f32;
  if (mode == "s32") return accumulation_mode::s32;
  if (mode == "f16") return accumulation_mode::f16;
  throw std::invalid_argument("unknown accumulation mode '" + mode + "'"); // the setting's values are checked on entry
}

} // namespace

const dnnl::primitive_attr &case_attr(const std::string &acc_mode) {
  static std::mutex mutex;
  static std::map<std::string, dnnl::primitive_attr> built;
  const std::lock_guard lock(mutex);
  auto found = built.find(acc_mode);
  if (found == built.end()) {
    dnnl::primitive_attr attr;
    attr.set_fpmath_mode(dnnl::fpmath_mode::strict);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (!acc_mode.empty()) attr.set_accumulation_mode(accumulation_mode_named(acc_mode));
    found = built.emplace(acc_mode, std::move(attr)).first;
  }
  return found->second; // std::map: the reference stays valid as other modes are added
}

CasePrimitives::CasePrimitives(const Problem &config, OnednnPath path, dnnl::algorithm algorithm,
                               const std::string &acc_mode)
    : geometry_(geometry_of(config)), user_(user_descs(config, geometry_, path)),
      descs_(primitive_descs(user_, geometry_, path)), algorithm_(algorithm), attr_(&case_attr(acc_mode)) {
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
          g.strides, g.dilates, g.padding_l, g.padding_r, *attr_};
}

template <class Primitive, class Hint>
typename Primitive::primitive_desc CasePrimitives::backward(dnnl::algorithm algorithm, const Hint &hint) const {
  const Geometry &g = geometry_;
  return {cpu_engine(), algorithm, descs_.data, descs_.weight, descs_.output, g.strides, g.dilates, g.padding_l,
          g.padding_r, hint, *attr_};
}

} // namespace convcheck::onednn_internal
