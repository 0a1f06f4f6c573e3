// `winograd`: Winograd minimal filtering F(m, r) per spatial axis (Lavin and Gray's points), float32, output and
// grad_data, as a correct reference point of the winograd class: F(2,3), F(4,3) or F(6,3) per case (a hash of
// seed and case index), each axis of kernel 2 or 3 transformed, axes of kernel 1 left as they are. Tiles start at
// output 0; a last partial tile is computed whole and cut. The engine and the transforms: core/numerics/winograd.hpp.
// Each result declares its F(m, r), and is judged under the Winograd bound (core/numerics/algorithm_bound.hpp).

#include "core/run/strategy.hpp"
#include "oracles/loops/winograd_run.hpp"

namespace convcheck {

namespace {

RunResults run_case(const Case &c, const Asked &) {
  const Algorithm algorithm = winograd_tile_for(c);
  // The transforms are built only for a direction the strategy takes: a kernel it refuses (12, say) would overflow
  // their exact rationals.
  return winograd_results(c, algorithm,
                          [&](Direction d) { return winograd_result(c, d, winograd_axes(c.problem, algorithm)); });
}

const Registration registration{
    winograd_strategy("winograd",
                      "Winograd F(2,3), F(4,3) or F(6,3) per axis (Lavin and Gray's points), float32, output "
                      "and grad_data; kernels up to 3, stride 1, dilation 1; judged under the Winograd bound",
                      /*injected=*/false, run_case)};

} // namespace

} // namespace convcheck
