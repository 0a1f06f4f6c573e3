#include "oracles/loops/winograd_run.hpp"

#include <fmt/format.h>

#include "core/numerics/fill.hpp"

namespace convcheck {

Algorithm winograd_tile_for(const Case &c) {
  const uint64_t pick = mix64(mix64(c.seed ^ 0x77696e6f67726164ULL) ^ c.case_index) % 3;
  return {AlgorithmKind::winograd, 2 + 2 * static_cast<int64_t>(pick), {}};
}

std::string winograd_strategy_refusal(const Problem &problem, Direction direction) {
  if (std::string refused = winograd_refusal(problem, direction); !refused.empty()) return refused;
  for (const SpatialAxis &axis : problem.axes)
    if (axis.kernel > 3) return fmt::format("winograd F(m,r) here takes kernels up to 3 (kernel {})", axis.kernel);
  return "";
}

Tensor winograd_result(const Case &c, Direction direction, const std::array<WinogradAxis, 3> &axes,
                       const WinogradOptions &options) {
  const CorrelationInputs<float> inputs = correlation_inputs<float>(c, direction, /*absolute=*/false);
  Tensor result(DType::float32, result_shape(c.problem, direction));
  winograd_correlate(inputs.shape, transform_set<float>(axes, /*absolute=*/false), inputs.input.data(),
                     inputs.weight.data(), result.data<float>(), options);
  return result;
}

Strategy winograd_strategy(std::string name, std::string description, bool injected,
                           std::function<RunResults(const Case &, const Asked &)> run_case) {
  return {.name = std::move(name),
          .description = std::move(description),
          .injected = injected,
          .in_default_set = false,
          .algorithm = {AlgorithmKind::winograd, 2, {}},
          .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                       .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
          .unsupported = winograd_strategy_refusal,
          .run_case = std::move(run_case)};
}

RunResults winograd_results(const Case &c, const Algorithm &algorithm, const std::function<Tensor(Direction)> &run) {
  RunResults runs;
  for (const DirectionInfo &each : directions(c.problem.op)) {
    RunResult &result = runs[each.direction];
    if (std::string refused = winograd_strategy_refusal(c.problem, each.direction); !refused.empty()) {
      result.skipped = refused;
      continue;
    }
    result.result = run(each.direction);
    result.algorithm = algorithm;
  }
  return runs;
}

} // namespace convcheck
