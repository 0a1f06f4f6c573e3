// Injected bug `winograd_tile_edge`: the tile count rounded down (out / m instead of ceil(out / m)), so the last
// partial output tile of each axis is never computed and its outputs stay zero; right whenever every transformed
// axis's output is a multiple of the tile, as in the benchmark shapes such a kernel is tuned on.

#include "core/run/strategy.hpp"
#include "oracles/loops/winograd_run.hpp"

namespace convcheck {

namespace {

RunResults run_case(const Case &c, const Asked &) {
  const Algorithm algorithm = winograd_tile_for(c);
  return winograd_results(c, algorithm, [&](Direction d) { // transforms only for a direction it takes
    return winograd_result(c, d, winograd_axes(c.problem, algorithm), WinogradOptions{.drop_last_partial_tile = true});
  });
}

const Registration registration{
    winograd_strategy("winograd_tile_edge",
                      "winograd that drops the last partial output tile of each axis",
                      /*injected=*/true, run_case)};

} // namespace

} // namespace convcheck
