// Injected bug `fft_no_zero_pad`: FFT convolution with each axis transformed at the power of two over the input
// alone, leaving no room for the kernel, so the product of spectra is a circular convolution: the first and last
// outputs of an axis pick up taps wrapped from the other end. Right when the input's power of two happens to
// leave kernel - 1 spare positions (an input of 5 with a kernel of 3 in a transform of 8).

#include "core/run/strategy.hpp"
#include "oracles/loops/fft_engine.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "fft_no_zero_pad",
    .description = "fft convolution without zero padding (circular instead of linear)",
    .injected = true,
    .algorithm = {AlgorithmKind::fft, 0, {}},
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction d) { return fft_convolution(c, d, FftOptions{.no_zero_pad = true}); },
}};

} // namespace

} // namespace convcheck
