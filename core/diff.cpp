#include "core/diff.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace convcheck {

std::string format_index(const Shape &shape, int64_t flat_index) {
  std::vector<int64_t> coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = flat_index % shape[d];
    flat_index /= shape[d];
  }
  return fmt::format("[{}]", fmt::join(coords, ", "));
}

Diff compare(const Tensor &got, const Tensor &expected, const std::vector<double> &bound) {
  Diff diff;
  if (got.shape() != expected.shape()) {
    diff.problem = fmt::format("shape {} differs from expected {}", format_shape(got.shape()),
                               format_shape(expected.shape()));
    diff.mismatches = expected.size();
    return diff;
  }
  int64_t zeros = 0;
  for (int64_t i = 0; i < expected.size(); ++i) {
    const double want = expected.get(i), have = got.get(i), allowed = bound[static_cast<size_t>(i)];
    zeros += want == 0.0;
    const double error = std::abs(have - want);
    const bool finite_mismatch = std::isfinite(want) && !std::isfinite(have);
    const double ratio = finite_mismatch ? std::numeric_limits<double>::infinity()
                         : error == 0    ? 0.0
                         : allowed > 0   ? error / allowed
                                         : std::numeric_limits<double>::infinity();
    if (std::isfinite(error)) diff.max_error = std::max(diff.max_error, error);
    if (finite_mismatch || ratio > 1.0 || std::isnan(ratio)) {
      if (diff.mismatches++ == 0) {
        diff.first_mismatch = i;
        diff.problem = finite_mismatch
                           ? fmt::format("got {} at {} where the reference is {}", have,
                                         format_index(expected.shape(), i), want)
                           : fmt::format("error {:.3g} exceeds bound {:.3g} at {}: expected {}, got {}", error, allowed,
                                         format_index(expected.shape(), i), want, have);
      }
    }
    if (ratio > diff.max_ratio || (i == 0 && !std::isnan(ratio))) {
      diff.max_ratio = ratio;
      diff.bound_at_max_ratio = allowed;
    }
  }
  diff.zero_fraction = expected.size() ? static_cast<double>(zeros) / static_cast<double>(expected.size()) : 0.0;
  diff.ok = diff.mismatches == 0;
  if (!diff.ok && diff.mismatches > 1) diff.problem += fmt::format(" ({} elements out of bound)", diff.mismatches);
  return diff;
}

} // namespace convcheck
