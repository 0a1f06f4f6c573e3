#pragma once
// The primitive descriptors of the `onednn` strategy (oracles/onednn/onednn.cpp): one case's convolution or deconvolution
// primitives, forward, backward data and backward weights, created with the attributes every primitive of it gets.

#include <optional>
#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"
#include "oracles/onednn/onednn.hpp"
#include "oracles/onednn/descs.hpp"

namespace convcheck::onednn_internal {

/// The attributes every primitive of a case gets. fpmath strict: an environment variable (DNNL_DEFAULT_FPMATH_MODE)
/// could otherwise let oneDNN compute in bf16, which no float32 bound admits. user scratchpad: the primitive takes
/// its scratch memory from us at execution (ThreadScratch) instead of allocating its own, and primitives on
/// different threads never share one. The case's accumulation mode (oracles/onednn/accumulation_modes.hpp), set
/// when not "" ("" leaves oneDNN's default). Built once per mode.
const dnnl::primitive_attr &case_attr(const std::string &acc_mode);

/// The primitive descriptors of one case, conv or deconv (oneDNN's deconvolution primitives): the forward one, built
/// once and the hint of both backward ones. The memory descriptors are made once too (oneDNN spends a few thousand
/// instructions on each).
class CasePrimitives {
public:
  /// Throws dnnl::error when oneDNN refuses the forward problem. `acc_mode` is the accumulation mode every
  /// primitive is created with ("" none set).
  CasePrimitives(const Problem &config, OnednnPath path, dnnl::algorithm algorithm, const std::string &acc_mode = "");

  /// The primitive descriptor of `direction`; throws dnnl::error when oneDNN refuses the problem.
  dnnl::primitive_desc of(Direction direction) const;

  const Geometry &geometry() const { return geometry_; }
  /// How the user's buffers are laid out.
  const Descs &user() const { return user_; }

private:
  /// A forward primitive descriptor (forward_training: the hint of the backward ones), and a backward one.
  template <class Primitive> typename Primitive::primitive_desc forward(dnnl::algorithm algorithm) const;
  template <class Primitive, class Hint>
  typename Primitive::primitive_desc backward(dnnl::algorithm algorithm, const Hint &hint) const;

  Geometry geometry_;
  Descs user_, descs_;
  dnnl::algorithm algorithm_;
  const dnnl::primitive_attr *attr_;
  std::optional<dnnl::convolution_forward::primitive_desc> forward_;          // a conv's
  std::optional<dnnl::deconvolution_forward::primitive_desc> deconv_forward_; // a deconv's
};

} // namespace convcheck::onednn_internal
