#include "core/problem/op.hpp"

#include <utility>

namespace convcheck {

namespace {

int64_t conv_out(const SpatialAxis &axis) { return axis.out(); }
int64_t deconv_out(const SpatialAxis &axis) { return axis.transposed_out(); }

Problem itself(const Problem &problem) { return problem; }

// core/problem/op.hpp derives it.
Problem deconv_as_conv(const Problem &deconv) {
  Problem conv = deconv;
  conv.op = Op::conv;
  std::swap(conv.in_channels, conv.out_channels);
  std::swap(conv.precision.src, conv.precision.dst);
  for (SpatialAxis &axis : conv.axes) {
    axis.in = axis.transposed_out();
    axis.pad_end -= axis.output_padding;
    axis.output_padding = 0;
  }
  return conv;
}

const std::array<OpInfo, 2> &ops() {
  static const std::array<OpInfo, 2> table{{
      {Op::conv, "conv", direction_table(), conv_out, false, false,
       {Role::data, Role::weight, Role::output, Role::grad_output, Role::grad_data, Role::grad_weight},
       {Direction::output, Direction::grad_data, Direction::grad_weight}, itself},
      {Op::deconv, "deconv", direction_table(), deconv_out, true, true,
       {Role::grad_output, Role::weight, Role::grad_data, Role::data, Role::output, Role::grad_weight},
       {Direction::grad_data, Direction::output, Direction::grad_weight}, deconv_as_conv},
  }};
  return table;
}

} // namespace

std::span<const OpInfo> op_table() { return ops(); }
const OpInfo &info(Op op) { return ops()[static_cast<size_t>(op)]; }

} // namespace convcheck
