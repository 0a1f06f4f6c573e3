// Injected bug `winograd_dgrad_unflipped`: the data gradient as a Winograd correlation of grad_output with the
// kernel transposed per group but not flipped (a forward kernel reused for the backward pass without reversing
// its taps). Right for kernels symmetric along every axis, and for the forward pass, which it computes correctly.

#include <algorithm>

#include "core/run/strategy.hpp"
#include "oracles/loops/winograd_run.hpp"

namespace convcheck {

namespace {

RunResults run_case(const Case &c, const Asked &) {
  const Algorithm algorithm = winograd_tile_for(c);
  return winograd_results(c, algorithm, [&](Direction d) { // transforms only for a direction it takes
    const std::array<WinogradAxis, 3> axes = winograd_axes(c.problem, algorithm);
    if (d != Direction::grad_data) return winograd_result(c, d, axes);
    CorrelationInputs<float> inputs = correlation_inputs<float>(c, d, /*absolute=*/false);
    const int64_t taps = c.problem.kernel_volume();
    for (auto block = inputs.weight.begin(); block != inputs.weight.end(); block += taps) std::reverse(block, block + taps);
    Tensor result(DType::float32, result_shape(c.problem, d));
    winograd_correlate(inputs.shape, transform_set<float>(axes, false), inputs.input.data(), inputs.weight.data(),
                       result.data<float>());
    return result;
  });
}

const Registration registration{
    winograd_strategy("winograd_dgrad_unflipped",
                      "winograd whose data gradient correlates with the kernel unflipped",
                      /*injected=*/true, run_case)};

} // namespace

} // namespace convcheck
