// Injected bug `deconv_channels_last_ic1`: a deconv with one input channel whose weight is held channels-last reads
// that weight as if it were contiguous (pytorch/pytorch issue 99519: ConvTranspose2d(in_channels=1, out_channels=2)
// with a channels_last weight gave garbage; the conv counterpart, issue 82060, was wrong only when the input
// channels were 1). A [1, C_out, kernel...] weight is laid out the same whether its single input channel comes first
// or last, so a kernel that asks "is it channels-last?" of the strides can take the wrong path. Modelled here as
// that wrong path: the weight's channels-last bytes, element (o, s) at s * C_out + o, read as [C_out, kernel...]
// (element (o, s) at o * kernel_volume + s); the real bug read uninitialised memory, which no deterministic
// check can replay. Wrong in the directions that read the weight (output, grad_data) of a deconv with C_in = 1,
// G = 1, C_out > 1, a kernel of more than one tap and a channels-last weight layout (HWIO or OHWI).

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

bool takes_the_wrong_path(const Problem &p) {
  return p.in_channels == 1 && p.groups == 1 && p.weight_layout != WeightLayout::oix;
}

// The canonical [1, C_out, kernel...] weight as the wrong path reads it: its channels-last bytes taken as contiguous.
Tensor channels_last_read_as_contiguous(const Problem &p, const Tensor &weight) {
  Tensor wrong = weight.clone();
  const int64_t out_channels = p.out_channels, taps = p.kernel_volume();
  for (int64_t o = 0; o < out_channels; ++o)
    for (int64_t s = 0; s < taps; ++s) {
      // The wrong path reads (o, s) at offset o * taps + s, where channels-last holds (offset % C_out, offset / C_out).
      const int64_t offset = o * taps + s;
      wrong.set(offset, weight.get((offset % out_channels) * taps + offset / out_channels));
    }
  return wrong;
}

Tensor channels_last_ic1(const Case &c, Direction direction) {
  Case wrong = as_conv_case(c);
  if (takes_the_wrong_path(c.problem) && direction != Direction::grad_weight)
    wrong[Role::weight] = channels_last_read_as_contiguous(c.problem, c[Role::weight]);
  return naive_result(wrong.problem, wrong, conv_direction(c.problem.op, direction));
}

const Registration registration{{
    .name = "deconv_channels_last_ic1",
    .description = "naive deconv reading a channels-last weight as contiguous when C_in = 1 (PyTorch #99519)",
    .injected = true,
    .supports = {.ops = {Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = channels_last_ic1,
}};

} // namespace

} // namespace convcheck
