#pragma once
// What the `winograd` strategy and its injected variants share: which F(m, r) a case gets, which problems the
// transforms take, and one direction run in float32 with a given set of transforms.

#include <array>
#include <string>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/winograd.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

/// F(2,3), F(4,3) or F(6,3) (m = 2, 4, 6), picked by a hash of (seed, case index) so a campaign meets all three.
Algorithm winograd_tile_for(const Case &conv_case);

/// Why the winograd strategies skip `direction` of `problem` ("" when they run it): the transforms' own refusal
/// (core/numerics/winograd.hpp), or a kernel over 3 on an axis.
std::string winograd_strategy_refusal(const Problem &problem, Direction direction);

/// `direction` by the Winograd engine in float32 with the signed transforms of `axes`.
Tensor winograd_result(const Case &conv_case, Direction direction, const std::array<WinogradAxis, 3> &axes,
                       const WinogradOptions &options = {});

/// The row of a winograd strategy (float32, 1-D to 3-D, crops, output and grad_data where the transforms take the
/// problem), computing every direction with `run_case`.
Strategy winograd_strategy(std::string name, std::string description, bool injected,
                           std::function<RunResults(const Case &, const Asked &)> run_case);

/// Every direction of the case by `run` (output and grad_data; grad_weight skipped with the reason), each
/// declaring `algorithm`.
RunResults winograd_results(const Case &conv_case, const Algorithm &algorithm,
                            const std::function<Tensor(Direction)> &run);

} // namespace convcheck
