// compare() skips the division error/bound for elements that cannot matter; it must report exactly what the
// obvious per-element loop reports.

#include "core/numerics/diff.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace convcheck {
namespace {

// The straightforward definition of every Diff statistic, one division per element.
Diff obvious_compare(const Tensor &got, const Tensor &expected, const std::vector<double> &bound) {
  Diff diff;
  int64_t zeros = 0;
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < expected.size(); ++i) {
    const double want = expected.get(i), have = got.get(i), allowed = bound[static_cast<size_t>(i)];
    zeros += want == 0.0;
    const double error = std::abs(have - want);
    const bool finite_mismatch = std::isfinite(want) && !std::isfinite(have);
    const double ratio = finite_mismatch ? inf : error == 0 ? 0.0 : allowed > 0 ? error / allowed : inf;
    if (std::isfinite(error)) diff.max_error = std::max(diff.max_error, error);
    if ((finite_mismatch || ratio > 1.0 || std::isnan(ratio)) && diff.mismatches++ == 0) diff.first_mismatch = i;
    if (ratio > diff.max_ratio || (i == 0 && !std::isnan(ratio))) {
      diff.max_ratio = ratio;
      diff.bound_at_max_ratio = allowed;
      diff.error_at_max_ratio = error;
    }
  }
  diff.zero_fraction = static_cast<double>(zeros) / static_cast<double>(expected.size());
  diff.ok = diff.mismatches == 0;
  return diff;
}

// Values that make every branch happen: exact matches, zeros, near-ties of the ratio, errors just over the
// bound, zero bounds, NaN and infinities.
double tricky_value(double base) {
  const double inf = std::numeric_limits<double>::infinity();
  return *rc::gen::weightedElement<double>({{8, base},
                                            {4, base * (1 + 0x1.0p-50)},
                                            {4, base + 1e-3},
                                            {2, 0.0},
                                            {1, std::nan("")},
                                            {1, inf},
                                            {1, -inf}});
}

RC_GTEST_PROP(Diff, SkippingDivisionsChangesNothing, ()) {
  const auto count = *rc::gen::inRange<int64_t>(1, 40);
  Tensor expected(DType::float64, {count}), got(*rc::gen::element(DType::float32, DType::float64), {count});
  std::vector<double> bound(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const double want = *rc::gen::element(0.0, 1.0, -2.5, 1e-30, 3e8);
    expected.data<double>()[i] = want;
    const double have = tricky_value(want);
    if (got.dtype() == DType::float32) got.data<float>()[i] = static_cast<float>(have);
    else got.data<double>()[i] = have;
    bound[static_cast<size_t>(i)] =
        *rc::gen::element(0.0, 1e-3, 1e-3 * (1 + 0x1.0p-52), 2e-3, 1e-12, std::numeric_limits<double>::infinity());
  }
  const Diff fast = compare(got, expected, bound), slow = obvious_compare(got, expected, bound);
  RC_ASSERT(fast.ok == slow.ok);
  RC_ASSERT(fast.mismatches == slow.mismatches);
  RC_ASSERT(fast.first_mismatch == slow.first_mismatch);
  RC_ASSERT(fast.max_error == slow.max_error);
  RC_ASSERT(fast.max_ratio == slow.max_ratio);
  RC_ASSERT(fast.bound_at_max_ratio == slow.bound_at_max_ratio);
  RC_ASSERT(fast.error_at_max_ratio == slow.error_at_max_ratio || (std::isnan(fast.error_at_max_ratio) &&
                                                                   std::isnan(slow.error_at_max_ratio)));
  RC_ASSERT(fast.zero_fraction == slow.zero_fraction);
}

// Results within their bounds take compare()'s vectorized path; it must agree with the obvious loop too, across
// its blocks of 256 elements (the first element with the largest ratio, when several share it).
RC_GTEST_PROP(Diff, ResultsWithinTheBoundGetTheSameStatistics, ()) {
  const auto count = *rc::gen::inRange<int64_t>(1, 700);
  Tensor expected(DType::float64, {count}), got(*rc::gen::element(DType::float32, DType::float64), {count});
  std::vector<double> bound(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const double want = *rc::gen::element(0.0, 1.0, -2.5, 1e-30, 3e8);
    expected.data<double>()[i] = want;
    const double offset = *rc::gen::element(0.0, 1e-4, 5e-4, 2.5e-4);
    if (got.dtype() == DType::float32) got.data<float>()[i] = static_cast<float>(want + offset);
    else got.data<double>()[i] = want + offset;
    const double error = std::abs(got.get(i) - want);
    bound[static_cast<size_t>(i)] = error + *rc::gen::element(0.0, 1e-3, 1e-4);
  }
  const Diff fast = compare(got, expected, bound), slow = obvious_compare(got, expected, bound);
  RC_ASSERT(fast.ok);
  RC_ASSERT(slow.ok);
  RC_ASSERT(fast.max_error == slow.max_error);
  RC_ASSERT(fast.max_ratio == slow.max_ratio);
  RC_ASSERT(fast.bound_at_max_ratio == slow.bound_at_max_ratio);
  RC_ASSERT(fast.error_at_max_ratio == slow.error_at_max_ratio);
  RC_ASSERT(fast.error_at_max_ratio <= fast.bound_at_max_ratio); // what repro shows of a pass: error within bound
  RC_ASSERT(fast.zero_fraction == slow.zero_fraction);
}

} // namespace
} // namespace convcheck
