#include "core/numerics/diff.hpp"

#include <algorithm>
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

namespace {

// Rounding slack for the cheap pre-test below: a ratio error/allowed can exceed max_ratio only if
// error >= max_ratio * allowed * (1 - slack); the products are within a few ulps, far inside 2^-40.
constexpr double ratio_slack = 0x1.0p-40;

// One pass over the elements. The division error/allowed is done only for the few elements that could fail or
// set a new maximum ratio; the others are settled by a multiplication. (An infinite or NaN error never passes the
// pre-test: nothing is below it, and NaN compares false.)
template <class G, class E>
void scan(const G *got_values, const E *want_values, const Tensor &expected, const std::vector<double> &bound,
          Diff &diff) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const double *allowed_values = bound.data();
  // Locals, not diff's members: stores through `diff` could alias the arrays and pin every update to memory.
  int64_t zeros = 0, mismatches = 0;
  double max_error = 0, max_ratio = 0, bound_at_max_ratio = 0, error_at_max_ratio = 0;
  for (int64_t i = 0, count = expected.size(); i < count; ++i) {
    const double want = static_cast<double>(want_values[i]), have = static_cast<double>(got_values[i]);
    const double allowed = allowed_values[i], error = std::abs(have - want);
    zeros += want == 0.0;
    if (error <= allowed && error < max_ratio * allowed * (1 - ratio_slack) && i != 0) {
      max_error = std::max(max_error, error);
      continue; // ratio <= 1 and below max_ratio: neither a failure nor a new maximum
    }
    if (std::isfinite(error)) max_error = std::max(max_error, error);
    const bool finite_mismatch = std::isfinite(want) && !std::isfinite(have);
    const double ratio = finite_mismatch ? infinity : error == 0 ? 0.0 : allowed > 0 ? error / allowed : infinity;
    if ((finite_mismatch || ratio > 1.0 || std::isnan(ratio)) && mismatches++ == 0) {
      diff.first_mismatch = i;
      diff.problem = finite_mismatch ? fmt::format("got {} at {} where the reference is {}", have,
                                                   format_index(expected.shape(), i), want)
                                     : fmt::format("error {:.3g} exceeds bound {:.3g} at {}: expected {}, got {}",
                                                   error, allowed, format_index(expected.shape(), i), want, have);
    }
    if (ratio > max_ratio || (i == 0 && !std::isnan(ratio))) {
      max_ratio = ratio;
      bound_at_max_ratio = allowed;
      error_at_max_ratio = error;
    }
  }
  diff.mismatches = mismatches;
  diff.max_error = max_error;
  diff.max_ratio = max_ratio;
  diff.bound_at_max_ratio = bound_at_max_ratio;
  diff.error_at_max_ratio = error_at_max_ratio;
  diff.zero_fraction = expected.size() ? static_cast<double>(zeros) / static_cast<double>(expected.size()) : 0.0;
}

// The common case, every element plainly within its bound, in one vectorized pass (the statistics as reductions,
// no branch per element) and a short search for the first element with the largest ratio. Returns false, leaving
// `diff` alone, when some element is not plainly within its bound (a failure, a NaN, an infinity); `scan` then
// goes element by element. The statistics are `scan`'s: with 0 <= error <= allowed < inf, error/allowed is the
// ratio, except 0/0 = NaN where `scan` has 0, which the max skips as it would skip 0 (max_ratio starts at 0).
// The pass runs in blocks, remembering the first block that raised the maximum, so the search reads one block.
// The loop body is written so that GCC vectorizes it at -O2 (all-double counters, one-level selects).
template <class G, class E>
bool scan_within_bound(const G *got_values, const E *want_values, const Tensor &expected,
                       const std::vector<double> &bound, Diff &diff) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  constexpr int64_t block = 256;
  const double *allowed_values = bound.data();
  const int64_t count = expected.size();
  double zeros = 0, outside = 0, max_error = 0, max_ratio = 0;
  int64_t max_block = 0;
  for (int64_t begin = 0; begin < count; begin += block) {
    const int64_t end = std::min(count, begin + block);
    double block_ratio = 0;
#pragma omp simd reduction(+ : zeros, outside) reduction(max : max_error, block_ratio)
    for (int64_t i = begin; i < end; ++i) {
      const double want = static_cast<double>(want_values[i]), allowed = allowed_values[i];
      const double error = std::abs(static_cast<double>(got_values[i]) - want);
      zeros += want == 0.0 ? 1.0 : 0.0;
      outside += error <= allowed ? 0.0 : 1.0;
      outside += allowed < infinity ? 0.0 : 1.0;
      max_error = error > max_error ? error : max_error;
      const double ratio = error / allowed;
      block_ratio = ratio > block_ratio ? ratio : block_ratio;
    }
    if (block_ratio > max_ratio) {
      max_ratio = block_ratio;
      max_block = begin;
    }
  }
  if (outside > 0) return false;
  int64_t first_max = max_block;
  for (int64_t i = max_block; i < std::min(count, max_block + block); ++i) {
    const double error = std::abs(static_cast<double>(got_values[i]) - static_cast<double>(want_values[i]));
    if ((error == 0 ? 0.0 : error / allowed_values[i]) == max_ratio) {
      first_max = i;
      break;
    }
  }
  diff.max_error = max_error;
  diff.max_ratio = max_ratio;
  diff.bound_at_max_ratio = count > 0 ? allowed_values[first_max] : 0.0;
  diff.error_at_max_ratio =
      count > 0 ? std::abs(static_cast<double>(got_values[first_max]) - static_cast<double>(want_values[first_max])) : 0.0;
  diff.zero_fraction = count > 0 ? zeros / static_cast<double>(count) : 0.0;
  return true;
}

} // namespace

bool shapes_differ(const Tensor &got, const Tensor &expected, Diff &diff) {
  if (got.shape() == expected.shape()) return false;
  diff.problem = fmt::format("shape {} differs from expected {}", format_shape(got.shape()),
                             format_shape(expected.shape()));
  diff.mismatches = expected.size();
  return true;
}

Diff compare(const Tensor &got, const Tensor &expected, const std::vector<double> &bound) {
  Diff diff;
  if (shapes_differ(got, expected, diff)) return diff;
  // Any stored format against any: both widen exactly to double (bfloat16 and float16 through float).
  visit_typed(expected, [&](const auto *want) {
    visit_typed(got, [&](const auto *values) {
      if (!scan_within_bound(values, want, expected, bound, diff)) scan(values, want, expected, bound, diff);
    });
  });
  diff.ok = diff.mismatches == 0;
  if (!diff.ok && diff.mismatches > 1) diff.problem += fmt::format(" ({} elements out of bound)", diff.mismatches);
  return diff;
}

} // namespace convcheck
