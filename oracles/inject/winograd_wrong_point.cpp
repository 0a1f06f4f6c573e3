// Injected bug `winograd_wrong_point`: the kernel transform G built with one interpolation point off by one (the
// last finite point's row evaluates the kernel at p + 1 while its scaling and the other transforms keep p), as when
// one hand-copied row of a Winograd table is wrong. Every output of a tile mixes that row, so results are wrong
// wherever the kernel has a transformed axis.

#include "core/run/strategy.hpp"
#include "oracles/loops/winograd_run.hpp"

namespace convcheck {

namespace {

void break_last_row(WinogradAxis &axis) {
  if (axis.alpha == 1) return;
  const std::vector<Point> points = lavin_gray_points(axis.alpha - 1);
  const double right = static_cast<double>(points.back().numerator) / static_cast<double>(points.back().denominator);
  const double wrong = right + 1;
  // Row alpha-2 of G is [1, p, p^2, ...] / f: scale each entry by (wrong/right)^t, or rebuild from f when p = 0.
  const size_t row = static_cast<size_t>(axis.alpha - 2) * static_cast<size_t>(axis.r);
  const double f = 1 / axis.g[row]; // entry t = 0 is 1/f
  double power = 1;
  for (size_t t = 0; t < static_cast<size_t>(axis.r); ++t, power *= wrong) axis.g[row + t] = power / f;
}

RunResults run_case(const Case &c, const Asked &) {
  const Algorithm algorithm = winograd_tile_for(c);
  return winograd_results(c, algorithm, [&](Direction d) { // transforms only for a direction it takes
    std::array<WinogradAxis, 3> axes = winograd_axes(c.problem, algorithm);
    for (WinogradAxis &axis : axes) break_last_row(axis);
    return winograd_result(c, d, axes);
  });
}

const Registration registration{
    winograd_strategy("winograd_wrong_point",
                      "winograd whose kernel transform has one row evaluated at a wrong interpolation point",
                      /*injected=*/true, run_case)};

} // namespace

} // namespace convcheck
