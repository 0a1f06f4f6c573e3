// compare_signals (core/numerics/diff.hpp): a normwise verdict per run of consecutive elements.

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/numerics/diff.hpp"

namespace convcheck {

Diff compare_signals(const Tensor &got, const Tensor &expected, int64_t signal_size,
                     const std::vector<double> &signal_bound) {
  Diff diff;
  if (shapes_differ(got, expected, diff)) return diff;
  int64_t zeros = 0;
  bool first_max = true;
  for (size_t s = 0; s < signal_bound.size(); ++s) {
    const int64_t first = static_cast<int64_t>(s) * signal_size;
    double squares = 0, worst = -1;
    int64_t worst_at = first;
    bool non_finite = false;
    for (int64_t i = first; i < first + signal_size; ++i) {
      const double want = expected.get(i), have = got.get(i), error = std::abs(have - want);
      zeros += want == 0.0;
      non_finite = non_finite || (std::isfinite(want) && !std::isfinite(have));
      squares += error * error;
      if (!(error <= worst)) worst = error, worst_at = i; // NaN errors win
      if (std::isfinite(error)) diff.max_error = std::max(diff.max_error, error);
    }
    const double norm = std::sqrt(squares), allowed = signal_bound[s];
    const double ratio = non_finite ? std::numeric_limits<double>::infinity()
                         : norm == 0 ? 0.0
                         : allowed > 0 ? norm / allowed
                                       : std::numeric_limits<double>::infinity();
    if (ratio > diff.max_ratio || first_max)
      diff.max_ratio = ratio, diff.bound_at_max_ratio = allowed, diff.error_at_max_ratio = norm;
    first_max = false;
    if (!(ratio <= 1.0) && diff.mismatches++ == 0) {
      diff.first_mismatch = worst_at;
      const std::string where = format_index(expected.shape(), first);
      diff.problem = non_finite ? fmt::format("got {} at {} where the reference is {}", got.get(worst_at),
                                              format_index(expected.shape(), worst_at), expected.get(worst_at))
                                : fmt::format("error norm {:.3g} of the signal from {} exceeds its bound {:.3g} "
                                              "(largest at {}: expected {}, got {})",
                                              norm, where, allowed, format_index(expected.shape(), worst_at),
                                              expected.get(worst_at), got.get(worst_at));
    }
  }
  diff.zero_fraction = expected.size() ? static_cast<double>(zeros) / static_cast<double>(expected.size()) : 0.0;
  diff.ok = diff.mismatches == 0;
  if (diff.mismatches > 1) diff.problem += fmt::format(" ({} signals out of bound)", diff.mismatches);
  return diff;
}

} // namespace convcheck
