#include "core/problem/op.hpp"

#include <algorithm>
#include <utility>

#include "core/problem/mix64.hpp"

namespace convcheck {

namespace {

int64_t conv_out(const SpatialAxis &axis) { return axis.out(); }
int64_t deconv_out(const SpatialAxis &axis) { return axis.transposed_out(); }

Problem itself(const Problem &problem) { return problem; }
Problem drawn_itself(const Problem &problem, uint64_t) { return problem; }

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
       {Direction::output, Direction::grad_data, Direction::grad_weight}, itself, 3, drawn_itself},
      {Op::deconv, "deconv", direction_table(), deconv_out, true, true,
       {Role::grad_output, Role::weight, Role::grad_data, Role::data, Role::output, Role::grad_weight},
       {Direction::grad_data, Direction::output, Direction::grad_weight}, deconv_as_conv, 1, transposed},
  }};
  return table;
}

} // namespace

Problem transposed(const Problem &conv, uint64_t pick) {
  Problem deconv = conv;
  deconv.op = Op::deconv;
  std::swap(deconv.in_channels, deconv.out_channels);
  // The formats stay the drawn row of the precision table: src is the deconv's input, dst its output.
  for (int64_t a = conv.first_axis(); a < max_ndims; ++a, pick = mix64(pick)) {
    const SpatialAxis &from = conv.axes[static_cast<size_t>(a)];
    SpatialAxis &axis = deconv.axes[static_cast<size_t>(a)];
    axis.in = from.out();
    // (out - 1) * stride = in + pad_begin + pad_end - dilated kernel - remainder: output_padding = remainder gives
    // back the conv's input size exactly (docs/architecture.md, "Ops").
    axis.output_padding = (from.in + from.pad_begin + from.pad_end - from.dilated_kernel()) % from.stride;
    const int64_t allowed = std::max(from.stride, from.dilation);
    if (axis.output_padding == 0 && allowed > 1 && pick % 4 == 0)
      axis.output_padding = 1 + static_cast<int64_t>((pick / 4) % static_cast<uint64_t>(allowed - 1));
  }
  return deconv;
}

std::span<const OpInfo> op_table() { return ops(); }
const OpInfo &info(Op op) { return ops()[static_cast<size_t>(op)]; }

} // namespace convcheck
