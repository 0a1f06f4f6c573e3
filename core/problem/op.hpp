#pragma once
// An op as data. Each op is a row: its name, its directions, its output size formula, the channel order of its
// weight, and for each of its directions the conv direction it is computed as with the roles exchanged. So the
// reference, the bound, the term counts and every strategy that computes a conv compute every op: a deconv costs a
// role mapping, not a reference (benchdnn's ref_deconv: "Swap arguments to re-use existing conv ref
// implementation").
//
// How a deconv (conv_transpose) is held: as its own problem, the sizes a framework states (PyTorch's
// ConvTranspose, oneDNN's deconvolution descriptor, a case file): `in` is the deconv's input size, `in_channels`
// and `out_channels` are the deconv's C_in and C_out, and per axis an `output_padding` picks one of the output
// sizes the same input gives. Its equivalent conv (`equivalent_conv`) is the conv whose data gradient it is:
//
//   conv.in_channels = deconv.out_channels      conv.out_channels = deconv.in_channels
//   conv.in          = deconv.out = (in - 1) * stride - pad_begin - pad_end + dilation * (kernel - 1)
//                                    + output_padding + 1
//   conv.pad_end     = deconv.pad_end - output_padding   (the output padding's rows are read by no tap: a crop)
//   conv.precision   = deconv's with src and dst exchanged (the conv's data is the deconv's output)
//
// and the conv's output size is then the deconv's input size again: (in - 1) * stride exactly spans the taps. The
// weight is the same tensor: the conv's [K, C/G, kernel...] is the deconv's [C_in, C_out/G, kernel...] (IOHW per
// group). Per direction (benchdnn's deconv driver maps the same way):
//
//   deconv direction   computed as conv     roles exchanged
//   output             grad_data            data -> grad_output, output -> grad_data
//   grad_data          output               grad_output -> data, grad_data -> output
//   grad_weight        grad_weight          data <-> grad_output
//
// Holding the deconv's own sizes rather than the equivalent conv's keeps what a user and a framework state
// (output_padding is lost in the conv's sizes: it becomes a crop indistinguishable from a user's), keeps shrinking
// toward smaller deconvs, and keeps case files in the terms of the op under test.

#include <array>
#include <span>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

struct OpInfo {
  Op op;
  const char *name;                               ///< "deconv": case files, descriptors, reports
  std::span<const DirectionInfo> directions;      ///< its directions, in Direction order
  int64_t (*out_size)(const SpatialAxis &);       ///< an axis's output size
  bool weight_in_channels_first;                  ///< weight [C, K/G, kernel...] (deconv) or [K, C/G, kernel...]
  bool has_output_padding;                        ///< takes output_padding (0 <= it < max(stride, dilation))
  std::array<Role, role_count> conv_role;         ///< role r of the op is role conv_role[r] of the equivalent conv
  std::array<Direction, 3> conv_direction;        ///< direction d of the op is computed as conv_direction[d]
  Problem (*equivalent_conv)(const Problem &);    ///< the conv it is computed as (conv: itself)
  int fuzz_weight;                                ///< how often the default fuzz draws it, against the others' weights
  Problem (*from_conv)(const Problem &, uint64_t); ///< the op's problem made of a drawn conv (conv: itself), by a hash
};

/// Every op, in Op order.
std::span<const OpInfo> op_table();
const OpInfo &info(Op op);

/// The deconv that transposes the drawn conv `conv`: its input is the conv's output and its output the conv's input
/// (channels exchanged, the same kernel, stride, dilation and padding; output_padding the remainder the conv's
/// stride drops, so the conv's block seams become the deconv's output sizes), valid by construction. With `pick`,
/// an axis where that remainder is 0 takes another allowed output_padding (below max(stride, dilation)) one time in
/// four, so dilation-driven output padding comes up too.
Problem transposed(const Problem &conv, uint64_t pick);

/// The conv `problem` is computed as (itself for a conv).
inline Problem equivalent_conv(const Problem &problem) { return info(problem.op).equivalent_conv(problem); }
/// The conv direction `direction` of `op` is computed as.
inline Direction conv_direction(Op op, Direction direction) {
  return info(op).conv_direction[static_cast<size_t>(direction)];
}
/// The role of the equivalent conv that `role` of `op` plays.
inline Role conv_role(Op op, Role role) { return info(op).conv_role[static_cast<size_t>(role)]; }

/// A strategy's `unsupported(problem, direction)` for convs made to answer for every op: asked about the equivalent
/// conv and direction, which is what the strategy computes (core/numerics/case.hpp's any_op).
template <class Unsupported> auto any_op_unsupported(Unsupported unsupported) {
  return [unsupported](const Problem &problem, Direction direction) {
    if (problem.op == Op::conv) return unsupported(problem, direction);
    return unsupported(equivalent_conv(problem), conv_direction(problem.op, direction));
  };
}

} // namespace convcheck
