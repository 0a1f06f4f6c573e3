// `fft`: convolution by the FFT in complex float32 (oracles/loops/fft_engine.hpp), all three directions, every stride,
// dilation, padding and crop, as a correct reference point of the fft class: each axis zero-padded to the power of
// two at or over input + dilated kernel - 1, so the product of spectra is the linear (not circular) correlation;
// strides by placing the outputs at o*stride - pad_begin. Judged under the normwise FFT bound per output signal
// (core/numerics/algorithm_bound.hpp).

#include "core/run/strategy.hpp"
#include "oracles/loops/fft_engine.hpp"

namespace convcheck {

namespace {

constexpr int64_t largest_spectra = int64_t{1} << 24; // complex values held at once: 128 MiB

std::string unsupported(const Problem &p, Direction) {
  const Lengths lengths = fft_lengths(p);
  const int64_t area = lengths[0] * lengths[1] * lengths[2];
  const int64_t signals = p.batch * (p.in_channels + p.out_channels) + p.out_channels * p.in_channels_per_group();
  if (area * signals > largest_spectra) return "fft spectra over 2^24 complex values";
  return "";
}

const Registration registration{{
    .name = "fft",
    .description = "FFT convolution in complex float32, zero-padded to a power of two, all three directions; judged "
                   "under the normwise FFT bound per signal",
    .in_default_set = false,
    .algorithm = {AlgorithmKind::fft, 0, {}},
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = unsupported,
    .run = [](const Case &c, Direction direction) { return fft_convolution(c, direction); },
}};

} // namespace

} // namespace convcheck
